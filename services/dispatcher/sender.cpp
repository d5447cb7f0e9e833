// One webhook POST with libcurl, on the calling thread (a worker of workers.hpp).
#include "sender.hpp"

#include <curl/curl.h>

#include <memory>

namespace icat::dispatcher {

namespace {
size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

struct Transfer {
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  curl_slist* resolve = nullptr;
  char error[CURL_ERROR_SIZE] = {0};
  ~Transfer() {
    if (easy) curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
    curl_slist_free_all(resolve);
  }
};

std::unique_ptr<Transfer> Prepare(const Outgoing& out, int timeout_seconds) {
  auto t = std::make_unique<Transfer>();
  t->easy = curl_easy_init();
  CURL* e = t->easy;
  curl_easy_setopt(e, CURLOPT_URL, out.target.url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");  // the guard already decided which
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT, static_cast<long>(timeout_seconds));
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, static_cast<long>(timeout_seconds));
  curl_easy_setopt(e, CURLOPT_USERAGENT, "icat-webhooks/1");
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, out.body.data());
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(out.body.size()));
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, Discard);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
  for (const auto& [name, value] : out.headers)
    t->headers = curl_slist_append(t->headers, (name + ": " + value).c_str());
  t->headers = curl_slist_append(t->headers, "Expect:");  // no 100-continue round trip
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
  if (std::string pinned = PinnedResolveEntry(out.target); !pinned.empty()) {
    t->resolve = curl_slist_append(t->resolve, pinned.c_str());
    curl_easy_setopt(e, CURLOPT_RESOLVE, t->resolve);
  }
  return t;
}
}  // namespace

Sent Send(const Outgoing& request, int timeout_seconds) {
  std::unique_ptr<Transfer> transfer = Prepare(request, timeout_seconds);
  Sent sent;
  CURLcode code = curl_easy_perform(transfer->easy);
  long status = 0;
  curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
  if (status > 0) {  // an answer came, even if the transfer failed after it
    sent.status = static_cast<int>(status);
  } else {
    sent.error = transfer->error[0] ? transfer->error : curl_easy_strerror(code);
  }
  return sent;
}

}  // namespace icat::dispatcher
