// OpenID Connect as a relying party, the pure parts (oidc.hpp): discovery, PKCE, the authorization
// URL, JWK Sets and the ID token's validation (OpenID Connect Core 1.0 section 3.1.3.7). The fetches
// and their cache are in oidc_provider.cpp, so only the programs that reach a provider link libcurl.
#include "icat/oidc.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "icat/crypto.hpp"
#include "icat/http.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"

namespace icat::oidc {

namespace {
constexpr size_t kMaxListEntries = 100;  // discovery's lists, an ID token's audiences
constexpr size_t kMaxUrlChars = 2048;
constexpr size_t kMaxTokenChars = 64 * 1024;
constexpr size_t kMaxSubjectChars = 255;  // Core 1.0 section 2
constexpr size_t kMaxEmailChars = 320;
constexpr size_t kMaxNameChars = 256;
constexpr size_t kMaxGroups = 500;
constexpr size_t kMaxGroupChars = 256;
constexpr int kMinRsaBits = 2048;  // RFC 7518 section 3.3
constexpr int kMaxRsaBits = 8192;  // bounds the work a hostile key set can cause
constexpr int kMaxRsaExponentBits = 64;

using PKeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using PKeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)>;
using BnPtr = std::unique_ptr<BIGNUM, decltype(&BN_free)>;

const unsigned char* Bytes(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }

// ------------------------------------------------------------------ JSON members

std::optional<std::string> StringMember(const rapidjson::Value& object, const char* name) {
  auto member = object.FindMember(name);
  if (member == object.MemberEnd() || !member->value.IsString()) return std::nullopt;
  return std::string(member->value.GetString(), member->value.GetStringLength());
}

// The strings of an array member (other entries skipped), at most kMaxListEntries; empty when absent.
std::vector<std::string> StringList(const rapidjson::Value& object, const char* name) {
  std::vector<std::string> list;
  auto member = object.FindMember(name);
  if (member == object.MemberEnd() || !member->value.IsArray()) return list;
  for (const rapidjson::Value& entry : member->value.GetArray()) {
    if (list.size() == kMaxListEntries) break;
    if (entry.IsString()) list.emplace_back(entry.GetString(), entry.GetStringLength());
  }
  return list;
}

bool HasControlCharacters(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// An absolute http(s) URL a browser or libcurl can be sent to: no spaces, controls or fragment.
// Whether it is reachable under the URL policy is the fetch's check (CheckWebhookUrl).
bool IsHttpUrl(std::string_view url) {
  std::string scheme = Lower(url.substr(0, url.find("://")));
  if ((scheme != "https" && scheme != "http") || url.size() <= scheme.size() + 3 || url.size() > kMaxUrlChars) {
    return false;
  }
  return std::none_of(url.begin(), url.end(), [](char c) {
    return static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f || c == '#';
  });
}

std::string Quoted(std::string_view text) {
  constexpr size_t kShown = 100;
  return "\"" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "...\"" : "\"");
}

// ------------------------------------------------------------------ algorithms and keys

struct Algorithm {
  std::string_view name, kty;
  const EVP_MD* (*digest)();
  bool pss;
};
const Algorithm kAlgorithms[] = {
    {"RS256", "RSA", EVP_sha256, false}, {"RS384", "RSA", EVP_sha384, false}, {"RS512", "RSA", EVP_sha512, false},
    {"PS256", "RSA", EVP_sha256, true},  {"ES256", "EC", EVP_sha256, false},
};

const Algorithm* FindAlgorithm(std::string_view name) {
  for (const Algorithm& algorithm : kAlgorithms) {
    if (algorithm.name == name) return &algorithm;
  }
  return nullptr;
}

PKeyPtr KeyFromData(const char* type, const OSSL_PARAM* params) {
  PKeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr), EVP_PKEY_CTX_free);
  EVP_PKEY* key = nullptr;
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, const_cast<OSSL_PARAM*>(params)) != 1) {
    ERR_clear_error();
    return PKeyPtr(nullptr, EVP_PKEY_free);
  }
  return PKeyPtr(key, EVP_PKEY_free);
}

