// Reads of and pushes to the Distribution registry (registry_client.hpp), with libcurl: its own object, so only
// the programs that read the registry (icatctl, the registry pool) link libcurl for it.
#include "icat/registry_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

#include "icat/crypto.hpp"
#include "icat/curl_get.hpp"
#include "icat/json.hpp"
#include "icat/registry.hpp"
#include "icat/text.hpp"

namespace icat {
namespace {

constexpr long kConnectTimeoutMs = 5000;
// The registry refuses manifests over 4 MiB itself. Distribution 2.8 ignores n and answers every
// tag in one page (later versions and other registries page): kMaxTags of 128 characters fit.
constexpr size_t kMaxManifestBytes = 4 << 20;
constexpr size_t kMaxTagsPageBytes = 16 << 20;
constexpr size_t kMaxProbeBytes = 64 << 10;
constexpr int kTagsPerPage = 100;
constexpr size_t kMaxTags = 100000;  // in one repository
constexpr int kMaxTagPages = kMaxTags / kTagsPerPage;

struct Headers {
  std::string content_type, digest, link, api_version, location;
};

// Keeps the headers the reads use, of the last response (after a 100 Continue, a new one starts).
size_t CollectHeader(char* data, size_t size, size_t count, void* user) {
  std::string_view line(data, size * count);
  auto* headers = static_cast<Headers*>(user);
  if (line.rfind("HTTP/", 0) == 0) *headers = {};
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name = Lower(Trim(line.substr(0, colon)));
  std::string value(Trim(line.substr(colon + 1)));
  if (name == "content-type") headers->content_type = value;
  if (name == "docker-content-digest") headers->digest = value;
  if (name == "link") headers->link = value;
  if (name == "docker-distribution-api-version") headers->api_version = value;
  if (name == "location") headers->location = value;
  return size * count;
}

// The media type without parameters, in lower case ("application/json; charset=utf-8" -> "application/json").
std::string MediaType(std::string_view content_type) {
  return Lower(Trim(content_type.substr(0, content_type.find(';'))));
}

bool IsManifestMediaType(std::string_view media_type) {
  for (std::string_view known : kManifestMediaTypes) {
    if (media_type == known) return true;
  }
  return false;
}

// A tag as image_versions.tag's CHECK has it: anything else is not put into a URL or the catalogue.
bool IsTag(std::string_view tag) {
  if (tag.empty() || tag.size() > 128) return false;
  for (size_t i = 0; i < tag.size(); i++) {
    char c = tag[i];
    bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!word && (i == 0 || (c != '.' && c != '-'))) return false;
  }
  return true;
}

// Accept: every manifest media type the service publishes.
std::string ManifestAccept() {
  std::string accept;
  for (std::string_view type : kManifestMediaTypes) accept += (accept.empty() ? "Accept: " : ", ") + std::string(type);
  return accept;
}

bool IsSha256Digest(std::string_view digest) {
  return digest.size() == 71 && digest.starts_with("sha256:") &&
         digest.find_first_not_of("0123456789abcdef", 7) == std::string_view::npos;
}

// ": <the start of a refusal's body>" on one line, for the operator's error message.
std::string Excerpt(std::string_view body) {
  if (body.empty()) return "";
  std::string text(body.substr(0, 200));
  for (char& c : text) c = (c == '\n' || c == '\r') ? ' ' : c;
  return ": " + text;
}

// The path and query of an upload's Location (absolute or not): requests always go to the upstream,
// and only to this repository's uploads. RegistryAnswerError for anything else.
std::string UploadPath(std::string_view location, std::string_view name) {
  std::string_view path = location;
  if (size_t scheme = path.find("://"); scheme != std::string_view::npos && path.front() != '/') {
    size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  std::string expected = "/v2/" + std::string(name) + "/blobs/uploads/";
  bool plain = path.find_first_of(" \t\r\n#\\") == std::string_view::npos;
  if (!path.starts_with(expected) || !plain || path.size() > 2048) {
    throw RegistryAnswerError(std::string(name) + ": an upload Location elsewhere than the repository's uploads: '" +
                              std::string(location.substr(0, 200)) + "'");
  }
  return std::string(path);
}

}  // namespace

std::optional<std::string> NextTagsPage(std::string_view link, std::string_view name) {
  link = Trim(link);
  if (link.empty()) return std::nullopt;
  size_t open = link.find('<'), close = link.find('>');
  if (open != 0 || close == std::string_view::npos || link.find("rel=\"next\"", close) == std::string_view::npos) {
    throw RegistryAnswerError("a Link header that is no next page: " + std::string(link.substr(0, 200)));
  }
  std::string_view target = link.substr(1, close - 1);
  std::string expected = "/v2/" + std::string(name) + "/tags/list?";
  bool plain = target.find_first_of(" \t\r\n#\\") == std::string_view::npos;
  if (target.rfind(expected, 0) != 0 || !plain || target.size() > 1024) {
    throw RegistryAnswerError("a Link header to another place than the repository's tags: " +
                              std::string(target.substr(0, 200)));
  }
  return std::string(target);
}

RegistryClient::RegistryClient(std::string upstream, long timeout_ms)
    : upstream_(std::move(upstream)), timeout_ms_(timeout_ms) {
  while (!upstream_.empty() && upstream_.back() == '/') upstream_.pop_back();
}

RegistryClient::Reply RegistryClient::Send(const std::string& method, const std::string& path,
                                           const std::vector<std::string>& headers, size_t max_bytes,
                                           std::string_view body) {
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) throw RegistryUnreachable("cannot start libcurl");
  CURL* c = curl.get();
  CurlBody received{{}, max_bytes, false};
  Headers seen;
  char error[CURL_ERROR_SIZE] = {0};
  std::vector<std::string> sent = headers;
  sent.emplace_back("Expect:");  // the body goes at once: no 100-continue round trip
  // http too: the registry is on loopback or a cluster Service, never across the internet.
  CurlHeaderList list =
      SetUpGet(c, {upstream_ + path, "http,https", "icat-registry-client/1", "", "", sent}, &received, error);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, std::min(kConnectTimeoutMs, timeout_ms_));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms_);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, CollectHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &seen);
  if (method == "HEAD") {
    curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
  } else if (method == "POST" || method == "PUT") {
    static const char kNoBody[] = "";  // never null: a null body would make libcurl read stdin
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.empty() ? kNoBody : body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  CURLcode result = curl_easy_perform(c);
  std::string shown = method + " " + upstream_ + path.substr(0, path.find('?'));
  if (received.too_large) {
    throw RegistryAnswerError(shown + ": the answer is over " + std::to_string(max_bytes) + " bytes");
  }
  if (result == CURLE_COULDNT_CONNECT || result == CURLE_COULDNT_RESOLVE_HOST || result == CURLE_OPERATION_TIMEDOUT) {
    throw RegistryUnreachable(shown + ": " + (error[0] ? std::string(error) : curl_easy_strerror(result)));
  }
  if (result != CURLE_OK) {
    throw RegistryAnswerError(shown + ": " + (error[0] ? std::string(error) : curl_easy_strerror(result)));
  }
  Reply reply;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  reply.body = std::move(received.bytes);
  reply.content_type = std::move(seen.content_type);
  reply.digest = std::move(seen.digest);
  reply.link = std::move(seen.link);
  reply.api_version = std::move(seen.api_version);
  reply.location = std::move(seen.location);
  return reply;
}

