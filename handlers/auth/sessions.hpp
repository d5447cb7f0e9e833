// The auth group: portal sign-in, refresh-token rotation, sign-out, and who is signed in.
#pragma once

#include <string>

#include "icat/pipeline.hpp"

namespace icat::auth {

Reply Login(Context& ctx);
Reply Refresh(Context& ctx);
Reply Logout(Context& ctx);
Reply Me(Context& ctx);

struct UserView {
  std::string id, email, role;
};

struct SessionView {
  std::string access_token, refresh_token;
  long long expires_in = 0;  // seconds the access token lives
  UserView user;
};

struct MeView {
  UserView user;
  std::string created_at;
  std::string tenant_id, tenant_subdomain, tenant_name;
};

// {"accessToken", "refreshToken", "expiresIn", "tokenType": "Bearer", "user": {"id", "email", "role"}}
std::string SessionJson(const SessionView& session);
// {"id", "email", "role", "createdAt", "tenant": {"id", "subdomain", "name"}}
std::string MeJson(const MeView& me);

}  // namespace icat::auth
