// Concurrent webhook POSTs with libcurl's multi interface.
#include "sender.hpp"

#include <curl/curl.h>

#include <memory>

namespace icat::dispatcher {

namespace {
size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

// "host:port:addr,addr" for CURLOPT_RESOLVE, so the connection goes where the guard looked.
std::string PinnedResolve(const UrlVerdict& target) {
  std::string entry = target.host + ":" + std::to_string(target.port) + ":";
  for (size_t i = 0; i < target.addresses.size(); i++) {
    const IpAddress& a = target.addresses[i];
    entry += (i ? "," : "") + (a.v6 ? "[" + a.ToString() + "]" : a.ToString());
  }
  return entry;
}

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
  for (const auto& [name, value] : out.headers) t->headers = curl_slist_append(t->headers, (name + ": " + value).c_str());
  t->headers = curl_slist_append(t->headers, "Expect:");  // no 100-continue round trip
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
  if (!ParseIp(out.target.host)) {  // an IP-literal host is never looked up anyway
    t->resolve = curl_slist_append(t->resolve, PinnedResolve(out.target).c_str());
    curl_easy_setopt(e, CURLOPT_RESOLVE, t->resolve);
  }
  return t;
}
}  // namespace

std::vector<Sent> SendAll(const std::vector<Outgoing>& requests, int timeout_seconds) {
  std::vector<Sent> results(requests.size());
  std::vector<std::unique_ptr<Transfer>> transfers;
  CURLM* multi = curl_multi_init();
  for (const Outgoing& out : requests) {
    transfers.push_back(Prepare(out, timeout_seconds));
    curl_multi_add_handle(multi, transfers.back()->easy);
  }
  int running = 0;
  do {
    curl_multi_perform(multi, &running);
    if (running) curl_multi_poll(multi, nullptr, 0, 200, nullptr);
  } while (running);
  for (size_t i = 0; i < transfers.size(); i++) {
    CURL* e = transfers[i]->easy;
    long status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    if (status > 0) {
      results[i].status = static_cast<int>(status);
    } else {
      results[i].error = transfers[i]->error[0] ? transfers[i]->error : "no response";
    }
    curl_multi_remove_handle(multi, e);
  }
  curl_multi_cleanup(multi);
  return results;
}

}  // namespace icat::dispatcher
