// Who is calling and what they may do (DESIGN.md section 4): the pipeline's phases identify, authorise
// and rate limit (pipeline.hpp), API keys cached in Redis with Postgres as the source of truth.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/errors.hpp"
#include "icat/jwt.hpp"
#include "icat/pipeline.hpp"

namespace icat {

// Statements authentication needs; every handler group prepares them.
const std::vector<Statement>& AuthStatements();

// A registry client's HTTP Basic credential (RFC 7617).
struct BasicCredential {
  std::string user, password;
};

// Identify, first step: the credential the request presents for the route's access, read from its
// headers (an API key also from a {key} path segment) and checked offline, before any look-up: a
// key's form and checksum (a typo costs no look-up), a portal token's signature, times and tenant.
// Empty for Access::kPublic. Throws ApiError 401 with WWW-Authenticate: Bearer (none, a key sent
// twice, a key of the wrong form, a bad or other tenant's token) or 400 (a token without X-Tenant).
struct Credential {
  std::string api_key;                       // a key of the right form: kApiKey's, or a registry client's password
  std::string key_prefix;                    // the key's listed prefix, the part logs may name it by
  std::optional<BasicCredential> publisher;  // a registry client whose password is no API key
  std::optional<AccessClaims> token;         // a portal caller's access token
};
Credential ReadCredential(Access access, const Request& request, const Config& config);

// What an API key's request learnt beside who is calling, in the same Redis round trip as the key.
struct KeyUse {
  std::optional<long long> requests_in_window;  // the key's, this one counted; unset: Redis did not count
  long long at = 0;                             // seconds since the epoch: the window it was counted in
  bool last_used_due = false;                   // the key's first use this minute: its last-used mark
};

// Identify, second step: who the credential belongs to. An API key's state comes from its signed
// entry in Redis (or Postgres, then cached), a registry publisher's from Postgres each time, a portal
// caller's from the token (the person as stored now is read in the handler's transaction:
// CurrentPerson). Throws ApiError 401 (an unknown, revoked or expired key; a name and password that
// are no publisher's), 429 (past ICAT_KEY_FAILURE_LIMIT_PER_MINUTE failed look-ups from the caller's
// address), DbError.
struct Identity {
  Principal principal;
  std::optional<std::string> cache_generation;  // read with an API key; unset: use no cached values
  KeyUse key_use;
};
Identity Identify(const Credential& credential, const Context& ctx);

// Authorise: 403 unless the principal may call the route. An API key holds the route's scope (a
// registry publisher needs none: DecidePull decides); a kPortalAdmin route's caller is an admin,
// which only the person as stored now says, so portal callers are authorised after CurrentPerson.
void Authorise(const Route& route, const Principal& principal);

// 403 INSUFFICIENT_SCOPE (with WWW-Authenticate naming the scope) unless the API key holds scope:
// Authorise's check of the route's scope, and a handler's of a second scope that only some of its
// answers need (a VEX attestation needs read:vulns besides the route's read:sbom).
void RequireScope(const Principal& principal, std::string_view scope);

// Rate limit: an API key's requests in this window against ICAT_RATE_LIMIT_PER_MINUTE. Nothing when
// the limit is off or Redis did not count (the limit fails open).
struct RateLimit {
  std::vector<Header> headers;      // RateLimit-Policy and RateLimit: on every reply from here on, a 429 too
  std::optional<ApiError> refusal;  // past the limit: 429 RATE_LIMITED with Retry-After
};
RateLimit LimitRate(const Config& config, const KeyUse& use);

// The signed-in person as stored now, read in the request's tenant scope: a token outlives a
// deletion, a disabling or a demotion by up to 15 minutes, and a request must not (issue 25). 401
// UNAUTHENTICATED when the person is gone or disabled or the token's session (sid) has ended.
struct StoredPerson {
  std::string role;
  std::string email;  // for the audit log
};
StoredPerson CurrentPerson(Db& db, const Principal& principal);

// clang-format off
// $1 tenant, $2 user, $3 the token's session (its refresh-token family): the signed-in person as
// stored now (CurrentPerson). No row: deleted, disabled, or the session ended (signed out, here or
// everywhere, a password change, a refresh token used twice: each revokes the family; an SSO
// session's hard end passed).
// Not locked: a write in flight when its author changes is ordered before the change (it read the
// person first); locking the caller's row made two admins changing each other deadlock.
inline constexpr Statement kCurrentPerson{"auth_current_person",
    "SELECT u.role, u.email FROM users u WHERE u.tenant_id = $1 AND u.id = $2::uuid AND u.disabled_at IS NULL "
    "AND EXISTS (SELECT FROM refresh_tokens r WHERE r.tenant_id = $1 AND r.family_id = $3::uuid "
    "AND r.user_id = u.id AND r.revoked_at IS NULL AND (r.session_ends_at IS NULL OR r.session_ends_at > now()))"};

// $1 tenant, $2 user: every portal session of the user ends (each refresh-token family revoked, and
// with it the access tokens of the family: CurrentPerson). The number of families (sign-ins) it
// ended. Signing out everywhere and a password change (auth) and disabling a user (account) run
// this one statement; each of the two groups prepares it.
inline constexpr Statement kRevokeUserSessions{"revoke_user_sessions",
    "WITH r AS (UPDATE refresh_tokens SET revoked_at = now() WHERE tenant_id = $1 AND user_id = $2::uuid "
    "AND revoked_at IS NULL RETURNING family_id) SELECT count(DISTINCT family_id) AS families FROM r"};
// $1 tenant, $2 user: the person's second factor and recovery codes are gone (they remove it
// themselves, auth; an admin resets it, account). No row: they had none; confirmed: it was in use.
inline constexpr Statement kDeleteTotpFactor{"delete_totp_factor",
    "WITH codes AS (DELETE FROM recovery_codes WHERE tenant_id = $1 AND user_id = $2::uuid) "
    "DELETE FROM totp_factors WHERE tenant_id = $1 AND user_id = $2::uuid "
    "RETURNING confirmed_at IS NOT NULL AS confirmed"};
// clang-format on

// Records that the key was used (at most once a minute: KeyUse::last_used_due), after the request's
// reply is out, within a budget of its own. A failure (Postgres unavailable) is logged, not retried.
void TouchApiKey(Db& db, const KeyTouch& touch);

// A revoke is complete when it commits in Postgres (docs/security.md, wall 3): every worker hears
// of it from there within a second. After the commit, this leaves the tombstone in Redis, so the
// cache answers "revoked" at once, whatever a concurrent cache fill does. key_hash_hex is the hex
// of the stored SHA-256. One try; false when Redis could not take it, which the caller reports
// (the revoke holds all the same).
[[nodiscard]] bool MarkApiKeyRevoked(Redis& redis, const Config& config, std::string_view key_hash_hex);

// Whether a revoke's COMMIT that failed with this error certainly did not take effect: the server
// answered that the transaction rolled back (class 40, or 23 for a check at commit). Any other
// failure (the connection lost, the server shutting down) may have come after the commit took
// effect, so the outcome is unknown and the revoke must be run again.
bool RevokeCommitRolledBack(const DbError& error);

// Redis key under which a key's cache entry lives.
std::string ApiKeyCacheKey(std::string_view key_hash_hex);

}  // namespace icat
