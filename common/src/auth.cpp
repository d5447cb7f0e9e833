// Identify, authorise, rate limit: the credential's offline check, an API key's state from the Redis
// cache (Postgres when Redis is down), its scope, the per-key rate limit and the throttled last-used
// time; a portal caller's token and stored person; a registry publisher.
#include "icat/auth.hpp"

#include <strings.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <stdexcept>
#include <unordered_map>

#include "icat/api_key.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/jwt.hpp"
#include "icat/log.hpp"
#include "icat/metrics.hpp"
#include "icat/paging.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"
#include "icat/worker_cache.hpp"

namespace icat {

namespace {
// clang-format off
constexpr Statement kLookupKey{"auth_lookup_key",
    "SELECT key_id, tenant_id, scopes, extract(epoch FROM expires_at)::bigint AS expires_at, "
    "revoked_at IS NOT NULL AS revoked "
    "FROM auth_api_key($1::bytea)"};
// Written at most once a minute per key: the WHERE makes a recent use a no-op.
constexpr Statement kTouchKey{"auth_touch_key",
    "UPDATE api_keys SET last_used_at = now() WHERE id = $1 "
    "AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')"};
// The keys whose revoke was announced since $1 (the database's time of the last poll, less a margin
// for revokes that commit after their UPDATE), or in the last $2 seconds on a worker's first poll;
// and the database's time now, from which the next poll counts.
constexpr Statement kRevokedSince{"auth_revoked_since",
    "SELECT now() AS polled_at, ARRAY(SELECT key_id FROM auth_keys_revoked_since("
    "coalesce($1::timestamptz, now() - make_interval(secs => $2)) - make_interval(secs => $3))) AS key_ids"};
// $1 the name a registry client sent, $2 SHA-256 of its password (sql/V0027).
constexpr Statement kLookupPublisher{"auth_lookup_publisher",
    "SELECT name FROM registry_publisher($1, $2::bytea)"};
// clang-format on
constexpr std::string_view kLive = "key";
constexpr std::string_view kRevoked = "revoked";
constexpr std::string_view kUnknown = "unknown";
constexpr int kUnknownCacheSeconds = 60;
// The rate-limit window: a key's requests and an address's failed look-ups are counted per window of
// this length (ICAT_RATE_LIMIT_PER_MINUTE, ICAT_KEY_FAILURE_LIMIT_PER_MINUTE), each count kept two.
constexpr int kWindowSeconds = 60;
// A key's last_used_at is written at most once in this long (kTouchKey's interval says the same).
constexpr int kLastUsedEverySeconds = 60;
// How often, at most, a worker asks Postgres for new revokes: the time a revoke whose tombstone
// did not reach Redis takes to be in force everywhere.
constexpr auto kRevokePollInterval = std::chrono::seconds(1);
// The most a poll may wait for Postgres: it sits in front of reads the caches answer, which must
// not wait for a stalled Postgres (docs/security.md, "A stalled Postgres").
constexpr auto kRevokePollWait = std::chrono::milliseconds(250);
// How far before its last poll a worker looks again: a revoke's announcement is stamped at its
// UPDATE and seen at its COMMIT. A revoke slower than this between the two was answered "unknown"
// (the handler's deadline is far shorter); its repeat announces it again.
constexpr int kRevokeCommitMarginSeconds = 60;

// A key's state as Postgres last said it, cached in Redis. The entry is signed with the server's
// ICAT_KEY_CACHE_SECRET and carries the time it stops being believed, so whoever can write to Redis
// can neither mint a key, widen its scopes, nor bring back a stale entry for longer than it lived:
// "<state>|<key id>|<tenant>|<scopes,comma,separated>|<key expires epoch or 0>|<believed until>|<hmac hex>".
struct KeyRecord {
  std::string state;  // kLive, kRevoked or kUnknown
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

// The MAC binds the entry to the key it was filled for (its hash names the Redis key).
std::string EntryMac(const Config& config, std::string_view hash_hex, std::string_view payload) {
  return HexEncode(HmacSha256(config.key_cache_secret, std::string(hash_hex) + "|" + std::string(payload)));
}

std::string Encode(const Config& config, std::string_view hash_hex, const KeyRecord& r, long long believed_until) {
  std::string scopes;
  for (const std::string& s : r.scopes) scopes += (scopes.empty() ? "" : ",") + s;
  std::string payload = r.state + "|" + r.key_id + "|" + r.tenant_id + "|" + scopes + "|" +
                        std::to_string(r.expires_epoch) + "|" + std::to_string(believed_until);
  return payload + "|" + EntryMac(config, hash_hex, payload);
}

// nullopt for anything not signed by us for this key, or past its time: Postgres decides then.
std::optional<KeyRecord> Decode(const Config& config, std::string_view hash_hex, std::string_view text, long long now) {
  size_t bar = text.rfind('|');
  if (bar == std::string_view::npos) return std::nullopt;
  std::string_view payload = text.substr(0, bar);
  if (!ConstantTimeEqual(text.substr(bar + 1), EntryMac(config, hash_hex, payload))) {
    LogWarn("redis: a cached API-key entry fails its signature check; asking Postgres");
    return std::nullopt;
  }
  std::vector<std::string> parts = Split(payload, '|');
  if (parts.size() != 6 || std::atoll(parts[5].c_str()) < now) return std::nullopt;
  KeyRecord r{parts[0], parts[1], parts[2], {}, std::atoll(parts[4].c_str())};
  if (r.state == kLive) r.scopes = Split(parts[3], ',');
  return r;
}

KeyRecord LookUpInPostgres(Db& db, std::string_view hash_hex) {
  Rows rows = db.Run(kLookupKey, {"\\x" + std::string(hash_hex)});
  if (rows.empty()) return {std::string(kUnknown)};
  if (rows.Bool(0, rows.Column("revoked"))) return {std::string(kRevoked)};
  return {std::string(kLive), std::string(rows.Text(0, rows.Column("key_id"))),
          std::string(rows.Text(0, rows.Column("tenant_id"))), ParseTextArray(rows.Text(0, rows.Column("scopes"))),
          rows.Int(0, rows.Column("expires_at"))};
}

// Revokes from Postgres: the keys revoked lately, as this worker last heard (one per worker
// process). A live entry from Redis is believed only while what the worker heard is less than a
// second old, so a revoke whose tombstone never reached Redis (a stalled or restarted Redis, a
// replayed entry) is in force on every node a second after its commit. One small indexed query per
// worker per second, and only while it serves keys from Redis.
class RecentRevokes {
 public:
  // Whether the key was revoked, polling first when the last poll is more than a second old.
  bool Has(Db& db, const Config& config, const std::string& key_id) {
    auto now = std::chrono::steady_clock::now();
    if (now >= next_poll_) Poll(db, config, now);
    auto found = kept_until_.find(key_id);
    return found != kept_until_.end() && found->second > now;
  }

