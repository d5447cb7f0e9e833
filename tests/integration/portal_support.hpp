// What the portal tests share: tenants with a user of each role, access tokens, sign-in from a
// client address of the test's own (the login limits count per address), JSON bodies.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "icat/jwt.hpp"
#include "support.hpp"

namespace icat::test {

inline constexpr std::string_view kPortalPassword = "correct horse battery staple";

// A loopback address of its own (127.1-254.x.y): nginx sees it as the client, so a test's login
// attempts never count against another test's. 127.0.0.x is left to the stack (127.0.0.3 plays
// the trusted proxy, see tests/run-tests).
std::string RandomClientIp();
// The proxy nginx trusts (ICAT_TRUSTED_PROXIES, a single address in the test stack).
std::string TrustedProxyIp();

// A request sent from a given loopback address.
Response SendFrom(const std::string& client_ip, std::string_view method, std::string_view url,
                  const Headers& headers = {}, const std::optional<std::string>& body = std::nullopt);

// GET /v1/images with the key every 100 ms for `duration`, to each base URL in turn (node A's when
// none is given), from one fresh client address, so that the refusals stay under the address's
// limit of failed look-ups. A line (time, node, reply) for each reply that was not 401: none when
// the key was refused throughout.
std::vector<std::string> RepliesNotRefused(const std::string& key, std::chrono::milliseconds duration,
                                           const std::vector<std::string>& base_urls = {});

struct PortalUser {
  std::string id, email, role;
};

// A fresh tenant ("it-<random>") with an admin, a user and a viewer (password kPortalPassword).
class PortalTenant {
 public:
  PortalTenant();
  Tenant tenant;
  PortalUser admin, user, viewer;

  const std::string& subdomain() const { return tenant.subdomain(); }
  const std::string& id() const { return tenant.id(); }
  PortalUser AddUser(std::string_view role);
  const PortalUser& ByRole(std::string_view role) const;
  // An access token as sign-in would issue it, signed with the stack's secret.
  std::string Token(const PortalUser& user) const;
  // Authorization: Bearer <token> and X-Tenant, plus Content-Type: application/json.
  Headers As(const PortalUser& user) const;
};

// A read:catalog key made through the portal (POST /api/api-keys as the admin): {id, secret}.
struct PortalKey {
  std::string id, secret;
};
PortalKey CreatePortalKey(const PortalTenant& t);

// Signs claims with the stack's secret (ICAT_JWT_SECRET_FILE).
std::string MintToken(const AccessClaims& claims);
std::string JwtSecret();

// POST /api/auth/login as a client of its own address (a fresh one unless given). A 503 is
// retried (up to 5 tries, 1.1 s apart): an auth worker that failed to reach Redis while another
// test had it stopped waits out a second's back-off before it tries again (sign-in fails closed).
Response Login(std::string_view tenant, std::string_view email, std::string_view password = kPortalPassword,
               const std::string& client_ip = RandomClientIp(), const Headers& extra = {});
// One attempt, 503 included.
Response LoginOnce(std::string_view tenant, std::string_view email, std::string_view password = kPortalPassword,
                   const std::string& client_ip = RandomClientIp(), const Headers& extra = {});
// POST /api/auth/refresh or /api/auth/logout.
Response SessionCall(std::string_view action, std::string_view tenant, std::string_view refresh_token);

// A JSON string literal of text.
std::string Quote(std::string_view text);

// "<method> <path>" of every operation of the portal OpenAPI document with one of these (lower-case)
// methods, e.g. "put /api/users/{id}"; sign-in and sessions (/api/auth/...), /api/status, the document itself
// and the operations for anyone (`security: []`: an e-mail's confirm and unsubscribe links) excepted.
std::set<std::string> DocumentedPortalOperations(const std::set<std::string>& methods);

// The audit entries of a tenant with this action, newest first: {actor, target, client_ip, request_id, detail}.
std::vector<PgRow> AuditRows(const std::string& tenant_id, std::string_view action);

}  // namespace icat::test
