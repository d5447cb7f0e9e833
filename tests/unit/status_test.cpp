// The status reply's shape, the pool addresses, and the pool list held to handlers/*/.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "../../handlers/status/pools.hpp"
#include "../../handlers/status/status.hpp"
#include "icat/fastcgi_client.hpp"
#include "icat/json.hpp"

using icat::status::Health;

namespace {

Health AllOk() {
  Health h;
  h.postgres = h.redis = true;
  h.pools = {{"catalog", true}, {"sbom", true}};
  h.dispatcher = "ok";
  return h;
}

std::string StatusOf(const Health& h) {
  return icat::ParseJson(icat::status::StatusJson(h))["status"].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(status)

BOOST_AUTO_TEST_CASE(status_is_ok_only_when_every_check_is_ok) {
  auto ok = icat::ParseJson(icat::status::StatusJson(AllOk()));
  BOOST_TEST(ok["status"].GetString() == std::string("ok"));
  BOOST_TEST(!ok.HasMember("error"));
  BOOST_TEST(ok["checks"]["pools"]["sbom"].GetString() == std::string("ok"));
  BOOST_TEST(ok["checks"]["dispatcher"].GetString() == std::string("ok"));
}

BOOST_AUTO_TEST_CASE(status_is_degraded_without_redis_a_pool_or_a_fresh_dispatcher) {
  Health no_redis = AllOk();
  no_redis.redis = false;
  auto degraded = icat::ParseJson(icat::status::StatusJson(no_redis));
  BOOST_TEST(degraded["status"].GetString() == std::string("degraded"));
  BOOST_TEST(degraded["checks"]["redis"].GetString() == std::string("unavailable"));

  Health dead_pool = AllOk();
  dead_pool.pools[1].second = false;
  auto named = icat::ParseJson(icat::status::StatusJson(dead_pool));
  BOOST_TEST(named["status"].GetString() == std::string("degraded"));
  BOOST_TEST(named["checks"]["pools"]["sbom"].GetString() == std::string("down"));
  BOOST_TEST(named["checks"]["pools"]["catalog"].GetString() == std::string("ok"));

  for (const char* dispatcher : {"down", "stale"}) {
    Health h = AllOk();
    h.dispatcher = dispatcher;
    BOOST_TEST(StatusOf(h) == "degraded");
  }
}

BOOST_AUTO_TEST_CASE(status_is_unavailable_without_postgres) {
  Health h = AllOk();
  h.postgres = false;
  h.dispatcher = "unknown";
  auto down = icat::ParseJson(icat::status::StatusJson(h));
  BOOST_TEST(down["status"].GetString() == std::string("unavailable"));
  BOOST_TEST(down["error"].GetString() == std::string("DATABASE_UNAVAILABLE"));
  BOOST_TEST(down["checks"]["postgres"].GetString() == std::string("unavailable"));
  BOOST_TEST(down["checks"]["dispatcher"].GetString() == std::string("unknown"));
}

BOOST_AUTO_TEST_CASE(pool_address_names_each_group_as_unix_socket_or_host_and_port) {
  using icat::ParseFastCgiAddress;
  using icat::status::PoolAddress;
  BOOST_TEST(PoolAddress("unix:/run/icat/{group}.sock", "sbom") == "unix:/run/icat/sbom.sock");
  BOOST_TEST(PoolAddress("icat-{group}:9000", "auth") == "icat-auth:9000");
  BOOST_TEST(ParseFastCgiAddress("unix:/run/icat/sbom.sock")->path == "/run/icat/sbom.sock");
  auto tcp = ParseFastCgiAddress("icat-auth:9000");
  BOOST_TEST_REQUIRE(tcp.has_value());
  BOOST_TEST(tcp->host == "icat-auth");
  BOOST_TEST(tcp->port == "9000");
  BOOST_TEST(ParseFastCgiAddress("[::1]:9000")->host == "::1");
  for (const char* bad : {"unix:relative.sock", "icat-auth", "icat-auth:", "icat-auth:99999", ":9000", "unix:"}) {
    BOOST_TEST(!ParseFastCgiAddress(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_CASE(pool_address_setting_without_group_or_form_is_refused) {
  using icat::status::PoolAddressProblem;
  BOOST_TEST(!PoolAddressProblem("unix:/run/icat/{group}.sock").has_value());
  BOOST_TEST(!PoolAddressProblem("icat-{group}:9000").has_value());
  BOOST_TEST(PoolAddressProblem("unix:/run/icat/catalog.sock").has_value());
  BOOST_TEST(PoolAddressProblem("/run/icat/{group}.sock").has_value());
}

BOOST_AUTO_TEST_CASE(pool_groups_are_the_folders_of_handlers) {
  const char* repo = std::getenv("ICAT_REPO");
  std::filesystem::path handlers = std::filesystem::path(repo && *repo ? repo : ".") / "handlers";
  std::vector<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator(handlers)) {
    if (std::filesystem::exists(entry.path() / "main.cpp")) folders.push_back(entry.path().filename().string());
  }
  std::sort(folders.begin(), folders.end());
  BOOST_TEST_REQUIRE(!folders.empty(), "no handlers/*/main.cpp under " << handlers);
  BOOST_TEST(folders == icat::status::kPoolGroups, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
