# What bench/run (make bench) and bench/scale (make bench-scale) share: the throwaway stack with its
# ceilings, the generated data set, wrk driving one scenario, ratios and bench/results.md's sections.
# Sourced, never run; the caller traps EXIT to call stop_stack, so that whatever started is stopped.
# shellcheck shell=bash disable=SC2034  # CONNECTIONS, CONNS: read by the scripts that source this

REPO_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
readonly REPO_DIR BIN=$REPO_DIR/build/bin RESULTS=$REPO_DIR/bench/results.md
readonly DURATION=${BENCH_SECONDS:-6} CONNECTIONS=${BENCH_CONNECTIONS:-32} WORKERS=${BENCH_WORKERS:-4}
STACK_DIR="" WORK="" CONSTANT_PID="" KEY="" TENANT=bench
declare -A RPS P50 P99 ERRORS CONNS

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

# ------------------------------------------------------------------ the stack

# The settings the stack's icat.env exported, unset: the next stack (make bench-scale starts one per
# size) would take them as the caller's own and look for this stack's secrets.
forget_stack_env() {
  local var
  while read -r var; do unset "$var"; done < <(sed -n "s/^export \(ICAT_[A-Z0-9_]*\)=.*/\1/p" "$STACK_DIR/icat.env" 2>/dev/null)
}

# Stops what start_stack started (or leaves the stack up with BENCH_KEEP_STACK=1); safe to call twice.
stop_stack() {
  [[ -n $CONSTANT_PID ]] && kill -TERM "$CONSTANT_PID" 2>/dev/null && wait "$CONSTANT_PID" 2>/dev/null
  CONSTANT_PID=""
  if [[ -n $STACK_DIR && ${BENCH_KEEP_STACK:-0} == 1 ]]; then
    note "stack left running in $STACK_DIR (tools/stack stop $STACK_DIR; the bench-constant pool is stopped)"
  elif [[ -n $STACK_DIR ]]; then
    "$REPO_DIR/tools/stack" stop "$STACK_DIR" >/dev/null 2>&1 || true
    forget_stack_env
    rm -rf "$STACK_DIR"
  fi
  [[ -n $WORK ]] && rm -rf "$WORK"
  STACK_DIR="" WORK=""
  return 0
}

cleanup() { stop_stack; }

# The ceilings live in nginx beside the service: a constant, the bare FastCGI pool, static files.
write_bench_locations() {
  mkdir -p "$STACK_DIR/nginx/extra"
  echo allowed >"$STACK_DIR/nginx/extra/allowed.txt"
  cat >"$STACK_DIR/nginx/extra/bench.conf" <<CONF
location = /bench/nginx { default_type application/json; return 200 '{"status":"ok"}'; }
location = /bench/fastcgi { include $REPO_DIR/nginx/fastcgi_params; fastcgi_pass unix:$STACK_DIR/run/bench.sock; }
location = /bench/fastcgi-pg { include $REPO_DIR/nginx/fastcgi_params; fastcgi_pass unix:$STACK_DIR/run/bench.sock; }
location /bench/static/ { alias $STACK_DIR/blobs/; etag off; }
# The registry's pull decision alone: nginx asks it (auth_request) as for /v2/, about a blob of
# hardened/bench-pull, and answers a small file when allowed, without the registry. (Not a return:
# that runs before auth_request.)
location = /bench/pull-decision { auth_request /bench/_pull-decision; alias $STACK_DIR/nginx/extra/allowed.txt; }
location = /bench/_pull-decision {
  internal;
  fastcgi_pass_request_body off;
  fastcgi_param REQUEST_METHOD GET;
  fastcgi_param REQUEST_URI /_registry/auth;
  fastcgi_param QUERY_STRING "";
  fastcgi_param CONTENT_LENGTH "";
  fastcgi_param REMOTE_ADDR \$remote_addr;
  fastcgi_param REQUEST_ID \$request_id;
  fastcgi_param HTTP_X_REGISTRY_METHOD GET;
  fastcgi_param HTTP_X_REGISTRY_URI /v2/hardened/bench-pull/blobs/sha256:0000000000000000000000000000000000000000000000000000000000000000;
  fastcgi_pass unix:$STACK_DIR/run/registry.sock;
}
CONF
}

