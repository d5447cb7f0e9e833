# The image catalogue service: build, test, run. See README.md.
# Every target installs what is missing first (tools/install-deps), so a fresh Debian machine needs only make.

CXX      ?= g++
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Icommon/include -I/usr/include/postgresql -MMD -MP
LDLIBS   := -lfcgi -lpq -lhiredis -lssl -lcrypto
BUILD    := build
BIN      := $(BUILD)/bin
OBJ      := $(BUILD)/obj
JOBS     ?= 2

GROUPS       := $(notdir $(wildcard handlers/*))
HANDLER_BINS := $(GROUPS:%=$(BIN)/icat-%)
COMMON_OBJS  := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard common/src/*.cpp))
# Handler code outside main.cpp is pure enough for unit tests to link it.
HANDLER_LIB_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(filter-out %/main.cpp,$(wildcard handlers/*/*.cpp)))
ICATCTL_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tools/icatctl/*.cpp)) $(OBJ)/gen/migrations.o
# icatctl's code outside main.cpp (report parsers, normalisation) is unit-tested too.
ICATCTL_LIB_OBJS := $(filter-out $(OBJ)/tools/icatctl/main.o,$(ICATCTL_OBJS))
DISPATCHER_OBJS := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tools/dispatcher/*.cpp))
DISPATCHER_LIB_OBJS := $(filter-out $(OBJ)/tools/dispatcher/main.o,$(DISPATCHER_OBJS))
UNIT_OBJS    := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tests/unit/*.cpp))
INTEG_OBJS   := $(patsubst %.cpp,$(OBJ)/%.o,$(wildcard tests/integration/*.cpp))
DEPS_STAMP   := $(BUILD)/deps.stamp
OPENAPI      := $(BUILD)/www/v1/openapi.json
PORTAL_OPENAPI := $(BUILD)/www/api/openapi.json

.PHONY: all deps build test test-unit test-integration run stop bench fmt lint migrate asan clean
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory -j$(JOBS) build

build: $(HANDLER_BINS) $(BIN)/icatctl $(BIN)/icat-dispatcher $(BIN)/bench-constant $(BIN)/unit-tests $(BIN)/integration-tests $(OPENAPI) $(PORTAL_OPENAPI)

deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/install-deps
	tools/install-deps
	@mkdir -p $(@D) && touch $@

$(OBJ)/%.o: %.cpp
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

# Migrations are compiled into icatctl, so it needs no path to sql/ at run time.
$(BUILD)/gen/migrations.cpp: $(sort $(wildcard sql/V*.sql)) tools/embed-sql
	@mkdir -p $(@D)
	tools/embed-sql $(sort $(wildcard sql/V*.sql)) > $@
$(OBJ)/gen/migrations.o: $(BUILD)/gen/migrations.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BIN)/icatctl: $(ICATCTL_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS)

# make bench's bare FastCGI ceiling: the pool machinery answering a constant.
$(BIN)/bench-constant: $(OBJ)/bench/constant.o $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/icat-dispatcher: $(DISPATCHER_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

$(BIN)/unit-tests: $(UNIT_OBJS) $(HANDLER_LIB_OBJS) $(ICATCTL_LIB_OBJS) $(DISPATCHER_LIB_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

$(BIN)/integration-tests: $(INTEG_OBJS) $(BUILD)/lib/libicat.a
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -o $@ $^ $(LDLIBS) -lcurl

# The served OpenAPI document: nginx/openapi.json with the error enum filled from errors.def.
$(OPENAPI): nginx/openapi.json $(BIN)/icatctl
	@mkdir -p $(@D)
	$(BIN)/icatctl openapi nginx/openapi.json > $@.tmp && mv $@.tmp $@

# The portal API's document (/api/openapi.json), made the same way.
$(PORTAL_OPENAPI): nginx/openapi-portal.json $(BIN)/icatctl
	@mkdir -p $(@D)
	$(BIN)/icatctl openapi nginx/openapi-portal.json > $@.tmp && mv $@.tmp $@

test: all
	@ICAT_BUILD_DIR=$(abspath $(BUILD)) tools/run-tests unit
	@ICAT_BUILD_DIR=$(abspath $(BUILD)) tools/run-tests integration

test-unit: all
	@ICAT_BUILD_DIR=$(abspath $(BUILD)) tools/run-tests unit

test-integration: all
	@ICAT_BUILD_DIR=$(abspath $(BUILD)) tools/run-tests integration

# Foreground: starts everything under ./var, prints how to use it, stops it all on Ctrl-C.
run: all
	@ICAT_BUILD_DIR=$(abspath $(BUILD)) tools/stack run var

stop:
	@tools/stack stop var

migrate: all
	@. var/icat.env && $(BIN)/icatctl migrate

bench: all
	@bench/run

fmt:
	clang-format -i $$(find common handlers tools tests -name '*.cpp' -o -name '*.hpp')

lint:
	cppcheck --quiet --std=c++20 --enable=warning,performance -Icommon/include common handlers tools tests

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan CXXFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" test

clean:
	rm -rf $(BUILD) build-asan

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
