// The routes of icat-auth: one row per method and path, with who may call it (docs/routes.md).
#include "sessions.hpp"

namespace icat::auth {

namespace {
constexpr size_t kMaxSubdomainChars = 63;  // a DNS label
}  // namespace

const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "POST",
       .pattern = "/api/auth/login",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(Login),
       .json_body = true},
      {.method = "POST",
       .pattern = "/api/auth/refresh",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(Refresh),
       .json_body = true},
      {.method = "POST",
       .pattern = "/api/auth/logout",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(Logout),
       .json_body = true},
      {.method = "GET", .pattern = "/api/auth/me", .access = Access::kPortal, .handler = ICAT_HANDLER(Me)},
      {.method = "POST",
       .pattern = "/api/auth/setup",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(Setup),
       .json_body = true},
      {.method = "POST",
       .pattern = "/api/auth/password",
       .access = Access::kPortalSelf,
       .handler = ICAT_HANDLER(ChangePassword),
       .json_body = true},
      {.method = "POST",
       .pattern = "/api/auth/totp/enrolment",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(EnrolTotp),
       .json_body = true},
      {.method = "DELETE",
       .pattern = "/api/auth/totp",
       .access = Access::kPortalSelf,
       .handler = ICAT_HANDLER(RemoveTotp)},
      // Signing in with the tenant's OpenID Provider (oidc.cpp): browser navigations, so the tenant
      // is a query parameter (start) or part of the state (callback), not X-Tenant.
      {.method = "GET",
       .pattern = "/api/auth/oidc/provider",
       .access = Access::kPublic,
       .query = {query::Text("tenant", 1, kMaxSubdomainChars)},
       .handler = ICAT_HANDLER(SsoProvider)},
      {.method = "GET",
       .pattern = "/api/auth/oidc/start",
       .access = Access::kPublic,
       .query = {query::Text("tenant", 1, kMaxSubdomainChars), query::Text("next", 1, 512)},
       .handler = ICAT_HANDLER(StartSsoSignIn)},
      {.method = "GET",
       .pattern = "/api/auth/oidc/callback",
       .access = Access::kPublic,
       // What an authorization response carries (OpenID Connect Core 3.1.2.5 and 3.1.2.6, RFC 9207's
       // iss, session management's session_state).
       .query = {query::Text("code", 1, 2048), query::Text("state", 1, 256), query::Text("iss", 1, 2048),
                 query::Text("session_state", 1, 512), query::Text("error", 1, 256),
                 query::Text("error_description", 0, 1024), query::Text("error_uri", 0, 2048)},
       .handler = ICAT_HANDLER(FinishSsoSignIn)},
      // The links of e-mail channels' mails (docs/notifications.md): the token is the credential,
      // so no session, like sign-in; hence this group, whose pool serves the callers without one.
      // No json_body: both take no JSON (one-click unsubscribe posts a form, RFC 8058).
      {.method = "POST",
       .pattern = "/api/notification-addresses/confirm/{token}",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(ConfirmAddress)},
      {.method = "POST",
       .pattern = "/api/notification-addresses/unsubscribe/{token}",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(UnsubscribeAddress)},
      {.method = "GET",
       .pattern = "/api/notification-addresses/unsubscribe/{token}",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(UnsubscribePage)},
  };
  return routes;
}

}  // namespace icat::auth
