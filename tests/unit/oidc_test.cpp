// The OpenID Connect relying party (common/src/oidc.cpp): discovery, PKCE, the authorization URL,
// JWK Sets, and every way an ID token must be refused (Core 1.0 section 3.1.3.7). Tokens are made
// here with keys OpenSSL generates, signed as a provider signs them.
#include "icat/oidc.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <boost/test/unit_test.hpp>
#include <memory>

#include "icat/crypto.hpp"

namespace rp = icat::oidc;  // the relying party

namespace {

constexpr long long kNow = 1800000000;
const std::string kIssuer = "https://idp.example.com";
const std::string kClient = "client-1";

using PKeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

// Keys made once for the whole suite: RSA generation takes a moment.
EVP_PKEY* RsaKey() {
  static PKeyPtr key(EVP_RSA_gen(2048), EVP_PKEY_free);
  return key.get();
}
EVP_PKEY* OtherRsaKey() {
  static PKeyPtr key(EVP_RSA_gen(2048), EVP_PKEY_free);
  return key.get();
}
EVP_PKEY* EcKey() {
  static PKeyPtr key(EVP_EC_gen("P-256"), EVP_PKEY_free);
  return key.get();
}

std::string BigNumParam(EVP_PKEY* key, const char* name) {
  BIGNUM* number = nullptr;
  BOOST_TEST_REQUIRE(EVP_PKEY_get_bn_param(key, name, &number) == 1);
  std::string bytes(static_cast<size_t>(BN_num_bytes(number)), '\0');
  BN_bn2bin(number, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(number);
  return bytes;
}

// A JWK of the public half of `key`, with `extra` members ("\"use\":\"sig\"," ...) first.
std::string Jwk(EVP_PKEY* key, const std::string& kid, const std::string& extra = "") {
  std::string head = "{" + extra + "\"kid\":\"" + kid + "\",";
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA) {
    return head + "\"kty\":\"RSA\",\"n\":\"" + icat::Base64UrlEncode(BigNumParam(key, OSSL_PKEY_PARAM_RSA_N)) +
           "\",\"e\":\"" + icat::Base64UrlEncode(BigNumParam(key, OSSL_PKEY_PARAM_RSA_E)) + "\"}";
  }
  unsigned char point[1 + 2 * 48];  // uncompressed: 0x04, x, y (P-256 or P-384)
  size_t length = 0;
  BOOST_TEST_REQUIRE(
      EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point, sizeof point, &length) == 1);
  std::string_view bytes(reinterpret_cast<const char*>(point), length);
  size_t half = (length - 1) / 2;
  return head + "\"kty\":\"EC\",\"crv\":\"" + (half == 32 ? "P-256" : "P-384") + "\",\"x\":\"" +
         icat::Base64UrlEncode(bytes.substr(1, half)) + "\",\"y\":\"" + icat::Base64UrlEncode(bytes.substr(1 + half)) +
         "\"}";
}

rp::KeySet Keys(const std::vector<std::string>& jwks) {
  std::string text = "{\"keys\":[";
  for (size_t i = 0; i < jwks.size(); i++) text += (i ? "," : "") + jwks[i];
  std::string error;
  std::optional<rp::KeySet> keys = rp::KeySet::Parse(text + "]}", &error);
  BOOST_TEST_REQUIRE(keys.has_value(), error);
  return std::move(*keys);
}

// The provider's keys: an RSA key "rsa-1" and a P-256 key "ec-1".
const rp::KeySet& ProviderKeys() {
  static const rp::KeySet keys = Keys({Jwk(RsaKey(), "rsa-1"), Jwk(EcKey(), "ec-1", "\"use\":\"sig\",")});
  return keys;
}

