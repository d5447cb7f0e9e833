// ID tokens (common/src/oidc.cpp ValidateIdToken): the input as a whole token, and (so the claims
// checks are reached past the signature) as a claims part signed ES256 by the provider's key.
#include <openssl/bn.h>
#include <openssl/ec.h>

#include "fuzz.hpp"
#include "icat/crypto.hpp"
#include "icat/oidc.hpp"

namespace {

constexpr long long kNow = 1900000000;

struct Provider {
  std::string private_pem;
  icat::oidc::KeySet keys;
};

// A P-256 key made once per run, published as the JWK "k1".
const Provider& TheProvider() {
  static const Provider provider = [] {
    Provider p;
    p.private_pem = icat::EcdsaP256NewPrivateKeyPem();
    icat::JwkPoint point = icat::EcdsaP256JwkPoint(icat::EcdsaP256PublicKeyPem(p.private_pem));
    std::string jwks =
        R"({"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":")" + point.x + R"(","y":")" + point.y + R"("}]})";
    p.keys = *icat::oidc::KeySet::Parse(jwks, nullptr);
    return p;
  }();
  return provider;
}

// ES256 as JWS writes it: r and s, 32 bytes each, from OpenSSL's DER.
std::string SignEs256(std::string_view input) {
  std::string der = icat::EcdsaP256Sign(TheProvider().private_pem, input);
  auto bytes = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* signature = d2i_ECDSA_SIG(nullptr, &bytes, static_cast<long>(der.size()));
  std::string raw(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(signature), reinterpret_cast<unsigned char*>(raw.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(signature), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
  ECDSA_SIG_free(signature);
  return raw;
}

void Validate(std::string_view token) {
  icat::oidc::IdTokenCheck check;
  check.issuer = "https://idp.example.com";
  check.client_id = "c-1";
  check.nonce = "n-1";
  check.groups_claim = "groups";
  check.now = kNow;
  icat::oidc::IdTokenResult result = icat::oidc::ValidateIdToken(token, TheProvider().keys, check);
  if (!result.claims) {
    icat::fuzz::Expect(!result.problem.reason.empty() && !result.problem.message.empty(), "a refusal says why");
    icat::fuzz::Expect(!result.unknown_kid || result.problem.reason == "kid", "an unknown kid is a kid refusal");
    return;
  }
  const icat::oidc::IdClaims& claims = *result.claims;
  icat::fuzz::Expect(result.problem.reason.empty(), "an accepted token has no problem");
  icat::fuzz::Expect(claims.issuer == check.issuer, "the issuer is the configured one");
  icat::fuzz::Expect(!claims.subject.empty() && claims.subject.size() <= 255, "the subject is 1 to 255 characters");
  icat::fuzz::Expect(claims.groups.size() <= 500, "the groups are bounded");
  icat::fuzz::Expect(token.size() <= 64 * 1024, "a token is bounded");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  Validate(text);
  std::string input = icat::Base64UrlEncode(R"({"alg":"ES256","kid":"k1"})") + "." + icat::Base64UrlEncode(text);
  Validate(input + "." + icat::Base64UrlEncode(SignEs256(input)));
  return 0;
}