// An RSA public key from a JWK's n and e (big-endian bytes), or null when unusable.
PKeyPtr RsaKey(std::string_view n, std::string_view e) {
  BnPtr modulus(BN_bin2bn(Bytes(n), static_cast<int>(n.size()), nullptr), BN_free);
  BnPtr exponent(BN_bin2bn(Bytes(e), static_cast<int>(e.size()), nullptr), BN_free);
  PKeyPtr none(nullptr, EVP_PKEY_free);
  if (!modulus || !exponent || BN_num_bits(modulus.get()) < kMinRsaBits || BN_num_bits(modulus.get()) > kMaxRsaBits ||
      BN_num_bits(exponent.get()) < 2 || BN_num_bits(exponent.get()) > kMaxRsaExponentBits ||
      !BN_is_odd(exponent.get())) {
    return none;
  }
  std::unique_ptr<OSSL_PARAM_BLD, decltype(&OSSL_PARAM_BLD_free)> build(OSSL_PARAM_BLD_new(), OSSL_PARAM_BLD_free);
  if (!build || OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_N, modulus.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_E, exponent.get()) != 1) {
    return none;
  }
  std::unique_ptr<OSSL_PARAM, decltype(&OSSL_PARAM_free)> params(OSSL_PARAM_BLD_to_param(build.get()), OSSL_PARAM_free);
  return params ? KeyFromData("RSA", params.get()) : std::move(none);
}

// A P-256 public key from a JWK's x and y (32 bytes each), or null when not a point of the curve.
PKeyPtr P256Key(std::string_view x, std::string_view y) {
  PKeyPtr none(nullptr, EVP_PKEY_free);
  if (x.size() != 32 || y.size() != 32) return none;
  std::string point = "\x04" + std::string(x) + std::string(y);  // uncompressed (SEC 1 section 2.3.3)
  char group[] = "prime256v1";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()),
      OSSL_PARAM_construct_end(),
  };
  PKeyPtr key = KeyFromData("EC", params);
  if (!key) return none;
  PKeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr), EVP_PKEY_CTX_free);
  if (!check || EVP_PKEY_public_check(check.get()) != 1) {
    ERR_clear_error();
    return none;
  }
  return key;
}

std::optional<std::string> DecodedMember(const rapidjson::Value& jwk, const char* name) {
  std::optional<std::string> text = StringMember(jwk, name);
  return text ? Base64UrlDecode(*text) : std::nullopt;
}

}  // namespace

// ------------------------------------------------------------------ KeySet

struct KeySet::Data {
  struct Key {
    std::optional<std::string> kid;
    std::string kty;  // "RSA" or "EC" (P-256)
    std::string alg;  // empty: any algorithm of the key's type
    PKeyPtr key;
  };
  std::vector<Key> keys;
};

