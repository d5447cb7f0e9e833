// GET requests to the /v1 API over libcurl, and where the service and the key come from.
#include "api.hpp"

#include <curl/curl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "icat/curl_get.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"

namespace icat::client {

namespace {

std::string EnvOr(const GetEnvFn& getenv, const char* name) {
  const char* value = getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// The host of an http(s) URL, without port or brackets; empty when the URL has user info (a
// password in a URL ends up in logs) or no host.
std::string HostOf(std::string_view url) {
  size_t start = url.find("://");
  if (start == std::string_view::npos) return "";
  std::string_view authority = url.substr(start + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return "";
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    return close == std::string_view::npos ? "" : std::string(authority.substr(1, close - 1));
  }
  return std::string(authority.substr(0, authority.find(':')));
}

bool IsLoopback(std::string_view host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string ReadKeyFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Failure("--key-file " + path + ": cannot be read");
  std::string line;
  std::getline(in, line);
  std::string key(Trim(line, " \t\r\n"));
  if (key.empty()) throw Failure("--key-file " + path + ": the first line is empty (it must hold the API key)");
  return key;
}

// The progress line of one big download.
struct Progress {
  std::string label;
  bool shown = false;
  long last_step = -1;
};

size_t CollectHeader(char* data, size_t size, size_t count, void* user) {
  std::string_view line(data, size * count);
  size_t colon = line.find(':');
  auto* reply = static_cast<HttpReply*>(user);
  if (line.rfind("HTTP/", 0) == 0) reply->headers.clear();  // a new response (after a 100 Continue)
  if (colon != std::string_view::npos) {
    std::string name = Lower(line.substr(0, colon));
    std::string value(Trim(line.substr(colon + 1), " \t\r\n"));
    auto [at, added] = reply->headers.emplace(name, value);
    if (!added) at->second += ", " + value;
  }
  return size * count;
}

// "\rdownloading nginx 1.27.3 SPDX SBOM: 12.5 of 40.0 MB (31%)" on stderr, for big bodies only.
int ShowProgress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* progress = static_cast<Progress*>(user);
  if (std::max(total, now) < Api::kProgressBytes) return 0;
  long step = static_cast<long>(now / (256 * 1024));  // redrawn every 256 KiB, not on every call
  if (progress->shown && step == progress->last_step) return 0;
  progress->last_step = step;
  double mb = 1024.0 * 1024.0;
  if (total > 0) {
    std::fprintf(stderr, "\r%s: %.1f of %.1f MB (%d%%)   ", progress->label.c_str(), now / mb, total / mb,
                 static_cast<int>(100 * now / total));
  } else {
    std::fprintf(stderr, "\r%s: %.1f MB   ", progress->label.c_str(), now / mb);
  }
  progress->shown = true;
  return 0;
}

}  // namespace

const std::vector<FlagSpec>& ConnectionFlags() {
  static const std::vector<FlagSpec> flags = {
      {"url", FlagKind::kOptional, "URL", "the service, e.g. https://acme.icat.example (default: $ICAT_BASE_URL)"},
      {"key-file", FlagKind::kOptional, "FILE", "read the API key from the first line of FILE (default: $ICAT_API_KEY)"},
      {"cacert", FlagKind::kOptional, "FILE", "trust the CA certificates in FILE (default: $ICAT_CA_FILE, else the system's)"},
  };
  return flags;
}

Connection ResolveConnection(const Args& args, const GetEnvFn& getenv, bool needs_key) {
  Connection c;
  c.base_url = args.Optional("url").value_or(EnvOr(getenv, "ICAT_BASE_URL"));
  if (c.base_url.empty()) throw Failure("no service address: set ICAT_BASE_URL or pass --url URL");
  while (!c.base_url.empty() && c.base_url.back() == '/') c.base_url.pop_back();
  bool https = c.base_url.rfind("https://", 0) == 0;
  if (!https && c.base_url.rfind("http://", 0) != 0) {
    throw Failure("the service address '" + c.base_url + "' is not an http:// or https:// URL");
  }
  std::string host = HostOf(c.base_url);
  if (host.empty()) throw Failure("the service address '" + c.base_url + "' has no host (or holds a user name)");
  if (!https && !IsLoopback(host)) {
    throw Failure("refusing to send the API key in clear text to " + host + ": use an https:// address");
  }
  c.ca_file = args.Optional("cacert").value_or(EnvOr(getenv, "ICAT_CA_FILE"));
  if (std::optional<std::string> file = args.Optional("key-file")) {
    c.api_key = ReadKeyFile(*file);
  } else {
    c.api_key = std::string(Trim(EnvOr(getenv, "ICAT_API_KEY"), " \t\r\n"));
  }
  if (needs_key && c.api_key.empty()) {
    throw Failure("no API key: set ICAT_API_KEY or pass --key-file FILE (never the key itself as an argument)");
  }
  return c;
}

std::string HttpReply::Header(std::string_view lower_case_name) const {
  auto found = headers.find(std::string(lower_case_name));
  return found == headers.end() ? std::string() : found->second;
}

std::string DescribeApiFailure(std::string_view what, long status, std::string_view body, std::string_view request_id) {
  std::string text = std::string(what) + ": HTTP " + std::to_string(status);
  JsonRead read = ReadJson(body, kMaxBodyDepth);
  const rapidjson::Value& doc = read.document;
  if (read.error.empty() && doc.IsObject() && doc.HasMember("error") && doc["error"].IsString()) {
    text += " " + std::string(doc["error"].GetString());
    if (doc.HasMember("message") && doc["message"].IsString()) text += ": " + std::string(doc["message"].GetString());
    if (doc.HasMember("details") && doc["details"].IsArray()) {
      for (const rapidjson::Value& detail : doc["details"].GetArray()) {
        if (detail.IsObject() && detail.HasMember("field") && detail["field"].IsString() &&
            detail.HasMember("issue") && detail["issue"].IsString()) {
          text += " [" + std::string(detail["field"].GetString()) + ": " + detail["issue"].GetString() + "]";
        }
      }
    }
  } else if (status != 200) {
    text += " (not an API error body: is the URL the icat service?)";
  }
  if (!request_id.empty()) text += " (request id " + std::string(request_id) + ")";
  return text;
}

Api::Api(Connection connection) : connection_(std::move(connection)), curl_(curl_easy_init()) {
  if (curl_ == nullptr) throw Failure("cannot start libcurl");
}

Api::~Api() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpReply Api::Get(const std::string& path, bool anonymous, const std::string& progress_label) {
  CURL* c = static_cast<CURL*>(curl_);
  curl_easy_reset(c);
  HttpReply reply;
  CurlBody body{{}, static_cast<size_t>(kMaxBodyBytes), false};
  Progress progress{progress_label};
  char error[CURL_ERROR_SIZE] = {0};
  CurlGet request{connection_.base_url + path, "http,https", "icat/1", connection_.ca_file,
                  anonymous ? "" : connection_.api_key, {"Accept: application/json, */*"}};
  CurlHeaderList headers = SetUpGet(c, request, &body, error);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // a redirect is an answer, never a second request with the key
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled transfer ends after a minute
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, CollectHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &reply);
  if (!progress_label.empty() && isatty(STDERR_FILENO)) {
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, ShowProgress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &progress);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  }
  CURLcode result = curl_easy_perform(c);
  if (progress.shown) std::fputc('\n', stderr);
  if (result != CURLE_OK) {
    std::string shown = connection_.base_url + path.substr(0, path.find('?'));
    if (body.too_large) {
      throw Failure("GET " + shown + ": the answer is over " + std::to_string(kMaxBodyBytes >> 20) + " MiB");
    }
    throw Failure("GET " + shown + ": " + (error[0] ? std::string(error) : curl_easy_strerror(result)));
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  reply.body = std::move(body.bytes);
  return reply;
}

void ExpectOk(const HttpReply& reply, std::string_view what) {
  if (reply.status == 200) return;
  JsonRead read = ReadJson(reply.body, kMaxBodyDepth);
  std::string error, message;
  if (read.error.empty() && read.document.IsObject()) {
    const rapidjson::Value& doc = read.document;
    if (doc.HasMember("error") && doc["error"].IsString()) error = doc["error"].GetString();
    if (doc.HasMember("message") && doc["message"].IsString()) message = doc["message"].GetString();
  }
  std::string request_id = reply.Header("x-request-id");
  throw ApiFailure(DescribeApiFailure(what, reply.status, reply.body, request_id), reply.status, error, message,
                   request_id);
}

rapidjson::Document Api::GetJson(const std::string& path, bool anonymous) {
  HttpReply reply = Get(path, anonymous);
  std::string what = "GET " + path;
  ExpectOk(reply, what);
  JsonRead read = ReadJson(reply.body, kMaxDocumentDepth);
  if (!read.error.empty()) throw Failure(what + ": the answer is not JSON: " + read.error);
  return std::move(read.document);
}

}  // namespace icat::client
