// Webhook URL checks: parse, resolve, and refuse every non-public address not allow-listed.
#include "icat/url_guard.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "icat/text.hpp"

namespace icat {

namespace {

struct Range {
  const char* cidr;
  const char* reason;
};

// Judged in order: the specific entries come before the ranges that contain them.
const Range kIpv4Ranges[] = {
    {"169.254.169.254/32", "a cloud metadata address"},
    {"100.100.100.200/32", "a cloud metadata address"},
    {"0.0.0.0/8", "an unspecified (\"this network\") address"},
    {"127.0.0.0/8", "a loopback address"},
    {"10.0.0.0/8", "a private address"},
    {"172.16.0.0/12", "a private address"},
    {"192.168.0.0/16", "a private address"},
    {"100.64.0.0/10", "a carrier-grade NAT (shared) address"},
    {"169.254.0.0/16", "a link-local address"},
    {"224.0.0.0/4", "a multicast address"},
    {"255.255.255.255/32", "the broadcast address"},
    {"240.0.0.0/4", "a reserved address"},
    {"192.0.0.0/24", "a reserved (IETF protocol) address"},
    {"192.88.99.0/24", "a reserved (6to4 relay) address"},
    {"192.0.2.0/24", "a documentation address"},
    {"198.51.100.0/24", "a documentation address"},
    {"203.0.113.0/24", "a documentation address"},
    {"198.18.0.0/15", "a benchmarking address"},
};

const Range kIpv6Ranges[] = {
    {"::/128", "an unspecified address"},
    {"::1/128", "a loopback address"},
    {"fd00:ec2::254/128", "a cloud metadata address"},
    {"64:ff9b:1::/48", "a private (local NAT64) address"},
    {"fc00::/7", "a private (unique local) address"},
    {"fe80::/10", "a link-local address"},
    {"fec0::/10", "a private (site-local) address"},
    {"ff00::/8", "a multicast address"},
    {"2001:db8::/32", "a documentation address"},
    {"2001::/32", "a reserved (Teredo) address"},
    {"100::/64", "a reserved (discard) address"},
    {"::/96", "a reserved (IPv4-compatible) address"},
};

const std::vector<std::pair<IpNetwork, const char*>>& Table(bool v6) {
  static const auto build = [](const auto& ranges) {
    std::vector<std::pair<IpNetwork, const char*>> table;
    for (const Range& r : ranges) table.emplace_back(*ParseCidr(r.cidr), r.reason);
    return table;
  };
  static const std::vector<std::pair<IpNetwork, const char*>> v4 = build(kIpv4Ranges);
  static const std::vector<std::pair<IpNetwork, const char*>> v6_table = build(kIpv6Ranges);
  return v6 ? v6_table : v4;
}

IpAddress V4(const unsigned char* bytes) {
  IpAddress a;
  std::memcpy(a.bytes, bytes, 4);
  return a;
}

// The IPv4 address an IPv6 address carries: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::).
std::optional<IpAddress> EmbeddedIpv4(const IpAddress& a) {
  if (!a.v6) return std::nullopt;
  static const IpNetwork mapped = *ParseCidr("::ffff:0:0/96");
  static const IpNetwork nat64 = *ParseCidr("64:ff9b::/96");
  static const IpNetwork six_to_four = *ParseCidr("2002::/16");
  if (mapped.Contains(a) || nat64.Contains(a)) return V4(a.bytes + 12);
  if (six_to_four.Contains(a)) return V4(a.bytes + 2);
  return std::nullopt;
}

bool Allowed(const IpAddress& a, const std::vector<IpNetwork>& allow) {
  std::optional<IpAddress> inner = EmbeddedIpv4(a);
  for (const IpNetwork& n : allow) {
    if (n.Contains(a) || (inner && n.Contains(*inner))) return true;
  }
  return false;
}

bool AllDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsHostLabelChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }

// A DNS name in ASCII: labels of letters, digits and inner hyphens, at most 63 each, 253 in all.
bool IsHostName(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  if (host.back() == '.') host.remove_suffix(1);
  size_t start = 0;
  while (start <= host.size()) {
    size_t dot = host.find('.', start);
    std::string_view label = host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    if (!std::all_of(label.begin(), label.end(), IsHostLabelChar)) return false;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

UrlVerdict Refuse(UrlVerdict verdict, std::string reason) {
  verdict.ok = false;
  verdict.reason = std::move(reason);
  verdict.addresses.clear();
  return verdict;
}

}  // namespace

std::string IpAddress::ToString() const {
  char text[INET6_ADDRSTRLEN] = {0};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes, text, sizeof text);
  return text;
}

bool IpNetwork::Contains(const IpAddress& address) const {
  if (address.v6 != base.v6) return false;
  int bits = prefix;
  for (int i = 0; bits > 0; i++, bits -= 8) {
    unsigned char mask = bits >= 8 ? 0xff : static_cast<unsigned char>(0xff << (8 - bits));
    if ((address.bytes[i] & mask) != (base.bytes[i] & mask)) return false;
  }
  return true;
}

std::optional<IpAddress> ParseIp(std::string_view text) {
  std::string copy(text);
  IpAddress a;
  if (inet_pton(AF_INET, copy.c_str(), a.bytes) == 1) return a;
  a.v6 = true;
  if (inet_pton(AF_INET6, copy.c_str(), a.bytes) == 1) return a;
  return std::nullopt;
}

std::optional<IpNetwork> ParseCidr(std::string_view text) {
  size_t slash = text.find('/');
  std::optional<IpAddress> base = ParseIp(text.substr(0, slash));
  if (!base) return std::nullopt;
  int max = base->v6 ? 128 : 32;
  int prefix = max;
  if (slash != std::string_view::npos) {
    std::string_view bits = text.substr(slash + 1);
    if (bits.size() > 3 || !AllDigits(bits)) return std::nullopt;
    prefix = std::stoi(std::string(bits));
    if (prefix > max) return std::nullopt;
  }
  return IpNetwork{*base, prefix};
}

std::vector<IpNetwork> ParseCidrList(std::string_view text) {
  std::vector<IpNetwork> networks;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view entry =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t first = entry.find_first_not_of(' ');
    entry = first == std::string_view::npos ? std::string_view()
                                            : entry.substr(first, entry.find_last_not_of(' ') - first + 1);
    if (!entry.empty()) {
      std::optional<IpNetwork> network = ParseCidr(entry);
      if (!network) throw std::invalid_argument("\"" + std::string(entry) + "\" is not an IP address or CIDR");
      networks.push_back(*network);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return networks;
}

std::optional<std::string> NonPublicReason(const IpAddress& address) {
  if (std::optional<IpAddress> inner = EmbeddedIpv4(address)) return NonPublicReason(*inner);
  for (const auto& [network, reason] : Table(address.v6)) {
    if (network.Contains(address)) return std::string(reason);
  }
  static const IpNetwork global_unicast = *ParseCidr("2000::/3");
  if (address.v6 && !global_unicast.Contains(address)) return std::string("a reserved address");
  return std::nullopt;
}

std::vector<IpAddress> ResolveHost(const std::string& host, std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int status = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  std::vector<IpAddress> addresses;
  if (status != 0) {
    if (error) *error = gai_strerror(status);
    return addresses;
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, freeaddrinfo);
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    IpAddress a;
    if (ai->ai_family == AF_INET) {
      std::memcpy(a.bytes, &reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr, 4);
    } else if (ai->ai_family == AF_INET6) {
      a.v6 = true;
      std::memcpy(a.bytes, &reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr, 16);
    } else {
      continue;
    }
    bool seen = std::any_of(addresses.begin(), addresses.end(),
                            [&](const IpAddress& b) { return b.v6 == a.v6 && std::memcmp(b.bytes, a.bytes, 16) == 0; });
    if (!seen) addresses.push_back(a);
  }
  if (addresses.empty() && error) *error = "no IPv4 or IPv6 address";
  return addresses;
}

UrlVerdict CheckWebhookUrl(std::string_view url, const WebhookUrlPolicy& policy, const Resolver& resolve) {
  UrlVerdict v;
  if (url.size() > kMaxWebhookUrlChars) {
    return Refuse(v, "is longer than " + std::to_string(kMaxWebhookUrlChars) + " characters");
  }
  for (unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7f)
      return Refuse(v, "must not contain spaces, control or non-ASCII characters (percent-encode them)");
  }
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return Refuse(v, "must be an absolute https:// URL");
  v.scheme = Lower(url.substr(0, scheme_end));
  if (v.scheme != "https" && v.scheme != "http") return Refuse(v, "must be an absolute https:// URL");
  if (v.scheme == "http" && !policy.allow_http) return Refuse(v, "must use https (plain http is not allowed here)");
  if (url.find('#') != std::string_view::npos) return Refuse(v, "must not contain a fragment (#...)");

