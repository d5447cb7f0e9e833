// What the tenant's SSO configuration (handlers/account/sso.cpp) and the sign-in with it
// (handlers/auth/oidc.cpp) must agree on (docs/sso.md).
#pragma once

#include <string>
#include <string_view>

#include "icat/http.hpp"

namespace icat {

// The redirect URI the admin registers at the provider: this host's callback, as the browser
// reaches it (GET /api/sso shows it; the sign-in sends it).
inline constexpr std::string_view kSsoCallbackPath = "/api/auth/oidc/callback";
inline std::string SsoRedirectUri(const Request& request) {
  return request.scheme + "://" + request.Header("host") + std::string(kSsoCallbackPath);
}

// The context a tenant's client secret is sealed with (crypto.hpp Seal), so it opens for that
// tenant's row only.
inline std::string SsoSecretContext(std::string_view tenant_id) {
  return "sso_configs.client_secret:" + std::string(tenant_id);
}

}  // namespace icat
