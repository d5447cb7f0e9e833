// The catalog group's pure reply shapes.
#include <boost/test/unit_test.hpp>
#include <rapidjson/document.h>

#include "icat/json.hpp"
#include "../../handlers/catalog/catalog.hpp"

using icat::catalog::ImageView;
using icat::catalog::VersionView;

namespace {
VersionView SampleVersion(std::string tag, long long critical) {
  VersionView v;
  v.id = "7f1d2c3b-0000-4000-8000-00000000000" + std::string(tag == "1.0" ? "1" : "2");
  v.tag = std::move(tag);
  v.digest = "sha256:" + std::string(64, 'a');
  v.published_at = "2026-01-02T03:04:05Z";
  v.size_bytes = 1234;
  v.hardening_tags = {"fips", "non-root"};
  v.counts.by_severity[0] = critical;
  v.counts.vex_excluded = critical * 10;
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_shapes)

BOOST_AUTO_TEST_CASE(list_has_images_array_latest_version_and_cursor) {
  ImageView image{"id-1", "nginx", "web server", "registry.example.test/hardened/nginx", std::string("Debian 12"),
                  SampleVersion("1.0", 0)};
  ImageView bare{"id-2", "zlib", "", "registry.example.test/hardened/zlib", std::nullopt, std::nullopt};
  auto d = icat::ParseJson(icat::catalog::ImageListJson({image, bare}, std::string("abc")));
  BOOST_TEST(d["images"].Size() == 2u);
  BOOST_TEST(d["images"][0]["name"].GetString() == std::string("nginx"));
  BOOST_TEST(d["images"][0]["latestVersion"]["tag"].GetString() == std::string("1.0"));
  BOOST_TEST(d["images"][0]["latestVersion"]["sizeBytes"].GetInt64() == 1234);
  BOOST_TEST(d["images"][0]["latestVersion"]["hardeningTags"].Size() == 2u);
  BOOST_TEST(d["images"][1]["latestVersion"].IsNull());
  BOOST_TEST(d["images"][1]["baseOs"].IsNull());
  BOOST_TEST(d["nextCursor"].GetString() == std::string("abc"));
}

BOOST_AUTO_TEST_CASE(last_page_has_null_cursor) {
  auto d = icat::ParseJson(icat::catalog::ImageListJson({}, std::nullopt));
  BOOST_TEST(d["images"].Size() == 0u);
  BOOST_TEST(d["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_CASE(detail_counts_come_from_the_latest_version) {
  ImageView image{"id-1", "nginx", "", "r/nginx", std::string("Debian 12"), SampleVersion("2.0", 3)};
  auto d = icat::ParseJson(icat::catalog::ImageDetailJson(image, {SampleVersion("2.0", 3), SampleVersion("1.0", 7)}));
  BOOST_TEST(d["vulnerabilityCounts"]["critical"].GetInt64() == 3);
  BOOST_TEST(d["vulnerabilityCounts"]["unknown"].GetInt64() == 0);
  BOOST_TEST(d["vexExcludedCount"].GetInt64() == 30);  // beside the counts it left out of
  BOOST_TEST(d["sizeBytes"].GetInt64() == 1234);
  BOOST_TEST(d["baseOs"].GetString() == std::string("Debian 12"));
  BOOST_TEST(d["versions"].Size() == 2u);
  BOOST_TEST(d["versions"][1]["vulnerabilityCounts"]["critical"].GetInt64() == 7);
  BOOST_TEST(d["versions"][1]["vexExcludedCount"].GetInt64() == 70);
}

BOOST_AUTO_TEST_CASE(detail_without_versions_has_zero_counts_and_null_size) {
  ImageView image{"id-1", "nginx", "", "r/nginx", std::nullopt, std::nullopt};
  auto d = icat::ParseJson(icat::catalog::ImageDetailJson(image, {}));
  for (const char* severity : {"critical", "high", "medium", "low", "unknown"}) {
    BOOST_TEST(d["vulnerabilityCounts"][severity].GetInt64() == 0);
  }
  BOOST_TEST(d["sizeBytes"].IsNull());
  BOOST_TEST(d["latestVersion"].IsNull());
}

BOOST_AUTO_TEST_CASE(every_version_says_whether_it_was_scanned_and_when) {
  VersionView scanned = SampleVersion("2.0", 3);
  scanned.last_scanned_at = "2026-01-03T00:00:00Z";
  VersionView unscanned = SampleVersion("1.0", 0);
  ImageView image{"id-1", "nginx", "", "r/nginx", std::nullopt, unscanned};
  auto list = icat::ParseJson(icat::catalog::ImageListJson({image}, std::nullopt));
  BOOST_TEST(list["images"][0]["latestVersion"]["scanStatus"].GetString() == std::string("unscanned"));
  BOOST_TEST(list["images"][0]["latestVersion"]["lastScannedAt"].IsNull());
  auto d = icat::ParseJson(icat::catalog::ImageDetailJson(image, {unscanned, scanned}));
  BOOST_TEST(d["scanStatus"].GetString() == std::string("unscanned"));
  BOOST_TEST(d["lastScannedAt"].IsNull());
  BOOST_TEST(d["vulnerabilityCounts"]["critical"].GetInt64() == 0);  // a count, as SPEC.md types it
  BOOST_TEST(d["latestVersion"]["scanStatus"].GetString() == std::string("unscanned"));
  BOOST_TEST(d["versions"][0]["scanStatus"].GetString() == std::string("unscanned"));
  BOOST_TEST(d["versions"][1]["scanStatus"].GetString() == std::string("scanned"));
  BOOST_TEST(d["versions"][1]["lastScannedAt"].GetString() == std::string("2026-01-03T00:00:00Z"));
  ImageView no_versions{"id-2", "zlib", "", "r/zlib", std::nullopt, std::nullopt};
  auto bare = icat::ParseJson(icat::catalog::ImageDetailJson(no_versions, {}));
  BOOST_TEST(bare["scanStatus"].GetString() == std::string("unscanned"));
}

// The tenant's pulls (docs/registry.md, "Pull counts") on every version of the detail, latestVersion
// taking its entry's; a list's latestVersion has none.
BOOST_AUTO_TEST_CASE(detail_versions_show_the_tenant_s_pulls_and_latest_takes_its_entry_s) {
  VersionView latest = SampleVersion("2.0", 0), older = SampleVersion("1.0", 0);
  latest.pulls = icat::catalog::VersionPulls{12, std::string("2026-11-27T10:00:00Z")};
  older.pulls = icat::catalog::VersionPulls{};
  ImageView image{"id-1", "nginx", "", "r/nginx", std::nullopt, SampleVersion("2.0", 0)};  // as get_image reads it
  auto d = icat::ParseJson(icat::catalog::ImageDetailJson(image, {latest, older}));
  BOOST_TEST(d["latestVersion"]["pullCount"].GetInt64() == 12);
  BOOST_TEST(d["latestVersion"]["lastPulledAt"].GetString() == std::string("2026-11-27T10:00:00Z"));
  BOOST_TEST(d["versions"][0]["pullCount"].GetInt64() == 12);
  BOOST_TEST(d["versions"][1]["pullCount"].GetInt64() == 0);
  BOOST_TEST(d["versions"][1]["lastPulledAt"].IsNull());
  auto list = icat::ParseJson(icat::catalog::ImageListJson({image}, std::nullopt));
  BOOST_TEST(!list["images"][0]["latestVersion"].HasMember("pullCount"));
}

BOOST_AUTO_TEST_SUITE_END()
