// The settings table, and every setting's check and reading, derived from its row.
#include "icat/config.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>

#include "icat/text.hpp"

extern char** environ;

namespace icat {

namespace {
using enum SettingType;
constexpr unsigned kAllPrograms = kHandlers | kDispatcher | kIcatctl;
std::string SecretSetting(std::string_view name);
std::vector<IpNetwork> CidrSetting(std::string_view name);
RedisEndpoint WithRedisUrl(const RedisEndpoint& from_files, std::string_view name);
}  // namespace

const std::vector<Setting>& AllSettings() {
  // Sorted by name. Settings read only by tools/stack (ports, workers) are rows too, so this is
  // the one table of configuration, and the one place each name is written. Columns: name, type,
  // default, min, max, choices, readers, description and, for what Config holds, where it goes.
  static const std::vector<Setting> settings = {
      {"ICAT_ATTESTATION_KEY_FILE", kFile, "", 0, 0, "", kIcatctl,
       "PEM ECDSA P-256 private key with which icatctl signs the attestations of SBOMs and VEX documents "
       "(icatctl signing-key create makes it, rotate replaces it; docs/attestations.md).",
       [](Config& c, std::string_view n) { c.attestation_key_file = TextSetting(n); }},
      {"ICAT_AUTH_LIMIT_IN_FLIGHT", kInt, "10", 1, 65535, "", kStack,
       "Requests to /api/auth/ that one client address may have in progress at nginx at once; more get 429 with "
       "Retry-After (tools/stack; SITE lines of the deploy/ nginx configurations)."},
      {"ICAT_AUTH_LIMIT_PER_MINUTE", kInt, "60", 1, 1000000, "", kStack,
       "Requests to /api/auth/ per client address per minute that nginx passes on, as many at once at most; more "
       "get 429 with Retry-After (tools/stack; SITE lines of the deploy/ nginx configurations)."},
      {"ICAT_BACKUP_ARCHIVE_SECONDS", kInt, "60", 1, 3600, "", kStack,
       "With ICAT_BACKUP_DIR: the local Postgres archives its current WAL segment at least this often, which "
       "bounds the data a restore can lose (archive_timeout; tools/stack)."},
      {"ICAT_BACKUP_DIR", kDirectory, "", 0, 0, "", kStack,
       "pgBackRest repository with the copies of the blob store, secrets and registry storage (tools/backup, "
       "docs/backup.md); set, the local Postgres archives its WAL there (make run: ./backups); empty: no backups."},
      {"ICAT_BLOB_DIR", kDirectory, "/var/lib/icat/blobs", 0, 0, "", kIcatctl,
       "SBOM blob store: sha256/<2 hex>/<64 hex> files; icatctl ingest writes, nginx serves (/_blobs/).",
       [](Config& c, std::string_view n) { c.blob_dir = TextSetting(n); }},
      {"ICAT_CONSOLE_URL", kText, "", 0, 0, "", kDispatcher,
       "The tenants' console, {tenant} standing for a tenant's subdomain (https://{tenant}.icat.example.com): "
       "notification channels' messages link to its pages (docs/notifications.md); empty: no links.",
       [](Config& c, std::string_view n) { c.console_url = TextSetting(n); }},
      {"ICAT_DIGEST_HOUR", kInt, "7", 0, 23, "", kDispatcher,
       "The hour (UTC) e-mail channels' digests are due: daily ones every day, weekly ones on Mondays "
       "(docs/notifications.md, \"Digests\"); icatctl digests send sends what is due at any hour."},
      {"ICAT_DISPATCHER_POLL_MS", kInt, "500", 10, 60000, "", kDispatcher,
       "How often an idle icat-dispatcher looks for due webhook deliveries."},
      {"ICAT_HTTPS_PORT", kInt, "8443", 1, 65535, "", kStack, "HTTPS port of nginx (tools/stack)."},
      {"ICAT_HTTP_PORT", kInt, "8080", 1, 65535, "", kStack, "Plain HTTP port of nginx on 127.0.0.1 (tools/stack)."},
      {"ICAT_INGEST_FETCH_CA_FILE", kFile, "", 0, 0, "", kIcatctl,
       "CA certificates (PEM) of the servers icatctl ingest fetches https:// inputs from; empty: the system's.",
       [](Config& c, std::string_view n) { c.ingest_fetch_ca_file = TextSetting(n); }},
      {"ICAT_INGEST_FETCH_TOKEN_FILE", kSecretFile, "", 1, 0, "", kIcatctl,
       "File holding a Bearer token icatctl ingest sends when it fetches https:// inputs (empty: none).",
       [](Config& c, std::string_view n) { c.ingest_fetch_token = SecretSetting(n); }},
      {"ICAT_INGEST_MAX_BYTES", kInt, "67108864", 1024, 1 << 30, "", kIcatctl,
       "Largest scan report or SBOM file icatctl ingest accepts.",
       [](Config& c, std::string_view n) { c.ingest_max_bytes = IntSetting(n); }},
      {"ICAT_JWT_SECRET_FILE", kSecretFile, "", 32, 0, "", kHandlers,
       "File holding the secret that signs portal access tokens.",
       [](Config& c, std::string_view n) { c.jwt_secret = SecretSetting(n); }},
      {"ICAT_KEY_CACHE_SECONDS", kInt, "300", 1, 86400, "", kHandlers, "How long Redis caches an API key look-up.",
       [](Config& c, std::string_view n) { c.key_cache_seconds = IntSetting(n); }},
      {"ICAT_KEY_CACHE_SECRET_FILE", kSecretFile, "", 32, 0, "", kHandlers | kIcatctl,
       "File holding the secret that signs the API-key look-ups handlers cache in Redis.",
       [](Config& c, std::string_view n) { c.key_cache_secret = SecretSetting(n); }},
      {"ICAT_KEY_FAILURE_LIMIT_PER_MINUTE", kInt, "60", 1, 1000000, "", kHandlers,
       "Failed API-key look-ups (unknown, revoked, expired) per client address per minute; more get 429.",
       [](Config& c, std::string_view n) { c.key_failure_limit_per_minute = IntSetting(n); }},
      {"ICAT_KEY_PREFIX", kWord, "icat", 0, 8, "", kHandlers | kIcatctl, "Prefix of API keys: <prefix>_live_<secret>.",
       [](Config& c, std::string_view n) { c.key_prefix = TextSetting(n); }},
      {"ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES", kInt, "10", 1, 1000000, "", kHandlers,
       "Failed portal logins per account (tenant and email) per window; more get 429.",
       [](Config& c, std::string_view n) { c.login_limits.account_failures = IntSetting(n); }},
      {"ICAT_LOGIN_LIMIT_IP_ATTEMPTS", kInt, "5", 1, 1000000, "", kHandlers,
       "Portal login attempts per client IP per window; more get 429.",
       [](Config& c, std::string_view n) { c.login_limits.ip_attempts = IntSetting(n); }},
      {"ICAT_LOGIN_LIMIT_WINDOW_SECONDS", kInt, "900", 1, 86400, "", kHandlers,
       "Window of the login limits, counted from its first attempt.",
       [](Config& c, std::string_view n) { c.login_limits.window_seconds = IntSetting(n); }},
      {"ICAT_LOG_FORMAT", kEnum, "text", 0, 0, "text,json", kAllPrograms | kMetrics,
       "text: one key=value line per event; json: the same fields as one JSON object per line.",
       [](Config& c, std::string_view n) { c.log_format = TextSetting(n); }},
      {"ICAT_LOG_LEVEL", kEnum, "info", 0, 0, "debug,info,warn,error", kAllPrograms | kMetrics,
       "Least severe log line written.", [](Config& c, std::string_view n) { c.log_level = TextSetting(n); }},
      {"ICAT_MAIL_PORT", kInt, "2525", 1, 65535, "", kStack,
       "Port of the local mail catcher on 127.0.0.1 (tools/stack; ICAT_SMTP_URL points at it)."},
      {"ICAT_MAIL_TOKEN_KEY_FILE", kSecretFile, "", 32, 0, "", kDispatcher,
       "File holding the key the confirm and unsubscribe links of e-mail channels are made with "
       "(HMAC-SHA256 of the address's id; only their SHA-256 is stored). Needed with ICAT_SMTP_URL.",
       [](Config& c, std::string_view n) { c.smtp.token_key = SecretSetting(n); }},
      {"ICAT_MAX_BODY_BYTES", kInt, "1048576", 1024, 1 << 30, "", kHandlers | kStack,
       "Largest request body a handler accepts (413 above); tools/stack gives nginx the same limit.",
       [](Config& c, std::string_view n) { c.max_body_bytes = IntSetting(n); }},
      {"ICAT_METRICS_DIR", kDirectory, "", 0, 0, "", kHandlers | kDispatcher | kMetrics | kStack,
       "Directory of the metrics files every pool and the dispatcher keep and icat-metrics serves (empty: no metrics).",
       [](Config& c, std::string_view n) { c.metrics_dir = TextSetting(n); }},
      {"ICAT_METRICS_LISTEN", kHostPort, "127.0.0.1:9464", 0, 0, "", kMetrics,
       "Address and port on which icat-metrics serves GET /metrics: its own listener, never nginx's public port."},
      {"ICAT_METRICS_PORT", kInt, "9464", 1, 65535, "", kStack,
       "Port of icat-metrics on 127.0.0.1 (tools/stack writes ICAT_METRICS_LISTEN and ICAT_METRICS_URL from it)."},
      {"ICAT_OIDC_ALLOW_HTTP", kBool, "0", 0, 0, "", kHandlers,
       "1: a tenant's OpenID Provider may be reached over plain http (a local provider, tests; docs/sso.md).",
       [](Config& c, std::string_view n) { c.oidc_policy.allow_http = BoolSetting(n); }},
      {"ICAT_OIDC_ALLOW_PRIVATE_CIDRS", kCidrList, "", 0, 0, "", kHandlers,
       "Networks a tenant's OpenID Provider may be reached on although loopback, private or link-local.",
       [](Config& c, std::string_view n) { c.oidc_policy.allow_private = CidrSetting(n); }},
      {"ICAT_PASSWORD_HASH_CONCURRENCY", kInt, "2", 1, 512, "", kHandlers | kStack,
       "Password hashes (sign-in, set-up, password change) an auth pool runs at once, at most its workers less one; "
       "more are answered 503 with Retry-After at once. Each holds a core and 128 MiB while it runs.",
       [](Config& c, std::string_view n) { c.hash_gate.node = IntSetting(n); }},
      {"ICAT_PASSWORD_HASH_CONCURRENCY_PER_TENANT", kInt, "1", 1, 512, "", kHandlers,
       "Of those, at most this many for one tenant (every name that is no tenant counts as one); more get 429 with "
       "Retry-After.",
       [](Config& c, std::string_view n) { c.hash_gate.per_tenant = IntSetting(n); }},
      {"ICAT_PG_ADMIN_DSN", kPgDsn, "host=/var/run/postgresql dbname=icat user=icat_owner", 0, 0, "", kIcatctl,
       "libpq connection string of icatctl (the schema owner role); sslmode as for ICAT_PG_DSN.",
       [](Config& c, std::string_view n) { c.pg_admin_dsn = TextSetting(n); }},
      {"ICAT_PG_DSN", kPgDsn, "host=/var/run/postgresql dbname=icat user=icat_app", 0, 0, "", kHandlers | kDispatcher,
       "libpq connection string of the handlers and the dispatcher (role icat_app, owns nothing). Over TCP "
       "add sslmode=verify-full and sslrootcert: libpq's default, prefer, neither insists on TLS nor checks the "
       "server.",
       [](Config& c, std::string_view n) { c.pg_dsn = TextSetting(n); }},
      {"ICAT_PG_MAX_REPLICA_LAG_MS", kInt, "1000", 0, 600000, "", kHandlers,
       "A standby further behind the primary than this is skipped: reads go to the primary (ICAT_PG_READ_DSN).",
       [](Config& c, std::string_view n) { c.pg_max_replica_lag_ms = IntSetting(n); }},
      {"ICAT_PG_NO_FSYNC", kBool, "0", 0, 0, "", kStack,
       "1: the local Postgres runs without fsync (tools/stack; tests only)."},
      {"ICAT_PG_PORT", kInt, "5432", 1, 65535, "", kStack,
       "Port of the local Postgres (tools/stack; names its unix socket)."},
      {"ICAT_PG_READ_DSN", kPgDsn, "", 0, 0, "", kHandlers,
       "libpq connection string of the standbys that serve read-only requests (GET routes), e.g. several hosts and "
       "target_session_attrs=standby; a client's reads after its own write go where the write is visible. Empty: "
       "every request goes to ICAT_PG_DSN (docs/operations.md, \"Replicas and failover\").",
       [](Config& c, std::string_view n) { c.pg_read_dsn = TextSetting(n); }},
      {"ICAT_PG_REPLICAS", kInt, "0", 0, 9, "", kStack,
       "Streaming standbys of the local Postgres (tools/stack: DIR/pg-replica-N, ICAT_PG_READ_DSN names them)."},
      {"ICAT_PG_STATEMENT_TIMEOUT_MS", kInt, "5000", 100, 600000, "", kHandlers | kDispatcher,
       "Statement timeout of handler and dispatcher queries; a request waits for Postgres this plus 500 ms at most, "
       "then answers 503.",
       [](Config& c, std::string_view n) { c.pg_statement_timeout_ms = IntSetting(n); }},
      {"ICAT_PG_SYNC_REPLICA", kBool, "0", 0, 0, "", kStack,
       "1: the local Postgres commits only once the first standby has the commit (tools/stack; needs "
       "ICAT_PG_REPLICAS of 1 or more), so a failover to it loses no acknowledged write."},
      {"ICAT_POOL_ADDRESS", kText, "unix:/run/icat/{group}.sock", 0, 0, "", kHandlers | kStack,
       "FastCGI address of each handler pool, {group} standing for its name; GET /api/status checks them.",
       [](Config& c, std::string_view n) { c.pool_address = TextSetting(n); }},
      {"ICAT_RATE_LIMIT_PER_MINUTE", kInt, "600", 0, 1000000, "", kHandlers,
       "Requests per minute per API key on /v1 (0: no limit).",
       [](Config& c, std::string_view n) { c.rate_limit_per_minute = IntSetting(n); }},
      {"ICAT_RECONCILE_SECONDS", kInt, "60", 0, 86400, "", kStack,
       "Seconds between the passes of the stack's registry reconciler (icatctl registry reconcile --every); 0: "
       "none runs (the integration tests run their passes themselves, so none races a test's steps)."},
      {"ICAT_REDIS_PASSWORD_FILE", kSecretFile, "", 1, 0, "", kHandlers | kIcatctl,
       "File holding the Redis password (instead of one in ICAT_REDIS_URL).",
       [](Config& c, std::string_view n) { c.redis.password = SecretSetting(n); }},
      {"ICAT_REDIS_PORT", kInt, "6379", 1, 65535, "", kStack, "Port of the local Redis (tools/stack)."},
      {"ICAT_REDIS_TIMEOUT_MS", kInt, "200", 10, 10000, "", kHandlers | kIcatctl,
       "Connect and command timeout for Redis.",
       [](Config& c, std::string_view n) { c.redis_timeout_ms = IntSetting(n); }},
      {"ICAT_REDIS_TLS_CA_FILE", kFile, "", 0, 0, "", kHandlers | kIcatctl,
       "CA certificates (PEM) a rediss:// server's certificate must chain to; empty: the system's (/etc/ssl/certs).",
       [](Config& c, std::string_view n) { c.redis.tls_ca_file = TextSetting(n); }},
      {"ICAT_REDIS_URL", kRedisUrl, "redis://127.0.0.1:6379/0", 0, 0, "", kHandlers | kIcatctl,
       "Redis: redis://[[user]:password@]host:port/db (host a name, an IPv4 address or [IPv6]) or "
       "unix://[[user]:password@]/path/redis.sock?db=0, user and password percent-encoded; rediss:// for TLS "
       "(the certificate checked against ICAT_REDIS_TLS_CA_FILE and the host).",
       [](Config& c, std::string_view n) { c.redis = WithRedisUrl(c.redis, n); }},
      {"ICAT_REFRESH_TOKEN_DAYS", kInt, "30", 1, 365, "", kHandlers,
       "Lifetime of a portal refresh token; every refresh issues a new one.",
       [](Config& c, std::string_view n) { c.refresh_token_days = IntSetting(n); }},
      {"ICAT_REGISTRY", kText, "registry.example.test/hardened", 0, 0, "", kHandlers | kIcatctl,
       "Where tenants pull: the service's registry host (and port) and the path prefix of new images' repositories "
       "(tools/stack: localhost:<HTTPS port>/hardened). The registry's repository names are its repositories "
       "without that host (docs/registry.md).",
       [](Config& c, std::string_view n) { c.registry = TextSetting(n); }},
      {"ICAT_REGISTRY_EVENTS_SECRET_FILE", kSecretFile, "", 32, 0, "", kHandlers,
       "File holding the secret the registry sends with its push notifications (Authorization: Bearer); empty: "
       "notifications are refused and only icatctl registry reconcile publishes pushes.",
       [](Config& c, std::string_view n) { c.registry_events_secret = SecretSetting(n); }},
      {"ICAT_REGISTRY_PORT", kInt, "5000", 1, 65535, "", kStack,
       "Port of the local registry on 127.0.0.1 (tools/stack writes ICAT_REGISTRY_UPSTREAM from it)."},
      {"ICAT_REGISTRY_UPSTREAM", kText, "http://127.0.0.1:5000", 0, 0, "", kHandlers | kIcatctl | kStack,
       "The Distribution registry itself, never exposed: nginx sends /v2/ there once the pull decision allows it; "
       "the push handler and icatctl registry reconcile read manifests from it; icatctl registry attach pushes "
       "the attestations to it.",
       [](Config& c, std::string_view n) { c.registry_upstream = TextSetting(n); }},
      {"ICAT_SCAN_RETENTION_DAYS", kInt, "0", 0, 36500, "", kIcatctl,
       "icatctl scans prune removes the scans scanned more than this many days ago, except each version's latest "
       "(0: keep every scan)."},
      {"ICAT_SETUP_TOKEN_HOURS", kInt, "72", 1, 720, "", kHandlers,
       "How long a portal user's one-time set-up link (POST /api/users, .../setup-token) stays valid.",
       [](Config& c, std::string_view n) { c.setup_token_hours = IntSetting(n); }},
      {"ICAT_SIGNING_KEY_FILE", kFile, "", 0, 0, "", kIcatctl,
       "PEM Ed25519 private key with which icatctl ingest and vex ingest sign SBOMs and VEX documents "
       "(openssl genpkey -algorithm ed25519).",
       [](Config& c, std::string_view n) { c.signing_key_file = TextSetting(n); }},
      {"ICAT_SMTP_CA_FILE", kFile, "", 0, 0, "", kDispatcher,
       "CA certificates (PEM) the mail server's TLS certificate must chain to; empty: the system's (/etc/ssl/certs).",
       [](Config& c, std::string_view n) { c.smtp.ca_file = TextSetting(n); }},
      {"ICAT_SMTP_FROM", kText, "", 0, 0, "", kDispatcher,
       "The From of every mail of e-mail channels (icat <notifications@icat.example.com>).",
       [](Config& c, std::string_view n) { c.smtp.from = TextSetting(n); }},
      {"ICAT_SMTP_PASSWORD_FILE", kSecretFile, "", 1, 0, "", kDispatcher,
       "File holding the SMTP password (with ICAT_SMTP_USER).",
       [](Config& c, std::string_view n) { c.smtp.password = SecretSetting(n); }},
      {"ICAT_SMTP_STARTTLS", kEnum, "required", 0, 0, "required,off", kDispatcher,
       "smtp:// URLs: required refuses a server without STARTTLS; off sends in clear (a local catcher).",
       [](Config& c, std::string_view n) { c.smtp.starttls_required = TextSetting(n) != "off"; }},
      {"ICAT_SMTP_URL", kText, "", 0, 0, "", kHandlers | kDispatcher,
       "The mail server of e-mail channels: smtp://host:port (STARTTLS) or smtps://host:port (implicit TLS); "
       "empty: no e-mail channels (docs/notifications.md).",
       [](Config& c, std::string_view n) { c.smtp.url = TextSetting(n); }},
      {"ICAT_SMTP_USER", kText, "", 0, 0, "", kDispatcher,
       "The SMTP user name when the server wants auth (the password: ICAT_SMTP_PASSWORD_FILE).",
       [](Config& c, std::string_view n) { c.smtp.user = TextSetting(n); }},
      {"ICAT_SSO_KEY_FILE", kSecretFile, "", 32, 0, "", kHandlers,
       "File holding the key that seals tenants' OpenID client secrets and TOTP secrets in Postgres "
       "(AES-256-GCM); losing it means re-entering them (docs/sso.md).",
       [](Config& c, std::string_view n) { c.sso_key = SecretSetting(n); }},
      {"ICAT_TRUSTED_PROXIES", kCidrList, "", 0, 0, "", kStack,
       "Proxies before nginx whose X-Forwarded-For is believed (nginx set_real_ip_from).",
       [](Config& c, std::string_view n) { c.trusted_proxies = CidrSetting(n); }},
      {"ICAT_WEBHOOK_ALLOW_HTTP", kBool, "0", 0, 0, "", kHandlers | kDispatcher,
       "1: webhook URLs may use plain http (local receivers, tests).",
       [](Config& c, std::string_view n) { c.webhook_policy.allow_http = BoolSetting(n); }},
      {"ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS", kCidrList, "", 0, 0, "", kHandlers | kDispatcher,
       "Networks webhooks may reach although loopback, private or link-local.",
       [](Config& c, std::string_view n) { c.webhook_policy.allow_private = CidrSetting(n); }},
      {"ICAT_WEBHOOK_CONCURRENCY", kInt, "32", 1, 1024, "", kDispatcher,
       "Webhook deliveries an icat-dispatcher has in flight at once."},
      {"ICAT_WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION", kInt, "2", 1, 1024, "", kDispatcher,
       "Of those, at most this many to one webhook subscription, so a slow receiver holds only its own."},
      {"ICAT_WEBHOOK_CONCURRENCY_PER_TENANT", kInt, "8", 1, 1024, "", kDispatcher,
       "Of those, at most this many of one tenant."},
      {"ICAT_WEBHOOK_LOG_RETENTION_DAYS", kInt, "30", 1, 3650, "", kDispatcher,
       "Finished webhook deliveries are pruned from the log after this."},
      {"ICAT_WEBHOOK_RETRY_SCHEDULE", kIntList, "5,300,1800,7200,18000,36000", 1, 999999, "", kDispatcher,
       "Seconds before each retry of a failed webhook delivery; then it is failed."},
      {"ICAT_WEBHOOK_TIMEOUT_SECONDS", kInt, "10", 1, 60, "", kDispatcher,
       "How long a webhook receiver has to answer."},
      {"ICAT_WORKERS", kInt, "2", 1, 512, "", kStack, "Workers per handler pool (tools/stack)."},
      {"ICAT_WORKERS_<GROUP>", kInt, "", 1, 512, "", kStack,
       "Workers of one pool, e.g. ICAT_WORKERS_AUTH; unset: ICAT_WORKERS, for auth plus ICAT_PASSWORD_HASH_CONCURRENCY "
       "(tools/stack)."},
      {"ICAT_WORKER_CACHE_MB", kInt, "16", 1, 4096, "", kHandlers,
       "Memory per handler worker and cache for values kept between requests (docs/decisions.md).",
       [](Config& c, std::string_view n) { c.worker_cache_bytes = static_cast<size_t>(IntSetting(n)) << 20; }},
      {"ICAT_WORKER_CACHE_SECONDS", kInt, "60", 0, 3600, "", kHandlers | kIcatctl,
       "Longest a worker keeps a value when Redis missed a change (0: keep nothing between requests).",
       [](Config& c, std::string_view n) { c.worker_cache_seconds = IntSetting(n); }},
  };
  return settings;
}

namespace {

constexpr std::string_view kFamilySuffix = "<GROUP>";

bool IsFamily(const Setting& row) { return row.name.ends_with(kFamilySuffix); }

// "ICAT_WORKERS_" of "ICAT_WORKERS_<GROUP>".
std::string_view FamilyPrefix(const Setting& row) { return row.name.substr(0, row.name.size() - kFamilySuffix.size()); }

const Setting& Find(std::string_view name) {
  for (const Setting& row : AllSettings()) {
    if (row.name == name) return row;
  }
  for (const Setting& row : AllSettings()) {
    if (IsFamily(row) && name.size() > FamilyPrefix(row).size() && name.starts_with(FamilyPrefix(row))) return row;
  }
  throw std::logic_error("no such setting: " + std::string(name));
}

std::string CheckedValue(const Setting& row, std::string_view name);

// The environment's value where set and not empty, else the default; a family member's default is
// the value of the setting its family is named after (ICAT_WORKERS for ICAT_WORKERS_AUTH).
std::string RawValue(const Setting& row, std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value && *value) return value;
  if (!IsFamily(row)) return std::string(row.default_value);
  std::string_view parent = FamilyPrefix(row).substr(0, FamilyPrefix(row).size() - 1);
  return CheckedValue(Find(parent), parent);
}

[[noreturn]] void Broken(const Setting& row, std::string_view name, const std::string& value) {
  throw SettingError(std::string(name) + " must be " + RuleText(row) + ", not \"" + value + "\"");
}

long long WholeNumber(const Setting& row, std::string_view name, std::string_view text) {
  // Digits only, at most ten: no sign, no spaces, nothing strtoll would quietly skip.
  bool digits = !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos;
  long long value = digits ? std::stoll(std::string(text)) : -1;
  if (value < row.min || value > row.max) Broken(row, name, std::string(text));
  return value;
}

std::vector<int> WholeNumbers(const Setting& row, std::string_view name, const std::string& text) {
  std::vector<int> numbers;
  for (size_t start = 0;;) {
    size_t comma = text.find(',', start);
    std::string_view item =
        Trim(std::string_view(text).substr(start, comma == std::string::npos ? comma : comma - start), " ");
    try {
      numbers.push_back(static_cast<int>(WholeNumber(row, name, item)));
    } catch (const SettingError&) {
      Broken(row, name, text);  // the whole list in the message, not the one item
    }
    if (comma == std::string::npos) return numbers;
    start = comma + 1;
  }
}

std::vector<IpNetwork> Networks(std::string_view name, const std::string& text) {
  try {
    return ParseCidrList(text);
  } catch (const std::invalid_argument& e) {
    throw SettingError(std::string(name) + ": " + e.what() + " (give addresses or CIDRs, comma-separated)");
  }
}

// The contents of the file (trailing newlines dropped); the message names the path, never the contents.
std::string SecretContents(const Setting& row, std::string_view name, const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string secret((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.is_open() || (!file.good() && !file.eof())) throw SettingError(std::string(name) + ": cannot read " + path);
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (static_cast<long long>(secret.size()) < row.min) {
    throw SettingError(std::string(name) + ": " + path + " must hold at least " + std::to_string(row.min) + " bytes");
  }
  return secret;
}

// The message never shows the URL: it may hold a password.
RedisEndpoint RedisEndpointOf(std::string_view name, const std::string& url) {
  std::optional<RedisEndpoint> endpoint = ParseRedisUrl(url);
  if (!endpoint) {
    throw SettingError(std::string(name) +
                       " must look like redis://[[user]:password@]host:port/db or "
                       "unix://[[user]:password@]/path/redis.sock?db=0 (user and password percent-encoded, an IPv6 "
                       "host in brackets)");
  }
  return *endpoint;
}

// libpq's own parser; its message, which quotes the string, is shown unless that may hold a
// password (password=..., or user:password@ in a URI).
void CheckDsn(std::string_view name, const std::string& dsn) {
  char* error = nullptr;
  std::unique_ptr<PQconninfoOption, void (*)(PQconninfoOption*)> options(PQconninfoParse(dsn.c_str(), &error),
                                                                         PQconninfoFree);
  if (options) return;
  std::string why = error ? std::string(Trim(error, " \n")) : std::string("out of memory");
  PQfreemem(error);
  if (Lower(dsn).find("password") != std::string::npos || dsn.find('@') != std::string::npos) {
    why = "libpq cannot parse it";
  }
  throw SettingError(std::string(name) +
                     " must be a libpq connection string (key=value ... or postgresql://...): " + why);
}

// "host:port" or "[v6]:port": a host part, and a port of 1 to 65535 after the last colon.
bool IsHostPort(std::string_view value) {
  size_t colon = value.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string_view host = value.substr(0, colon), port = value.substr(colon + 1);
  if (host.find(':') != std::string_view::npos && !(host.front() == '[' && host.back() == ']')) return false;
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) return false;
  int number = std::stoi(std::string(port));
  return number >= 1 && number <= 65535;
}

bool IsChoice(std::string_view choices, std::string_view value) {
  for (size_t start = 0;;) {
    size_t comma = choices.find(',', start);
    if (choices.substr(start, comma == std::string_view::npos ? comma : comma - start) == value) return true;
    if (comma == std::string_view::npos) return false;
    start = comma + 1;
  }
}

// Throws SettingError when the value breaks the row's rule.
void Check(const Setting& row, std::string_view name, const std::string& value) {
  switch (row.type) {
    case kInt:
      (void)WholeNumber(row, name, value);
      return;
    case kIntList:
      (void)WholeNumbers(row, name, value);
      return;
    case kBool:
      if (value != "0" && value != "1") Broken(row, name, value);
      return;
    case kEnum:
      if (!IsChoice(row.choices, value)) Broken(row, name, value);
      return;
    case kWord:
      if (value.empty() || static_cast<long long>(value.size()) > row.max ||
          value.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos) {
        Broken(row, name, value);
      }
      return;
    case kText:
    case kFile:
      return;
    case kDirectory:
      // A directory whose default is empty is optional: empty turns off what it is for.
      if (value.empty() ? !row.default_value.empty() : value[0] != '/') Broken(row, name, value);
      return;
    case kHostPort:
      if (!IsHostPort(value)) Broken(row, name, value);
      return;
    case kSecretFile:
      if (!value.empty()) (void)SecretContents(row, name, value);
      return;
    case kCidrList:
      (void)Networks(name, value);
      return;
    case kRedisUrl:
      (void)RedisEndpointOf(name, value);
      return;
    case kPgDsn:
      CheckDsn(name, value);
      return;
  }
}

std::string CheckedValue(const Setting& row, std::string_view name) {
  std::string value = RawValue(row, name);
  Check(row, name, value);
  return value;
}

// The checked value of a row that must have one of `types`; std::logic_error for a reader of the wrong type.
std::string Checked(std::string_view name, std::initializer_list<SettingType> types) {
  const Setting& row = Find(name);
  if (std::find(types.begin(), types.end(), row.type) == types.end()) {
    throw std::logic_error(std::string(name) + " is not read this way (see its row's type)");
  }
  return CheckedValue(row, name);
}

// The contents of a secret file setting; empty when unset.
std::string SecretSetting(std::string_view name) {
  std::string path = Checked(name, {kSecretFile});
  return path.empty() ? std::string() : SecretContents(Find(name), name, path);
}

std::vector<IpNetwork> CidrSetting(std::string_view name) { return Networks(name, Checked(name, {kCidrList})); }

// ICAT_REDIS_URL, with what the Redis rows before it in the table filled in from_files: the
// password of ICAT_REDIS_PASSWORD_FILE when that is set, and ICAT_REDIS_TLS_CA_FILE.
RedisEndpoint WithRedisUrl(const RedisEndpoint& from_files, std::string_view name) {
  RedisEndpoint endpoint = RedisEndpointOf(name, Checked(name, {kRedisUrl}));
  if (!from_files.password.empty() && !endpoint.password.empty()) {
    throw SettingError("ICAT_REDIS_PASSWORD_FILE is set and ICAT_REDIS_URL holds a password too: give one");
  }
  if (!from_files.password.empty()) endpoint.password = from_files.password;
  if (!endpoint.username.empty() && endpoint.password.empty()) {
    throw SettingError("ICAT_REDIS_URL names a Redis user but no password (in the URL or ICAT_REDIS_PASSWORD_FILE)");
  }
  endpoint.tls_ca_file = from_files.tls_ca_file;
  return endpoint;
}

// The environment's members of a family, sorted by name; a name that a shell could not assign is an error.
std::vector<std::string> FamilyMembers(const Setting& row) {
  std::vector<std::string> names;
  for (char** entry = environ; *entry; entry++) {
    std::string_view text = *entry;
    std::string_view name = text.substr(0, text.find('='));
    if (!name.starts_with(FamilyPrefix(row)) || name.size() == FamilyPrefix(row).size()) continue;
    if (name.substr(FamilyPrefix(row).size()).find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
        std::string_view::npos) {
      throw SettingError(std::string(name) + ": after " + std::string(FamilyPrefix(row)) +
                         " comes a group's name in upper-case letters, digits and _");
    }
    if (text.size() > name.size() + 1) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string RuleText(const Setting& row) {
  auto range = [&row] { return "from " + std::to_string(row.min) + " to " + std::to_string(row.max); };
  switch (row.type) {
    case kInt:
      return "a whole number " + range();
    case kIntList:
      return "comma-separated whole numbers " + range();
    case kBool:
      return "0 or 1";
    case kEnum: {
      std::string text(row.choices);
      std::replace(text.begin(), text.end(), ',', ' ');
      return "one of: " + text;
    }
    case kWord:
      return "1 to " + std::to_string(row.max) + " lower-case letters or digits";
    case kText:
      return "any text";
    case kDirectory:
      return row.default_value.empty() ? "an absolute directory path (empty: none)" : "an absolute directory path";
    case kHostPort:
      return "host:port ([IPv6]:port)";
    case kFile:
      return "a file path (empty: none)";
    case kSecretFile:
      return "a path to a file of " + std::to_string(row.min) + "+ bytes (empty: none)";
    case kCidrList:
      return "comma-separated addresses or CIDRs";
    case kRedisUrl:
      return "a redis://, rediss:// or unix:// URL";
    case kPgDsn:
      return "a libpq connection string";
  }
  return "";
}

std::string ReadersText(const Setting& row) {
  std::vector<std::string> names;
  for (auto [bit, name] :
       {std::pair{kHandlers, "handlers"}, std::pair{kDispatcher, "dispatcher"}, std::pair{kIcatctl, "icatctl"},
        std::pair{kMetrics, "icat-metrics"}, std::pair{kStack, "tools/stack"}}) {
    if (row.readers & bit) names.emplace_back(name);
  }
  return Join(names, ", ");
}

std::string TextSetting(std::string_view name) {
  return Checked(name, {kEnum, kWord, kText, kDirectory, kHostPort, kFile, kSecretFile, kCidrList, kRedisUrl, kPgDsn});
}

int IntSetting(std::string_view name) { return std::stoi(Checked(name, {kInt})); }

bool BoolSetting(std::string_view name) { return Checked(name, {kBool}) == "1"; }

std::vector<int> IntListSetting(std::string_view name) {
  return WholeNumbers(Find(name), name, Checked(name, {kIntList}));
}

std::vector<std::pair<std::string, std::string>> CheckedSettings() {
  std::vector<std::pair<std::string, std::string>> values;
  for (const Setting& row : AllSettings()) {
    std::vector<std::string> names = IsFamily(row) ? FamilyMembers(row) : std::vector{std::string(row.name)};
    for (const std::string& name : names) values.emplace_back(name, CheckedValue(row, name));
  }
  return values;
}

Config Config::FromEnvironment() {
  // Every row is checked, whichever program reads it: one bad setting stops every program at start.
  (void)CheckedSettings();
  Config c;
  // In table order, so ICAT_REDIS_URL comes after the Redis rows it takes from (WithRedisUrl).
  for (const Setting& row : AllSettings()) {
    if (row.fill) row.fill(c, row.name);
  }
  return c;
}

}  // namespace icat
