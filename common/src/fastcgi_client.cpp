// A FastCGI client of the smallest kind: one GET, for the health checks of the pools.
#include "icat/fastcgi_client.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace icat {

namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned char kBeginRequest = 1, kEndRequest = 3, kParams = 4, kStdin = 5, kStdout = 6;

std::string Record(unsigned char type, const std::string& content) {
  std::string record = {1, static_cast<char>(type), 0, 1, static_cast<char>(content.size() >> 8),
                        static_cast<char>(content.size() & 0xff), 0, 0};
  return record + content;
}

std::string NameValue(const std::string& name, const std::string& value) {
  return std::string(1, static_cast<char>(name.size())) + static_cast<char>(value.size()) + name + value;
}

// Request 1: responder role, connection closed after it; its parameters; an empty body.
std::string GetRequest(std::string_view path, std::string_view request_id) {
  std::string params = NameValue("REQUEST_METHOD", "GET") + NameValue("REQUEST_URI", std::string(path)) +
                       NameValue("REQUEST_ID", std::string(request_id));
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

int Connect(const FastCgiEndpoint& endpoint, Clock::time_point deadline) {
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

// Reads the reply's records until FCGI_END_REQUEST: the reply's status (its Status line; 200 without
// one, as CGI has it), or nullopt when the reply does not end before the deadline.
std::optional<int> ReplyStatus(int fd, Clock::time_point deadline) {
  unsigned char header[8];
  std::string out;
  while (ReadFully(fd, reinterpret_cast<char*>(header), sizeof header, deadline)) {
    if (header[0] != 1) return std::nullopt;
    if (header[1] == kEndRequest) {
      if (out.rfind("Status: ", 0) != 0) return 200;
      return std::atoi(out.c_str() + 8);
    }
    std::string content((header[4] << 8 | header[5]) + header[6], '\0');
    if (!ReadFully(fd, content.data(), content.size(), deadline)) return std::nullopt;
    if (header[1] == kStdout) out += content.substr(0, header[4] << 8 | header[5]);
  }
  return std::nullopt;
}

}  // namespace

std::optional<FastCgiEndpoint> ParseFastCgiAddress(std::string_view address) {
  FastCgiEndpoint endpoint;
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

std::optional<int> FastCgiGet(const FastCgiEndpoint& endpoint, std::string_view path, std::string_view request_id,
                              std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  int fd = Connect(endpoint, deadline);
  if (fd < 0) return std::nullopt;
  std::string request = GetRequest(path, request_id);
  std::optional<int> status;
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
    status = ReplyStatus(fd, deadline);
  }
  close(fd);
  return status;
}

}  // namespace icat
