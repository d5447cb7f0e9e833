// Sending a delivery: libcurl, pinned to the addresses the URL guard approved.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "icat/url_guard.hpp"

namespace icat::dispatcher {

struct Outgoing {
  UrlVerdict target;  // approved by CheckWebhookUrl: url, host, port, addresses
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct Sent {
  std::optional<int> status;  // the HTTP status, when a response came
  std::string error;          // the transport error otherwise
};

// POSTs the request and waits for the answer, at most timeout_seconds. curl connects only to the
// approved addresses (no second DNS look-up) and follows no redirect. Thread-safe (CURLOPT_NOSIGNAL).
Sent Send(const Outgoing& request, int timeout_seconds);

}  // namespace icat::dispatcher
