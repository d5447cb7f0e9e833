// Redis through hiredis: one connection per worker, short timeouts, reconnect with backoff.
// Every call fails soft (nullopt): callers decide whether Redis being down fails open or closed.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace icat {

class TlsTunnel;

struct RedisReply {
  enum class Type { kNil, kString, kInteger, kStatus, kError, kArray };
  Type type = Type::kNil;
  std::string text;   // kString, kStatus, kError
  long long integer = 0;
  std::vector<RedisReply> elements;
  bool IsNil() const { return type == Type::kNil; }
  bool IsError() const { return type == Type::kError; }
};

// Where Redis is and how to sign in to it (ICAT_REDIS_URL, ICAT_REDIS_PASSWORD_FILE).
struct RedisEndpoint {
  std::string host;      // a host name or address (IPv6 without brackets), or a unix socket's path (port 0)
  int port = 0;
  bool tls = false;      // rediss://: TLS, through a TlsTunnel (tls_tunnel.hpp; hiredis 0.14 has none)
  std::string tls_ca_file;  // ICAT_REDIS_TLS_CA_FILE: the CAs the server's certificate must chain to; empty: the system's
  int db = 0;
  std::string username;  // an ACL user (Redis 6+); empty: the default user
  std::string password;  // empty: no AUTH
};

// redis://[[user]:password@]host[:port][/db], rediss://... (the same, over TLS) or
// unix://[[user]:password@]/path[?db=N]; the user and password percent-encoded ("user@" alone when
// the password comes from a file), the host a name, an IPv4 address or [IPv6]; nullopt when the
// text is none of these (redis_url.cpp).
std::optional<RedisEndpoint> ParseRedisUrl(std::string_view url);


class Redis {
 public:
  Redis(RedisEndpoint endpoint, int timeout_ms);
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // One command; nullopt when Redis cannot be reached (or a reply failed to arrive in time).
  [[nodiscard]] std::optional<RedisReply> Command(const std::vector<std::string>& args);
  // Several commands in one round trip; nullopt when any of them could not be sent or read.
  [[nodiscard]] std::optional<std::vector<RedisReply>> Pipeline(const std::vector<std::vector<std::string>>& commands);
  bool Ping();

 private:
  bool EnsureConnected();
  void Disconnect();

  bool SignIn();  // AUTH and SELECT on a new connection
  redisContext* ConnectTls(const struct timeval& timeout);

  RedisEndpoint endpoint_;
  int timeout_ms_;
  redisContext* context_ = nullptr;
  std::unique_ptr<TlsTunnel> tunnel_;  // rediss://: the TLS behind context_'s socket
  // After a failure, no reconnect is tried before this time, so a dead Redis costs requests nothing.
  std::chrono::steady_clock::time_point retry_after_{};
};

}  // namespace icat
