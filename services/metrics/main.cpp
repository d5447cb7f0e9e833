// icat-metrics: serves GET /metrics, the Prometheus text format of every metrics file in
// ICAT_METRICS_DIR (each pool's and the dispatcher's; metrics.hpp), on ICAT_METRICS_LISTEN: a
// listener of its own, never nginx's public port. One connection at a time, each answered and
// closed: its clients are a scraper or two and an operator's curl.
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include "icat/config.hpp"
#include "icat/log.hpp"
#include "icat/metrics.hpp"

namespace {

volatile sig_atomic_t stop_requested = 0;
void OnStop(int) { stop_requested = 1; }

constexpr size_t kMaxRequestBytes = 8192;
constexpr int kClientTimeoutSeconds = 2;

// "host:port" or "[v6]:port" as a listening socket; -1 with a message on stderr.
int Listen(const std::string& address) {
  size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    std::cerr << "icat-metrics: ICAT_METRICS_LISTEN must be host:port, not \"" << address << "\"\n";
    return -1;
  }
  std::string host = address.substr(0, colon), port = address.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (int error = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); error != 0) {
    std::cerr << "icat-metrics: cannot listen on " << address << ": " << gai_strerror(error) << "\n";
    return -1;
  }
  int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, 0);
  int yes = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (fd < 0 || bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 16) != 0) {
    std::cerr << "icat-metrics: cannot listen on " << address << ": " << std::strerror(errno) << "\n";
    freeaddrinfo(found);
    if (fd >= 0) close(fd);
    return -1;
  }
  freeaddrinfo(found);
  return fd;
}

// The request's head, up to its blank line; empty when the client sent none in time.
std::string ReadHead(int client) {
  std::string head;
  char buffer[1024];
  while (head.size() < kMaxRequestBytes && head.find("\r\n\r\n") == std::string::npos) {
    ssize_t n = recv(client, buffer, sizeof buffer, 0);
    if (n <= 0) return {};
    head.append(buffer, static_cast<size_t>(n));
  }
  return head;
}

std::string Response(int status, const char* reason, const std::string& type, const std::string& body,
                     bool with_body) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
         (with_body ? body : "");
}

std::string Answer(const std::string& head, const std::string& dir) {
  std::string line = head.substr(0, head.find("\r\n"));
  std::string method = line.substr(0, line.find(' '));
  std::string target = line.size() > method.size() + 1 ? line.substr(method.size() + 1) : "";
  target = target.substr(0, target.find(' '));
  std::string path = target.substr(0, target.find('?'));
  bool head_only = method == "HEAD";
  if (path != "/metrics") return Response(404, "Not Found", "text/plain", "Only /metrics is here.\n", !head_only);
  if (method != "GET" && !head_only) return Response(405, "Method Not Allowed", "text/plain", "GET only.\n", true);
  return Response(200, "OK", "text/plain; version=0.0.4; charset=utf-8", icat::metrics::RenderDirectory(dir),
                  !head_only);
}

void Serve(int client, const std::string& dir) {
  timeval timeout{kClientTimeoutSeconds, 0};
  setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  std::string head = ReadHead(client);
  if (head.empty()) return;
  std::string reply = Answer(head, dir);
  for (size_t sent = 0; sent < reply.size();) {
    ssize_t n = send(client, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  icat::SetLogProgram("icat-metrics");
  if (argc > 1) {
    std::string_view arg = argv[1];
    std::ostream& out = (arg == "--help" || arg == "-h") ? std::cout : std::cerr;
    out << "usage: icat-metrics\n"
        << "Serves GET /metrics (Prometheus text format) for every program whose metrics file is in\n"
        << "ICAT_METRICS_DIR, on ICAT_METRICS_LISTEN (default 127.0.0.1:9464), until SIGTERM.\n";
    return (arg == "--help" || arg == "-h") ? 0 : 2;
  }
  std::string dir, listen_on;
  try {
    dir = icat::TextSetting("ICAT_METRICS_DIR");
    listen_on = icat::TextSetting("ICAT_METRICS_LISTEN");
    icat::ConfigureLogs(icat::TextSetting("ICAT_LOG_LEVEL"), icat::TextSetting("ICAT_LOG_FORMAT"));
  } catch (const std::exception& e) {
    std::cerr << "icat-metrics: " << e.what() << "\n";
    return 2;
  }
  if (dir.empty()) {
    std::cerr << "icat-metrics: ICAT_METRICS_DIR must name the directory of the metrics files\n";
    return 2;
  }
  int listener = Listen(listen_on);
  if (listener < 0) return 2;
  struct sigaction action {};
  action.sa_handler = OnStop;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  icat::LogInfo("serving /metrics of " + dir + " on " + listen_on);
  while (!stop_requested) {
    pollfd waiting{listener, POLLIN, 0};
    if (poll(&waiting, 1, 1000) <= 0) continue;  // a stop signal or a second without a client
    int client = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    Serve(client, dir);
    close(client);
  }
  close(listener);
  icat::LogInfo("stopped");
  return 0;
}
