// https:// inputs of icatctl ingest (fetch.hpp), with libcurl.
#include "fetch.hpp"

#include <curl/curl.h>

#include <memory>

#include "session.hpp"

namespace icat::ctl {

namespace {

struct Download {
  std::string bytes;
  long max_bytes = 0;
  bool too_large = false;
};

size_t Collect(char* data, size_t size, size_t count, void* user) {
  auto* download = static_cast<Download*>(user);
  if (static_cast<long>(download->bytes.size() + size * count) > download->max_bytes) {
    download->too_large = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  download->bytes.append(data, size * count);
  return size * count;
}

}  // namespace

std::string ShownUrl(const std::string& url) { return url.substr(0, url.find_first_of("?#")); }

std::string FetchHttps(const std::string& url, long max_bytes, const std::string& ca_file, const std::string& token) {
  std::string shown = ShownUrl(url);
  if (url.rfind("https://", 0) != 0) throw Failure(shown + ": only https:// URLs are fetched");
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) throw Failure(shown + ": cannot start libcurl");
  Download download{{}, max_bytes, false};
  char error[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
  curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 300L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "icatctl-ingest/1");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &download);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  if (!ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, ca_file.c_str());
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(nullptr, curl_slist_free_all);
  if (!token.empty()) {
    headers.reset(curl_slist_append(nullptr, ("Authorization: Bearer " + token).c_str()));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  }
  CURLcode result = curl_easy_perform(c);
  if (download.too_large) {
    throw Failure(shown + ": is over the ICAT_INGEST_MAX_BYTES limit of " + std::to_string(max_bytes));
  }
  if (result != CURLE_OK) {
    // curl's message may quote the URL; only the shown part is ever printed.
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    throw Failure(shown + ": cannot fetch: " +
                  (status >= 400 ? "HTTP " + std::to_string(status) : std::string(curl_easy_strerror(result))));
  }
  return std::move(download.bytes);
}

}  // namespace icat::ctl
