// Portal access tokens: JWT HS256 with an allow-listed algorithm, issuer and audience.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace icat {

inline constexpr std::string_view kJwtIssuer = "icat";
inline constexpr std::string_view kJwtAudience = "icat-portal";
inline constexpr long long kAccessTokenSeconds = 15 * 60;

struct AccessClaims {
  std::string user_id;    // sub
  std::string tenant_id;  // tid
  std::string tenant;     // ten: the tenant's subdomain, compared with X-Tenant without a look-up
  std::string role;       // admin, user or viewer
  long long issued_at = 0;   // iat
  long long expires_at = 0;  // exp
  std::string token_id;      // jti
  // sid: the sign-in (refresh-token family) the token belongs to; it is good only while that session
  // lives (CurrentPerson), so signing out, being disabled or deleted ends it at once.
  std::string session_id;
};

// Signs claims (iss and aud are added) with the secret.
std::string IssueAccessToken(const AccessClaims& claims, std::string_view secret);

// The claims of a token whose signature, algorithm (HS256 only), issuer, audience and times check
// out at `now` (seconds since the epoch); nullopt otherwise, whatever is wrong with it. Each part
// must be canonical base64url (no padding, unused bits zero), and exp - iat at most
// kAccessTokenSeconds, iat at most a minute ahead of now.
std::optional<AccessClaims> VerifyAccessToken(std::string_view token, std::string_view secret, long long now);

}  // namespace icat
