// Reading manifests from the registry itself (registry.hpp FetchManifest), for the push handler
// and icatctl registry reconcile. Its own object: only the programs that link libcurl use it.
#include <curl/curl.h>
#include <strings.h>

#include <memory>
#include <stdexcept>

#include "icat/crypto.hpp"
#include "icat/curl_get.hpp"
#include "icat/registry.hpp"
#include "icat/text.hpp"

namespace icat {

namespace {

constexpr size_t kMaxManifestBytes = 4 << 20;

struct ResponseHeaders {
  std::string digest, content_type;
};

// Keeps the two headers a manifest's reader needs.
size_t KeepHeader(char* data, size_t size, size_t count, void* user) {
  auto* kept = static_cast<ResponseHeaders*>(user);
  std::string_view line(data, size * count);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name = Lower(line.substr(0, colon));
    std::string value(Trim(line.substr(colon + 1)));
    if (name == "docker-content-digest") kept->digest = value;
    if (name == "content-type") kept->content_type = value;
  }
  return size * count;
}

}  // namespace

FetchedManifest FetchManifest(std::string_view upstream, std::string_view name, std::string_view reference,
                              long timeout_ms) {
  std::string url = std::string(upstream) + "/v2/" + std::string(name) + "/manifests/" + std::string(reference);
  std::unique_ptr<CURL, void (*)(CURL*)> handle(curl_easy_init(), curl_easy_cleanup);
  if (!handle) throw std::runtime_error("libcurl could not start");
  std::string accept = "Accept: ";
  for (std::string_view type : kManifestMediaTypes) accept += std::string(type) + (type == kManifestMediaTypes.back() ? "" : ", ");
  CurlBody body{{}, kMaxManifestBytes};
  char error[CURL_ERROR_SIZE] = "";
  CurlHeaderList headers = SetUpGet(handle.get(), {url, "http,https", "icat-registry/1", {}, {}, {accept}}, &body, error);
  ResponseHeaders kept;
  curl_easy_setopt(handle.get(), CURLOPT_HEADERFUNCTION, KeepHeader);
  curl_easy_setopt(handle.get(), CURLOPT_HEADERDATA, &kept);
  curl_easy_setopt(handle.get(), CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(handle.get(), CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  CURLcode code = curl_easy_perform(handle.get());
  if (body.too_large) throw std::runtime_error(url + ": the manifest is larger than 4 MiB");
  if (code != CURLE_OK) throw std::runtime_error(url + ": " + (error[0] ? error : curl_easy_strerror(code)));
  long status = 0;
  curl_easy_getinfo(handle.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) throw std::runtime_error(url + ": the registry answered " + std::to_string(status));
  std::string digest = "sha256:" + Sha256Hex(body.bytes);
  if (!kept.digest.empty() && kept.digest != digest) {
    throw std::runtime_error(url + ": the body's digest " + digest + " is not the registry's " + kept.digest);
  }
  if (reference.starts_with("sha256:") && reference != digest) {
    throw std::runtime_error(url + ": the body's digest " + digest + " is not the one asked for");
  }
  return {digest, kept.content_type, std::move(body.bytes)};
}

}  // namespace icat