namespace {

// A signature key of a JWK (RFC 7517 section 4, RFC 7518 section 6), or nullopt when it is not one
// this relying party can use.
std::optional<KeySet::Data::Key> ReadJwk(const rapidjson::Value& jwk) {
  if (!jwk.IsObject()) return std::nullopt;
  KeySet::Data::Key out{std::nullopt, "", "", PKeyPtr(nullptr, EVP_PKEY_free)};
  for (const char* name : {"kid", "alg", "use"}) {
    if (jwk.HasMember(name) && !jwk[name].IsString()) return std::nullopt;
  }
  if (jwk.HasMember("use") && StringMember(jwk, "use") != "sig") return std::nullopt;
  if (jwk.HasMember("key_ops")) {
    std::vector<std::string> ops = StringList(jwk, "key_ops");
    if (std::find(ops.begin(), ops.end(), "verify") == ops.end()) return std::nullopt;
  }
  out.kid = StringMember(jwk, "kid");
  out.kty = StringMember(jwk, "kty").value_or("");
  out.alg = StringMember(jwk, "alg").value_or("");
  if (!out.alg.empty()) {
    const Algorithm* algorithm = FindAlgorithm(out.alg);
    if (!algorithm || algorithm->kty != out.kty) return std::nullopt;
  }
  if (out.kty == "RSA") {
    std::optional<std::string> n = DecodedMember(jwk, "n"), e = DecodedMember(jwk, "e");
    if (n && e) out.key = RsaKey(*n, *e);
  } else if (out.kty == "EC" && StringMember(jwk, "crv") == "P-256") {
    std::optional<std::string> x = DecodedMember(jwk, "x"), y = DecodedMember(jwk, "y");
    if (x && y) out.key = P256Key(*x, *y);
  }
  if (!out.key) return std::nullopt;
  return out;
}

}  // namespace

std::optional<KeySet> KeySet::Parse(std::string_view json, std::string* error) {
  JsonRead read = ReadJson(json, kMaxBodyDepth);
  const rapidjson::Value& document = read.document;
  if (!read.error.empty() || !document.IsObject() || !document.HasMember("keys") || !document["keys"].IsArray()) {
    if (error) *error = "the JWK Set is not a JSON object with a \"keys\" array";
    return std::nullopt;
  }
  if (document["keys"].Size() > kMaxKeys) {
    if (error) *error = "the JWK Set holds more than " + std::to_string(kMaxKeys) + " keys";
    return std::nullopt;
  }
  auto data = std::make_shared<Data>();
  for (const rapidjson::Value& jwk : document["keys"].GetArray()) {
    if (std::optional<Data::Key> key = ReadJwk(jwk)) data->keys.push_back(std::move(*key));
  }
  KeySet set;
  set.data_ = std::move(data);
  return set;
}

size_t KeySet::size() const { return data_ ? data_->keys.size() : 0; }

bool KeySet::HasKey(std::string_view kid) const {
  if (!data_) return false;
  return std::any_of(data_->keys.begin(), data_->keys.end(), [&](const Data::Key& key) { return key.kid == kid; });
}

// ------------------------------------------------------------------ discovery, PKCE, authorization

std::optional<Discovery> ParseDiscovery(std::string_view json, std::string_view issuer, std::string* error) {
  auto refuse = [&](std::string why) -> std::optional<Discovery> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  JsonRead read = ReadJson(json, kMaxBodyDepth);
  if (!read.error.empty() || !read.document.IsObject()) return refuse("the discovery document is not a JSON object");
  const rapidjson::Value& document = read.document;
  Discovery discovery;
  std::optional<std::string> named = StringMember(document, "issuer");
  if (!named) return refuse("the discovery document names no issuer");
  // Discovery section 4.3: exactly the issuer it was fetched for, or an impostor could speak for it.
  if (*named != issuer)
    return refuse("the discovery document names the issuer " + Quoted(*named) + ", not " + Quoted(issuer));
  discovery.issuer = *named;
  const std::pair<const char*, std::string*> endpoints[] = {
      {"authorization_endpoint", &discovery.authorization_endpoint},
      {"token_endpoint", &discovery.token_endpoint},
      {"jwks_uri", &discovery.jwks_uri},
  };
  for (const auto& [name, field] : endpoints) {
    std::optional<std::string> url = StringMember(document, name);
    if (!url) return refuse(std::string(name) + " is missing from the discovery document");
    if (!IsHttpUrl(*url)) return refuse(std::string(name) + " is not an absolute http(s) URL");
    *field = std::move(*url);
  }
  discovery.token_endpoint_auth_methods = StringList(document, "token_endpoint_auth_methods_supported");
  discovery.id_token_signing_algs = StringList(document, "id_token_signing_alg_values_supported");
  return discovery;
}

