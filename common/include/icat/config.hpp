// Settings: one sorted table of typed ICAT_* environment variables; every program reads and checks
// them through it, so each rule (type, range, choices) is written once, in its row.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "icat/hash_gate.hpp"
#include "icat/login_limit.hpp"
#include "icat/redis.hpp"
#include "icat/url_guard.hpp"

namespace icat {

// What a setting's value must be; RuleText says it in words for the README and the errors.
enum class SettingType {
  kInt,         // a whole number from min to max
  kIntList,     // comma-separated whole numbers, each from min to max
  kBool,        // 0 or 1
  kEnum,        // one of choices
  kWord,        // 1 to max lower-case letters or digits
  kText,        // anything
  kDirectory,   // an absolute path; empty too when the default is empty (then: none)
  kHostPort,    // host:port or [IPv6]:port, port 1 to 65535
  kFile,        // a path, read only by the program that needs the file
  kSecretFile,  // a path to a file of at least min bytes, read at start; its contents never printed
  kCidrList,    // comma-separated addresses or CIDRs
  kRedisUrl,    // ParseRedisUrl
  kPgDsn,       // a libpq connection string (PQconninfoParse)
};

class Config;

// The programs that use a setting (a bit each).
enum SettingReader : unsigned { kHandlers = 1, kDispatcher = 2, kIcatctl = 4, kStack = 8, kMetrics = 16 };

struct Setting {
  std::string_view name;  // ICAT_...; a name ending in "_<GROUP>" is a family: ICAT_WORKERS_AUTH, ...
  SettingType type;
  std::string_view default_value;  // a family's default is the setting its name starts with
  long long min = 0, max = 0;      // kInt, kIntList: range; kWord: longest; kSecretFile: fewest bytes
  std::string_view choices;        // kEnum: comma-separated
  unsigned readers = 0;            // SettingReader bits
  std::string_view description;    // one line, as the README shows it
  // Stores the checked value in the Config field that holds it; nullptr for a setting Config does
  // not hold (read by one program itself, or only by tools/stack).
  void (*fill)(Config& config, std::string_view name) = nullptr;
};

// A setting whose value breaks its row's rule; the message names the variable (never a secret).
struct SettingError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The table, sorted by name (a unit test checks the order and that README.md shows its rows).
const std::vector<Setting>& AllSettings();

// "a whole number from 10 to 60000", "0 or 1", ...: the row's rule in words.
std::string RuleText(const Setting& setting);
// "handlers, icatctl": who reads the row.
std::string ReadersText(const Setting& setting);

// A setting's checked value: the environment's where set and not empty, else the row's default.
// A secret file's value is its path. SettingError when the value breaks the rule; std::logic_error
// for a name that is not in the table or a reader of the wrong type.
std::string TextSetting(std::string_view name);
int IntSetting(std::string_view name);
bool BoolSetting(std::string_view name);
std::vector<int> IntListSetting(std::string_view name);

// Every setting's checked value, in table order: a family's members as the environment sets them.
// What icatctl config --shell prints; SettingError at the first bad one.
std::vector<std::pair<std::string, std::string>> CheckedSettings();

// The settings the handlers, the dispatcher and icatctl share, checked and converted at start.
// Mail of e-mail channels (docs/notifications.md): ICAT_SMTP_* and ICAT_MAIL_TOKEN_KEY_FILE.
struct SmtpSettings {
  std::string url;                // smtp://host:port or smtps://host:port; empty: no e-mail channels
  bool starttls_required = true;  // ICAT_SMTP_STARTTLS: off only for a local catcher
  std::string user, password;     // auth when user is set
  std::string from;               // the From header and envelope sender
  std::string ca_file;            // CA certificates (PEM) the server's must chain to; empty: the system's
  std::string token_key;          // the key of the confirm and unsubscribe tokens
};

class Config {
 public:
  // SettingError naming the variable of the first bad value, so a program stops at start with a
  // clear message instead of failing a request later.
  static Config FromEnvironment();

