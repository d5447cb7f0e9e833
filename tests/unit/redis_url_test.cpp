// ParseRedisUrl, the one parser of ICAT_REDIS_URL: schemes, credentials, hosts, ports, databases.
#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>

#include "icat/redis.hpp"

namespace {

icat::RedisEndpoint Parsed(const std::string& url) {
  std::optional<icat::RedisEndpoint> endpoint = icat::ParseRedisUrl(url);
  BOOST_TEST_REQUIRE(endpoint.has_value(), url << " was refused");
  return *endpoint;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(redis_url)

BOOST_AUTO_TEST_CASE(tcp_url_gives_host_port_and_db_with_defaults_6379_and_0) {
  icat::RedisEndpoint full = Parsed("redis://cache.internal:6380/3");
  BOOST_TEST(full.host == "cache.internal");
  BOOST_TEST(full.port == 6380);
  BOOST_TEST(full.db == 3);
  BOOST_TEST(!full.tls);
  icat::RedisEndpoint bare = Parsed("redis://10.1.2.3");
  BOOST_TEST(bare.host == "10.1.2.3");
  BOOST_TEST(bare.port == 6379);
  BOOST_TEST(bare.db == 0);
  BOOST_TEST(Parsed("redis://cache/7").port == 6379);
  BOOST_TEST(Parsed("redis://cache:1/99999").db == 99999);
}

BOOST_AUTO_TEST_CASE(ipv6_host_is_written_in_brackets_and_given_without_them) {
  icat::RedisEndpoint with_port = Parsed("redis://[::1]:6379/0");
  BOOST_TEST(with_port.host == "::1");
  BOOST_TEST(with_port.port == 6379);
  icat::RedisEndpoint without_port = Parsed("redis://:pw@[fd00::12:34]/2");
  BOOST_TEST(without_port.host == "fd00::12:34");
  BOOST_TEST(without_port.port == 6379);
  BOOST_TEST(without_port.password == "pw");
  for (const char* bad : {"redis://::1:6379/0", "redis://[::1/0", "redis://[not-an-address]:6379/0",
                          "redis://[127.0.0.1]:6379/0", "redis://[::1]x:6379/0"}) {
    BOOST_TEST(!icat::ParseRedisUrl(bad).has_value(), bad << " was accepted");
  }
}

BOOST_AUTO_TEST_CASE(user_and_password_are_percent_decoded) {
  icat::RedisEndpoint both = Parsed("redis://ic%40t:s%40cret%3Ax%2F%3F@cache:6380/1");
  BOOST_TEST(both.username == "ic@t");
  BOOST_TEST(both.password == "s@cret:x/?");
  BOOST_TEST(both.host == "cache");
  icat::RedisEndpoint password_only = Parsed("redis://:p%25w@cache");
  BOOST_TEST(password_only.username.empty());
  BOOST_TEST(password_only.password == "p%w");
  icat::RedisEndpoint user_only = Parsed("redis://icat@cache");  // its password from a file
  BOOST_TEST(user_only.username == "icat");
  BOOST_TEST(user_only.password.empty());
  BOOST_TEST(Parsed("redis://u:pa:ss@cache").password == "pa:ss");  // the first ':' ends the user
}

// Whatever the URL, a password never ends up in the host (which logs show) nor the host in a password.
BOOST_AUTO_TEST_CASE(password_is_never_read_as_host_port_or_db) {
  icat::RedisEndpoint at_in_password = Parsed("redis://:p@ss@cache:6379/0");  // the last '@' ends it
  BOOST_TEST(at_in_password.password == "p@ss");
  BOOST_TEST(at_in_password.host == "cache");
  for (const char* bad : {
           "redis://cache:secret/0",        // a password where the port goes
           "redis://secret@/0",             // credentials but no host
           "redis://:secret@:6379/0",       // no host either
           "redis://cache:6379/0@evil:1/0", // '@' after the host belongs to the path: not a db
           "redis://:pa/ss@cache:6379/0",   // an unencoded '/' ends the host part at ":pa"
           "redis://:@cache:6379/0",        // empty password
           "redis://@cache:6379/0",         // empty credentials
           "redis://ca%63he:6379/0",        // no escapes in a host
           "redis://ca che:6379/0",
       }) {
    BOOST_TEST(!icat::ParseRedisUrl(bad).has_value(), bad << " was accepted");
  }
}

BOOST_AUTO_TEST_CASE(port_and_db_are_plain_numbers_in_range) {
  for (const char* bad : {"redis://cache:0/0", "redis://cache:65536/0", "redis://cache:+1/0", "redis://cache:/0",
                          "redis://cache:6379/", "redis://cache:6379/100000", "redis://cache:6379/-1",
                          "redis://cache:6379/0?db=1", "redis://cache:6379/0/1"}) {
    BOOST_TEST(!icat::ParseRedisUrl(bad).has_value(), bad << " was accepted");
  }
  BOOST_TEST(Parsed("redis://cache:65535/0").port == 65535);
}

BOOST_AUTO_TEST_CASE(unix_url_gives_the_socket_path_and_db) {
  icat::RedisEndpoint plain = Parsed("unix:///run/icat/redis.sock");
  BOOST_TEST(plain.host == "/run/icat/redis.sock");
  BOOST_TEST(plain.port == 0);
  BOOST_TEST(plain.db == 0);
  icat::RedisEndpoint signed_in = Parsed("unix://icat:p%40w@/run/redis.sock?db=4");
  BOOST_TEST(signed_in.username == "icat");
  BOOST_TEST(signed_in.password == "p@w");
  BOOST_TEST(signed_in.host == "/run/redis.sock");
  BOOST_TEST(signed_in.db == 4);
  BOOST_TEST(Parsed("unix:///run/a@b.sock").host == "/run/a@b.sock");  // an '@' in the path is the path's
  for (const char* bad : {"unix://relative.sock", "unix://host/run/redis.sock", "unix://", "unix:///",
                          "unix:///run/redis.sock?db=x", "unix:///run/redis.sock?database=1",
                          "unix:///run/redis.sock?db=100000"}) {
    BOOST_TEST(!icat::ParseRedisUrl(bad).has_value(), bad << " was accepted");
  }
}

BOOST_AUTO_TEST_CASE(rediss_is_parsed_as_tls_and_other_schemes_are_refused) {
  icat::RedisEndpoint tls = Parsed("rediss://:pw@cache.internal:6380/2");
  BOOST_TEST(tls.tls);
  BOOST_TEST(tls.host == "cache.internal");
  BOOST_TEST(tls.port == 6380);
  for (const char* bad : {"http://cache:6379", "REDIS://cache:6379/0", "redis:/cache", "cache:6379", ""}) {
    BOOST_TEST(!icat::ParseRedisUrl(bad).has_value(), bad << " was accepted");
  }
}

BOOST_AUTO_TEST_SUITE_END()
