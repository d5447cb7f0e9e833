// The webhook URL rules: what is refused, why, and what the dispatcher may connect to.
#include "icat/url_guard.hpp"

#include <boost/test/unit_test.hpp>
#include <map>

namespace {

icat::IpAddress Ip(const char* text) {
  std::optional<icat::IpAddress> ip = icat::ParseIp(text);
  BOOST_REQUIRE_MESSAGE(ip.has_value(), text);
  return *ip;
}

// A resolver that answers from a table, so no test depends on DNS.
icat::Resolver FakeDns(std::map<std::string, std::vector<std::string>> table) {
  return [table](const std::string& host, std::string* error) {
    std::vector<icat::IpAddress> out;
    auto it = table.find(host);
    if (it == table.end()) {
      *error = "Name or service not known";
      return out;
    }
    for (const std::string& a : it->second) out.push_back(*icat::ParseIp(a));
    return out;
  };
}

icat::UrlVerdict Check(std::string_view url, icat::WebhookUrlPolicy policy = {},
                       std::map<std::string, std::vector<std::string>> dns = {}) {
  return icat::CheckWebhookUrl(url, policy, FakeDns(std::move(dns)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(url_guard)

BOOST_AUTO_TEST_CASE(cidrs_parse_and_contain) {
  auto net = icat::ParseCidr("10.0.0.0/8");
  BOOST_TEST_REQUIRE(net.has_value());
  BOOST_TEST(net->Contains(Ip("10.255.1.2")));
  BOOST_TEST(!net->Contains(Ip("11.0.0.1")));
  BOOST_TEST(!net->Contains(Ip("::ffff:10.0.0.1")));  // families never mix
  auto single = icat::ParseCidr("127.0.0.1");
  BOOST_TEST_REQUIRE(single.has_value());
  BOOST_TEST(single->prefix == 32);
  auto v6 = icat::ParseCidr("fd00::/8");
  BOOST_TEST_REQUIRE(v6.has_value());
  BOOST_TEST(v6->Contains(Ip("fd12::1")));
  BOOST_TEST(!icat::ParseCidr("10.0.0.0/33").has_value());
  BOOST_TEST(!icat::ParseCidr("10.0.0/8").has_value());
  BOOST_TEST(!icat::ParseCidr("10.0.0.0/").has_value());
  BOOST_TEST(!icat::ParseCidr("fe80::1%eth0").has_value());
}

BOOST_AUTO_TEST_CASE(cidr_list_reads_commas_and_spaces_and_names_a_bad_entry) {
  BOOST_TEST(icat::ParseCidrList("").empty());
  BOOST_TEST(icat::ParseCidrList(" 127.0.0.1/32 , ::1 ,").size() == 2u);
  try {
    (void)icat::ParseCidrList("10.0.0.0/8,nope");
    BOOST_ERROR("accepted a bad entry");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("nope") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(every_non_public_range_has_its_reason) {
  const std::pair<const char*, const char*> cases[] = {
      {"127.0.0.1", "loopback"},
      {"127.200.1.1", "loopback"},
      {"10.1.2.3", "private"},
      {"172.16.0.1", "private"},
      {"172.31.255.255", "private"},
      {"192.168.1.1", "private"},
      {"100.64.0.1", "carrier-grade NAT"},
      {"100.127.255.254", "carrier-grade NAT"},
      {"169.254.169.254", "metadata"},
      {"100.100.100.200", "metadata"},
      {"169.254.1.1", "link-local"},
      {"0.0.0.0", "unspecified"},
      {"0.1.2.3", "unspecified"},
      {"224.0.0.1", "multicast"},
      {"239.255.255.250", "multicast"},
      {"255.255.255.255", "broadcast"},
      {"240.0.0.1", "reserved"},
      {"192.0.2.1", "documentation"},
      {"198.18.0.1", "benchmarking"},
      {"::1", "loopback"},
      {"::", "unspecified"},
      {"fe80::1", "link-local"},
      {"fc00::1", "unique local"},
      {"fd00:ec2::254", "metadata"},
      {"ff02::1", "multicast"},
      {"2001:db8::1", "documentation"},
      {"::ffff:127.0.0.1", "loopback"},
      {"::ffff:169.254.169.254", "metadata"},
      {"64:ff9b::a00:1", "private"},
      {"2002:7f00:1::", "loopback"},
      {"2001::1", "Teredo"},
      {"4000::1", "reserved"},
  };
  for (const auto& [address, reason] : cases) {
    std::optional<std::string> why = icat::NonPublicReason(Ip(address));
    BOOST_TEST_CONTEXT(address) {
      BOOST_TEST_REQUIRE(why.has_value());
      BOOST_TEST(why->find(reason) != std::string::npos, *why);
    }
  }
}

BOOST_AUTO_TEST_CASE(public_addresses_pass) {
  for (const char* address : {"8.8.8.8", "93.184.215.14", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
                              "::ffff:8.8.8.8", "2002:808:808::"}) {
    BOOST_TEST(!icat::NonPublicReason(Ip(address)).has_value(), address);
  }
}

BOOST_AUTO_TEST_CASE(https_url_to_a_public_host_is_accepted_with_its_addresses) {
  icat::UrlVerdict v =
      Check("HTTPS://Hooks.Example.COM/x?y=1", {}, {{"hooks.example.com", {"93.184.215.14", "2606:4700::1"}}});
  BOOST_TEST_REQUIRE(v.ok, v.reason);
  BOOST_TEST(v.url == "https://hooks.example.com/x?y=1");
  BOOST_TEST(v.host == "hooks.example.com");
  BOOST_TEST(v.port == 443);
  BOOST_TEST(v.addresses.size() == 2u);
}

BOOST_AUTO_TEST_CASE(url_without_path_gets_slash_and_explicit_port_is_kept) {
  icat::UrlVerdict v = Check("https://8.8.8.8:8443");
  BOOST_TEST_REQUIRE(v.ok, v.reason);
  BOOST_TEST(v.url == "https://8.8.8.8:8443/");
  BOOST_TEST(v.port == 8443);
  icat::UrlVerdict q = Check("https://8.8.8.8?a=b");
  BOOST_TEST(q.url == "https://8.8.8.8/?a=b");
  icat::UrlVerdict v6 = Check("https://[2606:4700::1111]:444/h");
  BOOST_TEST_REQUIRE(v6.ok, v6.reason);
  BOOST_TEST(v6.host == "2606:4700::1111");
  BOOST_TEST(v6.url == "https://[2606:4700::1111]:444/h");
}

BOOST_AUTO_TEST_CASE(plain_http_is_refused_unless_allowed) {
  icat::UrlVerdict refused = Check("http://8.8.8.8/h");
  BOOST_TEST(!refused.ok);
  BOOST_TEST(refused.reason.find("https") != std::string::npos);
  icat::WebhookUrlPolicy policy;
  policy.allow_http = true;
  icat::UrlVerdict allowed = Check("http://8.8.8.8/h", policy);
  BOOST_TEST(allowed.ok, allowed.reason);
  BOOST_TEST(allowed.port == 80);
}

BOOST_AUTO_TEST_CASE(malformed_urls_are_refused_with_a_reason) {
  const std::pair<const char*, const char*> cases[] = {
      {"ftp://8.8.8.8/", "https://"},
      {"8.8.8.8/hook", "https://"},
      {"https://user:pw@8.8.8.8/", "credentials"},
      {"https://8.8.8.8/#frag", "fragment"},
      {"https://8.8.8.8:0/", "port"},
      {"https://8.8.8.8:70000/", "port"},
      {"https://8.8.8.8:/", "port"},
      {"https:///path", "no host"},
      {"https://exa mple.com/", "spaces"},
      {"https://bücher.example/", "non-ASCII"},
      {"https://-bad-.example/", "host name"},
      {"https://[::1/", "unterminated"},
      {"https://[nothex]/", "IPv6"},
  };
  for (const auto& [url, reason] : cases) {
    icat::UrlVerdict v = Check(url);
    BOOST_TEST_CONTEXT(url) {
      BOOST_TEST(!v.ok);
      BOOST_TEST(v.reason.find(reason) != std::string::npos, v.reason);
      BOOST_TEST(v.addresses.empty());
    }
  }
  BOOST_TEST(!Check("https://8.8.8.8/" + std::string(3000, 'a')).ok);
}

BOOST_AUTO_TEST_CASE(literal_and_resolved_internal_addresses_are_refused) {
  for (const char* url :
       {"https://127.0.0.1/", "https://[::1]/", "https://169.254.169.254/latest/meta-data", "https://10.0.0.5/",
        "https://100.64.1.1/", "https://[::ffff:127.0.0.1]/", "https://0.0.0.0/", "https://224.0.0.1/"}) {
    icat::UrlVerdict v = Check(url);
    BOOST_TEST(!v.ok, url);
    BOOST_TEST(v.reason.find("public addresses only") != std::string::npos, v.reason);
  }
  icat::UrlVerdict named = Check("https://internal.example/", {}, {{"internal.example", {"192.168.0.10"}}});
  BOOST_TEST(!named.ok);
  BOOST_TEST(named.reason.find("192.168.0.10") != std::string::npos, named.reason);
}

BOOST_AUTO_TEST_CASE(one_internal_address_among_public_ones_refuses_the_url) {
  // A name answering with a public and a private address could otherwise reach inside.
  icat::UrlVerdict v = Check("https://mixed.example/", {}, {{"mixed.example", {"93.184.215.14", "10.0.0.1"}}});
  BOOST_TEST(!v.ok);
  BOOST_TEST(v.reason.find("10.0.0.1") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unresolvable_host_is_refused) {
  icat::UrlVerdict v = Check("https://nowhere.invalid/");
  BOOST_TEST(!v.ok);
  BOOST_TEST(v.reason.find("does not resolve") != std::string::npos, v.reason);
}

BOOST_AUTO_TEST_CASE(allow_list_admits_private_addresses_it_covers_only) {
  icat::WebhookUrlPolicy policy;
  policy.allow_private = icat::ParseCidrList("127.0.0.1/32,10.1.0.0/16");
  BOOST_TEST(Check("https://127.0.0.1:9000/h", policy).ok);
  BOOST_TEST(Check("https://[::ffff:127.0.0.1]/h", policy).ok);  // the same address, mapped
  BOOST_TEST(Check("https://10.1.2.3/", policy).ok);
  BOOST_TEST(!Check("https://127.0.0.2/", policy).ok);
  BOOST_TEST(!Check("https://10.2.0.1/", policy).ok);
  BOOST_TEST(!Check("https://169.254.169.254/", policy).ok);
}

BOOST_AUTO_TEST_CASE(localhost_resolves_and_is_refused_through_the_real_resolver) {
  icat::UrlVerdict v = icat::CheckWebhookUrl("https://localhost/", {});
  BOOST_TEST(!v.ok);
  BOOST_TEST(v.reason.find("loopback") != std::string::npos, v.reason);
}

BOOST_AUTO_TEST_SUITE_END()
