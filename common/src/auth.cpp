// API-key authentication: offline form check, Redis cache (Postgres when Redis is down),
// state, scope, the per-key rate limit and the throttled last-used time.
#include "icat/auth.hpp"

#include <strings.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "icat/api_key.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/jwt.hpp"
#include "icat/log.hpp"
#include "icat/worker_cache.hpp"

namespace icat {

namespace {
constexpr std::string_view kLookupKey = "auth_lookup_key";
constexpr std::string_view kTouchKey = "auth_touch_key";
constexpr std::string_view kAuditInsert = "auth_audit_insert";
constexpr std::string_view kRevoked = "revoked";
constexpr std::string_view kUnknown = "unknown";
constexpr int kUnknownCacheSeconds = 60;
constexpr int kWindowSeconds = 60;

// What the cache holds for a live key: "key|<id>|<tenant>|<scopes,comma,separated>|<expires epoch or 0>".
struct KeyRecord {
  std::string state;  // "key", "revoked" or "unknown"
  std::string key_id, tenant_id;
  std::vector<std::string> scopes;
  long long expires_epoch = 0;
};

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) end = text.size();
    parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string Encode(const KeyRecord& r) {
  if (r.state != "key") return r.state;
  std::string scopes;
  for (const std::string& s : r.scopes) scopes += (scopes.empty() ? "" : ",") + s;
  return "key|" + r.key_id + "|" + r.tenant_id + "|" + scopes + "|" + std::to_string(r.expires_epoch);
}

std::optional<KeyRecord> Decode(std::string_view text) {
  KeyRecord r;
  if (text == kRevoked || text == kUnknown) {
    r.state = text;
    return r;
  }
  std::vector<std::string> parts = Split(text, '|');
  if (parts.size() != 5 || parts[0] != "key") return std::nullopt;
  r.state = "key";
  r.key_id = parts[1];
  r.tenant_id = parts[2];
  r.scopes = Split(parts[3], ',');
  r.expires_epoch = std::atoll(parts[4].c_str());
  return r;
}

KeyRecord LookUpInPostgres(Db& db, std::string_view hash_hex) {
  Rows rows = db.Run(kLookupKey, {"\\x" + std::string(hash_hex)});
  KeyRecord r;
  if (rows.empty()) {
    r.state = kUnknown;
  } else if (rows.Bool(0, 4)) {
    r.state = kRevoked;
  } else {
    r.state = "key";
    r.key_id = rows.Text(0, 0);
    r.tenant_id = rows.Text(0, 1);
    r.scopes = ParseTextArray(rows.Text(0, 2));
    r.expires_epoch = rows.Int(0, 3);
  }
  return r;
}

std::string PresentedKey(const Request& request) {
  std::string authorization = request.Header("authorization");
  if (authorization.size() > 7 && strncasecmp(authorization.c_str(), "Bearer ", 7) == 0) {
    return authorization.substr(7);
  }
  return request.Header("x-api-key");
}

[[noreturn]] void Unauthenticated(std::string message) {
  ApiError error(Error::kUNAUTHENTICATED, std::move(message));
  error.headers.emplace_back("WWW-Authenticate", "Bearer");
  throw error;
}

// Adds the RateLimit headers; throws 429 past the limit. count is this window's count, or
// nullopt when Redis could not count (the limit fails open then).
void ApplyRateLimit(Context& ctx, std::optional<long long> count, long long now) {
  int limit = ctx.config.rate_limit_per_minute;
  if (limit == 0 || !count) return;
  long long reset = kWindowSeconds - now % kWindowSeconds;
  long long remaining = std::max(0LL, limit - *count);
  ctx.reply_headers.emplace_back("RateLimit-Policy", std::to_string(limit) + ";w=" + std::to_string(kWindowSeconds));
  ctx.reply_headers.emplace_back("RateLimit", "limit=" + std::to_string(limit) + ", remaining=" +
                                                  std::to_string(remaining) + ", reset=" + std::to_string(reset));
  if (*count > limit) {
    ApiError error(Error::kRATE_LIMITED, "Rate limit of " + std::to_string(limit) +
                                             " requests per minute exceeded for this API key.");
    error.headers.emplace_back("Retry-After", std::to_string(reset));
    throw error;
  }
}
}  // namespace

const std::vector<Statement>& AuthStatements() {
  static const std::vector<Statement> statements = {
      {kLookupKey,
       "SELECT key_id, tenant_id, scopes, extract(epoch FROM expires_at)::bigint, revoked_at IS NOT NULL "
       "FROM auth_api_key($1::bytea)"},
      // Written at most once a minute per key: the WHERE makes a recent use a no-op.
      {kTouchKey,
       "UPDATE api_keys SET last_used_at = now() WHERE id = $1 "
       "AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')"},
      {kAuditInsert,
       "INSERT INTO audit_log (tenant_id, actor, action, target, client_ip, request_id, detail) "
       "VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)"},
  };
  return statements;
}

std::string ApiKeyCacheKey(std::string_view key_hash_hex) { return "icat:apikey:" + std::string(key_hash_hex); }

bool MarkApiKeyRevoked(Redis& redis, std::string_view key_hash_hex, int cache_seconds) {
  // A plain SET overwrites whatever is cached; fills use NX, so a fill racing with this
  // revoke can never put the live record back.
  auto reply = redis.Command({"SET", ApiKeyCacheKey(key_hash_hex), std::string(kRevoked), "EX",
                              std::to_string(cache_seconds)});
  return reply && !reply->IsError();
}