 private:
  // Keeps each revoked key for as long as a live entry cached before its revoke can be believed.
  // Without Postgres the worker keeps what it has: no revoke can complete meanwhile.
  void Poll(Db& db, const Config& config, std::chrono::steady_clock::time_point now) {
    next_poll_ = now + kRevokePollInterval;
    const int keep_seconds = config.key_cache_seconds + kWindowSeconds;
    try {
      db.ShortenBudget(kRevokePollWait);
      Rows rows = db.Run(kRevokedSince, {polled_at_, keep_seconds, kRevokeCommitMarginSeconds});
      polled_at_ = std::string(rows.Text(0, rows.Column("polled_at")));
      for (const std::string& key_id : ParseTextArray(rows.Text(0, rows.Column("key_ids")))) {
        kept_until_[key_id] = now + std::chrono::seconds(keep_seconds);
      }
    } catch (const DbError& e) {
      LogWarn(std::string("postgres: cannot poll for key revokes; keeping what this worker knows: ") + e.what());
    }
    db.StartBudget();  // the request's own budget from here: the poll took at most kRevokePollWait
    std::erase_if(kept_until_, [&](const auto& kept) { return kept.second <= now; });
  }

  std::unordered_map<std::string, std::chrono::steady_clock::time_point> kept_until_;  // by key id
  std::optional<std::string> polled_at_;  // the database's time at the last poll that answered
  std::chrono::steady_clock::time_point next_poll_{};
};

RecentRevokes& WorkerRevokes() {
  static RecentRevokes revokes;
  return revokes;
}

[[noreturn]] void Unauthenticated(std::string message) {
  ApiError error(Error::kUNAUTHENTICATED, std::move(message));
  error.headers.emplace_back("WWW-Authenticate", "Bearer");
  throw error;
}

std::string HeaderKey(const Request& request) {
  std::string authorization = request.Header("authorization");
  if (authorization.size() > 7 && strncasecmp(authorization.c_str(), "Bearer ", 7) == 0) {
    return authorization.substr(7);
  }
  return request.Header("x-api-key");
}

// The key in a header, or in the path on a route with a {key} segment. Both at once is refused
// (RFC 6750 section 2: one method per request), as 401 rather than 400 so that the webhook's
// caller sees it as a refused credential, like any other key it has to fix.
std::string PresentedKey(const Request& request) {
  std::string header = HeaderKey(request);
  auto in_path = request.path_params.find(std::string(kKeyParam));
  if (in_path == request.path_params.end()) return header;
  if (!header.empty()) Unauthenticated("Send the API key once: in the path or in a header, not both.");
  return in_path->second;
}

// Authorization: Basic base64(user ":" password) (RFC 7617); nullopt when absent or not that.
std::optional<BasicCredential> BasicCredentialOf(const Request& request) {
  std::string authorization = request.Header("authorization");
  if (authorization.size() <= 6 || strncasecmp(authorization.c_str(), "Basic ", 6) != 0) return std::nullopt;
  std::optional<std::string> decoded = Base64Decode(Trim(std::string_view(authorization).substr(6)));
  if (!decoded) return std::nullopt;
  size_t colon = decoded->find(':');
  if (colon == std::string::npos || !IsCleanText(*decoded)) return std::nullopt;
  return BasicCredential{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

// The seconds left in the rate-limit window of `now`: a 429's Retry-After.
long long SecondsToWindowEnd(long long now) { return kWindowSeconds - now % kWindowSeconds; }

// Failed look-ups (unknown, revoked or expired keys) of one client address in this minute.
std::string FailureWindowKey(const Request& request, long long now) {
  return "icat:keyfail:" + request.client_ip + ":" + std::to_string(now / kWindowSeconds);
}

void CountFailure(const Context& ctx, long long now) {
  std::string window = FailureWindowKey(ctx.request, now);
  (void)ctx.redis.Pipeline({{"INCR", window}, {"EXPIRE", window, std::to_string(2 * kWindowSeconds)}});
}

// A key that is not a live key: counted against the caller's address, then 401.
[[noreturn]] void RefuseKey(const Context& ctx, const KeyRecord& record, long long now) {
  CountFailure(ctx, now);
  if (record.state == kRevoked) Unauthenticated("The API key has been revoked.");
  if (record.state == kLive) Unauthenticated("The API key has expired.");
  Unauthenticated("The API key is not valid.");
}

// What an API key's one Redis round trip read.
struct CachedKey {
  std::optional<KeyRecord> record;  // our signed entry for this key, still believed
  long long failed_lookups = 0;     // the caller's address's, this window; without Redis none are counted
  std::optional<std::string> cache_generation;
  KeyUse use;
  bool answered = false;  // Redis answered: a record read from Postgres is cached there
};

// The cached record, this window's count, whether this is the key's first use this minute, the
// catalogue's cache generation and the failed look-ups of the caller's address: one round trip.
CachedKey ReadCachedKey(const Context& ctx, const std::string& hash_hex, long long now) {
  std::string window_key = "icat:rate:" + hash_hex.substr(0, 32) + ":" + std::to_string(now / kWindowSeconds);
  auto replies =
      ctx.redis.Pipeline({{"GET", ApiKeyCacheKey(hash_hex)},
                          {"INCR", window_key},
                          {"EXPIRE", window_key, std::to_string(2 * kWindowSeconds)},
                          {"SET", "icat:lastused:" + hash_hex, "1", "EX", std::to_string(kLastUsedEverySeconds), "NX"},
                          {"GET", std::string(kCacheGenerationKey)},
                          {"GET", FailureWindowKey(ctx.request, now)}});
  CachedKey cached;
  cached.use.at = now;
  cached.use.last_used_due = true;  // without Redis, the UPDATE's own condition throttles
  if (!replies) return cached;
  cached.answered = true;
  if ((*replies)[0].type == RedisReply::Type::kString)
    cached.record = Decode(ctx.config, hash_hex, (*replies)[0].text, now);
  if ((*replies)[1].type == RedisReply::Type::kInteger) cached.use.requests_in_window = (*replies)[1].integer;
  cached.use.last_used_due = !(*replies)[3].IsNil();
  // Redis holds no generation (its first start, or it lost its data): one for the next request.
  if ((*replies)[4].type == RedisReply::Type::kString)
    cached.cache_generation = (*replies)[4].text;
  else
    StartCacheGeneration(ctx.redis);
  if ((*replies)[5].type == RedisReply::Type::kString) cached.failed_lookups = std::atoll((*replies)[5].text.c_str());
  return cached;
}

// The key's state as Postgres says it, unless the cache said it and Postgres heard of no revoke
// since. Past the address's limit of failed look-ups only a key known live from the cache goes on:
// no Postgres look-up (429).
KeyRecord KnownRecord(const Context& ctx, const std::string& hash_hex, CachedKey& cached, long long now) {
  std::optional<KeyRecord>& record = cached.record;
  // Redis may hand back a live entry its tombstone never replaced: what Postgres says wins.
  if (record && record->state == kLive && WorkerRevokes().Has(ctx.db, ctx.config, record->key_id)) {
    record = KeyRecord{std::string(kRevoked)};
  }
  if (cached.failed_lookups >= ctx.config.key_failure_limit_per_minute && !(record && record->state == kLive)) {
    ApiError error(Error::kRATE_LIMITED, "Too many failed API-key look-ups from this address; retry later.");
    error.headers.emplace_back("Retry-After", std::to_string(SecondsToWindowEnd(now)));
    metrics::Add(metrics::Metric::kKeyFailuresLimited);
    throw error;
  }
  if (record) return std::move(*record);
  KeyRecord looked_up = LookUpInPostgres(ctx.db, hash_hex);
  if (cached.answered) {
    int ttl = looked_up.state == kUnknown ? kUnknownCacheSeconds : ctx.config.key_cache_seconds;
    (void)ctx.redis.Command({"SET", ApiKeyCacheKey(hash_hex), Encode(ctx.config, hash_hex, looked_up, now + ttl), "EX",
                             std::to_string(ttl), "NX"});
  }
  return looked_up;
}

// An API key of the right form: a live key's tenant, id and scopes, or 401 (counted against the
// caller's address), or 429.
Identity IdentifyKey(const Credential& credential, const Context& ctx) {
  std::string hash_hex = Sha256Hex(credential.api_key);
  long long now = std::time(nullptr);
  CachedKey cached = ReadCachedKey(ctx, hash_hex, now);
  KeyRecord record = KnownRecord(ctx, hash_hex, cached, now);
  if (record.state != kLive || (record.expires_epoch != 0 && record.expires_epoch <= now)) {
    RefuseKey(ctx, record, now);
  }
  Identity identity{.cache_generation = std::move(cached.cache_generation), .key_use = cached.use};
  identity.principal.tenant_id = std::move(record.tenant_id);
  identity.principal.key_id = std::move(record.key_id);
  identity.principal.key_prefix = credential.key_prefix;
  identity.principal.scopes = std::move(record.scopes);
  return identity;
}

// A registry publisher's name and password, looked up in Postgres each time, so a revoke holds at once.
Identity IdentifyPublisher(const BasicCredential& publisher, const Context& ctx) {
  Rows rows = ctx.db.Run(kLookupPublisher, {publisher.user, ByteaHex(Sha256(publisher.password))});
  if (rows.empty()) {
    CountFailure(ctx, std::time(nullptr));
    Unauthenticated("The username and password are neither an API key nor a publisher's.");
  }
  Identity identity;
  identity.principal.publisher = rows.Text(0, rows.Column("name"));
  return identity;
}

// A key of the right form, with the part of it that may be shown (the portal lists it).
Credential KeyCredential(std::string key, const Config& config) {
  // A typo costs nothing (the checksum is checked offline), so it is not counted as a failed look-up.
  if (!ApiKeyWellFormed(key, config.key_prefix)) Unauthenticated("The API key is not valid.");
  std::string prefix = key.substr(0, kKeyListedPrefixChars);
  return Credential{.api_key = std::move(key), .key_prefix = std::move(prefix)};
}

// A portal caller: X-Tenant and an access token (Bearer) of that tenant. No credential is 401 with the
// challenge, so a client knows to send its person to sign in; a token without X-Tenant is a malformed
// request (400 naming the header).
Credential PortalCredential(const Request& request, const Config& config) {
  std::string tenant = request.Header("x-tenant");
  std::string authorization = request.Header("authorization");
  if (authorization.size() <= 7 || strncasecmp(authorization.c_str(), "Bearer ", 7) != 0) {
    Unauthenticated("Sign in: send Authorization: Bearer <access token> and X-Tenant.");
  }
  if (tenant.empty()) ThrowInvalid("X-Tenant", "header is required: the tenant's subdomain");
  std::optional<AccessClaims> claims =
      VerifyAccessToken(authorization.substr(7), config.jwt_secret, std::time(nullptr));
  tenant = Lower(tenant);
  if (!claims) Unauthenticated("The access token is invalid or expired; sign in again.");
  if (claims->tenant != tenant) Unauthenticated("The access token belongs to another tenant.");
  return Credential{.token = std::move(claims)};
}

// A registry client: HTTP Basic, any username, the password an API key or a publisher's.
Credential RegistryCredential(const Request& request, const Config& config) {
  std::optional<BasicCredential> basic = BasicCredentialOf(request);
  if (!basic) {
    Unauthenticated("Sign in with a username (your tenant's name) and an API key with scope pull as the password.");
  }
  if (ApiKeyWellFormed(basic->password, config.key_prefix)) return KeyCredential(std::move(basic->password), config);
  return Credential{.publisher = std::move(basic)};
}
}  // namespace

const std::vector<Statement>& AuthStatements() {
  static const std::vector<Statement> statements = {kLookupKey, kTouchKey, kCurrentPerson, kRevokedSince,
                                                    kLookupPublisher};
  return statements;
}

std::string ApiKeyCacheKey(std::string_view key_hash_hex) { return "icat:apikey:" + std::string(key_hash_hex); }

bool MarkApiKeyRevoked(Redis& redis, const Config& config, std::string_view key_hash_hex) {
  // A plain SET overwrites whatever is cached; fills use NX, so a fill racing with this revoke can
  // never put the live record back. The tombstone outlives any live entry filled before it.
  if (config.key_cache_secret.empty()) {
    LogError("ICAT_KEY_CACHE_SECRET_FILE is not set: a key revoke cannot sign its tombstone");
    return false;
  }
  long long now = std::time(nullptr);
  int ttl = config.key_cache_seconds + kWindowSeconds;
  std::string tombstone = Encode(config, key_hash_hex, {std::string(kRevoked)}, now + ttl);
  auto reply = redis.Command({"SET", ApiKeyCacheKey(key_hash_hex), tombstone, "EX", std::to_string(ttl)});
  return reply && !reply->IsError();
}

bool RevokeCommitRolledBack(const DbError& error) {
  if (error.connection_lost) return false;
  return error.sqlstate.rfind("40", 0) == 0 || error.sqlstate.rfind("23", 0) == 0;
}

Credential ReadCredential(Access access, const Request& request, const Config& config) {
  switch (access) {
    case Access::kPublic:
      return {};
    case Access::kApiKey: {
      std::string key = PresentedKey(request);
      if (key.empty()) Unauthenticated("An API key is required: send Authorization: Bearer <key> or X-API-Key.");
      return KeyCredential(std::move(key), config);
    }
    case Access::kRegistry:
      return RegistryCredential(request, config);
    case Access::kPortal:
    case Access::kPortalAdmin:
    case Access::kPortalSelf:
      return PortalCredential(request, config);
  }
  throw std::logic_error("an Access without a credential");
}

Identity Identify(const Credential& credential, const Context& ctx) {
  if (!credential.api_key.empty()) return IdentifyKey(credential, ctx);
  if (credential.publisher) return IdentifyPublisher(*credential.publisher, ctx);
  Identity identity;
  if (credential.token) {
    identity.principal.tenant_id = credential.token->tenant_id;
    identity.principal.user_id = credential.token->user_id;
    identity.principal.role = credential.token->role;
    identity.principal.session_id = credential.token->session_id;
  }
  return identity;
}

void Authorise(const Route& route, const Principal& principal) {
  if (route.scope && principal.publisher.empty()) RequireScope(principal, NameOf(*route.scope));
  if (route.access == Access::kPortalAdmin && principal.role != "admin") {
    throw ApiError(Error::kFORBIDDEN, "This needs the admin role; yours is " + principal.role + ".");
  }
}

RateLimit LimitRate(const Config& config, const KeyUse& use) {
  int limit = config.rate_limit_per_minute;
  if (limit == 0 || !use.requests_in_window) return {};
  long long reset = SecondsToWindowEnd(use.at);
  long long remaining = std::max(0LL, limit - *use.requests_in_window);
  RateLimit verdict;
  verdict.headers.emplace_back("RateLimit-Policy", std::to_string(limit) + ";w=" + std::to_string(kWindowSeconds));
  verdict.headers.emplace_back("RateLimit", "limit=" + std::to_string(limit) + ", remaining=" +
                                                std::to_string(remaining) + ", reset=" + std::to_string(reset));
  if (*use.requests_in_window > limit) {
    verdict.refusal.emplace(Error::kRATE_LIMITED, "Rate limit of " + std::to_string(limit) +
                                                      " requests per minute exceeded for this API key.");
    verdict.refusal->headers.emplace_back("Retry-After", std::to_string(reset));
    metrics::Add(metrics::Metric::kRateLimited);
  }
  return verdict;
}

void TouchApiKey(Db& db, const KeyTouch& touch) {
  db.StartBudget();
  try {
    db.ReadAsTenant(touch.tenant_id);
    db.Exec(kTouchKey, {touch.key_id});
    db.Commit();
  } catch (const DbError& e) {
    db.Rollback();
    LogWarn("rid=" + touch.request_id + " key=" + touch.key_prefix +
            " postgres: last-used time not written: " + e.what());
  }
}

StoredPerson CurrentPerson(Db& db, const Principal& principal) {
  constexpr const char* kGone = "This account no longer exists or is disabled; sign in again.";
  if (!IsUuid(principal.user_id) || !IsUuid(principal.session_id)) Unauthenticated(kGone);
  Rows rows = db.Run(kCurrentPerson, {principal.tenant_id, principal.user_id, principal.session_id});
  if (rows.empty()) Unauthenticated(kGone);
  return {std::string(rows.Text(0, rows.Column("role"))), std::string(rows.Text(0, rows.Column("email")))};
}

void RequireScope(const Principal& principal, std::string_view scope) {
  if (std::find(principal.scopes.begin(), principal.scopes.end(), scope) != principal.scopes.end()) return;
  ApiError error(Error::kINSUFFICIENT_SCOPE, "This endpoint needs an API key with scope " + std::string(scope) + ".");
  error.headers.emplace_back("WWW-Authenticate",
                             "Bearer error=\"insufficient_scope\", scope=\"" + std::string(scope) + "\"");
  throw error;
}

}  // namespace icat
