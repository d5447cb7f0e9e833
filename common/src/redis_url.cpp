// ICAT_REDIS_URL: the one parser of Redis connection URLs (redis://, rediss://, unix://).
#include <optional>
#include <string>
#include <string_view>

#include "icat/http.hpp"
#include "icat/paging.hpp"
#include "icat/redis.hpp"
#include "icat/url_guard.hpp"

namespace icat {
namespace {

constexpr int kDefaultPort = 6379;
constexpr int kMaxDb = 99999;

// A URL split by RFC 3986's generic syntax: scheme://authority path?query, the authority being
// [userinfo@]host[:port]. Nothing is decoded yet.
struct UrlParts {
  std::string_view scheme, userinfo, host_port, path, query;
  bool has_userinfo = false;
};

std::optional<UrlParts> Split(std::string_view url) {
  UrlParts parts;
  size_t colon_slashes = url.find("://");
  if (colon_slashes == std::string_view::npos) return std::nullopt;
  parts.scheme = url.substr(0, colon_slashes);
  std::string_view rest = url.substr(colon_slashes + 3);
  // The authority ends at the first '/' or '?': a password holding either must be percent-encoded,
  // so nothing after the host (a path, a database) can be read as a password or the other way round.
  size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  // The last '@' ends the user information: a host never holds one.
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    parts.has_userinfo = true;
    parts.userinfo = authority.substr(0, at);
    authority.remove_prefix(at + 1);
  }
  parts.host_port = authority;
  size_t question = rest.find('?');
  parts.path = rest.substr(0, question);
  if (question != std::string_view::npos) parts.query = rest.substr(question + 1);
  return parts;
}

// "user:password", ":password" or "user" (its password from ICAT_REDIS_PASSWORD_FILE), percent-encoded.
bool TakeCredentials(const UrlParts& parts, RedisEndpoint& endpoint) {
  if (!parts.has_userinfo) return true;
  size_t colon = parts.userinfo.find(':');
  endpoint.username = UrlDecode(parts.userinfo.substr(0, colon));
  if (colon != std::string_view::npos) endpoint.password = UrlDecode(parts.userinfo.substr(colon + 1));
  return colon == std::string_view::npos ? !endpoint.username.empty() : !endpoint.password.empty();
}

std::optional<int> Number(std::string_view digits, int min, int max) {
  if (!IsDigits(digits, 5)) return std::nullopt;
  int value = std::stoi(std::string(digits));
  if (value < min || value > max) return std::nullopt;
  return value;
}

// A DNS name or IPv4 address, or an IPv6 address in brackets (returned without them).
std::optional<std::string> Host(std::string_view text) {
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
    std::string_view inside = text.substr(1, text.size() - 2);
    std::optional<IpAddress> address = ParseIp(inside);
    if (!address || !address->v6) return std::nullopt;
    return std::string(inside);
  }
  constexpr std::string_view kNameCharacters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
  if (text.empty() || text.find_first_not_of(kNameCharacters) != std::string_view::npos) return std::nullopt;
  return std::string(text);
}

// redis:// and rediss://: host[:port][/db], no query.
bool TakeTcpAddress(const UrlParts& parts, RedisEndpoint& endpoint) {
  std::string_view host = parts.host_port;
  std::optional<int> port = kDefaultPort;
  // The port's colon is the last one after any IPv6 address's closing bracket.
  size_t colon = host.rfind(':');
  if (colon != std::string_view::npos && host.find(']', colon) == std::string_view::npos) {
    port = Number(host.substr(colon + 1), 1, 65535);
    host = host.substr(0, colon);
  }
  std::optional<std::string> name = Host(host);
  std::optional<int> db = parts.path.empty() ? 0 : Number(parts.path.substr(1), 0, kMaxDb);
  if (!name || !port || !db || !parts.query.empty()) return false;
  endpoint.host = *name;
  endpoint.port = *port;
  endpoint.db = *db;
  return true;
}

// unix://: no host, an absolute socket path, ?db=N or nothing.
bool TakeSocketAddress(const UrlParts& parts, RedisEndpoint& endpoint) {
  std::optional<int> db = 0;
  if (!parts.query.empty()) db = parts.query.starts_with("db=") ? Number(parts.query.substr(3), 0, kMaxDb) : std::nullopt;
  if (!parts.host_port.empty() || parts.path.size() < 2 || !db) return false;
  endpoint.host = std::string(parts.path);
  endpoint.db = *db;
  return true;
}

}  // namespace

std::optional<RedisEndpoint> ParseRedisUrl(std::string_view url) {
  std::optional<UrlParts> parts = Split(url);
  if (!parts) return std::nullopt;
  RedisEndpoint endpoint;
  endpoint.tls = parts->scheme == "rediss";
  bool is_socket = parts->scheme == "unix";
  if (!is_socket && parts->scheme != "redis" && !endpoint.tls) return std::nullopt;
  if (!TakeCredentials(*parts, endpoint)) return std::nullopt;
  bool parsed = is_socket ? TakeSocketAddress(*parts, endpoint) : TakeTcpAddress(*parts, endpoint);
  if (!parsed) return std::nullopt;
  return endpoint;
}

}  // namespace icat
