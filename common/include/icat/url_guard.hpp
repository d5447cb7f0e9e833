// Webhook URL rules (DESIGN.md section 7), checked when a subscription is saved and again by the
// dispatcher at delivery: https only (unless ICAT_WEBHOOK_ALLOW_HTTP), and every address the host
// resolves to must be public, unless it lies in ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS. The dispatcher
// connects to the addresses the check returned (resolve once), so a DNS answer that changes
// between check and connect cannot reach an internal address.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

struct IpAddress {
  bool v6 = false;
  unsigned char bytes[16] = {};  // IPv4 uses the first 4
  std::string ToString() const;
};

struct IpNetwork {
  IpAddress base;
  int prefix = 0;  // bits
  bool Contains(const IpAddress& address) const;
};

std::optional<IpAddress> ParseIp(std::string_view text);    // dotted quad or RFC 4291 text
std::optional<IpNetwork> ParseCidr(std::string_view text);  // "10.0.0.0/8", "fd00::/8"; a bare address is /32 or /128
// A comma-separated list (spaces allowed); throws std::invalid_argument naming the bad entry.
std::vector<IpNetwork> ParseCidrList(std::string_view text);

// Why webhooks may not be sent to this address ("a loopback address", ...), or nullopt when it is
// a public unicast address. IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is judged as IPv4.
std::optional<std::string> NonPublicReason(const IpAddress& address);

struct WebhookUrlPolicy {
  bool allow_http = false;               // ICAT_WEBHOOK_ALLOW_HTTP
  std::vector<IpNetwork> allow_private;  // ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS
};

// Host name -> addresses; an empty list with *error set when the name does not resolve.
using Resolver = std::function<std::vector<IpAddress>(const std::string& host, std::string* error)>;
std::vector<IpAddress> ResolveHost(const std::string& host, std::string* error);  // getaddrinfo

struct UrlVerdict {
  bool ok = false;
  std::string reason;                // when refused: one sentence for the details of a 400
  std::string url;                   // normalised: scheme and host in lower case
  std::string scheme, host;          // host without brackets
  int port = 0;                      // explicit or the scheme's default
  std::vector<IpAddress> addresses;  // when ok: the addresses to connect to, each allowed
};

inline constexpr size_t kMaxWebhookUrlChars = 2048;

// Parses and checks an absolute http(s) URL: no credentials, no fragment, no spaces or control
// characters, ASCII host (IDNs in their xn-- form), then resolves the host and judges every address.
UrlVerdict CheckWebhookUrl(std::string_view url, const WebhookUrlPolicy& policy, const Resolver& resolve = ResolveHost);

// "host:port:addr,addr" for libcurl's CURLOPT_RESOLVE, so the connection goes where the check looked;
// empty for an IP-literal host (never looked up).
std::string PinnedResolveEntry(const UrlVerdict& target);

}  // namespace icat