start_stack() {
  STACK_DIR=$(mktemp -d /tmp/icat-bench.XXXXXX)
  WORK=$(mktemp -d /tmp/icat-bench-work.XXXXXX)
  chmod 755 "$STACK_DIR"
  write_bench_locations
  # One key drives all the load, so its limit is set out of reach (the check itself still runs);
  # logins run flat out from one address for the isolation and sign-in scenarios (the per-address
  # limits of the handlers and of nginx out of reach; the password-hash gate as in service);
  # request logs would only measure the disk.
  export ICAT_RATE_LIMIT_PER_MINUTE=1000000 ICAT_LOGIN_LIMIT_IP_ATTEMPTS=1000000
  export ICAT_AUTH_LIMIT_PER_MINUTE=1000000 ICAT_AUTH_LIMIT_IN_FLIGHT=65535
  export ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES=1000000 ICAT_LOG_LEVEL=warn ICAT_WORKERS=$WORKERS ICAT_PG_NO_FSYNC=1
  # Ports free when chosen may be taken before the servers bind them (after a scenario, a port of
  # wrk's closed connections was; make bench-scale starts three stacks): a second try, other ports.
  local ports attempt
  for attempt in 1 2; do
    mapfile -t ports < <("$REPO_DIR/tools/stack" free-port 6)
    export ICAT_HTTP_PORT=${ports[0]} ICAT_HTTPS_PORT=${ports[1]} ICAT_REDIS_PORT=${ports[2]} ICAT_PG_PORT=${ports[3]} ICAT_METRICS_PORT=${ports[4]}
    export ICAT_REGISTRY_PORT=${ports[5]}
    "$REPO_DIR/tools/stack" start "$STACK_DIR" >"$WORK/stack.log" 2>&1 && break
    cat "$WORK/stack.log" >&2
    ((attempt < 2)) || die "the stack did not start"
    note "the stack did not start; trying once more on other ports"
  done
  # shellcheck disable=SC1091
  . "$STACK_DIR/icat.env"
  "$BIN/bench-constant" --socket "$STACK_DIR/run/bench.sock" --workers "$WORKERS" 2>>"$STACK_DIR/log/bench.log" &
  CONSTANT_PID=$!
  local deadline=$((SECONDS + 10))
  until [[ -S $STACK_DIR/run/bench.sock ]]; do ((SECONDS < deadline)) || die "bench-constant did not start"; sleep 0.1; done
}

sql() { psql "$ICAT_PG_ADMIN_DSN" -qtAX -c "$1"; }

# ------------------------------------------------------------------ data

# seed_data IMAGES VERSIONS FINDINGS [DAYS CHANGE_EVERY CHANGES]: the tenant and bench/seed.sql's
# catalogue (bench/seed.sql says what each number means), all licensed to the tenant.
seed_data() {
  local images=$1 versions=$2 findings=$3 days=${4:-1} change_every=${5:-20} changes=${6:-4} tenant_id
  "$BIN/icatctl" tenant create "$TENANT" --name "Bench" >/dev/null
  tenant_id=$(sql "SELECT id FROM tenants WHERE subdomain = '$TENANT'")
  psql "$ICAT_PG_ADMIN_DSN" -qX -v images="$images" -v versions="$versions" -v findings="$findings" \
    -v days="$days" -v change_every="$change_every" -v changes="$changes" -v tenant="$tenant_id" -f "$REPO_DIR/bench/seed.sql" >/dev/null
}

# The API key that drives the load (every scope) and a portal user who logs in with login.json.
create_credentials() {
  KEY=$("$BIN/icatctl" key create --tenant "$TENANT" --name bench --scopes read:catalog,read:sbom,read:vulns,admission,pull 2>/dev/null)
  printf 'bench-password-1234\n' | "$BIN/icatctl" user create --tenant "$TENANT" --email bench@bench.test --role viewer >/dev/null
  printf '{"email":"bench@bench.test","password":"bench-password-1234"}' >"$WORK/login.json"
}

# A CycloneDX 1.5 document of about `bytes` bytes: one image (its id as Trivy records it, so ingest
# proves it is the report's image) and many library components, written by the report's scanner.
write_cyclonedx() {
  local name=$1 bytes=$2 file=$3 image_id=$4
  awk -v n=$((bytes / 190 + 1)) -v name="$name" -v image_id="$image_id" 'BEGIN {
    printf "{\"bomFormat\":\"CycloneDX\",\"specVersion\":\"1.5\",\"version\":1,"
    printf "\"serialNumber\":\"urn:uuid:00000000-0000-4000-8000-%012d\",", n
    printf "\"metadata\":{\"timestamp\":\"2026-11-01T00:00:00Z\",\"tools\":{\"components\":[{\"type\":\"application\",\"name\":\"trivy\",\"version\":\"0.50.0\"}]},"
    printf "\"component\":{\"bom-ref\":\"image\",\"type\":\"container\",\"name\":\"%s\",", name
    printf "\"properties\":[{\"name\":\"aquasecurity:trivy:ImageID\",\"value\":\"%s\"}]}},\"components\":[", image_id
    for (i = 1; i <= n; i++)
      printf "%s{\"bom-ref\":\"pkg-%d\",\"type\":\"library\",\"name\":\"libbench%d\",\"version\":\"1.%d.0\",\"purl\":\"pkg:npm/libbench%d@1.%d.0\",\"licenses\":[{\"license\":{\"id\":\"MIT\"}}]}", (i > 1 ? "," : ""), i, i, i, i, i
    printf "]}\n"
  }' >"$file"
}