bool UsesClientSecretPost(const Discovery& discovery) {
  const std::vector<std::string>& methods = discovery.token_endpoint_auth_methods;
  auto offers = [&](std::string_view method) {
    return std::find(methods.begin(), methods.end(), method) != methods.end();
  };
  return offers("client_secret_post") && !offers("client_secret_basic");
}

std::string NewCodeVerifier() { return Base64UrlEncode(RandomBytes(32)); }

std::string CodeChallengeS256(std::string_view verifier) { return Base64UrlEncode(Sha256(verifier)); }

std::string AuthorizationUrl(const Discovery& discovery, const AuthorizationRequest& request) {
  std::vector<std::string> scopes = request.scopes;
  if (std::find(scopes.begin(), scopes.end(), "openid") == scopes.end()) scopes.insert(scopes.begin(), "openid");
  const std::pair<std::string_view, std::string> parameters[] = {
      {"response_type", "code"},
      {"client_id", request.client_id},
      {"redirect_uri", request.redirect_uri},
      {"scope", Join(scopes, " ")},
      {"state", request.state},
      {"nonce", request.nonce},
      {"code_challenge", request.code_challenge},
      {"code_challenge_method", "S256"},
  };
  std::string url = discovery.authorization_endpoint;
  char separator = url.find('?') == std::string::npos ? '?' : '&';  // an endpoint may carry a query of its own
  for (const auto& [name, value] : parameters) {
    url += separator;
    url += std::string(name) + "=" + UrlEncode(value);
    separator = '&';
  }
  return url;
}

// ------------------------------------------------------------------ the ID token