// OpenSSL's signature: ECDSA's in ASN.1 DER.
std::string EvpSign(EVP_PKEY* key, const std::string& alg, const std::string& input) {
  const EVP_MD* digest = alg.ends_with("384") ? EVP_sha384() : alg.ends_with("512") ? EVP_sha512() : EVP_sha256();
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_PKEY_CTX* key_ctx = nullptr;
  BOOST_TEST_REQUIRE(EVP_DigestSignInit(ctx.get(), &key_ctx, digest, nullptr, key) == 1);
  if (alg.starts_with("PS")) {
    BOOST_TEST_REQUIRE(EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PSS_PADDING) == 1);
    BOOST_TEST_REQUIRE(EVP_PKEY_CTX_set_rsa_pss_saltlen(key_ctx, RSA_PSS_SALTLEN_DIGEST) == 1);
  }
  size_t length = 0;
  auto data = reinterpret_cast<const unsigned char*>(input.data());
  BOOST_TEST_REQUIRE(EVP_DigestSign(ctx.get(), nullptr, &length, data, input.size()) == 1);
  std::string signature(length, '\0');
  BOOST_TEST_REQUIRE(
      EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length, data, input.size()) == 1);
  signature.resize(length);
  return signature;
}

// A JWS signature as RFC 7518 writes it: RSA as is, ECDSA as r||s of 32 bytes each.
std::string Sign(EVP_PKEY* key, const std::string& alg, const std::string& input) {
  std::string signature = EvpSign(key, alg, input);
  if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) return signature;
  auto der = reinterpret_cast<const unsigned char*>(signature.data());
  ECDSA_SIG* parsed = d2i_ECDSA_SIG(nullptr, &der, static_cast<long>(signature.size()));
  BOOST_TEST_REQUIRE(parsed != nullptr);
  std::string raw(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(parsed), reinterpret_cast<unsigned char*>(raw.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(parsed), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
  ECDSA_SIG_free(parsed);
  return raw;
}

// The claims of a good token; each test spoils one.
struct Claims {
  std::optional<std::string> iss = kIssuer;
  std::string aud = "\"" + kClient + "\"";  // JSON
  std::optional<std::string> azp;
  std::optional<long long> exp = kNow + 300, iat = kNow, nbf;
  std::optional<std::string> nonce = "nonce-1";
  std::optional<std::string> sub = "user-1";
  std::string more = R"("email":"ann@example.com","email_verified":true,"name":"Ann","groups":["dev","ops"])";
};

std::string Json(const Claims& c) {
  std::string json = "{\"aud\":" + c.aud;
  auto text = [&](const char* name, const std::optional<std::string>& value) {
    if (value) json += ",\"" + std::string(name) + "\":\"" + *value + "\"";
  };
  auto number = [&](const char* name, const std::optional<long long>& value) {
    if (value) json += ",\"" + std::string(name) + "\":" + std::to_string(*value);
  };
  text("iss", c.iss);
  text("azp", c.azp);
  number("exp", c.exp);
  number("iat", c.iat);
  number("nbf", c.nbf);
  text("nonce", c.nonce);
  text("sub", c.sub);
  return json + (c.more.empty() ? "" : "," + c.more) + "}";
}

std::string Header(const std::string& alg, const std::string& kid) {
  return "{\"alg\":\"" + alg + "\"" + (kid.empty() ? "" : ",\"kid\":\"" + kid + "\"") + ",\"typ\":\"JWT\"}";
}

// A token of the given header and claims JSON signed with `key`.
std::string Token(const std::string& header, const std::string& claims, EVP_PKEY* key, const std::string& alg) {
  std::string input = icat::Base64UrlEncode(header) + "." + icat::Base64UrlEncode(claims);
  return input + "." + icat::Base64UrlEncode(Sign(key, alg, input));
}

std::string RsaToken(const Claims& claims = {}) {
  return Token(Header("RS256", "rsa-1"), Json(claims), RsaKey(), "RS256");
}

rp::IdTokenCheck Check() {
  rp::IdTokenCheck check;
  check.issuer = kIssuer;
  check.client_id = kClient;
  check.nonce = "nonce-1";
  check.groups_claim = "groups";
  check.now = kNow;
  return check;
}

rp::IdTokenResult Validate(const std::string& token, const rp::IdTokenCheck& check = Check()) {
  return rp::ValidateIdToken(token, ProviderKeys(), check);
}

void ExpectRefused(const rp::IdTokenResult& result, const std::string& reason) {
  BOOST_TEST(!result.claims.has_value());
  BOOST_TEST(result.problem.reason == reason);
  BOOST_TEST(!result.problem.message.empty());
}

void ExpectAccepted(const rp::IdTokenResult& result) {
  BOOST_TEST(result.claims.has_value(), result.problem.reason << ": " << result.problem.message);
}

std::string PublicPem(EVP_PKEY* key) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  BOOST_TEST_REQUIRE(PEM_write_bio_PUBKEY(bio.get(), key) == 1);
  char* text = nullptr;
  long length = BIO_get_mem_data(bio.get(), &text);
  return std::string(text, static_cast<size_t>(length));
}

