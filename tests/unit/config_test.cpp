// The settings table: sorted, ICAT_*-named, typed, and checked at start (README.md: icatctl_settings_test.cpp).
#include <algorithm>
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
#include "scoped_env.hpp"

namespace {

using icat::test::ScopedEnv;

void ExpectStartupFailureNaming(const std::string& name, const std::string& value) {
  ScopedEnv bad(name, value);
  try {
    (void)icat::Config::FromEnvironment();
    BOOST_ERROR(name << "=" << value << " was accepted");
  } catch (const icat::SettingError& e) {
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
      // A family (ICAT_WORKERS_<GROUP>) ends in its placeholder; the rest is a shell variable's name.
      std::string_view name = s.name.ends_with("_<GROUP>") ? s.name.substr(0, s.name.size() - 7) : s.name;
      BOOST_TEST(name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string_view::npos);
      BOOST_TEST(s.readers != 0u);
      BOOST_TEST(!s.description.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(unset_setting_reads_its_default_and_set_one_its_value) {
  // A directory setting: any text of an absolute path is its value.
  const std::vector<icat::Setting>& all = icat::AllSettings();
  auto row = std::find_if(all.begin(), all.end(), [](const icat::Setting& s) { return s.name == "ICAT_BLOB_DIR"; });
  BOOST_TEST_REQUIRE((row != all.end()));
  const icat::Setting& setting = *row;
  {
    ScopedEnv unset(std::string(setting.name), std::nullopt);
    BOOST_TEST(icat::TextSetting(setting.name) == std::string(setting.default_value));
  }
  {
    ScopedEnv set(std::string(setting.name), "/some-value-42");
    BOOST_TEST(icat::TextSetting(setting.name) == "/some-value-42");
  }
  {
    ScopedEnv empty(std::string(setting.name), "");  // empty is unset, as systemd's Environment= gives it
    BOOST_TEST(icat::TextSetting(setting.name) == std::string(setting.default_value));
  }
}

BOOST_AUTO_TEST_CASE(defaults_make_a_valid_configuration) {
  std::vector<std::unique_ptr<ScopedEnv>> cleared;
  for (const icat::Setting& s : icat::AllSettings()) {
    cleared.push_back(std::make_unique<ScopedEnv>(std::string(s.name), std::nullopt));
  }
  icat::Config config = icat::Config::FromEnvironment();
  BOOST_TEST(config.key_prefix == icat::TextSetting("ICAT_KEY_PREFIX"));
  BOOST_TEST(config.redis.port > 0);
  BOOST_TEST(!config.pg_dsn.empty());
}

// One rule for whole numbers, from the table's own range: every default lies in it, and only
// plain digits within it are read (the dispatcher reads its settings the same way).
BOOST_AUTO_TEST_CASE(whole_number_settings_read_plain_digits_within_their_row_s_range) {
  int checked = 0;
  for (const icat::Setting& s : icat::AllSettings()) {
    if (s.type != icat::SettingType::kInt || s.name.ends_with(">")) continue;
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
    BOOST_CHECK_THROW(icat::IntSetting("ICAT_MAX_BODY_BYTES"), icat::SettingError);
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
                          "redis://host:port/0", "redis://:6379/0", "redis://:@host:6379/0", "redis://host:70000/0"}) {
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

// Each type's rule, from its row, stops every program at start with the variable's name.
BOOST_AUTO_TEST_CASE(each_type_refuses_a_value_outside_its_rule) {
  ExpectStartupFailureNaming("ICAT_WEBHOOK_ALLOW_HTTP", "yes");               // bool
  ExpectStartupFailureNaming("ICAT_PG_NO_FSYNC", "true");                     // bool, read only by tools/stack
  ExpectStartupFailureNaming("ICAT_LOG_LEVEL", "verbose");                    // enum
  ExpectStartupFailureNaming("ICAT_LOG_LEVEL", "info,warn");                  // enum: one choice, not a list
  ExpectStartupFailureNaming("ICAT_KEY_PREFIX", "abcdefghi");                 // word: 9 letters
  ExpectStartupFailureNaming("ICAT_BLOB_DIR", "relative/blobs");              // directory
  ExpectStartupFailureNaming("ICAT_TRUSTED_PROXIES", "10.0.0.0/8,proxy");     // cidr list
  ExpectStartupFailureNaming("ICAT_WEBHOOK_ALLOW_PRIVATE_CIDRS", "10.0.0.0/33");
  ExpectStartupFailureNaming("ICAT_WEBHOOK_RETRY_SCHEDULE", "5,,300");        // int list
  ExpectStartupFailureNaming("ICAT_HTTP_PORT", "65536");                      // int, read only by tools/stack
  ExpectStartupFailureNaming("ICAT_WORKERS", "0");
  ExpectStartupFailureNaming("ICAT_PG_DSN", "host=/run dbname");              // libpq's parser
  ExpectStartupFailureNaming("ICAT_PG_ADMIN_DSN", "postgresql://[::1");
  ExpectStartupFailureNaming("ICAT_JWT_SECRET_FILE", "/nonexistent/jwt.secret");  // secret file
}

BOOST_AUTO_TEST_CASE(a_bad_value_s_message_states_the_row_s_rule) {
  ScopedEnv bad("ICAT_LOG_LEVEL", "loud");
  try {
    (void)icat::TextSetting("ICAT_LOG_LEVEL");
    BOOST_ERROR("loud was accepted");
  } catch (const icat::SettingError& e) {
    BOOST_TEST(std::string(e.what()) == "ICAT_LOG_LEVEL must be one of: debug info warn error, not \"loud\"");
  }
}

BOOST_AUTO_TEST_CASE(a_dsn_libpq_cannot_parse_is_refused_without_showing_its_password) {
  for (const char* bad : {"host=/run user=icat_app password=hunter two", "postgresql://icat_app:hunter@[::1"}) {
    ScopedEnv dsn("ICAT_PG_DSN", bad);
    try {
      (void)icat::TextSetting("ICAT_PG_DSN");
      BOOST_ERROR(bad << " was accepted");
    } catch (const icat::SettingError& e) {
      BOOST_TEST(std::string(e.what()).find("ICAT_PG_DSN") == 0u);
      BOOST_TEST(std::string(e.what()).find("hunter") == std::string::npos, e.what());
    }
  }
  ScopedEnv uri("ICAT_PG_DSN", "postgresql://icat_app@db.internal:5432/icat?sslmode=verify-full");
  BOOST_TEST(icat::TextSetting("ICAT_PG_DSN") == "postgresql://icat_app@db.internal:5432/icat?sslmode=verify-full");
}

BOOST_AUTO_TEST_CASE(int_list_reads_whole_numbers_within_the_range_spaces_allowed) {
  {
    ScopedEnv set("ICAT_WEBHOOK_RETRY_SCHEDULE", "1, 2 ,999999");
    BOOST_TEST((icat::IntListSetting("ICAT_WEBHOOK_RETRY_SCHEDULE") == std::vector<int>{1, 2, 999999}));
  }
  for (const char* bad : {"0", "1,", ",1", "1000000", "5;300", "-5", "5 300"}) {
    ScopedEnv set("ICAT_WEBHOOK_RETRY_SCHEDULE", bad);
    BOOST_CHECK_THROW(icat::IntListSetting("ICAT_WEBHOOK_RETRY_SCHEDULE"), icat::SettingError);
  }
  ScopedEnv unset("ICAT_WEBHOOK_RETRY_SCHEDULE", std::nullopt);
  BOOST_TEST(icat::IntListSetting("ICAT_WEBHOOK_RETRY_SCHEDULE").size() == 6u);
}

BOOST_AUTO_TEST_CASE(bool_is_0_or_1_only) {
  {
    ScopedEnv on("ICAT_WEBHOOK_ALLOW_HTTP", "1");
    BOOST_TEST(icat::BoolSetting("ICAT_WEBHOOK_ALLOW_HTTP"));
    BOOST_TEST(icat::Config::FromEnvironment().webhook_policy.allow_http);
  }
  ScopedEnv off("ICAT_WEBHOOK_ALLOW_HTTP", std::nullopt);
  BOOST_TEST(!icat::BoolSetting("ICAT_WEBHOOK_ALLOW_HTTP"));
  BOOST_CHECK_THROW(icat::IntSetting("ICAT_WEBHOOK_ALLOW_HTTP"), std::logic_error);  // read as its type only
}

// ICAT_WORKERS_<GROUP> is one row for every group: each member set in the environment is checked
// by it and listed; an unset one is ICAT_WORKERS.
BOOST_AUTO_TEST_CASE(workers_family_checks_each_group_s_variable_by_the_one_row) {
  ScopedEnv workers("ICAT_WORKERS", "3");
  ScopedEnv auth("ICAT_WORKERS_AUTH", "8");
  ScopedEnv catalog("ICAT_WORKERS_CATALOG", std::nullopt);
  BOOST_TEST(icat::IntSetting("ICAT_WORKERS_AUTH") == 8);
  BOOST_TEST(icat::IntSetting("ICAT_WORKERS_CATALOG") == 3);
  auto values = icat::CheckedSettings();
  auto listed = [&values](const std::string& name) {
    for (const auto& [n, v] : values) {
      if (n == name) return v;
    }
    return std::string("(absent)");
  };
  BOOST_TEST(listed("ICAT_WORKERS_AUTH") == "8");
  BOOST_TEST(listed("ICAT_WORKERS") == "3");
  BOOST_TEST(listed("ICAT_WORKERS_CATALOG") == "(absent)");
  ExpectStartupFailureNaming("ICAT_WORKERS_AUTH", "513");
  ExpectStartupFailureNaming("ICAT_WORKERS_ADMISSION", "two");
  ExpectStartupFailureNaming("ICAT_WORKERS_auth-pool", "2");  // not a name a shell can assign
}

BOOST_AUTO_TEST_CASE(checked_settings_list_every_row_and_a_secret_file_s_path_not_its_contents) {
  std::string path = "/tmp/icat-config-test-jwt-secret";
  std::string secret(40, 'k');
  std::ofstream(path) << secret << "\n";
  ScopedEnv file("ICAT_JWT_SECRET_FILE", path);
  auto values = icat::CheckedSettings();
  size_t rows = 0;
  for (const icat::Setting& s : icat::AllSettings()) rows += s.name.ends_with(">") ? 0 : 1;
  BOOST_TEST(values.size() >= rows);
  bool found = false;
  for (const auto& [name, value] : values) {
    BOOST_TEST(value.find(secret) == std::string::npos, name << " shows the secret");
    if (name == "ICAT_JWT_SECRET_FILE") found = value == path;
  }
  BOOST_TEST(found);
  BOOST_TEST(icat::Config::FromEnvironment().jwt_secret == secret);
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_CASE(a_rediss_url_means_tls_with_the_ca_file_of_its_setting) {
  ScopedEnv url("ICAT_REDIS_URL", "rediss://:pw@cache.internal:6380/0");
  ScopedEnv ca("ICAT_REDIS_TLS_CA_FILE", "/etc/icat/redis-ca.pem");
  icat::Config config = icat::Config::FromEnvironment();
  BOOST_TEST(config.redis.tls);
  BOOST_TEST(config.redis.host == "cache.internal");
  BOOST_TEST(config.redis.port == 6380);
  BOOST_TEST(config.redis.tls_ca_file == "/etc/icat/redis-ca.pem");
}

BOOST_AUTO_TEST_SUITE_END()