namespace {

struct Refusal {
  std::string reason, message;
};

// A JSON object part in its one base64url spelling, whose member names are unique: with a duplicate, two readers could
// see two tokens.
std::optional<rapidjson::Document> DecodeObject(std::string_view part) {
  std::optional<std::string> text = Base64UrlDecodeCanonical(part);
  if (!text) return std::nullopt;
  JsonRead read = ReadJson(*text, kMaxBodyDepth);
  if (!read.error.empty() || !read.document.IsObject()) return std::nullopt;
  std::set<std::string_view> names;
  const rapidjson::Value& object = read.document;
  for (const auto& member : object.GetObject()) {
    if (!names.emplace(member.name.GetString(), member.name.GetStringLength()).second) return std::nullopt;
  }
  return std::move(read.document);
}

std::optional<std::array<std::string_view, 3>> SplitToken(std::string_view token) {
  if (token.size() > kMaxTokenChars) return std::nullopt;
  size_t first = token.find('.');
  size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return std::nullopt;
  return std::array<std::string_view, 3>{token.substr(0, first), token.substr(first + 1, second - first - 1),
                                         token.substr(second + 1)};
}

// The header's algorithm when it is one this relying party verifies and the check allows.
const Algorithm* AllowedAlgorithm(const rapidjson::Value& header, const IdTokenCheck& check, Refusal* refusal) {
  std::string alg = StringMember(header, "alg").value_or("");
  const Algorithm* algorithm = FindAlgorithm(alg);
  bool allowed = std::find(check.allowed_algs.begin(), check.allowed_algs.end(), alg) != check.allowed_algs.end();
  if (alg == "none" || alg.starts_with("HS")) {
    *refusal = {"alg", "the token is not signed with a key of the provider (alg none or an HMAC is never accepted)"};
  } else if (!algorithm || !allowed) {
    *refusal = {"alg", "the token's signature algorithm is not one this sign-in accepts"};
  }
  return refusal->reason.empty() ? algorithm : nullptr;
}

// The keys that may have signed a token: by kid, of the algorithm's type and (when the key says)
// algorithm; without a kid, the one key of that type when there is exactly one.
std::vector<const EVP_PKEY*> CandidateKeys(const KeySet::Data* data, const rapidjson::Value& header,
                                           const Algorithm& algorithm, Refusal* refusal, bool* unknown_kid) {
  std::vector<const EVP_PKEY*> keys;
  std::optional<std::string> kid = StringMember(header, "kid");
  bool kid_known = false;
  static const KeySet::Data kEmpty{};
  for (const KeySet::Data::Key& key : (data ? data : &kEmpty)->keys) {
    if (kid && key.kid != kid) continue;
    kid_known = true;
    if (key.kty == algorithm.kty && (key.alg.empty() || key.alg == algorithm.name)) keys.push_back(key.key.get());
  }
  if (kid && !kid_known) {
    *unknown_kid = true;
    *refusal = {"kid", "the token names a key (kid) the provider's key set does not hold"};
  } else if (kid && keys.empty()) {
    *refusal = {"kid", "the key the token names (kid) is not a key for its algorithm"};
  } else if (!kid && keys.size() != 1) {
    *refusal = {"kid", "the token names no key (kid) and the key set does not hold exactly one key of its type"};
  }
  return keys;
}

// JWS ES256 carries r and s as 32 bytes each (RFC 7518 section 3.4); OpenSSL verifies ASN.1 DER.
std::optional<std::string> EcdsaRawToDer(std::string_view raw) {
  if (raw.size() != 64) return std::nullopt;
  std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> signature(ECDSA_SIG_new(), ECDSA_SIG_free);
  BIGNUM* r = BN_bin2bn(Bytes(raw), 32, nullptr);
  BIGNUM* s = BN_bin2bn(Bytes(raw.substr(32)), 32, nullptr);
  if (!signature || !r || !s || ECDSA_SIG_set0(signature.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return std::nullopt;
  }
  int length = i2d_ECDSA_SIG(signature.get(), nullptr);
  if (length <= 0) return std::nullopt;
  std::string der(static_cast<size_t>(length), '\0');
  unsigned char* out = reinterpret_cast<unsigned char*>(der.data());
  i2d_ECDSA_SIG(signature.get(), &out);
  return der;
}

bool VerifySignature(const Algorithm& algorithm, const EVP_PKEY* key, std::string_view input, std::string signature) {
  if (algorithm.kty == "EC") {
    std::optional<std::string> der = EcdsaRawToDer(signature);
    if (!der) return false;
    signature = std::move(*der);
  }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_PKEY_CTX* key_ctx = nullptr;  // owned by ctx
  bool verified =
      ctx && EVP_DigestVerifyInit(ctx.get(), &key_ctx, algorithm.digest(), nullptr, const_cast<EVP_PKEY*>(key)) == 1 &&
      (!algorithm.pss || (EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PSS_PADDING) == 1 &&
                          EVP_PKEY_CTX_set_rsa_pss_saltlen(key_ctx, RSA_PSS_SALTLEN_DIGEST) == 1 &&
                          EVP_PKEY_CTX_set_rsa_mgf1_md(key_ctx, algorithm.digest()) == 1)) &&
      EVP_DigestVerify(ctx.get(), Bytes(signature), signature.size(), Bytes(input), input.size()) == 1;
  ERR_clear_error();  // a failed check leaves OpenSSL's error queue filled
  return verified;
}

// A NumericDate (RFC 7519 section 2) in whole seconds; nullopt when absent, not a number or out of range.
std::optional<long long> NumericDate(const rapidjson::Value& claims, const char* name) {
  auto member = claims.FindMember(name);
  if (member == claims.MemberEnd() || !member->value.IsNumber()) return std::nullopt;
  const rapidjson::Value& value = member->value;
  if (value.IsInt64()) return value.GetInt64();
  if (!value.IsDouble()) return std::nullopt;  // an integer beyond int64
  double seconds = value.GetDouble();
  constexpr double kLimit = 1e15;  // far beyond any real date, well inside long long
  if (!std::isfinite(seconds) || seconds < -kLimit || seconds > kLimit) return std::nullopt;
  return static_cast<long long>(std::floor(seconds));
}

// Section 3.1.3.7 steps 3 to 5: the client among the audiences, azp with several, azp the client.
std::optional<Refusal> CheckAudience(const rapidjson::Value& claims, const IdTokenCheck& check) {
  std::vector<std::string_view> audiences;
  auto aud = claims.FindMember("aud");
  if (aud != claims.MemberEnd() && aud->value.IsString()) {
    audiences.emplace_back(aud->value.GetString(), aud->value.GetStringLength());
  } else if (aud != claims.MemberEnd() && aud->value.IsArray() && aud->value.Size() <= kMaxListEntries) {
    for (const rapidjson::Value& entry : aud->value.GetArray()) {
      if (!entry.IsString()) return Refusal{"aud", "the token's audience (aud) is not a list of strings"};
      audiences.emplace_back(entry.GetString(), entry.GetStringLength());
    }
  } else {
    return Refusal{"aud", "the token names no audience (aud) this sign-in can read"};
  }
  if (check.client_id.empty() || std::find(audiences.begin(), audiences.end(), check.client_id) == audiences.end()) {
    return Refusal{"aud", "the token is not meant for this client (aud)"};
  }
  bool has_azp = claims.HasMember("azp");
  if (audiences.size() > 1 && !has_azp) {
    return Refusal{"azp", "the token has several audiences and names no authorized party (azp)"};
  }
  if (has_azp && StringMember(claims, "azp") != check.client_id) {
    return Refusal{"azp", "the token's authorized party (azp) is not this client"};
  }
  return std::nullopt;
}

// Steps 2, 9, 10 and 11 (iss, exp, iat, nonce) and nbf, after the audience.
std::optional<Refusal> CheckClaims(const rapidjson::Value& claims, const IdTokenCheck& check) {
  if (check.issuer.empty() || StringMember(claims, "iss") != check.issuer) {
    return Refusal{"iss", "the token's issuer (iss) is not the configured issuer"};
  }
  if (std::optional<Refusal> refusal = CheckAudience(claims, check)) return refusal;
  std::optional<long long> exp = NumericDate(claims, "exp"), iat = NumericDate(claims, "iat");
  if (!exp || *exp <= check.now - check.leeway_seconds) return Refusal{"exp", "the token has expired (exp)"};
  if (!iat || *iat > check.now + check.leeway_seconds) {
    return Refusal{"iat", "the token's issue time (iat) is missing or in the future"};
  }
  if (*iat < check.now - check.max_age_seconds - check.leeway_seconds) {
    return Refusal{"iat", "the token was issued too long ago (iat)"};
  }
  if (claims.HasMember("nbf")) {
    std::optional<long long> nbf = NumericDate(claims, "nbf");
    if (!nbf || *nbf > check.now + check.leeway_seconds) return Refusal{"nbf", "the token is not valid yet (nbf)"};
  }
  if (check.nonce.empty() || StringMember(claims, "nonce") != check.nonce) {
    return Refusal{"nonce", "the token's nonce is not the one this sign-in sent"};
  }
  return std::nullopt;
}

// The groups claim: an array of strings (other entries and overlong names skipped) or one string.
std::optional<Refusal> ReadGroups(const rapidjson::Value& claims, const std::string& name,
                                  std::vector<std::string>* out) {
  auto member = name.empty() ? claims.MemberEnd() : claims.FindMember(name.c_str());
  if (member == claims.MemberEnd()) return std::nullopt;
  auto take = [&](const rapidjson::Value& entry) {
    if (entry.IsString() && entry.GetStringLength() > 0 && entry.GetStringLength() <= kMaxGroupChars) {
      out->emplace_back(entry.GetString(), entry.GetStringLength());
    }
  };
  if (member->value.IsArray()) {
    if (member->value.Size() > kMaxGroups) {
      return Refusal{"claims", "the token's groups claim holds more than " + std::to_string(kMaxGroups) + " groups"};
    }
    for (const rapidjson::Value& entry : member->value.GetArray()) take(entry);
  } else {
    take(member->value);
  }
  return std::nullopt;
}

std::optional<Refusal> ReadClaims(const rapidjson::Value& claims, const IdTokenCheck& check, IdClaims* out) {
  std::optional<std::string> sub = StringMember(claims, "sub");
  if (!sub || sub->empty() || sub->size() > kMaxSubjectChars || HasControlCharacters(*sub)) {
    return Refusal{"claims", "the token's subject (sub) is missing, longer than 255 characters or not plain text"};
  }
  out->issuer = check.issuer;
  out->subject = *sub;
  std::optional<std::string> email = StringMember(claims, "email");
  if (email && (email->size() > kMaxEmailChars || HasControlCharacters(*email))) {
    return Refusal{"claims", "the token's email is longer than 320 characters or not plain text"};
  }
  out->email = email.value_or("");
  auto verified = claims.FindMember("email_verified");  // some providers send the string "true"
  out->email_verified = verified != claims.MemberEnd() && ((verified->value.IsBool() && verified->value.GetBool()) ||
                                                           StringMember(claims, "email_verified") == "true");
  std::optional<std::string> name = StringMember(claims, "name");  // only shown: an unusable one is left out
  if (name && name->size() <= kMaxNameChars && !HasControlCharacters(*name)) out->name = *name;
  return ReadGroups(claims, check.groups_claim, &out->groups);
}

IdTokenResult Refused(Refusal refusal) {
  IdTokenResult result;
  result.problem = {std::move(refusal.reason), std::move(refusal.message)};
  return result;
}

}  // namespace

