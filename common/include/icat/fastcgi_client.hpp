// A FastCGI client of the smallest kind: one GET to a pool, for health checks (GET /api/status
// probing every pool, and a pool's own --probe for Kubernetes).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace icat {

// "unix:/path" or "host:port" ("[v6]:port"), as nginx writes a FastCGI address.
struct FastCgiEndpoint {
  std::string path;  // a unix socket, or
  std::string host, port;
};
std::optional<FastCgiEndpoint> ParseFastCgiAddress(std::string_view address);

// Sends GET path and reads the whole reply within timeout: its HTTP status, or nullopt when the
// connection fails or the reply does not end in time. A host name is looked up before the clock
// can bound it (in Kubernetes, the cluster's DNS).
std::optional<int> FastCgiGet(const FastCgiEndpoint& endpoint, std::string_view path, std::string_view request_id,
                              std::chrono::milliseconds timeout);

}  // namespace icat
