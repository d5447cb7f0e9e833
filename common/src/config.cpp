// The settings table and its checked reading from the environment.
#include "icat/config.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "icat/paging.hpp"

namespace icat {

const std::vector<Setting>& AllSettings() {
  // Sorted by name. Settings read only by tools/stack (ports, workers) are listed too,
  // so this is the one table of configuration.
  static const std::vector<Setting> settings = {
      {"ICAT_BLOB_DIR", "/var/lib/icat/blobs",
       "SBOM blob store: sha256/<2 hex>/<64 hex> files; icatctl ingest writes, nginx serves (/_blobs/)."},
      {"ICAT_DISPATCHER_POLL_MS", "500", "How often an idle icat-dispatcher looks for due webhook deliveries.", 10, 60000},
      {"ICAT_HTTPS_PORT", "8443", "HTTPS port of nginx (tools/stack)."},
      {"ICAT_HTTP_PORT", "8080", "Plain HTTP port of nginx on 127.0.0.1 (tools/stack)."},
      {"ICAT_INGEST_MAX_BYTES", "67108864", "Largest scan report or SBOM file icatctl ingest accepts.", 1024, 1 << 30},
      {"ICAT_JWT_SECRET_FILE", "", "File holding the secret (32+ bytes) that signs portal access tokens."},
      {"ICAT_KEY_CACHE_SECONDS", "300", "How long Redis caches an API key look-up.", 1, 86400},
      {"ICAT_KEY_CACHE_SECRET_FILE", "",
       "File holding the secret (32+ bytes) that signs the API-key look-ups handlers cache in Redis."},
      {"ICAT_KEY_FAILURE_LIMIT_PER_MINUTE", "60",
       "Failed API-key look-ups (unknown, revoked, expired) per client address per minute; more get 429.", 1, 1000000},
      {"ICAT_KEY_PREFIX", "icat", "Prefix of API keys: <prefix>_live_<secret>."},
      {"ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES", "10",
       "Failed portal logins per account (tenant and email) per window; more get 429.", 1, 1000000},
      {"ICAT_LOGIN_LIMIT_IP_ATTEMPTS", "5", "Portal login attempts per client IP per window; more get 429.", 1, 1000000},
      {"ICAT_LOGIN_LIMIT_WINDOW_SECONDS", "900", "Window of the login limits, counted from its first attempt.", 1, 86400},
      {"ICAT_LOG_LEVEL", "info", "debug, info, warn or error."},
      {"ICAT_MAX_BODY_BYTES", "1048576", "Largest request body a handler accepts (413 above).", 1024, 1 << 30},
      {"ICAT_PG_ADMIN_DSN", "host=/var/run/postgresql dbname=icat user=icat_owner",
       "libpq connection string of icatctl (the schema owner role)."},
      {"ICAT_PG_DSN", "host=/var/run/postgresql dbname=icat user=icat_app",
       "libpq connection string of the handlers (role icat_app, owns nothing)."},
      {"ICAT_PG_NO_FSYNC", "", "1: the local Postgres runs without fsync (tools/stack; tests only)."},
      {"ICAT_PG_PORT", "5432", "Port of the local Postgres (tools/stack; names its unix socket)."},
      {"ICAT_PG_STATEMENT_TIMEOUT_MS", "5000", "Statement timeout of handler queries.", 100, 600000},
      {"ICAT_POOL_ADDRESS", "unix:/run/icat/{group}.sock",
       "FastCGI address of each handler pool, {group} standing for its name; GET /api/status checks them."},
      {"ICAT_RATE_LIMIT_PER_MINUTE", "600", "Requests per minute per API key on /v1 (0: no limit).", 0, 1000000},
      {"ICAT_REDIS_PASSWORD_FILE", "", "File holding the Redis password (instead of one in ICAT_REDIS_URL)."},
      {"ICAT_REDIS_PORT", "6379", "Port of the local Redis (tools/stack)."},
      {"ICAT_REDIS_TIMEOUT_MS", "200", "Connect and command timeout for Redis.", 10, 10000},
      {"ICAT_REDIS_URL", "redis://127.0.0.1:6379/0",
       "Redis: redis://[[user]:password@]host:port/db or unix://[[user]:password@]/path/redis.sock?db=0."},
      {"ICAT_REFRESH_TOKEN_DAYS", "30", "Lifetime of a portal refresh token; every refresh issues a new one.", 1, 365},
      {"ICAT_REGISTRY", "registry.example.test/hardened", "Default repository prefix of new images."},
      {"ICAT_SIGNING_KEY_FILE", "",
       "PEM Ed25519 private key with which icatctl ingest signs SBOMs (openssl genpkey -algorithm ed25519)."},
      {"ICAT_TRUSTED_PROXIES", "",
       "Comma-separated addresses or CIDRs of proxies before nginx whose X-Forwarded-For is believed."},
      {"ICAT_WEBHOOK_ALLOW_HTTP", "0", "1: webhook URLs may use plain http (local receivers, tests).", 0, 1},
      {"ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS", "",
       "Comma-separated CIDRs webhooks may reach although loopback, private or link-local."},
      {"ICAT_WEBHOOK_CONCURRENCY", "32", "Webhook deliveries an icat-dispatcher has in flight at once.", 1, 1024},
      {"ICAT_WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION", "2",
       "Of those, at most this many to one webhook subscription, so a slow receiver holds only its own.", 1, 1024},
      {"ICAT_WEBHOOK_CONCURRENCY_PER_TENANT", "8", "Of those, at most this many of one tenant.", 1, 1024},
      {"ICAT_WEBHOOK_LOG_RETENTION_DAYS", "30", "Finished webhook deliveries are pruned from the log after this.", 1, 3650},
      {"ICAT_WEBHOOK_RETRY_SCHEDULE", "5,300,1800,7200,18000,36000",
       "Seconds before each retry of a failed webhook delivery; then it is failed."},
      {"ICAT_WEBHOOK_TIMEOUT_SECONDS", "10", "How long a webhook receiver has to answer.", 1, 60},
      {"ICAT_WORKERS", "2", "Workers per handler pool (ICAT_WORKERS_<GROUP> overrides; tools/stack)."},
      {"ICAT_WORKER_CACHE_MB", "16",
       "Memory per handler worker and cache for values kept between requests (docs/decisions.md).", 1, 4096},
      {"ICAT_WORKER_CACHE_SECONDS", "60",
       "Longest a worker keeps a value when Redis missed a change (0: keep nothing between requests).", 0, 3600},
  };
  return settings;
}

namespace {

const Setting& Find(std::string_view name) {
  for (const Setting& s : AllSettings()) {
    if (s.name == name) return s;
  }
  throw std::logic_error("no such setting: " + std::string(name));
}

}  // namespace

int IntSetting(std::string_view name) {
  const Setting& setting = Find(name);
  if (setting.max == 0) throw std::logic_error(std::string(name) + " is not a whole-number setting");
  std::string text = Config::Get(name);
  // Digits only, at most ten: no sign, no spaces, nothing strtol would quietly skip.
  bool digits = !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos;
  long long value = digits ? std::stoll(text) : -1;
  if (value < setting.min || value > setting.max) {
    throw std::runtime_error(std::string(name) + " must be a whole number from " + std::to_string(setting.min) +
                             " to " + std::to_string(setting.max) + ", not \"" + text + "\"");
  }
  return static_cast<int>(value);
}

namespace {

// A comma-separated list of addresses and CIDRs (may be empty).
std::vector<IpNetwork> CidrSetting(std::string_view name) {
  try {
    return ParseCidrList(Config::Get(name));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(name) + ": " + e.what() + " (give addresses or CIDRs, comma-separated)");
  }
}

// The contents of the file a secret setting names (trailing newlines dropped); empty when unset.
std::string ReadSecretFile(std::string_view name, size_t min_bytes) {
  std::string path = Config::Get(name);
  if (path.empty()) return {};
  std::ifstream file(path, std::ios::binary);
  std::string secret((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) throw std::runtime_error(std::string(name) + ": cannot read " + path);
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < min_bytes) {
    throw std::runtime_error(std::string(name) + ": " + path + " must hold at least " + std::to_string(min_bytes) +
                             " bytes");
  }
  return secret;
}

// ICAT_REDIS_URL, with the password of ICAT_REDIS_PASSWORD_FILE when that is set.
RedisEndpoint RedisSetting() {
  std::string url = Config::Get("ICAT_REDIS_URL");
  std::optional<RedisEndpoint> endpoint = ParseRedisUrl(url);
  if (!endpoint) {
    throw std::runtime_error(
        "ICAT_REDIS_URL must look like redis://[[user]:password@]host:port/db or "
        "unix://[[user]:password@]/path/redis.sock?db=0 (rediss:// is not supported, see docs/security.md)");
  }
  std::string password = ReadSecretFile("ICAT_REDIS_PASSWORD_FILE", 1);
  if (!password.empty() && !endpoint->password.empty()) {
    throw std::runtime_error("ICAT_REDIS_PASSWORD_FILE is set and ICAT_REDIS_URL holds a password too: give one");
  }
  if (!password.empty()) endpoint->password = password;
  if (!endpoint->username.empty() && endpoint->password.empty()) {
    throw std::runtime_error("ICAT_REDIS_URL names a Redis user but no password (in the URL or ICAT_REDIS_PASSWORD_FILE)");
  }
  return *endpoint;
}

}  // namespace

