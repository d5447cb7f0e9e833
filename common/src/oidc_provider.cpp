// OpenID Connect as a relying party, the network parts (oidc.hpp): the discovery document and the
// keys with their per-process cache, and the token request. libcurl, through the OpenID Provider
// URL policy: each URL checked like a webhook's, the connection pinned to the checked addresses.
#include <curl/curl.h>

#include <algorithm>
#include <mutex>

#include "icat/crypto.hpp"
#include "icat/curl_get.hpp"
#include "icat/http.hpp"
#include "icat/json.hpp"
#include "icat/oidc.hpp"

namespace icat::oidc {

namespace {
constexpr long kTimeoutSeconds = 5;
constexpr size_t kMaxReplyBytes = 256 * 1024;
constexpr size_t kMaxProviders = 64;
constexpr auto kDocumentsLifetime = std::chrono::hours(1);
constexpr auto kKeysRefetchInterval = std::chrono::minutes(1);
using Clock = std::chrono::steady_clock;

// Printable ASCII of a provider's words, cut to `limit`: shown to people and written to logs.
std::string SafeText(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text.substr(0, limit)) out += c >= 0x20 && c < 0x7f ? c : '?';
  return out;
}

// The URL guard words its refusals for webhooks; the same rules guard OpenID Provider URLs here.
std::string ProviderUrlProblem(std::string_view url, std::string reason) {
  constexpr std::string_view kWebhookWords = "; webhooks go to public addresses only";
  if (reason.ends_with(kWebhookWords)) {
    reason.resize(reason.size() - kWebhookWords.size());
    reason += "; OpenID Providers must be on public addresses unless ICAT_OIDC_ALLOW_PRIVATE_CIDRS allows it";
  }
  return "the OpenID Provider URL " + SafeText(url, 200) + " " + reason;
}

struct Reply {
  long status = 0;
  std::string body;
  std::string error;  // why no reply came: one sentence, empty when one did
};

// One request to a provider: a GET, or a POST of `form` (application/x-www-form-urlencoded).
Reply Send(std::string_view url, const WebhookUrlPolicy& policy, const std::string* form,
           std::vector<std::string> headers) {
  Reply reply;
  UrlVerdict target = CheckWebhookUrl(url, policy);
  if (!target.ok) {
    reply.error = ProviderUrlProblem(url, target.reason);
    return reply;
  }
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    reply.error = "libcurl could not start";
    return reply;
  }
  CurlBody body{{}, kMaxReplyBytes, false};
  char error[CURL_ERROR_SIZE] = {0};
  headers.emplace_back("Accept: application/json");
  CurlGet request;
  request.url = target.url;
  request.protocols = policy.allow_http ? "http,https" : "https";
  request.user_agent = "icat-oidc/1";
  request.headers = std::move(headers);
  CurlHeaderList header_list = SetUpGet(curl.get(), request, &body, error);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT, kTimeoutSeconds);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, kTimeoutSeconds);
  curl_easy_setopt(curl.get(), CURLOPT_FOLLOWLOCATION, 0L);
  CurlHeaderList pinned(nullptr, curl_slist_free_all);
  if (std::string entry = PinnedResolveEntry(target); !entry.empty()) {
    pinned.reset(curl_slist_append(nullptr, entry.c_str()));
    curl_easy_setopt(curl.get(), CURLOPT_RESOLVE, pinned.get());
  }
  if (form) {
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, form->c_str());
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(form->size()));
  }
  CURLcode result = curl_easy_perform(curl.get());
  if (body.too_large) {
    reply.error = "the reply of " + target.host + " is larger than " + std::to_string(kMaxReplyBytes / 1024) + " KiB";
  } else if (result != CURLE_OK) {
    reply.error =
        target.host + " could not be reached: " + SafeText(error[0] ? error : curl_easy_strerror(result), 200);
  } else {
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &reply.status);
    reply.body = std::move(body.bytes);
  }
  return reply;
}

// A document the provider serves with 200 (no redirect is followed), or nullopt with *error.
std::optional<std::string> FetchDocument(std::string_view url, const WebhookUrlPolicy& policy, std::string* error) {
  Reply reply = Send(url, policy, nullptr, {});
  if (!reply.error.empty()) {
    *error = std::move(reply.error);
    return std::nullopt;
  }
  if (reply.status != 200) {
    *error = SafeText(url, 200) + " answered " + std::to_string(reply.status) + ", not 200";
    return std::nullopt;
  }
  return std::move(reply.body);
}

std::shared_ptr<const KeySet> FetchKeys(std::string_view jwks_uri, const WebhookUrlPolicy& policy, std::string* error) {
  std::optional<std::string> text = FetchDocument(jwks_uri, policy, error);
  if (!text) return nullptr;
  std::string why;
  std::optional<KeySet> keys = KeySet::Parse(*text, &why);
  if (!keys) {
    *error = "the keys at " + SafeText(jwks_uri, 200) + " are not usable: " + why;
    return nullptr;
  }
  return std::make_shared<const KeySet>(std::move(*keys));
}

// Discovery section 4: the issuer without a trailing slash, then the well-known path.
std::string DiscoveryUrl(std::string_view issuer) {
  if (issuer.ends_with('/')) issuer.remove_suffix(1);
  return std::string(issuer) + "/.well-known/openid-configuration";
}