Principal AuthenticateApiKey(Context& ctx, std::string_view scope) {
  std::string key = PresentedKey(ctx.request);
  if (key.empty()) Unauthenticated("An API key is required: send Authorization: Bearer <key> or X-API-Key.");
  if (!ApiKeyWellFormed(key, ctx.config.key_prefix)) Unauthenticated("The API key is not valid.");

  std::string hash_hex = Sha256Hex(key);
  std::string cache_key = ApiKeyCacheKey(hash_hex);
  long long now = std::time(nullptr);
  std::string window_key = "icat:rate:" + hash_hex.substr(0, 32) + ":" + std::to_string(now / kWindowSeconds);
  // One round trip: the cached record, this window's count, whether this is the key's first use
  // this minute (last_used_at is written at most once a minute), and the catalogue generation.
  auto replies = ctx.redis.Pipeline({{"GET", cache_key},
                                     {"INCR", window_key},
                                     {"EXPIRE", window_key, "120"},
                                     {"SET", "icat:lastused:" + hash_hex, "1", "EX", "60", "NX"},
                                     {"GET", std::string(kCacheGenerationKey)}});

  std::optional<KeyRecord> record;
  std::optional<long long> count;
  bool first_use_this_minute = true;  // without Redis, the UPDATE's own condition throttles
  if (replies) {
    if ((*replies)[0].type == RedisReply::Type::kString) record = Decode((*replies)[0].text);
    if ((*replies)[1].type == RedisReply::Type::kInteger) count = (*replies)[1].integer;
    first_use_this_minute = !(*replies)[3].IsNil();
    if ((*replies)[4].type == RedisReply::Type::kString)
      ctx.cache_generation = (*replies)[4].text;
    else
      StartCacheGeneration(ctx.redis);
  }
  if (!record) {
    record = LookUpInPostgres(ctx.db, hash_hex);
    if (replies) {
      int ttl = record->state == kUnknown ? kUnknownCacheSeconds : ctx.config.key_cache_seconds;
      auto ignored = ctx.redis.Command({"SET", cache_key, Encode(*record), "EX", std::to_string(ttl), "NX"});
    }
  }
  if (record->state == kRevoked) Unauthenticated("The API key has been revoked.");
  if (record->state != "key") Unauthenticated("The API key is not valid.");
  if (record->expires_epoch != 0 && record->expires_epoch <= now) Unauthenticated("The API key has expired.");
  // Known from here on, so refusals below are logged against the tenant and key.
  ctx.principal.tenant_id = record->tenant_id;
  ctx.principal.key_id = record->key_id;
  ctx.principal.scopes = record->scopes;
  ctx.principal.touch_key = first_use_this_minute;

  if (std::find(record->scopes.begin(), record->scopes.end(), scope) == record->scopes.end()) {
    ApiError error(Error::kINSUFFICIENT_SCOPE, "This endpoint needs an API key with scope " + std::string(scope) + ".");
    error.headers.emplace_back("WWW-Authenticate",
                               "Bearer error=\"insufficient_scope\", scope=\"" + std::string(scope) + "\"");
    throw error;
  }
  ApplyRateLimit(ctx, count, now);

  return ctx.principal;
}

void TouchApiKey(Context& ctx) {
  if (ctx.principal.touch_key) Rows ignored = ctx.db.Run(kTouchKey, {ctx.principal.key_id});
}

Principal AuthenticatePortal(Context& ctx) {
  std::string tenant = ctx.request.Header("x-tenant");
  std::string authorization = ctx.request.Header("authorization");
  if (tenant.empty()) ThrowInvalid("X-Tenant", "header is required: the tenant's subdomain");
  if (authorization.size() <= 7 || strncasecmp(authorization.c_str(), "Bearer ", 7) != 0) {
    ThrowInvalid("Authorization", "header is required: Bearer <access token>");
  }
  std::optional<AccessClaims> claims = VerifyAccessToken(authorization.substr(7), ctx.config.jwt_secret, std::time(nullptr));
  std::transform(tenant.begin(), tenant.end(), tenant.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!claims) Unauthenticated("The access token is invalid or expired; sign in again.");
  if (claims->tenant != tenant) Unauthenticated("The access token belongs to another tenant.");
  ctx.principal.tenant_id = claims->tenant_id;
  ctx.principal.user_id = claims->user_id;
  ctx.principal.role = claims->role;
  // SPEC 4.2 rule 3, in one place: every write of the portal API needs the admin role.
  if (ctx.request.method != "GET" && claims->role != "admin") {
    throw ApiError(Error::kFORBIDDEN, "This needs the admin role; yours is " + claims->role + ".");
  }
  return ctx.principal;
}

void Audit(Context& ctx, std::string_view action, std::string_view target, std::string_view detail_json) {
  std::string actor = !ctx.principal.user_id.empty() ? "user:" + ctx.principal.user_id
                      : !ctx.principal.key_id.empty() ? "key:" + ctx.principal.key_id
                                                       : "anonymous";
  Rows ignored = ctx.db.Run(kAuditInsert, {ctx.principal.tenant_id, actor, action, target, ctx.request.client_ip,
                                           ctx.request.request_id, detail_json});
}

}  // namespace icat
