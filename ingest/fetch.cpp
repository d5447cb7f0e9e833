// Inputs of icatctl ingest and vex ingest (fetch.hpp): files, and https:// URLs with libcurl.
#include "ingest/fetch.hpp"

#include <curl/curl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "icat/crypto.hpp"
#include "icat/curl_get.hpp"
#include "ingest/session.hpp"

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

InputFile ReadInput(const std::string& path, const Config& config) {
  long max_bytes = config.ingest_max_bytes;
  if (path.find("://") != std::string::npos) {  // a URL: https:// is fetched, any other scheme refused
    std::string bytes = FetchHttps(path, max_bytes, config.ingest_fetch_ca_file, config.ingest_fetch_token);
    std::string sha256_hex = Sha256Hex(bytes);
    return {ShownUrl(path), std::move(bytes), sha256_hex};
  }
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw Failure(path + ": cannot read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw Failure(path + ": is not a regular file");
  if (st.st_size > max_bytes) {
    throw Failure(path + ": is " + std::to_string(st.st_size) + " bytes, over the ICAT_INGEST_MAX_BYTES limit of " +
                  std::to_string(max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof()) throw Failure(path + ": cannot read: " + std::strerror(errno));
  InputFile file{path, bytes.str(), ""};
  if (static_cast<long>(file.bytes.size()) > max_bytes) {
    throw Failure(path + ": is over the ICAT_INGEST_MAX_BYTES limit of " + std::to_string(max_bytes));
  }
  file.sha256_hex = Sha256Hex(file.bytes);
  return file;
}

}  // namespace icat::ctl
