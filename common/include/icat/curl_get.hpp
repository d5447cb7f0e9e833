// One libcurl GET as icat's API calls and icatctl's https inputs make it: the body kept in memory up
// to a limit, the server's certificate checked (a CA file, else the system's), a Bearer token.
#pragma once

#include <curl/curl.h>

#include <memory>
#include <string>
#include <vector>

namespace icat {

// A response body kept in memory; past max_bytes the transfer stops (CURLE_WRITE_ERROR) and
// too_large says why.
struct CurlBody {
  std::string bytes;
  size_t max_bytes = 0;
  bool too_large = false;
};

struct CurlGet {
  std::string url;
  const char* protocols = "https";  // libcurl's list, e.g. "http,https"
  const char* user_agent = "icat";
  std::string ca_file;               // empty: the system's CAs
  std::string bearer_token;          // empty: no Authorization header
  std::vector<std::string> headers;  // more request headers, "Name: value"
};

using CurlHeaderList = std::unique_ptr<curl_slist, void (*)(curl_slist*)>;

// Sets handle up for request: its URL and protocols, a 20 s connect timeout, no signals, the user
// agent and CA file, the headers with `Authorization: Bearer`, the body into *body and libcurl's
// message into error (CURL_ERROR_SIZE bytes). The returned list must outlive the transfer.
// Redirects, overall or stall timeouts and header callbacks are the caller's.
[[nodiscard]] CurlHeaderList SetUpGet(CURL* handle, const CurlGet& request, CurlBody* body, char* error);

}  // namespace icat