void RegistryClient::Probe() {
  try {
    // The registry answers /v2/ with its API version; anything else is another server (or none).
    Reply reply = Send("GET", "/v2/", {}, kMaxProbeBytes);
    if (reply.status != 200 || reply.api_version != "registry/2.0") {
      throw RegistryUnreachable("GET " + upstream_ + "/v2/ answered HTTP " + std::to_string(reply.status) +
                                " with Docker-Distribution-API-Version '" + reply.api_version.substr(0, 100) +
                                "': not a Distribution registry");
    }
  } catch (const RegistryAnswerError& error) {
    throw RegistryUnreachable(std::string(error.what()) + " (is ICAT_REGISTRY_UPSTREAM the registry?)");
  }
}

std::optional<std::vector<std::string>> RegistryClient::Tags(const std::string& name) {
  std::vector<std::string> tags;
  std::string path = "/v2/" + name + "/tags/list?n=" + std::to_string(kTagsPerPage);
  for (int page = 1;; page++) {
    if (page > kMaxTagPages) {
      throw RegistryAnswerError(name + ": more than " + std::to_string(kMaxTagPages) + " pages of tags");
    }
    Reply reply = Send("GET", path, {"Accept: application/json"}, kMaxTagsPageBytes);
    if (reply.status == 404 && page == 1) return std::nullopt;
    if (reply.status != 200) {
      throw RegistryAnswerError(name + ": GET tags/list answered HTTP " + std::to_string(reply.status));
    }
    JsonRead read = ReadJson(reply.body, kMaxBodyDepth);
    if (!read.error.empty()) throw RegistryAnswerError(name + ": tags/list is not JSON: " + read.error);
    const rapidjson::Value& doc = read.document;
    if (!doc.IsObject() || !doc.HasMember("tags") || !(doc["tags"].IsArray() || doc["tags"].IsNull())) {
      throw RegistryAnswerError(name + ": tags/list has no tags array");
    }
    if (doc["tags"].IsArray()) {
      for (const rapidjson::Value& tag : doc["tags"].GetArray()) {
        if (!tag.IsString() || !IsTag(std::string_view(tag.GetString(), tag.GetStringLength()))) {
          throw RegistryAnswerError(name + ": tags/list names something that is no tag");
        }
        tags.emplace_back(tag.GetString(), tag.GetStringLength());
        if (tags.size() > kMaxTags) {
          throw RegistryAnswerError(name + ": more than " + std::to_string(kMaxTags) + " tags");
        }
      }
    }
    std::optional<std::string> next = NextTagsPage(reply.link, name);
    if (!next) return tags;
    path = *next;
  }
}