  std::string pg_dsn;                      // ICAT_PG_DSN: the handlers' connection (role icat_app)
  std::string pg_admin_dsn;                // ICAT_PG_ADMIN_DSN: icatctl's connection (the owner role)
  int pg_statement_timeout_ms = 0;         // ICAT_PG_STATEMENT_TIMEOUT_MS
  std::string pg_read_dsn;                 // ICAT_PG_READ_DSN: the standbys of read-only requests; empty: none
  int pg_max_replica_lag_ms = 0;           // ICAT_PG_MAX_REPLICA_LAG_MS: a standby further behind is skipped
  RedisEndpoint redis;                     // ICAT_REDIS_URL, the password possibly from ICAT_REDIS_PASSWORD_FILE
  int redis_timeout_ms = 0;                // ICAT_REDIS_TIMEOUT_MS: connect and command timeout
  std::string key_prefix;                  // ICAT_KEY_PREFIX
  int key_cache_seconds = 0;               // ICAT_KEY_CACHE_SECONDS
  std::string key_cache_secret;            // read from ICAT_KEY_CACHE_SECRET_FILE; empty when unset
  int key_failure_limit_per_minute = 0;    // ICAT_KEY_FAILURE_LIMIT_PER_MINUTE, per client address
  int rate_limit_per_minute = 0;           // ICAT_RATE_LIMIT_PER_MINUTE (0 turns the limit off)
  long max_body_bytes = 0;                 // ICAT_MAX_BODY_BYTES
  std::string console_url;                 // ICAT_CONSOLE_URL: the console of tenant {tenant}; empty: none
  std::string registry;                    // ICAT_REGISTRY: pull host and repository prefix of new images
  std::string registry_upstream;           // ICAT_REGISTRY_UPSTREAM: the registry itself (http://host:port)
  std::string registry_events_secret;      // read from ICAT_REGISTRY_EVENTS_SECRET_FILE; empty: no notifications
  size_t worker_cache_bytes = 0;           // ICAT_WORKER_CACHE_MB, per worker
  int worker_cache_seconds = 0;            // ICAT_WORKER_CACHE_SECONDS (0 turns the reply cache off)
  std::string log_level;                   // ICAT_LOG_LEVEL: debug, info, warn, error
  std::string log_format;                  // ICAT_LOG_FORMAT: text or json
  std::string jwt_secret;                  // read from ICAT_JWT_SECRET_FILE; empty when unset
  std::string blob_dir;                    // ICAT_BLOB_DIR: the SBOM blob store
  std::string pool_address;                // ICAT_POOL_ADDRESS: each pool's FastCGI address, {group} in it
  std::string metrics_dir;                 // ICAT_METRICS_DIR: where this program keeps its metrics; empty: none
  long ingest_max_bytes = 0;               // ICAT_INGEST_MAX_BYTES: largest file icatctl ingest reads
  std::string ingest_fetch_ca_file;        // ICAT_INGEST_FETCH_CA_FILE: CAs of https:// inputs; empty: the system's
  std::string ingest_fetch_token;          // read from ICAT_INGEST_FETCH_TOKEN_FILE: Bearer token of https:// inputs
  std::string signing_key_file;            // ICAT_SIGNING_KEY_FILE: path only, read by icatctl ingest and vex ingest
  std::string attestation_key_file;        // ICAT_ATTESTATION_KEY_FILE: path only, read by icatctl (attestations)
  LoginLimits login_limits;                // ICAT_LOGIN_LIMIT_*: portal login attempts
  HashGateLimits hash_gate;                // ICAT_PASSWORD_HASH_CONCURRENCY*: password hashes at once
  int refresh_token_days = 0;              // ICAT_REFRESH_TOKEN_DAYS
  int setup_token_hours = 0;               // ICAT_SETUP_TOKEN_HOURS: lifetime of a user's set-up link
  std::vector<IpNetwork> trusted_proxies;  // ICAT_TRUSTED_PROXIES: checked here, applied by nginx (realip)
  SmtpSettings smtp;                       // ICAT_SMTP_*, ICAT_MAIL_TOKEN_KEY_FILE
  WebhookUrlPolicy webhook_policy;         // ICAT_WEBHOOK_ALLOW_HTTP, ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS
  WebhookUrlPolicy oidc_policy;  // ICAT_OIDC_ALLOW_HTTP, ICAT_OIDC_ALLOW_PRIVATE_CIDRS: reaching OpenID Providers
  std::string sso_key;           // read from ICAT_SSO_KEY_FILE: seals OpenID client and TOTP secrets
};

}  // namespace icat
