// Portal access tokens (common/src/jwt.cpp VerifyAccessToken): the input as a whole token, and
// (so the claims reader is reached past the signature) as a claims part signed with the secret.
#include "fuzz.hpp"
#include "icat/crypto.hpp"
#include "icat/jwt.hpp"

namespace {

constexpr std::string_view kSecret = "fuzz-secret-0123456789abcdef0123456789";
constexpr long long kNow = 1900000000;

void Verify(std::string_view token) {
  std::optional<icat::AccessClaims> claims = icat::VerifyAccessToken(token, kSecret, kNow);
  if (!claims) return;
  icat::fuzz::Expect(claims->expires_at > kNow && claims->expires_at - claims->issued_at <= icat::kAccessTokenSeconds,
                     "an accepted token is alive and short-lived");
  std::optional<icat::AccessClaims> reissued =
      icat::VerifyAccessToken(icat::IssueAccessToken(*claims, kSecret), kSecret, kNow);
  icat::fuzz::Expect(reissued && reissued->user_id == claims->user_id && reissued->role == claims->role,
                     "accepted claims survive being issued again");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  Verify(text);
  std::string signed_part = icat::Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})") + "." + icat::Base64UrlEncode(text);
  Verify(signed_part + "." + icat::Base64UrlEncode(icat::HmacSha256(kSecret, signed_part)));
  return 0;
}