  std::string_view rest = url.substr(scheme_end + 3);
  size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view path = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos) return Refuse(v, "must not contain credentials (user:password@)");

  std::string_view port_text;
  bool literal_v6 = false;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return Refuse(v, "has an unterminated [IPv6] host");
    v.host = Lower(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') return Refuse(v, "has text after the [IPv6] host");
    if (!after.empty()) port_text = after.substr(1);
    std::optional<IpAddress> ip = ParseIp(v.host);
    if (!ip || !ip->v6) return Refuse(v, "has an invalid [IPv6] host");
    literal_v6 = true;
  } else {
    size_t colon = authority.find(':');
    v.host = Lower(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
    if (v.host.empty()) return Refuse(v, "has no host");
    if (!IsHostName(v.host)) return Refuse(v, "has an invalid host name (international names need their xn-- form)");
  }
  v.port = v.scheme == "https" ? 443 : 80;
  bool explicit_port = authority.find(':', literal_v6 ? authority.find(']') : 0) != std::string_view::npos;
  if (explicit_port) {
    if (port_text.size() > 5 || !AllDigits(port_text) || std::stoi(std::string(port_text)) < 1 ||
        std::stoi(std::string(port_text)) > 65535) {
      return Refuse(v, "has an invalid port (1 to 65535)");
    }
    v.port = std::stoi(std::string(port_text));
  }
  v.url = v.scheme + "://" + (literal_v6 ? "[" + v.host + "]" : v.host) +
          (explicit_port ? ":" + std::to_string(v.port) : "") + (path.empty() || path.front() == '?' ? "/" : "") +
          std::string(path);

  std::string error;
  std::vector<IpAddress> addresses;
  if (std::optional<IpAddress> literal = ParseIp(v.host)) {
    addresses.push_back(*literal);
  } else {
    addresses = resolve(v.host, &error);
    if (addresses.empty()) return Refuse(v, "names a host that does not resolve (" + error + ")");
  }
  for (const IpAddress& address : addresses) {
    if (Allowed(address, policy.allow_private)) continue;
    if (std::optional<std::string> reason = NonPublicReason(address)) {
      return Refuse(v, "points to " + address.ToString() + ", " + *reason + "; webhooks go to public addresses only");
    }
  }
  v.ok = true;
  v.addresses = std::move(addresses);
  return v;
}

std::string PinnedResolveEntry(const UrlVerdict& target) {
  if (ParseIp(target.host)) return "";
  std::string entry = target.host + ":" + std::to_string(target.port) + ":";
  for (size_t i = 0; i < target.addresses.size(); i++) {
    const IpAddress& a = target.addresses[i];
    entry += (i ? "," : "") + (a.v6 ? "[" + a.ToString() + "]" : a.ToString());
  }
  return entry;
}

}  // namespace icat
