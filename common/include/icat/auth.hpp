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

// Checks the portal credential: X-Tenant and an access token (Bearer) of that tenant. No Bearer
// token, a bad, expired or other tenant's one is 401 with WWW-Authenticate: Bearer; a token
// without X-Tenant is 400 VALIDATION_ERROR naming it. Fills and returns ctx.principal.
Principal AuthenticatePortal(Context& ctx);

// 403 FORBIDDEN unless the signed-in user is an admin: routes of Access::kPortalAdmin.
void RequireAdmin(const Context& ctx);

// $1 tenant, $2 user: every portal session of the user ends (each refresh-token family revoked).
// The number of families (sign-ins) it ended. Signing out everywhere and a password change (auth)
// and disabling a user (account) run this one statement; each of the two groups prepares it.
// clang-format off
inline constexpr Statement kRevokeUserSessions{"revoke_user_sessions",
    "WITH r AS (UPDATE refresh_tokens SET revoked_at = now() WHERE tenant_id = $1 AND user_id = $2::uuid "
    "AND revoked_at IS NULL RETURNING family_id) SELECT count(DISTINCT family_id) AS families FROM r"};
// clang-format on


// Records that the key was used (at most once a minute: Principal::touch_key), after the request's
// reply is out, within a budget of its own. A failure (Postgres unavailable) is logged, not retried.
void TouchApiKey(Db& db, const KeyTouch& touch);

// After a revoke: the Redis cache answers "revoked" for this key from now on, whatever a
// concurrent cache fill does. key_hash_hex is the hex of the stored SHA-256. Keeps trying for a
// few seconds (a paused or restarting Redis); returns false when Redis could not be told, and the
// caller must then not claim the revoke is in force everywhere (docs/security.md).
[[nodiscard]] bool MarkApiKeyRevoked(Redis& redis, const Config& config, std::string_view key_hash_hex);

// Redis key under which a key's cache entry lives.
std::string ApiKeyCacheKey(std::string_view key_hash_hex);

}  // namespace icat
