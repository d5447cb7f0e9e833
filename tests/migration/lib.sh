# shellcheck shell=bash
# What tests/migration/record and tests/migration/check share (sourced, not run): the fixture's
# layout, the credentials a request is made with, how a reply is fetched and stored, and which parts
# of a reply may differ between two runs of the same code on the same data.
#
# A fixture directory holds:
#   dump.sql          the database as the old code left it (pg_dump, plain SQL)
#   blobs/            the blob store's files the replies serve, at their own paths (sha256/ab/abcd...)
#   bodies/           every other reply body, named by its SHA-256 (equal bodies kept once)
#   credentials.env   the tenants' API keys and admin logins (a throwaway database's)
#   replies           per request, a block ended by an empty line: "GET PATH as CREDENTIAL", the
#                     status, the headers of kReplyHeaders and "body: sha256:<hex>" (or "body: empty")
#   RECORDED          which commit wrote it, and when

# Sourced once (tests/backup/drill sources record and check, which both source this file).
[[ -z ${MIGRATION_LIB_SOURCED:-} ]] || return 0
MIGRATION_LIB_SOURCED=1

# The headers that carry data. Left out on purpose: Date, Last-Modified (a blob file's mtime),
# X-Request-Id, Cache-Status (hit or miss), RateLimit*, Server, Connection, Content-Length and
# Transfer-Encoding (the body is compared itself).
readonly kReplyHeaders="content-type content-disposition cache-control etag repr-digest x-signature
  x-signature-key-id www-authenticate location"

die() { echo "migration: $*" >&2; exit 1; }

# psql or pg_dump: on PATH, else the newest under /usr/lib/postgresql (Debian keeps them there).
pg_tool() {
  command -v "$1" 2>/dev/null && return 0
  find /usr/lib/postgresql -maxdepth 3 -path "*/bin/$1" 2>/dev/null | sort -V | tail -n 1
}

# The stack's Postgres as its superuser. The dump and the restore need it: every tenant table forces
# row-level security on its owner too, so the owner's plain pg_dump is refused, and with
# --enable-row-security pg_dump empties search_path, where the owner's policy (owner_sees_all(),
# V0009) cannot find current_tenant().
superuser_dsn() { echo "${ICAT_PG_ADMIN_DSN/user=icat_owner/user=postgres}"; }

# ------------------------------------------------------------------ credentials

# A credential is a word: <tenant>-key (that tenant's API key, every read scope), <tenant>-portal
# (that tenant's admin, signed in) or anyone. credentials.env gives, per tenant,
# MIGRATION_KEY_<tenant>, MIGRATION_EMAIL_<tenant> and MIGRATION_PASSWORD_<tenant>.
declare -A PORTAL_TOKENS=()

# Signs the tenant's admin in (POST /api/auth/login) and keeps the access token for its requests.
# Not from a subshell (the token would stay there): fetch_reply runs in one.
portal_sign_in() {
  local tenant=$1 email_var=MIGRATION_EMAIL_$1 password_var=MIGRATION_PASSWORD_$1 body reply token
  body=$(jq -nc --arg email "${!email_var}" --arg password "${!password_var}" '{email: $email, password: $password}')
  reply=$(curl -sS -X POST "$ICAT_BASE_URL/api/auth/login" -H 'Content-Type: application/json' \
    -H "X-Tenant: $tenant" --data-binary "$body")
  token=$(jq -r '.accessToken // empty' <<<"$reply" 2>/dev/null || true)
  [[ -n $token ]] || die "tenant $tenant: its admin could not sign in: $reply"
  PORTAL_TOKENS[$tenant]=$token
}

# Fills the array named $2 with curl's arguments for credential $1.
# shellcheck disable=SC2034 # args is a nameref: the caller's array
credential_args() {
  local credential=$1 tenant=${1%-*}
  local -n args=$2
  case $credential in
    anyone) args=() ;;
    *-key)
      local key_var=MIGRATION_KEY_$tenant
      args=(-H "Authorization: Bearer ${!key_var}")
      ;;
    *-portal)
      [[ -n ${PORTAL_TOKENS[$tenant]:-} ]] || die "tenant $tenant: sign its admin in first (portal_sign_in)"
      args=(-H "Authorization: Bearer ${PORTAL_TOKENS[$tenant]}" -H "X-Tenant: $tenant")
      ;;
    *) die "unknown credential $credential" ;;
  esac
}

# ------------------------------------------------------------------ replies

# GET PATH with CREDENTIAL: prints the reply's block (see the top, without the empty line) and
# leaves its body in BODY_FILE.
fetch_reply() {
  local credential=$1 path=$2 body_file=$3 status
  local -a auth
  credential_args "$credential" auth
  status=$(curl -sS -o "$body_file" -D "$body_file.headers" -w '%{http_code}' "${auth[@]}" "$ICAT_BASE_URL$path") \
    || die "GET $path: no reply"
  echo "GET $path as $credential"
  echo "status: $status"
  awk -v names="$kReplyHeaders" '
    { sub(/\r$/, ""); colon = index($0, ":") }
    colon > 0 { name = tolower(substr($0, 1, colon - 1)); if (!(name in value)) value[name] = substr($0, colon + 1) }
    END {
      count = split(names, wanted, /[ \n]+/)
      for (i = 1; i <= count; i++) if (wanted[i] in value) { sub(/^ +/, "", value[wanted[i]]); print wanted[i] ": " value[wanted[i]] }
    }' "$body_file.headers"
  rm -f "$body_file.headers"
  if [[ -s $body_file ]]; then echo "body: sha256:$(sha256sum "$body_file" | cut -d' ' -f1)"; else echo "body: empty"; fi
}

