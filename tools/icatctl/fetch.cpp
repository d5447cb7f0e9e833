// https:// inputs of icatctl ingest (fetch.hpp), with libcurl.
#include "fetch.hpp"

#include <curl/curl.h>

#include <memory>

#include "icat/curl_get.hpp"
#include "session.hpp"

namespace icat::ctl {

std::string ShownUrl(const std::string& url) { return url.substr(0, url.find_first_of("?#")); }

std::string FetchHttps(const std::string& url, long max_bytes, const std::string& ca_file, const std::string& token) {
  std::string shown = ShownUrl(url);
  if (url.rfind("https://", 0) != 0) throw Failure(shown + ": only https:// URLs are fetched");
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) throw Failure(shown + ": cannot start libcurl");
  CurlBody download{{}, static_cast<size_t>(max_bytes), false};
  char error[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  CurlHeaderList headers = SetUpGet(c, {url, "https", "icatctl-ingest/1", ca_file, token, {}}, &download, error);
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
  curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 300L);
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
