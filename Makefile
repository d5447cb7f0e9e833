# The image catalogue service: build, test, run. See README.md.
# Every target installs what is missing first (tools/install-deps), so a fresh Debian machine needs only make.

CXX      ?= g++
# Optimisation and instrumentation only (make asan sets its own); the flags every build needs are
# added below, so a command-line OPTFLAGS cannot drop them as a command-line CXXFLAGS would.
OPTFLAGS ?= -O2 -g
CXXFLAGS := $(OPTFLAGS) -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Icommon/include -I/usr/include/postgresql -MMD -MP
# Headers outside common are included by their path from the top: "ingest/reports.hpp".
CXXFLAGS += -I.
# valijson (JSON Schema validation, header-only): tools/install-deps extracts its Debian package here.
VALIJSON := .deps/valijson/usr/include
CXXFLAGS += -isystem $(VALIJSON)
LDLIBS   := -lfcgi -lpq -lhiredis -lssl -lcrypto -lz
BUILD    := build
BIN      := $(BUILD)/bin
OBJ      := $(BUILD)/obj
JOBS     ?= 2
# tests/run-tests and tools/stack use the binaries of this build tree.
export ICAT_BUILD_DIR := $(abspath $(BUILD))

GROUPS       := $(notdir $(wildcard handlers/*))
HANDLER_BINS := $(GROUPS:%=$(BIN)/icat-%)
COMMON_OBJS  := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard common/src/*.cpp))
# Handler code outside main.cpp is pure enough for unit tests to link it.
HANDLER_LIB_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(filter-out %/main.cpp,$(wildcard handlers/*/*.cpp)))
# The document model and ingest (ingest/): the SBOM, VEX and report readers, the served VEX documents,
# the blob store, signing and attestations; icatctl's commands run them, unit tests and fuzzers test them.
INGEST_OBJS  := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard ingest/*.cpp)) $(OBJ)/gen/schemas.o
ICATCTL_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tools/icatctl/*.cpp)) $(OBJ)/gen/migrations.o
# icatctl's code outside main.cpp is unit-tested too.
ICATCTL_LIB_OBJS := $(filter-out $(OBJ)/tools/icatctl/main.o,$(ICATCTL_OBJS))
# icat, the tenants' client (tools/icat); its code outside main.cpp is unit-tested too.
CLIENT_OBJS  := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tools/icat/*.cpp))
CLIENT_LIB_OBJS := $(filter-out $(OBJ)/tools/icat/main.o,$(CLIENT_OBJS))
# icat-gen (tools/generate); its code outside main.cpp is unit-tested too.
GEN_OBJS     := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tools/generate/*.cpp))
GEN_LIB_OBJS := $(filter-out $(OBJ)/tools/generate/main.o,$(GEN_OBJS))
DISPATCHER_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard services/dispatcher/*.cpp))
DISPATCHER_LIB_OBJS := $(filter-out $(OBJ)/services/dispatcher/main.o,$(DISPATCHER_OBJS))
UNIT_OBJS    := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tests/unit/*.cpp ingest/tests/*.cpp))
INTEG_OBJS   := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tests/integration/*.cpp))
DEPS_STAMP   := $(BUILD)/deps.stamp
OPENAPI      := $(BUILD)/www/v1/openapi.json
PORTAL_OPENAPI := $(BUILD)/www/api/openapi.json
# The console (console/): index.html and its hashed assets, served by nginx at /.
CONSOLE      := $(BUILD)/www/console/index.html
CONSOLE_SRCS := $(shell find console -name node_modules -prune -o -type f -not -name package.json -not -name package-lock.json -print 2>/dev/null)

.PHONY: all deps build gen lint-deploy lint-openapi openapi-examples test test-unit test-integration test-browser run stop backup restore drill bench bench-scale bench-hops fmt lint migrate asan clean fuzz fuzz-build fuzz-replay
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory -j$(JOBS) build

build: $(HANDLER_BINS) $(BIN)/icat-gen $(BIN)/icatctl $(BIN)/icat $(BIN)/icat-dispatcher $(BIN)/icat-metrics $(BIN)/bench-constant $(BIN)/bench-statements $(BIN)/unit-tests $(BIN)/integration-tests $(OPENAPI) $(PORTAL_OPENAPI) $(CONSOLE)

deps: $(DEPS_STAMP) $(VALIJSON)/valijson/validator.hpp
$(DEPS_STAMP): tools/install-deps tools/node/package-lock.json console/package-lock.json
	tools/install-deps
	@mkdir -p $(@D) && touch $@
# .deps/ outlives make clean; when it is gone, install-deps brings it back (after the stamp's run,
# so that make -j never runs two apt-gets at once).
$(VALIJSON)/valijson/validator.hpp: | $(DEPS_STAMP)
	tools/install-deps

# Objects are rebuilt when the flags change (`make OPTFLAGS=-O0` after a build, or a new define,
# which must agree in every object of a program): $(FLAGS_STAMP) holds the last flags used and
# changes only with them.
FLAGS_STAMP := $(OBJ)/flags
$(shell mkdir -p $(OBJ) && echo '$(CXXFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CXXFLAGS)' > $(FLAGS_STAMP))

$(OBJ)/%.o: %.cpp $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/lib/libicat.a: $(COMMON_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# One executable per handler group: handlers/<group>/*.cpp.
define handler_rule
$(BIN)/icat-$(1): $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard handlers/$(1)/*.cpp)) $(BUILD)/lib/libicat.a
	@mkdir -p $$(@D)
	$$(CXX) $$(CXXFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach group,$(GROUPS),$(eval $(call handler_rule,$(group))))
# The registry group reads manifests back from the registry (common/src/registry_client.cpp).
$(BIN)/icat-registry: LDLIBS += -lcurl
# The auth and account groups reach tenants' OpenID Providers (common/src/oidc_provider.cpp).
$(BIN)/icat-auth $(BIN)/icat-account: LDLIBS += -lcurl

# Migrations are compiled into icatctl, so it needs no path to sql/ at run time.
$(BUILD)/gen/migrations.cpp: $(sort $(wildcard sql/V*.sql)) tools/embed-sql
	@mkdir -p $(@D)
	tools/embed-sql $(sort $(wildcard sql/V*.sql)) > $@
$(OBJ)/gen/migrations.o: $(BUILD)/gen/migrations.cpp $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@

# So are the official SBOM schemas (schemas/README.md), which ingest validates against.
$(BUILD)/gen/schemas.cpp: $(sort $(wildcard schemas/*.json)) tools/embed-schemas
	@mkdir -p $(@D)
	tools/embed-schemas $(sort $(wildcard schemas/*.json)) > $@
$(OBJ)/gen/schemas.o: $(BUILD)/gen/schemas.cpp $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BIN)/icatctl: $(ICATCTL_OBJS) $(INGEST_OBJS) $(DISPATCHER_LIB_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

$(BIN)/icat: $(CLIENT_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ -lssl -lcrypto -lcurl

# make bench's bare FastCGI ceiling: the pool machinery answering a constant.
$(BIN)/bench-constant: $(OBJ)/bench/constant.o $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS)

# make bench's peer (bench/peer) prepares the handlers' own SQL, which this prints.
$(BIN)/bench-statements: $(OBJ)/bench/statements.o $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS)

# The generator (tools/generate, make gen): linked to every group's route table, which it reads as data.
$(BIN)/icat-gen: $(GEN_OBJS) $(HANDLER_LIB_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

$(BIN)/icat-dispatcher: $(DISPATCHER_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

# Serves every program's metrics (services/metrics): GET /metrics on its own listener.
$(BIN)/icat-metrics: $(OBJ)/services/metrics/main.o $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/unit-tests: $(UNIT_OBJS) $(HANDLER_LIB_OBJS) $(GEN_LIB_OBJS) $(INGEST_OBJS) $(ICATCTL_LIB_OBJS) $(CLIENT_LIB_OBJS) $(DISPATCHER_LIB_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

$(BIN)/integration-tests: $(INTEG_OBJS) $(DISPATCHER_LIB_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

# The served OpenAPI documents (/v1/openapi.json, /api/openapi.json), made by icat-gen from
# nginx/openapi.json and nginx/openapi-portal.json: the error and event enums filled from the
# service's tables, each operation's security from its route (failing on an operation without a
# route or a route without an operation) and the examples of nginx/openapi-examples/ (docs/openapi.md).
$(OPENAPI): nginx/openapi.json $(wildcard nginx/openapi-examples/v1.json) $(BIN)/icat-gen
	@mkdir -p $(@D)
	$(BIN)/icat-gen openapi v1 nginx/openapi.json > $@.tmp && mv $@.tmp $@
$(PORTAL_OPENAPI): nginx/openapi-portal.json $(wildcard nginx/openapi-examples/api.json) $(BIN)/icat-gen
	@mkdir -p $(@D)
	$(BIN)/icat-gen openapi api nginx/openapi-portal.json > $@.tmp && mv $@.tmp $@

# The console, bundled from console/ by esbuild (installed by tools/install-deps into build/console).
$(CONSOLE): $(CONSOLE_SRCS) $(BUILD)/console/package-lock.json
	node console/build.mjs $(@D) $(BUILD)/console/node_modules
$(BUILD)/console/package-lock.json: console/package-lock.json
	tools/install-deps console

# Files generated from the sources that are committed: make gen writes them, make test checks them.
gen: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)/icat-gen
	@$(BIN)/icat-gen

test: all
	@$(BIN)/icat-gen --check
	@tools/lint-deploy
	@$(MAKE) --no-print-directory lint-openapi
	@tests/run-tests unit
	@$(MAKE) --no-print-directory fuzz-replay
	@tests/run-tests integration
	@tests/migration/check
	@tests/backup/drill
	@tests/run-tests browser

test-unit: all
	@tests/run-tests unit

test-integration: all
	@tests/run-tests integration

test-browser: all
	@tests/run-tests browser

# libFuzzer harnesses (tests/fuzz/<thing>_fuzz.cpp; ingest's in ingest/fuzz/, docs/fuzzing.md), built by clang with ASan and
# UBSan in a tree of their own from only the sources they exercise. make fuzz runs each for
# FUZZ_SECONDS, new inputs going to $(BUILD)/fuzz/found; make test replays each seed corpus once.
FUZZ_CXX      ?= clang++
FUZZ_SECONDS  ?= 60
FUZZ_FLAGS    := -std=c++20 -O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined \
                 -fno-sanitize-recover=all -fsanitize-ignorelist=tests/fuzz/ubsan_ignore.txt \
                 -Icommon/include -I. -I/usr/include/postgresql -isystem $(VALIJSON)
FUZZ_OBJ      := $(BUILD)/fuzz/obj
FUZZ_LIB_SRCS := $(addprefix common/src/,api_key.cpp attestation.cpp cli_args.cpp crypto.cpp errors.cpp feeds.cpp http.cpp image_reference.cpp json.cpp jwt.cpp oidc.cpp paging.cpp query.cpp registry.cpp vulnerability_rules.cpp \
                   fastcgi_client.cpp redis_url.cpp text.cpp trace.cpp url_guard.cpp validate.cpp) \
                 handlers/admission/reference.cpp handlers/admission/review.cpp handlers/registry/request.cpp \
                 handlers/vulns/version_range.cpp \
                 $(addprefix ingest/,ingest_model.cpp purl.cpp reports.cpp sbom_completeness.cpp sbom_docs.cpp sbom_schema.cpp \
                   vex_docs.cpp feeds.cpp) \
                 tools/icat/rules.cpp \
                 $(BUILD)/gen/schemas.cpp
FUZZ_HARNESSES := $(wildcard tests/fuzz/*_fuzz.cpp ingest/fuzz/*_fuzz.cpp)
FUZZ_BINS     := $(addprefix $(BUILD)/fuzz/bin/,$(basename $(notdir $(FUZZ_HARNESSES))))

$(FUZZ_OBJ)/%.o: %.cpp tests/fuzz/ubsan_ignore.txt
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(BUILD)/fuzz/libfuzzed.a: $(patsubst %.cpp,$(FUZZ_OBJ)/%.o,$(FUZZ_LIB_SRCS))
	rm -f $@ && ar rcs $@ $^

# Each harness from its one source, wherever it lives.
define fuzz_rule
$(BUILD)/fuzz/bin/$(basename $(notdir $(1))): $(FUZZ_OBJ)/$(1:.cpp=.o) $(BUILD)/fuzz/libfuzzed.a
	@mkdir -p $$(@D)
	$$(FUZZ_CXX) $$(FUZZ_FLAGS) -fsanitize=fuzzer -o $$@ $$^ -lssl -lcrypto -lz
endef
$(foreach harness,$(FUZZ_HARNESSES),$(eval $(call fuzz_rule,$(harness))))

fuzz-build: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(FUZZ_BINS)

fuzz: fuzz-build
	@tests/fuzz/run fuzz $(BUILD)/fuzz $(FUZZ_SECONDS)

fuzz-replay: fuzz-build
	@tests/fuzz/run replay $(BUILD)/fuzz

# Foreground: starts everything under ./var, prints how to use it, stops it all on Ctrl-C. Its Postgres
# archives its WAL to ICAT_BACKUP_DIR (./backups, outside ./var: docs/backup.md).
ICAT_BACKUP_DIR ?= $(abspath backups)
run: all
	@ICAT_BACKUP_DIR=$(ICAT_BACKUP_DIR) tools/stack run var

stop:
	@tools/stack stop var

# A backup of the running make run stack (incremental; BACKUP_TYPE=full for a full one); prints its label.
BACKUP_TYPE ?= incr
backup:
	@ICAT_BACKUP_DIR=$(ICAT_BACKUP_DIR) tools/backup backup var $(BACKUP_TYPE)

# The latest backup (or the state at RESTORE_TARGET_TIME, RFC 3339) into ./var, its stack stopped first;
# the next make run serves it.
restore:
	@ICAT_BACKUP_DIR=$(ICAT_BACKUP_DIR) tools/backup restore var $(RESTORE_TARGET_TIME)

# The backup drill on make bench's data set (tests/backup/drill --bench): prints its RTO and RPO.
drill: all
	@tests/backup/drill --bench

migrate: all
	@. var/icat.env && $(BIN)/icatctl migrate

bench: all
	@bench/run

# The cold reads, scan history, CVE look-up, admission and ingest at 1x, 10x and 100x the data
# (bench/README.md, "make bench-scale"); 10 to 45 minutes, never part of make test.
bench-scale: all
	@bench/scale

# CPU per request in each hop (nginx, the pool, Postgres, Redis) for the floor and the cold reads
# (bench/README.md, "Where a cold read's CPU goes, per hop"); about 3 minutes.
bench-hops: all
	@bench/hops

fmt:
	clang-format -i $$(find common handlers ingest services tools tests -name '*.cpp' -o -name '*.hpp')

# The built OpenAPI documents, linted by redocly (its recommended rules, nginx/redocly.yaml) and
# spectral (its oas ruleset, nginx/spectral.yaml), which also checks each example against its schema.
NODE_BIN := $(BUILD)/node/node_modules/.bin
lint-openapi: deps $(OPENAPI) $(PORTAL_OPENAPI)
	@REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(NODE_BIN)/redocly lint --config nginx/redocly.yaml --format=summary $(OPENAPI) $(PORTAL_OPENAPI)
	@$(NODE_BIN)/spectral lint --ruleset nginx/spectral.yaml --fail-severity=error $(OPENAPI) $(PORTAL_OPENAPI)

# The examples of the OpenAPI documents (nginx/openapi-examples/), chosen anew from the replies of
# a full integration run (docs/openapi.md); commit what changed. The documents are built again with them.
openapi-examples: all
	@ICAT_OPENAPI_EXAMPLES=1 tests/run-tests integration
	@$(MAKE) --no-print-directory $(OPENAPI) $(PORTAL_OPENAPI)

# What deploy/ ships, checked without a cluster or a systemd host (also part of make test).
lint-deploy: deps
	@tools/lint-deploy

lint:
	cppcheck --quiet --std=c++20 --enable=warning,performance -Icommon/include -I. common handlers ingest services tools tests

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPTFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" test

clean:
	rm -rf $(BUILD) build-asan

-include $(shell find $(BUILD)/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