struct CachedProvider {
  Discovery discovery;
  std::shared_ptr<const KeySet> keys;
  Clock::time_point loaded, keys_fetched;
};

// Per process: a worker serves one request at a time, but the lock keeps it right under threads too.
std::mutex cache_mutex;
std::map<std::string, CachedProvider, std::less<>> cache;

ProviderResult Failed(std::string message) {
  ProviderResult result;
  result.error.message = std::move(message);
  return result;
}

ProviderResult Documents(const CachedProvider& provider) {
  ProviderResult result;
  result.documents = ProviderDocuments{provider.discovery, provider.keys};
  return result;
}

// Stores a provider, making room by dropping the one loaded longest ago.
ProviderResult Remember(std::string_view issuer, CachedProvider provider) {
  std::lock_guard lock(cache_mutex);
  if (cache.size() >= kMaxProviders && cache.find(issuer) == cache.end()) {
    auto oldest = std::min_element(cache.begin(), cache.end(),
                                   [](const auto& a, const auto& b) { return a.second.loaded < b.second.loaded; });
    cache.erase(oldest);
  }
  return Documents(cache.insert_or_assign(std::string(issuer), std::move(provider)).first->second);
}
}  // namespace

ProviderResult LoadProvider(std::string_view issuer, const WebhookUrlPolicy& policy) {
  Clock::time_point now = Clock::now();
  {
    std::lock_guard lock(cache_mutex);
    auto found = cache.find(issuer);
    if (found != cache.end() && now - found->second.loaded < kDocumentsLifetime) return Documents(found->second);
  }
  std::string error;
  std::optional<std::string> text = FetchDocument(DiscoveryUrl(issuer), policy, &error);
  if (!text) return Failed("the discovery document could not be read: " + error);
  std::optional<Discovery> discovery = ParseDiscovery(*text, issuer, &error);
  if (!discovery) return Failed("the discovery document is not usable: " + error);
  std::shared_ptr<const KeySet> keys = FetchKeys(discovery->jwks_uri, policy, &error);
  if (!keys) return Failed(error);
  return Remember(issuer, {std::move(*discovery), std::move(keys), now, now});
}

ProviderResult RefreshKeys(std::string_view issuer, const WebhookUrlPolicy& policy) {
  Clock::time_point now = Clock::now();
  CachedProvider refreshed;
  bool cached = false;
  {
    std::lock_guard lock(cache_mutex);
    auto found = cache.find(issuer);
    if (found != cache.end()) {
      if (now - found->second.keys_fetched < kKeysRefetchInterval) return Documents(found->second);
      found->second.keys_fetched = now;  // once a minute at most, whether the fetch works or not
      refreshed = found->second;
      cached = true;
    }
  }
  if (!cached) return LoadProvider(issuer, policy);  // dropped from the cache meanwhile: load afresh
  std::string error;
  std::shared_ptr<const KeySet> keys = FetchKeys(refreshed.discovery.jwks_uri, policy, &error);
  if (!keys) return Failed(error);
  refreshed.keys = std::move(keys);
  return Remember(issuer, std::move(refreshed));
}

TokenResult RedeemCode(const Discovery& discovery, const TokenRequest& request, const WebhookUrlPolicy& policy) {
  std::string form = "grant_type=authorization_code&code=" + UrlEncode(request.code) +
                     "&redirect_uri=" + UrlEncode(request.redirect_uri) +
                     "&code_verifier=" + UrlEncode(request.code_verifier);
  std::vector<std::string> headers;
  if (UsesClientSecretPost(discovery)) {
    form += "&client_id=" + UrlEncode(request.client_id) + "&client_secret=" + UrlEncode(request.client_secret);
  } else {  // RFC 6749 section 2.3.1: each form-urlencoded, then joined by ":" and base64-encoded
    headers.push_back("Authorization: Basic " +
                      Base64Encode(UrlEncode(request.client_id) + ":" + UrlEncode(request.client_secret)));
  }
  Reply reply = Send(discovery.token_endpoint, policy, &form, std::move(headers));
  TokenResult result;
  if (!reply.error.empty()) {
    result.error = "unreachable";
    result.description = std::move(reply.error);
    return result;
  }
  JsonRead read = ReadJson(reply.body, kMaxBodyDepth);
  const rapidjson::Value& json = read.document;
  bool object = read.error.empty() && json.IsObject();
  auto text = [&](const char* name) -> std::optional<std::string_view> {
    if (!object || !json.HasMember(name) || !json[name].IsString()) return std::nullopt;
    return std::string_view(json[name].GetString(), json[name].GetStringLength());
  };
  if (reply.status == 200 && text("id_token") && !text("id_token")->empty()) {
    result.id_token = std::string(*text("id_token"));
    return result;
  }
  result.error = text("error") ? SafeText(*text("error"), 64) : "invalid_response";
  result.description = text("error_description")
                           ? SafeText(*text("error_description"), 200)
                           : "the token endpoint answered " + std::to_string(reply.status) + " without an ID token";
  return result;
}

}  // namespace icat::oidc
