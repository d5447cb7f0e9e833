// The webhook URL guard (common/src/url_guard.cpp): addresses, CIDR lists and whole URLs, with a
// resolver that answers without DNS. A URL it accepts must be accepted again in its normal form.
#include <cstring>
#include <stdexcept>

#include "fuzz.hpp"
#include "icat/url_guard.hpp"

namespace {

// Every name resolves to one public address, and names starting "internal" to a private one too.
std::vector<icat::IpAddress> Resolve(const std::string& host, std::string*) {
  std::vector<icat::IpAddress> addresses = {*icat::ParseIp("93.184.215.14")};
  if (host.rfind("internal", 0) == 0) addresses.push_back(*icat::ParseIp("10.1.2.3"));
  return addresses;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  if (std::optional<icat::IpAddress> ip = icat::ParseIp(text)) {
    std::optional<icat::IpAddress> again = icat::ParseIp(ip->ToString());
    icat::fuzz::Expect(again && again->v6 == ip->v6 && std::memcmp(again->bytes, ip->bytes, 16) == 0,
                       "an address parses again from its text");
    (void)icat::NonPublicReason(*ip);
  }
  (void)icat::ParseCidr(text);
  try {
    (void)icat::ParseCidrList(text);
  } catch (const std::invalid_argument&) {
  }
  // Odd-length inputs also try the policy that allows http and one private range.
  icat::WebhookUrlPolicy policy;
  if (size % 2 == 1) policy = {true, {*icat::ParseCidr("10.0.0.0/8")}};
  icat::UrlVerdict verdict = icat::CheckWebhookUrl(text, policy, Resolve);
  if (verdict.ok) {
    icat::UrlVerdict again = icat::CheckWebhookUrl(verdict.url, policy, Resolve);
    icat::fuzz::Expect(again.ok && again.url == verdict.url, "a normalised URL is accepted as it is");
  }
  return 0;
}
