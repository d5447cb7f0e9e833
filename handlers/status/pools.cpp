// The pools check: one minimal FastCGI request to each pool, with a deadline.
//
// The request (GET kPoolProbePath, request id "pool-probe") is answered 204 by a worker's pipeline
// before anything else: no Postgres, no Redis, no log line, no metric. The answer proves what
// nginx needs: a worker accepts and runs requests. A lone FCGI_GET_VALUES management record, which
// would not reach the pipeline, went unanswered by Debian 12's libfcgi 2.4.2 (docs/decisions.md, "Health").
#include "pools.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <future>

#include "icat/router.hpp"

namespace icat::status {

namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned char kBeginRequest = 1, kEndRequest = 3, kParams = 4, kStdin = 5;

std::string Record(unsigned char type, const std::string& content) {
  std::string record = {1, static_cast<char>(type), 0, 1, static_cast<char>(content.size() >> 8),
                        static_cast<char>(content.size() & 0xff), 0, 0};
  return record + content;
}

std::string NameValue(const std::string& name, const std::string& value) {
  return std::string(1, static_cast<char>(name.size())) + static_cast<char>(value.size()) + name + value;
}

// Request 1: responder role, connection closed after it; its parameters; an empty body.
std::string ProbeRequest() {
  std::string params = NameValue("REQUEST_METHOD", "GET") + NameValue("REQUEST_URI", std::string(kPoolProbePath)) +
                       NameValue("REQUEST_ID", "pool-probe");
  return Record(kBeginRequest, std::string({0, 1, 0, 0, 0, 0, 0, 0})) + Record(kParams, params) +
         Record(kParams, "") + Record(kStdin, "");
}

// Waits until fd is ready for `events` or the deadline passes.
bool Ready(int fd, short events, Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return false;
  pollfd p{fd, events, 0};
  return poll(&p, 1, static_cast<int>(left)) == 1 && (p.revents & events);
}

// A non-blocking connect to one address, finished within the deadline; the socket or -1.
int ConnectBy(const sockaddr* address, socklen_t length, int family, Clock::time_point deadline) {
  int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, address, length) == 0) return fd;
  int error = errno == EINPROGRESS ? 0 : errno;
  socklen_t size = sizeof error;
  if (error == 0 && Ready(fd, POLLOUT, deadline) && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 &&
      error == 0) {
    return fd;
  }
  close(fd);
  return -1;
}

int Connect(const PoolEndpoint& endpoint, Clock::time_point deadline) {
  if (!endpoint.path.empty()) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (endpoint.path.size() >= sizeof address.sun_path) return -1;
    std::memcpy(address.sun_path, endpoint.path.c_str(), endpoint.path.size() + 1);
    return ConnectBy(reinterpret_cast<sockaddr*>(&address), sizeof address, AF_UNIX, deadline);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  // The one step the deadline does not bound; in Kubernetes it asks the cluster's DNS.
  if (getaddrinfo(endpoint.host.c_str(), endpoint.port.c_str(), &hints, &found) != 0) return -1;
  int fd = -1;
  for (addrinfo* ai = found; ai && fd < 0; ai = ai->ai_next) fd = ConnectBy(ai->ai_addr, ai->ai_addrlen, ai->ai_family, deadline);
  freeaddrinfo(found);
  return fd;
}

// Reads exactly n bytes before the deadline.
bool ReadFully(int fd, char* into, size_t n, Clock::time_point deadline) {
  size_t got = 0;
  while (got < n && Ready(fd, POLLIN, deadline)) {
    ssize_t r = read(fd, into + got, n - got);
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return got == n;
}

// Reads the reply's records (the pipeline's 204) until FCGI_END_REQUEST.
bool Answered(int fd, Clock::time_point deadline) {
  unsigned char header[8];
  while (ReadFully(fd, reinterpret_cast<char*>(header), sizeof header, deadline)) {
    if (header[0] != 1) return false;
    if (header[1] == kEndRequest) return true;
    std::string skipped((header[4] << 8 | header[5]) + header[6], '\0');
    if (!ReadFully(fd, skipped.data(), skipped.size(), deadline)) return false;
  }
  return false;
}

}  // namespace

std::string PoolAddress(std::string_view pattern, std::string_view group) {
  std::string address(pattern);
  for (size_t at = address.find("{group}"); at != std::string::npos; at = address.find("{group}", at + group.size())) {
    address.replace(at, 7, group);
  }
  return address;
}

std::optional<PoolEndpoint> ParsePoolEndpoint(std::string_view address) {
  PoolEndpoint endpoint;
  if (address.rfind("unix:", 0) == 0) {
    endpoint.path = std::string(address.substr(5));
    if (endpoint.path.empty() || endpoint.path[0] != '/') return std::nullopt;
    return endpoint;
  }
  size_t colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  endpoint.host = std::string(address.substr(0, colon));
  endpoint.port = std::string(address.substr(colon + 1));
  if (endpoint.host.front() == '[' && endpoint.host.back() == ']') endpoint.host = endpoint.host.substr(1, endpoint.host.size() - 2);
  bool digits = !endpoint.port.empty() && endpoint.port.size() <= 5 &&
                endpoint.port.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(endpoint.port) < 1 || std::stoi(endpoint.port) > 65535 || endpoint.host.empty()) {
    return std::nullopt;
  }
  return endpoint;
}

std::optional<std::string> PoolAddressProblem(std::string_view pattern) {
  if (pattern.find("{group}") == std::string_view::npos) return "must contain {group}, the pool's name";
  if (!ParsePoolEndpoint(PoolAddress(pattern, "status"))) {
    return "must be unix:/absolute/path or host:port (with {group} in it)";
  }
  return std::nullopt;
}

bool ProbePool(const PoolEndpoint& endpoint, std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  int fd = Connect(endpoint, deadline);
  if (fd < 0) return false;
  static const std::string request = ProbeRequest();
  bool up = send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size()) &&
            Answered(fd, deadline);
  close(fd);
  return up;
}

std::vector<std::pair<std::string, bool>> ProbePools(std::string_view pattern, std::string_view self,
                                                     std::chrono::milliseconds timeout) {
  std::vector<std::future<bool>> probes;
  for (const std::string& group : kPoolGroups) {
    std::optional<PoolEndpoint> endpoint = ParsePoolEndpoint(PoolAddress(pattern, group));
    probes.push_back(std::async(std::launch::async, [endpoint, timeout, is_self = group == self] {
      return is_self || (endpoint && ProbePool(*endpoint, timeout));
    }));
  }
  std::vector<std::pair<std::string, bool>> pools;
  for (size_t i = 0; i < kPoolGroups.size(); i++) pools.emplace_back(kPoolGroups[i], probes[i].get());
  return pools;
}

}  // namespace icat::status
