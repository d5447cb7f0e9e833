// The routes of icat-auth: one row per method and path, with who may call it (docs/routes.md).
#include "sessions.hpp"

namespace icat::auth {

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
  };
  return routes;
}

}  // namespace icat::auth
