// API-key authentication (DESIGN.md section 4): cache in Redis, Postgres as the source of truth.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icat/pipeline.hpp"

namespace icat {

// Statements authentication needs; every handler group prepares them.
const std::vector<Statement>& AuthStatements();

// Checks the key of the request (Authorization: Bearer or X-API-Key), its state and scope, and
// the per-key rate limit. Returns the principal; throws ApiError 401, 403 or 429 (past the per-key
// limit, or past ICAT_KEY_FAILURE_LIMIT_PER_MINUTE failed look-ups from the caller's address).
// Adds the RateLimit headers to ctx.reply_headers.
Principal AuthenticateApiKey(Context& ctx, std::string_view scope);

// The same checks of a key the caller has taken from the request.
Principal AuthenticateKey(Context& ctx, const std::string& key, std::string_view scope);

// 403 INSUFFICIENT_SCOPE (with WWW-Authenticate naming the scope) unless the API key holds scope:
// AuthenticateKey's check of the route's scope, and a handler's of a second scope that only some of
// its answers need (a VEX attestation needs read:vulns besides the route's read:sbom).
void RequireScope(const Principal& principal, std::string_view scope);

// A registry client's credential (Access::kRegistry, docs/registry.md): HTTP Basic, any username,
// the password an API key holding `scope` (checked as AuthenticateApiKey checks one), or a live
// publisher's name and password (ctx.principal.publisher; looked up in Postgres each time). Throws
// ApiError 401 (with WWW-Authenticate: Bearer, which the registry's reply shape replaces), 403, 429.
Principal AuthenticateRegistry(Context& ctx, std::string_view scope);

// Checks the portal credential: X-Tenant and an access token (Bearer) of that tenant. No Bearer
// token, a bad, expired or other tenant's one is 401 with WWW-Authenticate: Bearer; a token
// without X-Tenant is 400 VALIDATION_ERROR naming it. Fills and returns ctx.principal.
Principal AuthenticatePortal(Context& ctx);

// The signed-in person as stored now, read in the request's tenant scope: a token outlives a
// deletion, a disabling or a demotion by up to 15 minutes, and a request must not (issue 25). 401
// UNAUTHENTICATED when the person is gone or disabled or the token's session (sid) has ended; else
// ctx.principal's role and email become the stored ones.
void LoadCurrentPerson(Context& ctx);

// 403 FORBIDDEN unless the signed-in user is an admin: routes of Access::kPortalAdmin, after
// LoadCurrentPerson.
void RequireAdmin(const Context& ctx);

// clang-format off
// $1 tenant, $2 user, $3 the token's session (its refresh-token family): the signed-in person as
// stored now (LoadCurrentPerson). No row: deleted, disabled, or the session ended (signed out, here or
// everywhere, a password change, a refresh token used twice: each revokes the family).
// Not locked: a write in flight when its author changes is ordered before the change (it read the
// person first); locking the caller's row made two admins changing each other deadlock.
inline constexpr Statement kCurrentPerson{"auth_current_person",
    "SELECT u.role, u.email FROM users u WHERE u.tenant_id = $1 AND u.id = $2::uuid AND u.disabled_at IS NULL "
    "AND EXISTS (SELECT FROM refresh_tokens r WHERE r.tenant_id = $1 AND r.family_id = $3::uuid "
    "AND r.user_id = u.id AND r.revoked_at IS NULL)"};

// $1 tenant, $2 user: every portal session of the user ends (each refresh-token family revoked, and
// with it the access tokens of the family: LoadCurrentPerson). The number of families (sign-ins) it
// ended. Signing out everywhere and a password change (auth) and disabling a user (account) run
// this one statement; each of the two groups prepares it.
inline constexpr Statement kRevokeUserSessions{"revoke_user_sessions",
    "WITH r AS (UPDATE refresh_tokens SET revoked_at = now() WHERE tenant_id = $1 AND user_id = $2::uuid "
    "AND revoked_at IS NULL RETURNING family_id) SELECT count(DISTINCT family_id) AS families FROM r"};
// clang-format on


// Records that the key was used (at most once a minute: Principal::touch_key), after the request's
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
