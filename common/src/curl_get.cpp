// The libcurl GET set-up icat and icatctl share (curl_get.hpp).
#include "icat/curl_get.hpp"

namespace icat {

namespace {

size_t CollectBody(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<CurlBody*>(user);
  if (body->bytes.size() + size * count > body->max_bytes) {
    body->too_large = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  body->bytes.append(data, size * count);
  return size * count;
}

}  // namespace

CurlHeaderList SetUpGet(CURL* handle, const CurlGet& request, CurlBody* body, char* error) {
  curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, request.protocols);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, 20L);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_USERAGENT, request.user_agent);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, CollectBody);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, body);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
  if (!request.ca_file.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, request.ca_file.c_str());
  CurlHeaderList list(nullptr, curl_slist_free_all);
  curl_slist* headers = nullptr;
  for (const std::string& header : request.headers) headers = curl_slist_append(headers, header.c_str());
  if (!request.bearer_token.empty()) {
    headers = curl_slist_append(headers, ("Authorization: Bearer " + request.bearer_token).c_str());
  }
  list.reset(headers);
  if (headers != nullptr) curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  return list;
}

}  // namespace icat
