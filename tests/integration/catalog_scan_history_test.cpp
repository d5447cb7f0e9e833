// The scan history of a version (handlers/catalog, GET /api/docker-images/{id}/versions/{vid}/scan-history):
// one point per scan, oldest first, time filters and pages.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kNginxGrype, it::kNginxTrivy;
using it::ScanNewImage;
using Scanned = it::ScannedImage;

}  // namespace

// The suite's other cases: vulns_test.cpp.
BOOST_AUTO_TEST_SUITE(scans_api)

BOOST_AUTO_TEST_CASE(scan_history_has_one_point_per_scan_oldest_first_with_time_filters_and_pages) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "history", kNginxTrivy, "1.0", "2022-07-01T17:00:00Z");
  std::string digest = *it::PgQuery("SELECT digest FROM image_versions WHERE id = $1", {s.version_id}).at(0).at(0);
  std::string grype = it::Fixture(kNginxGrype);
  it::IngestOk({s.image.name,
                "1.0",
                digest,
                grype,
                dir.Write("g.spdx.json", it::MinimalSpdx(grype, "2022-07-03T00:00:00Z")),
                std::nullopt,
                std::nullopt,
                std::nullopt,
                {}});
  // A back-filled older scan lands in the middle of the series, and does not become the latest.
  std::string nginx_trivy = it::Fixture(kNginxTrivy);
  it::IngestOk({s.image.name,
                "1.0",
                digest,
                nginx_trivy,
                std::nullopt,
                dir.Write("mid.cdx.json", it::MinimalCycloneDx(nginx_trivy, "2022-07-02T00:00:00Z")),
                std::nullopt,
                std::nullopt,
                {}});

  it::Headers portal = it::PortalHeaders(tenant, "viewer");
  std::string url = it::PortalVersionPath(s.image.id, s.version_id) + "/scan-history";
  rapidjson::Document history = it::ExpectJson200(it::Get(url, portal));
  BOOST_TEST(it::StringMember(history["image"], "id") == s.image.id);
  BOOST_TEST(it::StringMember(history["version"], "tag") == "1.0");
  BOOST_TEST_REQUIRE(history["points"].Size() == 3u);
  const rapidjson::Value& points = history["points"];
  BOOST_TEST(it::StringMember(points[0], "scannedAt") == "2022-07-01T17:00:00Z");
  BOOST_TEST(it::StringMember(points[1], "scannedAt") == "2022-07-02T00:00:00Z");
  BOOST_TEST(it::StringMember(points[2], "scannedAt") == "2022-07-03T00:00:00Z");
  BOOST_TEST(it::StringMember(points[0], "scanner") == "trivy");
  BOOST_TEST(it::StringMember(points[2], "scanner") == "grype");
  BOOST_TEST(it::StringMember(points[2], "scannerVersion") == "0.38.0");
  BOOST_TEST(it::StringMember(points[2], "vulnDbUpdatedAt") == "2022-07-01T08:16:25Z");
  it::DerivedCounts trivy_counts = it::DeriveCounts(it::DeriveFindings(nginx_trivy));
  it::DerivedCounts grype_counts = it::DeriveCounts(it::DeriveFindings(grype));
  for (const auto& [severity, count] : trivy_counts.vulnerabilities) {
    BOOST_TEST(it::IntMember(points[0]["vulnerabilityCounts"], severity.c_str()) == count);
  }
  for (const auto& [severity, count] : grype_counts.vulnerabilities) {
    BOOST_TEST(it::IntMember(points[2]["vulnerabilityCounts"], severity.c_str()) == count);
  }
  BOOST_TEST(it::IntMember(points[0], "fixableCount") == trivy_counts.fixable);
  BOOST_TEST(it::IntMember(points[2], "fixableCount") == grype_counts.fixable);
  // The latest scan is the newest by scan time (grype), whatever the ingest order.
  rapidjson::Document listing =
      it::ExpectJson200(it::Get(it::PortalVersionPath(s.image.id, s.version_id) + "/vulnerabilities?limit=1", portal));
  BOOST_TEST(it::StringMember(listing["scan"], "scanner") == "grype");

  // from is inclusive, to exclusive.
  rapidjson::Document window =
      it::ExpectJson200(it::Get(url + "?from=2022-07-02T00:00:00Z&to=2022-07-03T00:00:00Z", portal));
  BOOST_TEST_REQUIRE(window["points"].Size() == 1u);
  BOOST_TEST(it::StringMember(window["points"][0], "scannedAt") == "2022-07-02T00:00:00Z");
  rapidjson::Document offset = it::ExpectJson200(it::Get(url + "?from=2022-07-02T01:00:00%2B02:00", portal));
  BOOST_TEST(offset["points"].Size() == 2u);
  // Pages of one.
  std::vector<std::string> times;
  std::optional<std::string> cursor;
  do {
    rapidjson::Document page =
        it::ExpectJson200(it::Get(url + "?limit=1" + (cursor ? "&cursor=" + *cursor : ""), portal));
    for (const rapidjson::Value& p : page["points"].GetArray()) times.push_back(it::StringMember(p, "scannedAt"));
    cursor.reset();
    if (page["nextCursor"].IsString()) cursor = page["nextCursor"].GetString();
    BOOST_TEST_REQUIRE(times.size() < 10u);
  } while (cursor);
  BOOST_TEST(
      (times == std::vector<std::string>{"2022-07-01T17:00:00Z", "2022-07-02T00:00:00Z", "2022-07-03T00:00:00Z"}));
  for (const auto& [query, field] : {std::pair{"from=yesterday", "from"}, std::pair{"to=2022-02-30T00:00:00Z", "to"},
                                     std::pair{"from=2022-07-03T00:00:00Z&to=2022-07-01T00:00:00Z", "to"},
                                     std::pair{"limit=201", "limit"}, std::pair{"cursor=AAAA", "cursor"}}) {
    BOOST_TEST_CONTEXT(query) {
      it::Response r = it::Get(url + "?" + query, portal);
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{field}));
    }
  }
  // The portal needs its token: none and another tenant's are 401.
  it::ExpectError(it::Get(url), 401, "UNAUTHENTICATED");
  it::Tenant other;
  it::Headers wrong = it::PortalHeaders(other);
  wrong[1].second = tenant.subdomain();
  it::ExpectError(it::Get(url, wrong), 401, "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_SUITE_END()