std::string Config::Get(std::string_view name) {
  const Setting& setting = Find(name);
  const char* value = std::getenv(std::string(name).c_str());
  return value && *value ? std::string(value) : std::string(setting.default_value);
}

Config Config::FromEnvironment() {
  Config c;
  c.pg_dsn = Get("ICAT_PG_DSN");
  c.pg_admin_dsn = Get("ICAT_PG_ADMIN_DSN");
  c.pg_statement_timeout_ms = IntSetting("ICAT_PG_STATEMENT_TIMEOUT_MS");
  c.redis = RedisSetting();
  c.redis_timeout_ms = IntSetting("ICAT_REDIS_TIMEOUT_MS");
  c.key_prefix = Get("ICAT_KEY_PREFIX");
  if (c.key_prefix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos ||
      c.key_prefix.size() > 8) {
    throw std::runtime_error("ICAT_KEY_PREFIX must be 1 to 8 lower-case letters or digits, not \"" + c.key_prefix + "\"");
  }
  c.key_cache_seconds = IntSetting("ICAT_KEY_CACHE_SECONDS");
  c.key_cache_secret = ReadSecretFile("ICAT_KEY_CACHE_SECRET_FILE", 32);
  c.key_failure_limit_per_minute = IntSetting("ICAT_KEY_FAILURE_LIMIT_PER_MINUTE");
  c.rate_limit_per_minute = IntSetting("ICAT_RATE_LIMIT_PER_MINUTE");
  c.max_body_bytes = IntSetting("ICAT_MAX_BODY_BYTES");
  c.registry = Get("ICAT_REGISTRY");
  c.worker_cache_bytes = static_cast<size_t>(IntSetting("ICAT_WORKER_CACHE_MB")) << 20;
  c.worker_cache_seconds = IntSetting("ICAT_WORKER_CACHE_SECONDS");
  c.log_level = Get("ICAT_LOG_LEVEL");
  if (c.log_level != "debug" && c.log_level != "info" && c.log_level != "warn" && c.log_level != "error") {
    throw std::runtime_error("ICAT_LOG_LEVEL must be debug, info, warn or error, not \"" + c.log_level + "\"");
  }
  c.jwt_secret = ReadSecretFile("ICAT_JWT_SECRET_FILE", 32);
  c.blob_dir = Get("ICAT_BLOB_DIR");
  if (c.blob_dir.empty() || c.blob_dir[0] != '/') {
    throw std::runtime_error("ICAT_BLOB_DIR must be an absolute directory path, not \"" + c.blob_dir + "\"");
  }
  c.ingest_max_bytes = IntSetting("ICAT_INGEST_MAX_BYTES");
  // Only icatctl ingest reads the key itself (SigningKeyPem), so handlers never hold it.
  c.signing_key_file = Get("ICAT_SIGNING_KEY_FILE");
  c.login_limits.ip_attempts = IntSetting("ICAT_LOGIN_LIMIT_IP_ATTEMPTS");
  c.login_limits.account_failures = IntSetting("ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES");
  c.login_limits.window_seconds = IntSetting("ICAT_LOGIN_LIMIT_WINDOW_SECONDS");
  c.refresh_token_days = IntSetting("ICAT_REFRESH_TOKEN_DAYS");
  c.trusted_proxies = CidrSetting("ICAT_TRUSTED_PROXIES");
  c.webhook_policy.allow_http = IntSetting("ICAT_WEBHOOK_ALLOW_HTTP") == 1;
  c.webhook_policy.allow_private = CidrSetting("ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS");
  return c;
}

}  // namespace icat
