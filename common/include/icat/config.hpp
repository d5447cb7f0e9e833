// Settings: one sorted table of ICAT_* environment variables, read and checked once at start.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icat/login_limit.hpp"
#include "icat/redis.hpp"
#include "icat/url_guard.hpp"

namespace icat {

struct Setting {
  std::string_view name;         // ICAT_...
  std::string_view default_value;
  std::string_view description;  // one line, as the README shows it
  int min = 0, max = 0;          // a whole-number setting's range (IntSetting); max 0: not one
};

// The table, sorted by name (a unit test checks the order and that README.md lists each one).
const std::vector<Setting>& AllSettings();

// A whole-number setting, checked against its row's range; std::runtime_error naming it otherwise.
int IntSetting(std::string_view name);

// Values of every setting: the environment where set, else the default.
// Constructing it checks every value; a bad one throws std::runtime_error naming the variable,
// so a program stops at start with a clear message instead of failing a request later.
class Config {
 public:
  static Config FromEnvironment();

  std::string pg_dsn;                 // ICAT_PG_DSN: the handlers' connection (role icat_app)
  std::string pg_admin_dsn;           // ICAT_PG_ADMIN_DSN: icatctl's connection (the owner role)
  int pg_statement_timeout_ms = 0;    // ICAT_PG_STATEMENT_TIMEOUT_MS
  RedisEndpoint redis;                // ICAT_REDIS_URL, the password possibly from ICAT_REDIS_PASSWORD_FILE
  int redis_timeout_ms = 0;           // ICAT_REDIS_TIMEOUT_MS: connect and command timeout
  std::string key_prefix;             // ICAT_KEY_PREFIX
  int key_cache_seconds = 0;          // ICAT_KEY_CACHE_SECONDS
  std::string key_cache_secret;       // read from ICAT_KEY_CACHE_SECRET_FILE; empty when unset
  int key_failure_limit_per_minute = 0;  // ICAT_KEY_FAILURE_LIMIT_PER_MINUTE, per client address
  int rate_limit_per_minute = 0;      // ICAT_RATE_LIMIT_PER_MINUTE (0 turns the limit off)
  long max_body_bytes = 0;            // ICAT_MAX_BODY_BYTES
  std::string registry;               // ICAT_REGISTRY: default repository prefix of new images
  size_t worker_cache_bytes = 0;       // ICAT_WORKER_CACHE_MB, per worker
  int worker_cache_seconds = 0;        // ICAT_WORKER_CACHE_SECONDS (0 turns the reply cache off)
  std::string log_level;              // ICAT_LOG_LEVEL: debug, info, warn, error
  std::string jwt_secret;             // read from ICAT_JWT_SECRET_FILE; empty when unset
  std::string blob_dir;               // ICAT_BLOB_DIR: the SBOM blob store
  long ingest_max_bytes = 0;          // ICAT_INGEST_MAX_BYTES: largest file icatctl ingest reads
  std::string signing_key_file;       // ICAT_SIGNING_KEY_FILE: path only, read by icatctl ingest
  LoginLimits login_limits;           // ICAT_LOGIN_LIMIT_*: portal login attempts
  int refresh_token_days = 0;         // ICAT_REFRESH_TOKEN_DAYS
  std::vector<IpNetwork> trusted_proxies;  // ICAT_TRUSTED_PROXIES: checked here, applied by nginx (realip)
  WebhookUrlPolicy webhook_policy;    // ICAT_WEBHOOK_ALLOW_HTTP, ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS

  // Raw value of any setting of the table (environment or default).
  static std::string Get(std::string_view name);
};

}  // namespace icat