const std::string kDiscovery = R"({"issuer":"https://idp.example.com",
  "authorization_endpoint":"https://idp.example.com/authorize",
  "token_endpoint":"https://idp.example.com/token","jwks_uri":"https://idp.example.com/jwks",
  "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post"],
  "id_token_signing_alg_values_supported":["RS256"]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(oidc)

BOOST_AUTO_TEST_CASE(pkce_challenge_is_rfc7636_appendix_b) {
  BOOST_TEST(rp::CodeChallengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") ==
             "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  std::string verifier = rp::NewCodeVerifier();
  BOOST_TEST(verifier.size() == 43u);
  BOOST_TEST(verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
             std::string::npos);
  BOOST_TEST(rp::NewCodeVerifier() != verifier);
}

BOOST_AUTO_TEST_CASE(authorization_url_encodes_every_value_and_adds_openid) {
  rp::Discovery discovery;
  discovery.authorization_endpoint = "https://idp.example.com/authorize?tenant=a";
  rp::AuthorizationRequest request{"client 1",   "https://acme.example.com/api/auth/oidc/callback",
                                   "acme.s&t=1", "n+1",
                                   "challenge",  {"email", "profile"}};
  BOOST_TEST(rp::AuthorizationUrl(discovery, request) ==
             "https://idp.example.com/authorize?tenant=a&response_type=code&client_id=client%201"
             "&redirect_uri=https%3A%2F%2Facme.example.com%2Fapi%2Fauth%2Foidc%2Fcallback"
             "&scope=openid%20email%20profile&state=acme.s%26t%3D1&nonce=n%2B1&code_challenge=challenge"
             "&code_challenge_method=S256");
  discovery.authorization_endpoint = "https://idp.example.com/authorize";
  request.scopes = {"email", "openid"};
  std::string url = rp::AuthorizationUrl(discovery, request);
  BOOST_TEST(url.starts_with("https://idp.example.com/authorize?response_type=code&"));
  BOOST_TEST(url.find("&scope=email%20openid&") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(discovery_parses_a_providers_document) {
  std::string error;
  std::optional<rp::Discovery> discovery = rp::ParseDiscovery(kDiscovery, kIssuer, &error);
  BOOST_TEST_REQUIRE(discovery.has_value(), error);
  BOOST_TEST(discovery->token_endpoint == "https://idp.example.com/token");
  BOOST_TEST(discovery->jwks_uri == "https://idp.example.com/jwks");
  BOOST_TEST(discovery->id_token_signing_algs == std::vector<std::string>{"RS256"});
  BOOST_TEST(!rp::UsesClientSecretPost(*discovery));
  discovery->token_endpoint_auth_methods = {"client_secret_post", "private_key_jwt"};
  BOOST_TEST(rp::UsesClientSecretPost(*discovery));
  discovery->token_endpoint_auth_methods = {};
  BOOST_TEST(!rp::UsesClientSecretPost(*discovery));
}

BOOST_AUTO_TEST_CASE(discovery_of_another_issuer_or_without_endpoints_is_refused) {
  std::string error;
  BOOST_TEST(!rp::ParseDiscovery(kDiscovery, kIssuer + "/", &error));
  BOOST_TEST(error.find("names the issuer \"https://idp.example.com\"") != std::string::npos, error);
  BOOST_TEST(!rp::ParseDiscovery(kDiscovery, "https://evil.example.com", &error));
  std::string no_keys = kDiscovery;
  no_keys.replace(no_keys.find("\"jwks_uri\""), 10, "\"jwks\"");
  BOOST_TEST(!rp::ParseDiscovery(no_keys, kIssuer, &error));
  BOOST_TEST(error == "jwks_uri is missing from the discovery document");
  std::string script = kDiscovery;
  script.replace(script.find("https://idp.example.com/authorize"), 33, "javascript:alert(1)");
  BOOST_TEST(!rp::ParseDiscovery(script, kIssuer, &error));
  BOOST_TEST(error == "authorization_endpoint is not an absolute http(s) URL");
  BOOST_TEST(!rp::ParseDiscovery("<html>", kIssuer, &error));
  BOOST_TEST(error == "the discovery document is not a JSON object");
}

BOOST_AUTO_TEST_CASE(key_set_keeps_signature_keys_and_skips_the_rest) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> small(EVP_RSA_gen(1024), EVP_PKEY_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> p384(EVP_EC_gen("P-384"), EVP_PKEY_free);
  std::string off_curve = Jwk(EcKey(), "off-curve");
  size_t y = off_curve.find("\"y\":\"") + 5;
  off_curve[y] = off_curve[y] == 'A' ? 'B' : 'A';
  rp::KeySet keys = Keys({
      Jwk(RsaKey(), "rsa-1", "\"alg\":\"RS256\",\"key_ops\":[\"verify\"],"),
      Jwk(EcKey(), "ec-1"),
      Jwk(OtherRsaKey(), "enc", "\"use\":\"enc\","),
      Jwk(OtherRsaKey(), "wrapping", "\"key_ops\":[\"wrapKey\"],"),
      Jwk(OtherRsaKey(), "ec-alg", "\"alg\":\"ES256\","),
      Jwk(small.get(), "short"),
      Jwk(p384.get(), "p384"),
      off_curve,
      R"({"kty":"oct","kid":"hmac","k":"c2VjcmV0"})",
      R"({"kty":"RSA","kid":"bad-n","n":"!!","e":"AQAB"})",
      R"({"kty":"RSA","kid":7,"n":"AQAB","e":"AQAB"})",
      R"("not a key")",
  });
  BOOST_TEST(keys.size() == 2u);
  BOOST_TEST(keys.HasKey("rsa-1"));
  BOOST_TEST(keys.HasKey("ec-1"));
  BOOST_TEST(!keys.HasKey("short"));
  BOOST_TEST(!keys.HasKey("off-curve"));
}

BOOST_AUTO_TEST_CASE(key_set_that_is_not_one_or_too_large_is_refused) {
  std::string error;
  BOOST_TEST(!rp::KeySet::Parse(R"({"keys":{}})", &error));
  BOOST_TEST(error == "the JWK Set is not a JSON object with a \"keys\" array");
  BOOST_TEST(!rp::KeySet::Parse("[]", &error));
  std::string many = "{\"keys\":[";
  for (size_t i = 0; i <= rp::kMaxKeys; i++) many += (i ? "," : "") + std::string("{}");
  BOOST_TEST(!rp::KeySet::Parse(many + "]}", &error));
  BOOST_TEST(error == "the JWK Set holds more than 100 keys");
  BOOST_TEST(rp::KeySet::Parse(R"({"keys":[]})", &error)->size() == 0u);
}

BOOST_AUTO_TEST_CASE(rs256_token_is_accepted_with_its_claims) {
  rp::IdTokenResult result = Validate(RsaToken());
  ExpectAccepted(result);
  BOOST_TEST_REQUIRE(result.claims.has_value());
  BOOST_TEST(result.claims->issuer == kIssuer);
  BOOST_TEST(result.claims->subject == "user-1");
  BOOST_TEST(result.claims->email == "ann@example.com");
  BOOST_TEST(result.claims->email_verified);
  BOOST_TEST(result.claims->name == "Ann");
  BOOST_TEST(result.claims->groups == (std::vector<std::string>{"dev", "ops"}));
}

BOOST_AUTO_TEST_CASE(es256_ps256_rs384_and_rs512_tokens_are_accepted) {
  ExpectAccepted(Validate(Token(Header("ES256", "ec-1"), Json({}), EcKey(), "ES256")));
  for (std::string alg : {"PS256", "RS384", "RS512"}) {
    BOOST_TEST_CONTEXT(alg) { ExpectAccepted(Validate(Token(Header(alg, "rsa-1"), Json({}), RsaKey(), alg))); }
  }
}

BOOST_AUTO_TEST_CASE(token_without_kid_uses_the_one_key_of_its_type) {
  ExpectAccepted(Validate(Token(Header("RS256", ""), Json({}), RsaKey(), "RS256")));
  rp::KeySet two_rsa = Keys({Jwk(RsaKey(), "rsa-1"), Jwk(OtherRsaKey(), "rsa-2")});
  ExpectRefused(rp::ValidateIdToken(Token(Header("RS256", ""), Json({}), RsaKey(), "RS256"), two_rsa, Check()), "kid");
  ExpectAccepted(rp::ValidateIdToken(RsaToken(), two_rsa, Check()));
}

BOOST_AUTO_TEST_CASE(claims_in_their_other_forms_are_read) {
  Claims claims;
  claims.more = R"("email":"bo@example.com","email_verified":"true","roles":"admins","groups":5)";
  rp::IdTokenCheck check = Check();
  check.groups_claim = "roles";
  rp::IdTokenResult result = Validate(RsaToken(claims), check);
  ExpectAccepted(result);
  BOOST_TEST_REQUIRE(result.claims.has_value());
  BOOST_TEST(result.claims->email_verified);
  BOOST_TEST(result.claims->groups == std::vector<std::string>{"admins"});
  BOOST_TEST(result.claims->name.empty());
  claims.more = R"("email":"bo@example.com","email_verified":"yes","groups":["a",1,"b"])";
  result = Validate(RsaToken(claims));
  BOOST_TEST_REQUIRE(result.claims.has_value());
  BOOST_TEST(!result.claims->email_verified);
  BOOST_TEST(result.claims->groups == (std::vector<std::string>{"a", "b"}));
}

BOOST_AUTO_TEST_CASE(alg_none_and_hs256_signed_with_the_public_key_are_refused_even_when_allowed) {
  std::string none = icat::Base64UrlEncode(R"({"alg":"none"})") + "." + icat::Base64UrlEncode(Json({})) + ".";
  std::string input = icat::Base64UrlEncode(Header("HS256", "rsa-1")) + "." + icat::Base64UrlEncode(Json({}));
  std::string hs256 = input + "." + icat::Base64UrlEncode(icat::HmacSha256(PublicPem(RsaKey()), input));
  for (const auto& [alg, token] : {std::pair{"none", none}, std::pair{"HS256", hs256}}) {
    BOOST_TEST_CONTEXT(alg) {
      ExpectRefused(Validate(token), "alg");
      rp::IdTokenCheck check = Check();
      check.allowed_algs.push_back(alg);
      rp::IdTokenResult result = Validate(token, check);
      ExpectRefused(result, "alg");
      BOOST_TEST(result.problem.message.find("alg none or an HMAC is never accepted") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(alg_outside_the_allowed_list_is_refused) {
  rp::IdTokenCheck check = Check();
  check.allowed_algs = {"ES256"};
  ExpectRefused(Validate(RsaToken(), check), "alg");
  ExpectRefused(Validate(Token(Header("RS1", "rsa-1"), Json({}), RsaKey(), "RS256")), "alg");
}

BOOST_AUTO_TEST_CASE(token_signed_by_another_key_is_refused) {
  ExpectRefused(Validate(Token(Header("RS256", "rsa-1"), Json({}), OtherRsaKey(), "RS256")), "signature");
  // A PS256 signature offered as RS256, an ES256 one in DER rather than r||s.
  ExpectRefused(Validate(Token(Header("RS256", "rsa-1"), Json({}), RsaKey(), "PS256")), "signature");
  std::string input = icat::Base64UrlEncode(Header("ES256", "ec-1")) + "." + icat::Base64UrlEncode(Json({}));
  ExpectRefused(Validate(input + "." + icat::Base64UrlEncode(EvpSign(EcKey(), "ES256", input))), "signature");
}

BOOST_AUTO_TEST_CASE(unknown_or_unfitting_kid_is_refused) {
  rp::IdTokenResult unknown = Validate(Token(Header("RS256", "rsa-2"), Json({}), OtherRsaKey(), "RS256"));
  ExpectRefused(unknown, "kid");
  BOOST_TEST(unknown.unknown_kid);
  rp::IdTokenResult ec_for_rsa = Validate(Token(Header("RS256", "ec-1"), Json({}), RsaKey(), "RS256"));
  ExpectRefused(ec_for_rsa, "kid");
  BOOST_TEST(!ec_for_rsa.unknown_kid);
  rp::KeySet rs384_only = Keys({Jwk(RsaKey(), "rsa-1", "\"alg\":\"RS384\",")});
  ExpectRefused(rp::ValidateIdToken(RsaToken(), rs384_only, Check()), "kid");
  ExpectRefused(rp::ValidateIdToken(RsaToken(), rp::KeySet(), Check()), "kid");
}

BOOST_AUTO_TEST_CASE(wrong_issuer_is_refused) {
  Claims claims;
  claims.iss = kIssuer + "/";
  ExpectRefused(Validate(RsaToken(claims)), "iss");
  claims.iss.reset();
  ExpectRefused(Validate(RsaToken(claims)), "iss");
}

BOOST_AUTO_TEST_CASE(audience_without_the_client_is_refused) {
  Claims claims;
  claims.aud = "\"client-2\"";
  ExpectRefused(Validate(RsaToken(claims)), "aud");
  claims.aud = "[\"client-2\",\"client-3\"]";
  claims.azp = kClient;
  ExpectRefused(Validate(RsaToken(claims)), "aud");
  claims.aud = "[\"client-1\",5]";
  ExpectRefused(Validate(RsaToken(claims)), "aud");
  claims.aud = "{}";
  ExpectRefused(Validate(RsaToken(claims)), "aud");
  claims.aud = "[\"client-1\"]";
  claims.azp.reset();
  ExpectAccepted(Validate(RsaToken(claims)));
}

BOOST_AUTO_TEST_CASE(several_audiences_need_azp_naming_the_client) {
  Claims claims;
  claims.aud = "[\"client-1\",\"api\"]";
  ExpectRefused(Validate(RsaToken(claims)), "azp");
  claims.azp = "api";
  ExpectRefused(Validate(RsaToken(claims)), "azp");
  claims.azp = kClient;
  ExpectAccepted(Validate(RsaToken(claims)));
  claims.aud = "\"client-1\"";
  claims.azp = "api";  // azp, even with one audience, must be the client
  ExpectRefused(Validate(RsaToken(claims)), "azp");
}

BOOST_AUTO_TEST_CASE(expired_token_is_refused_past_the_leeway) {
  Claims claims;
  claims.exp = kNow - 61;
  ExpectRefused(Validate(RsaToken(claims)), "exp");
  claims.exp = kNow - 59;
  ExpectAccepted(Validate(RsaToken(claims)));
  claims.exp.reset();
  ExpectRefused(Validate(RsaToken(claims)), "exp");
  claims.more = R"("exp":"soon")";
  ExpectRefused(Validate(RsaToken(claims)), "exp");
}

BOOST_AUTO_TEST_CASE(token_issued_in_the_future_or_too_long_ago_is_refused) {
  Claims claims;
  claims.iat = kNow + 61;
  ExpectRefused(Validate(RsaToken(claims)), "iat");
  claims.iat = kNow + 59;
  ExpectAccepted(Validate(RsaToken(claims)));
  claims.iat = kNow - 600 - 61;
  ExpectRefused(Validate(RsaToken(claims)), "iat");
  claims.iat = kNow - 600;
  ExpectAccepted(Validate(RsaToken(claims)));
  claims.iat.reset();
  ExpectRefused(Validate(RsaToken(claims)), "iat");
}

BOOST_AUTO_TEST_CASE(token_not_valid_yet_is_refused) {
  Claims claims;
  claims.nbf = kNow + 61;
  ExpectRefused(Validate(RsaToken(claims)), "nbf");
  claims.nbf = kNow + 30;
  ExpectAccepted(Validate(RsaToken(claims)));
}

BOOST_AUTO_TEST_CASE(wrong_or_missing_nonce_is_refused) {
  Claims claims;
  claims.nonce = "nonce-2";
  ExpectRefused(Validate(RsaToken(claims)), "nonce");
  claims.nonce.reset();
  ExpectRefused(Validate(RsaToken(claims)), "nonce");
  rp::IdTokenCheck check = Check();
  check.nonce = "";
  ExpectRefused(Validate(RsaToken(claims), check), "nonce");
}

BOOST_AUTO_TEST_CASE(missing_or_overlong_subject_and_too_many_groups_are_refused) {
  Claims claims;
  claims.sub.reset();
  ExpectRefused(Validate(RsaToken(claims)), "claims");
  claims.sub = std::string(256, 's');
  ExpectRefused(Validate(RsaToken(claims)), "claims");
  claims.sub = std::string(255, 's');
  ExpectAccepted(Validate(RsaToken(claims)));
  std::string groups = "\"groups\":[\"g\"";
  for (int i = 0; i < 500; i++) groups += ",\"g\"";
  claims.more = groups + "]";
  ExpectRefused(Validate(RsaToken(claims)), "claims");
}

BOOST_AUTO_TEST_CASE(malformed_tokens_are_refused) {
  std::string token = RsaToken();
  size_t first = token.find('.'), last = token.rfind('.');
  ExpectRefused(Validate(token.substr(0, last)), "malformed");
  ExpectRefused(Validate(token + ".x"), "malformed");
  ExpectRefused(Validate(""), "malformed");
  ExpectRefused(Validate("not a token"), "malformed");
  ExpectRefused(Validate(token.substr(0, first) + "=" + token.substr(first)), "malformed");
  ExpectRefused(Validate(token + "="), "malformed");
  ExpectRefused(Validate(token.substr(0, last + 1) + "!" + token.substr(last + 2)), "malformed");
  std::string input = icat::Base64UrlEncode("not json") + "." + icat::Base64UrlEncode(Json({}));
  ExpectRefused(Validate(input + "." + icat::Base64UrlEncode(Sign(RsaKey(), "RS256", input))), "malformed");
  ExpectRefused(Validate(Token(Header("RS256", "rsa-1"), "[1]", RsaKey(), "RS256")), "malformed");
  ExpectRefused(Validate(Token(R"({"alg":"RS256","kid":"rsa-1","crit":["exp"]})", Json({}), RsaKey(), "RS256")),
                "malformed");
  std::string twice = Json({});
  twice.insert(1, "\"sub\":\"user-2\",");
  ExpectRefused(Validate(Token(Header("RS256", "rsa-1"), twice, RsaKey(), "RS256")), "malformed");
}

BOOST_AUTO_TEST_CASE(non_canonical_base64url_is_refused) {
  // The signature's last character with an unused low bit set: a lenient decoder reads the same bytes.
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string token = RsaToken();
  BOOST_TEST_REQUIRE((token.size() - token.rfind('.') - 1) % 4 != 0);
  BOOST_TEST_REQUIRE(kAlphabet.find(token.back()) % 2 == 0);
  token.back() = kAlphabet[kAlphabet.find(token.back()) + 1];
  BOOST_TEST((icat::Base64UrlDecode(token.substr(token.rfind('.') + 1)) ==
              icat::Base64UrlDecode(RsaToken().substr(token.rfind('.') + 1))));
  ExpectRefused(Validate(token), "malformed");
}

BOOST_AUTO_TEST_CASE(provider_urls_are_checked_before_any_connection) {
  rp::ProviderResult plain = rp::LoadProvider("http://127.0.0.1:9", {});
  BOOST_TEST(!plain.documents.has_value());
  BOOST_TEST(plain.error.message.find("must use https") != std::string::npos, plain.error.message);
  rp::ProviderResult loopback = rp::LoadProvider("https://127.0.0.1:9", {});
  BOOST_TEST(!loopback.documents.has_value());
  BOOST_TEST(loopback.error.message.find("a loopback address") != std::string::npos, loopback.error.message);
  BOOST_TEST(loopback.error.message.find("ICAT_OIDC_ALLOW_PRIVATE_CIDRS") != std::string::npos);
  BOOST_TEST(loopback.error.message.find("webhook") == std::string::npos);

  rp::Discovery discovery;
  discovery.token_endpoint = "http://127.0.0.1:9/token";
  rp::TokenResult token = rp::RedeemCode(discovery, {"code", "https://a/cb", "verifier", "id", "secret"}, {});
  BOOST_TEST(!token.id_token.has_value());
  BOOST_TEST(token.error == "unreachable");
  BOOST_TEST(token.description.find("must use https") != std::string::npos, token.description);
  BOOST_TEST(token.description.find("secret") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