IdTokenResult ValidateIdToken(std::string_view id_token, const KeySet& keys, const IdTokenCheck& check) {
  const Refusal malformed{"malformed", "the ID token is not three base64url parts of a signed JSON token"};
  std::optional<std::array<std::string_view, 3>> parts = SplitToken(id_token);
  if (!parts) return Refused(malformed);
  std::optional<rapidjson::Document> header = DecodeObject((*parts)[0]);
  std::optional<std::string> signature = Base64UrlDecodeCanonical((*parts)[2]);
  if (!header || !signature) return Refused(malformed);
  // RFC 7515 section 4.1.11: an extension the token marks critical must be understood; none is.
  if (header->HasMember("crit")) return Refused({"malformed", "the ID token's header lists critical extensions"});

  Refusal refusal;
  const Algorithm* algorithm = AllowedAlgorithm(*header, check, &refusal);
  if (!algorithm) return Refused(refusal);
  bool unknown_kid = false;
  std::vector<const EVP_PKEY*> candidates =
      CandidateKeys(keys.data_.get(), *header, *algorithm, &refusal, &unknown_kid);
  if (!refusal.reason.empty()) {
    IdTokenResult result = Refused(refusal);
    result.unknown_kid = unknown_kid;
    return result;
  }
  std::string_view signing_input = id_token.substr(0, (*parts)[0].size() + 1 + (*parts)[1].size());
  bool verified = std::any_of(candidates.begin(), candidates.end(), [&](const EVP_PKEY* key) {
    return VerifySignature(*algorithm, key, signing_input, *signature);
  });
  if (!verified) return Refused({"signature", "the ID token's signature does not verify with the provider's key"});

  std::optional<rapidjson::Document> claims = DecodeObject((*parts)[1]);
  if (!claims) return Refused(malformed);
  if (std::optional<Refusal> problem = CheckClaims(*claims, check)) return Refused(*problem);
  IdClaims out;
  if (std::optional<Refusal> problem = ReadClaims(*claims, check, &out)) return Refused(*problem);
  IdTokenResult result;
  result.claims = std::move(out);
  return result;
}

}  // namespace icat::oidc