PushedManifest RegistryClient::Manifest(const std::string& name, const std::string& reference) {
  const std::string& tag = reference;
  Reply reply = Send("GET", "/v2/" + name + "/manifests/" + tag, {ManifestAccept()}, kMaxManifestBytes);
  std::string shown = name + ":" + tag;
  if (reply.status != 200) {
    throw RegistryAnswerError(shown + ": GET manifest answered HTTP " + std::to_string(reply.status));
  }
  std::string media_type = MediaType(reply.content_type);
  if (!IsManifestMediaType(media_type)) {
    throw RegistryAnswerError(shown + ": a manifest of type '" + media_type.substr(0, 100) +
                              "', none of the OCI or Docker v2 manifest types");
  }
  std::string digest = "sha256:" + Sha256Hex(reply.body);
  if (reply.digest != digest) {
    throw RegistryAnswerError(shown + ": the manifest's bytes are " + digest + ", the registry says '" +
                              reply.digest.substr(0, 100) + "'");
  }
  // ReadJson first: it reads without recursion and bounds the depth, so the parse that sizes the
  // image cannot exhaust the stack on a deeply nested answer.
  JsonRead read = ReadJson(reply.body, kMaxBodyDepth);
  if (!read.error.empty()) throw RegistryAnswerError(shown + ": the manifest is not JSON: " + read.error);
  std::optional<long long> size = ManifestImageBytes(reply.body);
  if (!size) throw RegistryAnswerError(shown + ": the manifest lists no sizes of a config and layers or of manifests");
  std::string config_media_type;
  const rapidjson::Value& doc = read.document;
  if (doc.HasMember("config") && doc["config"].IsObject() && doc["config"].HasMember("mediaType") &&
      doc["config"]["mediaType"].IsString()) {
    config_media_type = doc["config"]["mediaType"].GetString();
  }
  return {digest, *size, config_media_type};
}

std::optional<std::string> RegistryClient::ManifestDigest(const std::string& name, const std::string& reference) {
  Reply reply = Send("HEAD", "/v2/" + name + "/manifests/" + reference, {ManifestAccept()}, kMaxProbeBytes);
  if (reply.status == 404) return std::nullopt;
  std::string shown = name + ":" + reference;
  if (reply.status != 200) {
    throw RegistryAnswerError(shown + ": HEAD manifest answered HTTP " + std::to_string(reply.status));
  }
  if (!IsSha256Digest(reply.digest)) {
    throw RegistryAnswerError(shown + ": HEAD manifest named no digest ('" + reply.digest.substr(0, 100) + "')");
  }
  return reply.digest;
}

std::string RegistryClient::PushBlob(const std::string& name, std::string_view bytes) {
  std::string digest = "sha256:" + Sha256Hex(bytes);
  std::string shown = name + "@" + digest;
  if (Send("HEAD", "/v2/" + name + "/blobs/" + digest, {}, kMaxProbeBytes).status == 200) return digest;
  Reply started = Send("POST", "/v2/" + name + "/blobs/uploads/", {"Content-Type: application/octet-stream"},
                       kMaxProbeBytes);
  if (started.status != 202) {
    throw RegistryAnswerError(shown + ": POST blobs/uploads/ answered HTTP " + std::to_string(started.status) +
                              Excerpt(started.body));
  }
  std::string upload = UploadPath(started.location, name);
  upload += (upload.find('?') == std::string::npos ? "?digest=" : "&digest=") + digest;
  Reply put = Send("PUT", upload, {"Content-Type: application/octet-stream"}, kMaxProbeBytes, bytes);
  if (put.status != 201) {
    throw RegistryAnswerError(shown + ": PUT of the blob answered HTTP " + std::to_string(put.status) +
                              Excerpt(put.body));
  }
  if (!put.digest.empty() && put.digest != digest) {
    throw RegistryAnswerError(shown + ": the registry stored the blob as '" + put.digest.substr(0, 100) + "'");
  }
  return digest;
}

std::string RegistryClient::PushManifest(const std::string& name, const std::string& tag,
                                         std::string_view media_type, std::string_view bytes) {
  std::string digest = "sha256:" + Sha256Hex(bytes);
  std::string shown = name + ":" + tag;
  Reply put = Send("PUT", "/v2/" + name + "/manifests/" + tag, {"Content-Type: " + std::string(media_type)},
                   kMaxProbeBytes, bytes);
  if (put.status != 201) {
    throw RegistryAnswerError(shown + ": PUT manifest answered HTTP " + std::to_string(put.status) +
                              Excerpt(put.body));
  }
  if (put.digest != digest) {
    throw RegistryAnswerError(shown + ": the manifest's bytes are " + digest + ", the registry says '" +
                              put.digest.substr(0, 100) + "'");
  }
  return digest;
}

}  // namespace icat
