// The settings table: sorted, ICAT_*-named, documented in README.md, and checked at start.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "icat/config.hpp"

namespace {

// Sets (or unsets) one environment variable for the life of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) {
      setenv(name_.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

std::string ReadmePath() {
  const char* repo = std::getenv("ICAT_REPO");
  return repo && *repo ? std::string(repo) + "/README.md" : std::string("README.md");
}

void ExpectStartupFailureNaming(const std::string& name, const std::string& value) {
  ScopedEnv bad(name, value);
  try {
    (void)icat::Config::FromEnvironment();
    BOOST_ERROR(name << "=" << value << " was accepted");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find(name) != std::string::npos, "message does not name " << name << ": " << e.what());
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(settings)

BOOST_AUTO_TEST_CASE(settings_are_sorted_by_name_and_unique) {
  const auto& settings = icat::AllSettings();
  BOOST_TEST_REQUIRE(!settings.empty());
  for (size_t i = 1; i < settings.size(); i++) {
    // A plain bool: Boost.Test compares strings with < element by element, not lexicographically.
    bool ordered = settings[i - 1].name < settings[i].name;
    BOOST_TEST(ordered,
               settings[i - 1].name << " should sort strictly before " << settings[i].name);
  }
}

BOOST_AUTO_TEST_CASE(settings_all_start_with_icat_and_have_a_description) {
  for (const icat::Setting& s : icat::AllSettings()) {
    BOOST_TEST_CONTEXT("setting " << s.name) {
      BOOST_TEST(std::string(s.name.substr(0, 5)) == "ICAT_");
      BOOST_TEST(s.name.size() > 5u);
      BOOST_TEST(s.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string_view::npos);
      BOOST_TEST(!s.description.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(readme_mentions_every_setting) {
  std::ifstream file(ReadmePath());
  BOOST_TEST_REQUIRE(file.good(), "cannot read " << ReadmePath());
  std::stringstream text;
  text << file.rdbuf();
  const std::string readme = text.str();
  for (const icat::Setting& s : icat::AllSettings()) {
    BOOST_TEST(readme.find(std::string(s.name)) != std::string::npos, "README.md does not mention " << s.name);
  }
}

BOOST_AUTO_TEST_CASE(unset_setting_reads_its_default_and_set_one_its_value) {
  const icat::Setting& setting = icat::AllSettings().front();
  {
    ScopedEnv unset(std::string(setting.name), std::nullopt);
    BOOST_TEST(icat::Config::Get(setting.name) == std::string(setting.default_value));
  }
  {
    ScopedEnv set(std::string(setting.name), "some-value-42");
    BOOST_TEST(icat::Config::Get(setting.name) == "some-value-42");
  }
}

BOOST_AUTO_TEST_CASE(defaults_make_a_valid_configuration) {
  std::vector<std::unique_ptr<ScopedEnv>> cleared;
  for (const icat::Setting& s : icat::AllSettings()) {
    cleared.push_back(std::make_unique<ScopedEnv>(std::string(s.name), std::nullopt));
  }
  icat::Config config = icat::Config::FromEnvironment();
  BOOST_TEST(config.key_prefix == icat::Config::Get("ICAT_KEY_PREFIX"));
  BOOST_TEST(config.redis.port > 0);
  BOOST_TEST(!config.pg_dsn.empty());
}

// One rule for whole numbers, from the table's own range: every default lies in it, and only
// plain digits within it are read (the dispatcher reads its settings the same way).
BOOST_AUTO_TEST_CASE(whole_number_settings_read_plain_digits_within_their_row_s_range) {
  int checked = 0;
  for (const icat::Setting& s : icat::AllSettings()) {
    if (s.max == 0) continue;
    ScopedEnv unset(std::string(s.name), std::nullopt);
    BOOST_TEST(icat::IntSetting(s.name) >= s.min, s.name);
    checked++;
  }
  BOOST_TEST(checked >= 17);
  ScopedEnv max(std::string("ICAT_MAX_BODY_BYTES"), std::string("1073741824"));
  BOOST_TEST(icat::IntSetting("ICAT_MAX_BODY_BYTES") == 1 << 30);
  for (const char* bad : {"+5000", " 5000", "5000 ", "5e3", "1073741825", "99999999999", "0x10", ""}) {
    ScopedEnv set(std::string("ICAT_MAX_BODY_BYTES"), std::string(bad));
    if (std::string(bad).empty()) continue;  // empty is unset: the default
    BOOST_CHECK_THROW(icat::IntSetting("ICAT_MAX_BODY_BYTES"), std::runtime_error);
  }
  BOOST_CHECK_THROW(icat::IntSetting("ICAT_LOG_LEVEL"), std::logic_error);
}

BOOST_AUTO_TEST_CASE(non_numeric_rate_limit_stops_start_naming_the_variable) {
  ExpectStartupFailureNaming("ICAT_RATE_LIMIT_PER_MINUTE", "abc");
}

BOOST_AUTO_TEST_CASE(negative_rate_limit_stops_start_naming_the_variable) {
  ExpectStartupFailureNaming("ICAT_RATE_LIMIT_PER_MINUTE", "-5");
}

BOOST_AUTO_TEST_CASE(malformed_redis_url_stops_start_naming_the_variable) {
  ExpectStartupFailureNaming("ICAT_REDIS_URL", "http://127.0.0.1:6379");
}

BOOST_AUTO_TEST_CASE(redis_url_names_a_host_or_a_unix_socket) {
  {
    ScopedEnv url("ICAT_REDIS_URL", "redis://cache.internal:6380/3");
    icat::Config config = icat::Config::FromEnvironment();
    BOOST_TEST(config.redis.host == "cache.internal");
    BOOST_TEST(config.redis.port == 6380);
    BOOST_TEST(config.redis.db == 3);
    BOOST_TEST(config.redis.password.empty());
  }
  {
    ScopedEnv url("ICAT_REDIS_URL", "unix:///run/icat/redis.sock?db=2");
    icat::Config config = icat::Config::FromEnvironment();
    BOOST_TEST(config.redis.host == "/run/icat/redis.sock");
    BOOST_TEST(config.redis.port == 0);
    BOOST_TEST(config.redis.db == 2);
  }
  for (const char* bad : {"unix://relative.sock", "unix:///run/redis.sock?db=x", "unix:///run/redis.sock?database=1",
                          "redis://host:port/0", "redis://:6379/0", "rediss://host:6379/0", "redis://:@host:6379/0", "redis://host:70000/0"}) {
    ExpectStartupFailureNaming("ICAT_REDIS_URL", bad);
  }
}

BOOST_AUTO_TEST_CASE(redis_url_carries_a_password_and_an_acl_user_percent_encoded) {
  std::optional<icat::RedisEndpoint> tcp = icat::ParseRedisUrl("redis://:s%40cret%3Ax@cache.internal:6380/1");
  BOOST_REQUIRE(tcp.has_value());
  BOOST_TEST(tcp->host == "cache.internal");
  BOOST_TEST(tcp->port == 6380);
  BOOST_TEST(tcp->username.empty());
  BOOST_TEST(tcp->password == "s@cret:x");
  std::optional<icat::RedisEndpoint> unix_socket = icat::ParseRedisUrl("unix://icat:pw@/run/redis.sock?db=4");
  BOOST_REQUIRE(unix_socket.has_value());
  BOOST_TEST(unix_socket->host == "/run/redis.sock");
  BOOST_TEST(unix_socket->username == "icat");
  BOOST_TEST(unix_socket->password == "pw");
  BOOST_TEST(unix_socket->db == 4);
}

BOOST_AUTO_TEST_CASE(redis_password_file_fills_the_password_and_never_two_passwords) {
  std::string path = "/tmp/icat-config-test-redis-password";
  std::ofstream(path) << "file-secret\n";
  {
    ScopedEnv url("ICAT_REDIS_URL", "redis://127.0.0.1:6379/0");
    ScopedEnv file("ICAT_REDIS_PASSWORD_FILE", path);
    BOOST_TEST(icat::Config::FromEnvironment().redis.password == "file-secret");
  }
  {
    ScopedEnv url("ICAT_REDIS_URL", "redis://:other@127.0.0.1:6379/0");
    ScopedEnv file("ICAT_REDIS_PASSWORD_FILE", path);
    BOOST_CHECK_THROW(icat::Config::FromEnvironment(), std::runtime_error);
  }
  {
    ScopedEnv url("ICAT_REDIS_URL", "redis://icat@127.0.0.1:6379/0");  // an ACL user, its password in the file
    ScopedEnv file("ICAT_REDIS_PASSWORD_FILE", path);
    icat::RedisEndpoint endpoint = icat::Config::FromEnvironment().redis;
    BOOST_TEST(endpoint.username == "icat");
    BOOST_TEST(endpoint.password == "file-secret");
  }
  ExpectStartupFailureNaming("ICAT_REDIS_URL", "redis://icat@127.0.0.1:6379/0");  // a user without a password
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_CASE(key_prefix_with_underscore_stops_start_naming_the_variable) {
  // "_" would make "<prefix>_live_" ambiguous.
  ExpectStartupFailureNaming("ICAT_KEY_PREFIX", "my_co");
}

BOOST_AUTO_TEST_SUITE_END()
