// A TLS connection as a plain local socket: the far end of a socketpair whose bytes a thread of
// its own carries over TLS (OpenSSL). Debian 12's hiredis (0.14) has no TLS; Redis hands it the
// plain end (redisConnectFd), so rediss:// needs neither a newer hiredis nor a tunnel process.
#pragma once

#include <memory>
#include <string>

namespace icat {

class TlsTunnel {
 public:
  // Connects to host:port, verifies the server's certificate against ca_file (the system's CAs
  // when empty) and its name (host), all within timeout_ms. nullptr and *error when it cannot.
  static std::unique_ptr<TlsTunnel> Open(const std::string& host, int port, const std::string& ca_file,
                                         int timeout_ms, std::string* error);
  ~TlsTunnel();  // ends the connection and waits for the thread
  TlsTunnel(const TlsTunnel&) = delete;
  TlsTunnel& operator=(const TlsTunnel&) = delete;

  // The plain end, once: its new owner closes it (hiredis, on redisFree).
  int TakePlainEnd();

  struct State;

 private:
  explicit TlsTunnel(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace icat
