// TLS for Redis as a socketpair and one thread (tls_tunnel.hpp).
//
// The TLS socket is non-blocking and OpenSSL's auto-retry is off: a record that is not application
// data (a TLS 1.3 session ticket right after the handshake) must send the thread back to poll, not
// block it in SSL_read while a command waits on the plain side.
#include "icat/tls_tunnel.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

namespace icat {

struct TlsTunnel::State {
  SSL_CTX* ctx = nullptr;
  SSL* ssl = nullptr;
  int tls_fd = -1;    // the connection to the server
  int mine = -1;      // the thread's end of the pair
  int plain = -1;     // the other end, until taken
  std::thread pump;

  ~State() {
    if (mine >= 0) shutdown(mine, SHUT_RDWR);  // the thread's read sees the end and it returns
    if (pump.joinable()) pump.join();
    if (ssl) SSL_free(ssl);
    if (ctx) SSL_CTX_free(ctx);
    for (int fd : {tls_fd, mine, plain}) {
      if (fd >= 0) close(fd);
    }
  }
};

namespace {

using Clock = std::chrono::steady_clock;

std::string OpenSslError() {
  unsigned long code = ERR_get_error();
  if (code == 0) return "no detail";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

// Waits until fd is ready for events; false at the deadline (none: wait as long as it takes).
bool WaitFor(int fd, short events, std::optional<Clock::time_point> deadline) {
  int wait = -1;
  if (deadline) {
    wait = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count());
    if (wait <= 0) return false;
  }
  pollfd p{fd, events, 0};
  return poll(&p, 1, wait) == 1;
}

// A non-blocking TCP connection to host:port within the deadline; -1 and *error otherwise.
int ConnectTcp(const std::string& host, int port, Clock::time_point deadline, std::string* error) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int e = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); e != 0) {
    *error = "cannot resolve " + host + ": " + gai_strerror(e);
    return -1;
  }
  int fd = -1;
  for (addrinfo* ai = found; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    int status = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : errno;
    socklen_t size = sizeof status;
    if (status == EINPROGRESS && WaitFor(fd, POLLOUT, deadline)) getsockopt(fd, SOL_SOCKET, SO_ERROR, &status, &size);
    if (status != 0) {
      *error = "cannot connect to " + host + ":" + std::to_string(port) + ": " +
               (status == EINPROGRESS ? "timed out" : std::strerror(status));
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  return fd;
}

// Runs an OpenSSL call until it neither wants to read nor write; its result, or <= 0.
template <typename Call>
int Retry(SSL* ssl, int fd, std::optional<Clock::time_point> deadline, Call call) {
  for (;;) {
    int result = call();
    if (result > 0) return result;
    int why = SSL_get_error(ssl, result);
    if (why == SSL_ERROR_WANT_READ && WaitFor(fd, POLLIN, deadline)) continue;
    if (why == SSL_ERROR_WANT_WRITE && WaitFor(fd, POLLOUT, deadline)) continue;
    return result;
  }
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Carries bytes both ways until either side ends.
void Pump(TlsTunnel::State* s) {
  char buffer[16384];
  for (;;) {
    pollfd fds[2] = {{s->mine, POLLIN, 0}, {s->tls_fd, POLLIN, 0}};
    if (SSL_pending(s->ssl) == 0 && poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (SSL_pending(s->ssl) > 0 || fds[1].revents) {
      int n = SSL_read(s->ssl, buffer, sizeof buffer);
      if (n > 0) {
        if (!WriteAll(s->mine, buffer, static_cast<size_t>(n))) return;
      } else if (SSL_get_error(s->ssl, n) != SSL_ERROR_WANT_READ && SSL_get_error(s->ssl, n) != SSL_ERROR_WANT_WRITE) {
        shutdown(s->mine, SHUT_RDWR);  // the server ended it: hiredis reads the end
        return;
      }
    }
    if (fds[0].revents) {
      ssize_t n = read(s->mine, buffer, sizeof buffer);
      if (n <= 0) return;  // hiredis closed its end (or the tunnel is being torn down)
      for (ssize_t sent = 0; sent < n;) {
        int w = Retry(s->ssl, s->tls_fd, std::nullopt, [&] { return SSL_write(s->ssl, buffer + sent, static_cast<int>(n - sent)); });
        if (w <= 0) {
          shutdown(s->mine, SHUT_RDWR);
          return;
        }
        sent += w;
      }
    }
  }
}

}  // namespace

std::unique_ptr<TlsTunnel> TlsTunnel::Open(const std::string& host, int port, const std::string& ca_file,
                                           int timeout_ms, std::string* error) {
  auto s = std::make_unique<State>();
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  s->ctx = SSL_CTX_new(TLS_client_method());
  if (!s->ctx) {
    *error = "TLS: " + OpenSslError();
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(s->ctx, TLS1_2_VERSION);
  SSL_CTX_clear_mode(s->ctx, SSL_MODE_AUTO_RETRY);
  SSL_CTX_set_verify(s->ctx, SSL_VERIFY_PEER, nullptr);
  bool trusted = ca_file.empty() ? SSL_CTX_set_default_verify_paths(s->ctx) == 1
                                 : SSL_CTX_load_verify_locations(s->ctx, ca_file.c_str(), nullptr) == 1;
  if (!trusted) {
    *error = "TLS: cannot load the CA certificates " + (ca_file.empty() ? "of the system" : "of " + ca_file) + ": " +
             OpenSslError();
    return nullptr;
  }
  s->tls_fd = ConnectTcp(host, port, deadline, error);
  if (s->tls_fd < 0) return nullptr;
  s->ssl = SSL_new(s->ctx);
  SSL_set_fd(s->ssl, s->tls_fd);
  // The certificate must name the host: as an IP address, or as a DNS name (then also sent as SNI).
  in6_addr ip{};
  bool is_ip = inet_pton(AF_INET, host.c_str(), &ip) == 1 || inet_pton(AF_INET6, host.c_str(), &ip) == 1;
  if (is_ip) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s->ssl), host.c_str());
  } else {
    SSL_set_tlsext_host_name(s->ssl, host.c_str());
    SSL_set1_host(s->ssl, host.c_str());
  }
  if (Retry(s->ssl, s->tls_fd, deadline, [&] { return SSL_connect(s->ssl); }) <= 0) {
    long verify = SSL_get_verify_result(s->ssl);
    *error = "TLS handshake with " + host + ":" + std::to_string(port) + " failed: " +
             (verify != X509_V_OK ? X509_verify_cert_error_string(verify) : Clock::now() >= deadline ? "timed out" : OpenSslError());
    return nullptr;
  }
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    *error = std::string("socketpair: ") + std::strerror(errno);
    return nullptr;
  }
  s->mine = pair[0];
  s->plain = pair[1];
  s->pump = std::thread(Pump, s.get());
  return std::unique_ptr<TlsTunnel>(new TlsTunnel(std::move(s)));
}

TlsTunnel::TlsTunnel(std::unique_ptr<State> state) : state_(std::move(state)) {}

TlsTunnel::~TlsTunnel() = default;

int TlsTunnel::TakePlainEnd() {
  int fd = state_->plain;
  state_->plain = -1;
  return fd;
}

}  // namespace icat