# A Deployment of 10 containers, each a licensed catalogue image (bench-0001 to -0010) at tag $1.
write_admission_review() {
  local tag=$1 containers="" i
  for i in $(seq 1 10); do
    containers+="$([[ $i -gt 1 ]] && echo ,){\"name\":\"c$i\",\"image\":\"registry.example.test/bench/bench-$(printf %04d "$i"):$tag\"}"
  done
  cat >"$WORK/review.json" <<JSON
{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"bench-0001",
 "kind":{"group":"apps","version":"v1","kind":"Deployment"},"resource":{"group":"apps","version":"v1","resource":"deployments"},
 "namespace":"shop","name":"web","operation":"CREATE","userInfo":{"username":"bench"},
 "object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
  "spec":{"template":{"spec":{"containers":[$containers]}}}},"dryRun":false}}
JSON
}

# ------------------------------------------------------------------ driving wrk

# wrk's latency figure (e.g. 812.00us, 1.23ms, 1.01s) in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}

# run NAME CONNECTIONS PATH [LUA] [EXTRA wrk ARGS...]: one scenario, its figures kept by name.
run() {
  local name=$1 conns=$2 path=$3 lua=${4:-} out
  shift 4 || shift $#
  local args=(-t1 -c"$conns" -d"${DURATION}s" --latency --timeout 10s -H "Authorization: Bearer $KEY")
  [[ -n $lua ]] && args+=(-s "$lua")
  out=$(wrk "${args[@]}" "$@" "$ICAT_BASE_URL$path" 2>&1) || { echo "$out" >&2; die "wrk failed for $name"; }
  # Whole requests a second; a tenth below 10 (a sign-in takes about half a second).
  RPS[$name]=$(awk '/^Requests\/sec:/ { printf ($2 < 10 ? "%.1f" : "%.0f"), $2 }' <<<"$out")
  P50[$name]=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  P99[$name]=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  ERRORS[$name]=$(awk '/Non-2xx or 3xx responses:/ { n += $NF } /Socket errors:/ { n += $4 + $6 + $8 + $10 } END { print n + 0 }' <<<"$out")
  CONNS[$name]=$conns
  [[ $(awk '/ requests in / { print $1 }' <<<"$out") -gt 0 ]] || { echo "$out" >&2; die "$name answered nothing"; }
  # A scenario whose requests fail measures the failure, not the service.
  [[ ${ERRORS[$name]} -eq 0 ]] || { echo "$out" >&2; die "$name answered ${ERRORS[$name]} errors"; }
  note "$(printf '%-22s %8s req/s  p50 %7s ms  p99 %7s ms  errors %s' "$name" "${RPS[$name]}" "${P50[$name]}" "${P99[$name]}" "${ERRORS[$name]}")"
}

post_script() {  # a wrk script POSTing a file, with extra headers
  local file=$1 script=$2
  shift 2
  {
    echo 'wrk.method = "POST"'
    echo "local f = io.open(\"$file\", \"rb\"); wrk.body = f:read(\"*a\"); f:close()"
    echo 'wrk.headers["Content-Type"] = "application/json"'
    for header in "$@"; do echo "wrk.headers[\"${header%%:*}\"] = \"${header#*: }\""; done
  } >"$script"
}

# Each request asks for a fresh reply (Cache-Control: no-cache), so no worker answers from its
# reply cache: what a read costs when it goes to Postgres. (An unknown query parameter, which
# once made each URL new, is a 400 since every route lists its parameters.)
write_miss_script() {
  echo 'wrk.headers["Cache-Control"] = "no-cache"' >"$WORK/miss.lua"
}

# run_cold_reads PREFIX IMAGE_ID CVE: the reads of make bench that go to Postgres (write_miss_script first).
run_cold_reads() {
  local prefix=$1 image_id=$2 cve=$3
  run "${prefix}image-detail-miss" "$CONNECTIONS" "/v1/images/$image_id" "$WORK/miss.lua"
  run "${prefix}image-list-miss" "$CONNECTIONS" "/v1/images?limit=50" "$WORK/miss.lua"
  run "${prefix}vulnerabilities-miss" "$CONNECTIONS" "/v1/images/$image_id/vulnerabilities?limit=50" "$WORK/miss.lua"
  run "${prefix}cve-lookup-miss" "$CONNECTIONS" "/v1/cve/$cve" "$WORK/miss.lua"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# ------------------------------------------------------------------ bench/results.md

# make bench writes the file's head and its "## Peer" section, make bench-scale its "## Scale"
# section (each to the next heading of level 1 or 2, or the end); each keeps what the other wrote.
# results_section NAME: that section as the file holds it (nothing when it has none).
results_section() {
  [[ -f $RESULTS ]] || return 0
  awk -v heading="## $1" '$0 == heading { keep = 1; print; next } keep && /^##? / { keep = 0 } keep' "$RESULTS"
}

without_scale_section() {
  [[ -f $RESULTS ]] || return 0
  awk '/^## Scale$/ { skip = 1; next } skip && /^##? / { skip = 0 } skip { next }
       /^$/ { blank++; next } { for (; blank > 0; blank--) print ""; print }' "$RESULTS"  # no blank lines at the end
}
