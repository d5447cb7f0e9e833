// A provider's documents (common/src/oidc.cpp): the input as a JWK Set, whose keys then meet a token
// naming the kid "k1", and as a discovery document with its authorization URL.
#include "fuzz.hpp"
#include "icat/crypto.hpp"
#include "icat/oidc.hpp"

namespace {

constexpr std::string_view kIssuer = "https://idp.example.com";

// A token of each key type for kid "k1", signed by no key of the corpus: the keys' reading and the
// verification run, and must refuse.
const std::vector<std::string>& Tokens() {
  static const std::vector<std::string> tokens = [] {
    std::string claims = icat::Base64UrlEncode(R"({"iss":"https://idp.example.com","aud":"c-1","sub":"u"})");
    std::vector<std::string> out;
    for (std::string alg : {"RS256", "PS256", "ES256"}) {
      std::string signature(alg == "ES256" ? 64 : 256, '\x5a');
      out.push_back(icat::Base64UrlEncode(R"({"alg":")" + alg + R"(","kid":"k1"})") + "." + claims + "." +
                    icat::Base64UrlEncode(signature));
    }
    return out;
  }();
  return tokens;
}

void KeySet(std::string_view text) {
  std::string error;
  std::optional<icat::oidc::KeySet> keys = icat::oidc::KeySet::Parse(text, &error);
  if (!keys) {
    icat::fuzz::Expect(!error.empty(), "a refused key set says why");
    return;
  }
  icat::fuzz::Expect(keys->size() <= icat::oidc::kMaxKeys, "a key set is bounded");
  icat::oidc::IdTokenCheck check;
  check.issuer = std::string(kIssuer);
  check.client_id = "c-1";
  check.nonce = "n-1";
  for (const std::string& token : Tokens()) {
    icat::oidc::IdTokenResult result = icat::oidc::ValidateIdToken(token, *keys, check);
    icat::fuzz::Expect(!result.claims, "no key of the input signed the token");
    icat::fuzz::Expect(result.unknown_kid == !keys->HasKey("k1"), "unknown_kid says whether the set holds k1");
  }
}

void Discovery(std::string_view text) {
  std::string error;
  std::optional<icat::oidc::Discovery> discovery = icat::oidc::ParseDiscovery(text, kIssuer, &error);
  if (!discovery) {
    icat::fuzz::Expect(!error.empty(), "a refused discovery document says why");
    return;
  }
  icat::fuzz::Expect(discovery->issuer == kIssuer, "the issuer is the one asked for");
  icat::oidc::AuthorizationRequest request{"c 1", "https://a.example/cb", "s", "n", "c", {"email"}};
  std::string url = icat::oidc::AuthorizationUrl(*discovery, request);
  icat::fuzz::Expect(url.starts_with(discovery->authorization_endpoint), "the URL extends the endpoint");
  icat::fuzz::Expect(url.find(' ', discovery->authorization_endpoint.size()) == std::string::npos,
                     "the added values are encoded");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  KeySet(text);
  Discovery(text);
  return 0;
}
