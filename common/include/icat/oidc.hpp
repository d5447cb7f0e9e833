// OpenID Connect as a relying party (docs/sso.md): a provider's discovery document and keys, the
// authorization request with PKCE, the token request, and the ID token's validation exactly as
// OpenID Connect Core 1.0 section 3.1.3.7 says. Pure functions (common/src/oidc.cpp), except the
// Provider cache and the HTTP calls (common/src/oidc_provider.cpp, libcurl), which go through the
// OpenID Provider URL policy (ICAT_OIDC_ALLOW_HTTP, ICAT_OIDC_ALLOW_PRIVATE_CIDRS, checked like
// webhook URLs: url_guard.hpp).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/url_guard.hpp"

namespace icat::oidc {

struct IdTokenResult;
struct IdTokenCheck;

// ------------------------------------------------------------------ pure parts

// What the relying party needs of {issuer}/.well-known/openid-configuration.
struct Discovery {
  std::string issuer, authorization_endpoint, token_endpoint, jwks_uri;
  std::vector<std::string> token_endpoint_auth_methods;  // empty: the default, client_secret_basic
  std::vector<std::string> id_token_signing_algs;
};
// nullopt with *error set ("jwks_uri is missing", ...) when the document is not usable, or its
// issuer is not exactly `issuer` (section 4.3 of Discovery).
std::optional<Discovery> ParseDiscovery(std::string_view json, std::string_view issuer, std::string* error);

// client_secret_basic unless the provider offers only client_secret_post.
bool UsesClientSecretPost(const Discovery& discovery);

// PKCE (RFC 7636): a verifier of 43 base64url characters from 32 random bytes, and its S256 challenge.
std::string NewCodeVerifier();
std::string CodeChallengeS256(std::string_view verifier);

struct AuthorizationRequest {
  std::string client_id, redirect_uri, state, nonce, code_challenge;
  std::vector<std::string> scopes;  // "openid" is added when missing
};
// The authorization endpoint's URL with response_type=code, code_challenge_method=S256 and every
// value percent-encoded.
std::string AuthorizationUrl(const Discovery& discovery, const AuthorizationRequest& request);

// The signature keys of a JWK Set (kty RSA, or EC on P-256), by kid.
inline constexpr size_t kMaxKeys = 100;
class KeySet {
 public:
  // nullopt with *error when the document is not a JWK Set or holds more than kMaxKeys keys; keys it
  // cannot use (other kty or curves, use "enc", RSA under 2048 bits, a malformed member) are
  // skipped, not refused.
  static std::optional<KeySet> Parse(std::string_view json, std::string* error);
  size_t size() const;
  bool HasKey(std::string_view kid) const;
  struct Data;  // common/src/oidc.cpp: the parsed keys (OpenSSL)

 private:
  std::shared_ptr<const Data> data_;
  friend IdTokenResult ValidateIdToken(std::string_view, const KeySet&, const IdTokenCheck&);
};

// The claims a sign-in uses, from a validated ID token.
struct IdClaims {
  std::string issuer, subject, email;
  bool email_verified = false;
  std::string name;
  std::vector<std::string> groups;  // from the configured claim: an array of strings, or one string
};

// Everything section 3.1.3.7 checks, with the values to check against.
struct IdTokenCheck {
  std::string issuer;     // the configured issuer, compared exactly with iss
  std::string client_id;  // must be in aud; azp, when present, must equal it
  std::string nonce;      // must equal the token's nonce
  std::string groups_claim;
  long long now = 0;                // seconds since the epoch
  long long leeway_seconds = 60;    // for exp, iat (not in the future) and nbf
  long long max_age_seconds = 600;  // iat no older than this
  // Never none nor HS*: those are refused whatever this says. RS256/384/512, PS256 and ES256 at most.
  std::vector<std::string> allowed_algs = {"RS256", "RS384", "RS512", "PS256", "ES256"};
};

// Why an ID token was refused: a stable word for the error's details and a sentence.
struct TokenProblem {
  std::string
      reason;  // "signature", "alg", "kid", "iss", "aud", "azp", "exp", "iat", "nbf", "nonce", "malformed", "claims"
  std::string message;  // one sentence, safe to show
};
// The claims of a token whose signature verifies with a key of `keys` (by kid; without a kid, the
// one key of matching type when there is exactly one) and whose claims pass `check`; otherwise the
// problem. unknown_kid is set when the only fault is a kid the key set lacks (the caller refetches
// the key set once and tries again).
struct IdTokenResult {
  std::optional<IdClaims> claims;
  TokenProblem problem;
  bool unknown_kid = false;
};
IdTokenResult ValidateIdToken(std::string_view id_token, const KeySet& keys, const IdTokenCheck& check);

// ------------------------------------------------------------------ the network

// A provider's discovery and keys, cached per process (a worker) by issuer for up to an hour, at
// most 64 issuers; the keys are fetched again on an unknown kid, at most once a minute per issuer.
// Fetches follow no redirect, take at most 5 s, and read at most 256 KiB.
struct ProviderDocuments {
  Discovery discovery;
  std::shared_ptr<const KeySet> keys;  // shared with the cache: stays valid after a refetch replaces it
};
struct FetchError {
  std::string message;  // one sentence naming the URL's host and what failed; never a secret
};
// Throws nothing: the documents, or the error.
struct ProviderResult {
  std::optional<ProviderDocuments> documents;
  FetchError error;
};
ProviderResult LoadProvider(std::string_view issuer, const WebhookUrlPolicy& policy);
// After an unknown kid: fetches the keys again unless fetched within the last minute.
ProviderResult RefreshKeys(std::string_view issuer, const WebhookUrlPolicy& policy);

// The token request (authorization_code grant with the PKCE verifier), authenticated by
// client_secret_basic or client_secret_post as UsesClientSecretPost says.
struct TokenRequest {
  std::string code, redirect_uri, code_verifier, client_id, client_secret;
};
struct TokenResult {
  std::optional<std::string> id_token;  // the reply's id_token when the provider granted
  std::string error;        // the provider's "error" (invalid_grant, ...), "unreachable", or "invalid_response"
  std::string description;  // the provider's error_description or what failed, shortened, safe to show
};
TokenResult RedeemCode(const Discovery& discovery, const TokenRequest& request, const WebhookUrlPolicy& policy);

}  // namespace icat::oidc