# Where FIXTURE keeps the body of SHA-256 HEX: among the blobs, else among the bodies.
body_path() {
  local fixture=$1 hex=$2
  local blob=$fixture/blobs/sha256/${hex:0:2}/$hex
  if [[ -f $blob ]]; then echo "$blob"; else echo "$fixture/bodies/$hex"; fi
}

# What of a JSON body may differ between two runs on the same data, by path (a jq filter applied to
# the recorded and the new body alike; "." keeps the bytes as they are):
#   /api/users       lastLoginAt: each run signs the admin in again; totp and sso, which issue 29
#                    added after the fixture was recorded (totp_test, sso_test check them)
#   /api/auth/me     totp, which issue 29 added after the fixture was recorded (totp_test checks it)
#   /api/api-keys    lastUsedAt: each run uses the key again
#   /api/audit-log   the login.succeeded entries: each run's own sign-in adds one; actorEmail, which
#                    V0025 added after the fixture was recorded (portal_current_person checks it)
#   an image's detail and versions: pullCount and lastPulledAt of each version, which V0027 added
#                    after the fixture was recorded (pull_counts_test checks them), and knownExploited
#                    (V0031, feeds_test); its SBOMs, VEX and scan history are compared byte for byte
#   findings and the CVE look-ups: each finding's epss and kev, which V0031 added after the fixture
#                    was recorded (feeds_test checks them); everything else compared as recorded
#   /api/admission-policy  requireCatalogRegistry, which issue 26 added after the fixture was recorded
#                    (off for a stored policy without it; admission_registry checks it), and
#                    denyKnownExploited and maxEpss (issue 31; off for a stored policy, admission_feeds)
#   /v1/signing-keys use, createdAt and retiredAt of each key, which issue 27 added after the fixture
#                    was recorded (attestations_test checks them); ids, algorithms and PEMs compared
comparison_filter() {
  # Each finding's epss and kev (V0031) and each version's knownExploited, wherever they appear.
  local feeds='walk(if type == "object" then del(.epss, .kev, .knownExploited) else . end)'
  case $1 in
    /api/users*) echo '.users |= map(del(.lastLoginAt, .totp, .sso))' ;;
    /api/auth/me) echo 'del(.totp)' ;;
    /api/api-keys*) echo '.apiKeys |= map(del(.lastUsedAt))' ;;
    /api/audit-log*) echo '.entries |= map(select(.action != "login.succeeded") | del(.actorEmail))' ;;
    /api/admission-policy*)
      echo 'walk(if type == "object" then del(.requireCatalogRegistry, .denyKnownExploited, .maxEpss) else . end)' ;;
    /v1/signing-keys) echo '.keys |= map(del(.use, .createdAt, .retiredAt))' ;;
    /v1/images/*/sbom* | /v1/images/*/vex*) echo . ;;
    /api/docker-images/*/sbom/* | /api/docker-images/*/vex*) echo . ;;
    /v1/images/*/vulnerabilities* | /api/docker-images/*/vulnerabilities* | /v1/cve/* | /api/cve/*) echo "$feeds" ;;
    /api/docker-images/*/scan-history*) echo . ;;
    /v1/images/?* | /api/docker-images/?*)
      echo 'walk(if type == "object" then del(.pullCount, .lastPulledAt, .knownExploited) else . end)' ;;
    *) echo . ;;
  esac
}

# ------------------------------------------------------------------ the stack

# TREE/tools/stack start DIR, its output appended to LOG, with the settings below. Tried three times,
# each with new ports: a port found free can be taken before its server binds it (another stack; an
# older TREE's free-port also hands out ports of Linux's ephemeral range, 32768-60999).
start_stack() {
  local tree=$1 dir=$2 log=$3
  for _ in 1 2 3; do
    export_stack_settings "$tree"
    "$tree/tools/stack" start "$dir" >>"$log" 2>&1 && return 0
  done
  return 1
}

# The settings of the recording's stack and of the check's, exported for tools/stack: free ports;
# no rate limit (a run makes hundreds of requests with one key in a minute); webhooks may go to
# loopback over http and are retried a second apart, so the recording's deliveries have all ended
# (failed, nobody listens) before the dump; nothing of the database outlives the run.
export_stack_settings() {
  local -a ports
  mapfile -t ports < <("$1/tools/stack" free-port 5)
  export ICAT_HTTP_PORT=${ports[0]} ICAT_HTTPS_PORT=${ports[1]} ICAT_REDIS_PORT=${ports[2]} ICAT_PG_PORT=${ports[3]} \
    ICAT_METRICS_PORT=${ports[4]}
  export ICAT_RATE_LIMIT_PER_MINUTE=0 ICAT_PG_NO_FSYNC=1
  export ICAT_WEBHOOK_ALLOW_HTTP=1 ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS=127.0.0.1/32 ICAT_WEBHOOK_RETRY_SCHEDULE=1,1 \
    ICAT_WEBHOOK_TIMEOUT_SECONDS=2 ICAT_DISPATCHER_POLL_MS=100
}
