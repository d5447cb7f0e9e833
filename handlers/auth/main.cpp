// icat-auth: portal sign-in and sessions, a new user's set-up and password changes. Password
// hashing is slow on purpose, so this group has its own pool and cannot starve the reads of the others.
#include "queries.hpp"
#include "sessions.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  static const std::vector<icat::Route> routes = {
      {"POST", "/api/auth/login", Access::kPublic, "", "", icat::auth::Login, true},
      {"POST", "/api/auth/refresh", Access::kPublic, "", "", icat::auth::Refresh, true},
      {"POST", "/api/auth/logout", Access::kPublic, "", "", icat::auth::Logout, true},
      {"GET", "/api/auth/me", Access::kPortal, "", "", icat::auth::Me},
      {"POST", "/api/auth/setup", Access::kPublic, "", "", icat::auth::Setup, true},
      {"POST", "/api/auth/password", Access::kPortalSelf, "", "", icat::auth::ChangePassword, true},
  };
  return icat::ServeGroup("auth", routes, icat::auth::kStatements, argc, argv);
}
