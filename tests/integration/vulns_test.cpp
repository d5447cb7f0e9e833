// The vulnerability endpoints over ingested scans (handlers/vulns): the list (filters, pages,
// severity sources), the CVE look-up, and who may see the scan endpoints (licences: 404 alike;
// scopes: 403 INSUFFICIENT_SCOPE). SBOM downloads: sbom_downloads_test.cpp; the scan history:
// catalog_scan_history_test.cpp.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/test/unit_test.hpp>
#include <map>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kUnknownId, it::kAllReads, it::kAlpine310, it::kNginxGrype, it::kNginxTrivy, it::kMinecraftGrype;
using it::MessageOf, it::ScanNewImage;
using Scanned = it::ScannedImage;

constexpr const char* kDebianBuster = "scans/trivy-integration-v0.50.0/debian-buster.trivy-image-scan.json";

// The finding of `id` in `package` on a page of a vulnerability listing.
const rapidjson::Value& ListedFinding(const rapidjson::Document& page, const std::string& id,
                                      const std::string& package) {
  for (const rapidjson::Value& v : page["vulnerabilities"].GetArray()) {
    if (it::StringMember(v, "id") == id && it::StringMember(v["package"], "name") == package) return v;
  }
  BOOST_FAIL("the listing has no " << id << " in " << package);
  return page;
}

std::string CompactJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  value.Accept(w);
  return buffer.GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scans_api)

BOOST_AUTO_TEST_CASE(a_tenant_without_a_licence_gets_404_on_every_scan_endpoint) {
  it::Tenant owner, stranger;
  it::TempDir dir;
  Scanned s = ScanNewImage(owner, dir, "unlicensed", kNginxGrype);
  std::string key = stranger.CreateKey(kAllReads);
  it::Headers portal = it::PortalHeaders(stranger);
  for (const std::string& path :
       {"/v1/images/" + s.image.id + "/sbom", "/v1/images/" + s.image.id + "/sbom?format=spdx",
        "/v1/images/" + s.image.id + "/vulnerabilities"}) {
    BOOST_TEST_CONTEXT(path) { it::ExpectError(it::Get(path, it::Bearer(key)), 404, "NOT_FOUND"); }
  }
  for (const char* suffix : {"/sbom/spdx", "/sbom/cyclonedx", "/vulnerabilities", "/scan-history"}) {
    BOOST_TEST_CONTEXT(suffix) {
      it::ExpectError(it::Get(it::PortalVersionPath(s.image.id, s.version_id) + suffix, portal), 404, "NOT_FOUND");
    }
  }
  // Unlicensed looks exactly like unknown.
  it::Response unlicensed = it::Get("/v1/images/" + s.image.id + "/sbom", it::Bearer(key));
  it::Response unknown = it::Get("/v1/images/" + kUnknownId + "/sbom", it::Bearer(key));
  BOOST_TEST(MessageOf(unlicensed) == MessageOf(unknown));
  // The CVE look-up does not reveal it either; the owner sees it.
  std::string cve = it::DeriveFindings(it::Fixture(kNginxGrype)).front().id;
  rapidjson::Document none = it::ExpectJson200(it::Get("/v1/cve/" + cve, it::Bearer(key)));
  BOOST_TEST(none["images"].Size() == 0u);
  rapidjson::Document none_portal = it::ExpectJson200(it::Get("/api/cve/" + cve, portal));
  BOOST_TEST(none_portal["images"].Size() == 0u);
  rapidjson::Document mine = it::ExpectJson200(it::Get("/v1/cve/" + cve, it::Bearer(owner.CreateKey(kAllReads))));
  BOOST_TEST(mine["images"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(keys_without_read_sbom_or_read_vulns_get_403_insufficient_scope) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "scopes", kAlpine310);
  std::string catalog_only = tenant.CreateKey("read:catalog");
  std::string vulns_only = tenant.CreateKey("read:vulns");
  std::string sbom_only = tenant.CreateKey("read:sbom");
  struct Case {
    std::string path, key, scope;
  };
  for (const Case& c : std::vector<Case>{{"/v1/images/" + s.image.id + "/sbom", catalog_only, "read:sbom"},
                                         {"/v1/images/" + s.image.id + "/sbom?format=spdx", vulns_only, "read:sbom"},
                                         {"/v1/images/" + s.image.id + "/vulnerabilities", catalog_only, "read:vulns"},
                                         {"/v1/images/" + s.image.id + "/vulnerabilities", sbom_only, "read:vulns"},
                                         {"/v1/cve/CVE-2021-44228", sbom_only, "read:vulns"}}) {
    BOOST_TEST_CONTEXT(c.path << " with a key lacking " << c.scope) {
      it::Response r = it::Get(c.path, it::Bearer(c.key));
      it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
      BOOST_TEST(r.Header("www-authenticate") == "Bearer error=\"insufficient_scope\", scope=\"" + c.scope + "\"");
    }
  }
  BOOST_TEST(it::Get("/v1/images/" + s.image.id + "/sbom", it::Bearer(sbom_only)).status == 200);
  BOOST_TEST(it::Get("/v1/images/" + s.image.id + "/vulnerabilities", it::Bearer(vulns_only)).status == 200);
}

BOOST_AUTO_TEST_CASE(vulnerabilities_filter_by_severity_and_fix_state_and_page_through_every_finding) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "filters", kNginxGrype);
  std::string key = tenant.CreateKey(kAllReads);
  std::string base = "/v1/images/" + s.image.id + "/vulnerabilities";
  std::vector<it::ExpectedFinding> all = it::DeriveFindings(it::Fixture(kNginxGrype));

  auto count_where = [&](const std::set<std::string>& severities, const std::set<std::string>& states) {
    return std::count_if(all.begin(), all.end(), [&](const it::ExpectedFinding& f) {
      return (severities.empty() || severities.count(f.severity)) && (states.empty() || states.count(f.fix_state));
    });
  };
  struct Filter {
    std::string query;
    std::set<std::string> severities, states;
  };
  for (const Filter& f :
       std::vector<Filter>{{"severity=critical", {"critical"}, {}},
                           {"severity=critical,high", {"critical", "high"}, {}},
                           {"fixState=wont-fix", {}, {"wont-fix"}},
                           {"fixState=fixed,not-fixed&severity=low", {"low"}, {"fixed", "not-fixed"}}}) {
    BOOST_TEST_CONTEXT(f.query) {
      rapidjson::Document page = it::ExpectJson200(it::Get(base + "?limit=200&" + f.query, it::Bearer(key)));
      BOOST_TEST(page["vulnerabilities"].Size() == static_cast<size_t>(count_where(f.severities, f.states)));
      for (const rapidjson::Value& v : page["vulnerabilities"].GetArray()) {
        if (!f.severities.empty()) BOOST_TEST(f.severities.count(it::StringMember(v, "severity")) == 1u);
        if (!f.states.empty()) BOOST_TEST(f.states.count(it::StringMember(v, "fixState")) == 1u);
      }
      // The counts describe the whole scan, whatever the filter.
      BOOST_TEST(it::IntMember(page["findingCounts"], "low") == count_where({"low"}, {}));
    }
  }
  for (const auto& [query, field] : {std::pair{"severity=severe", "severity"}, std::pair{"severity=", "severity"},
                                     std::pair{"fixState=patched", "fixState"}, std::pair{"limit=0", "limit"},
                                     std::pair{"cursor=bogus", "cursor"}}) {
    BOOST_TEST_CONTEXT(query) {
      it::Response r = it::Get(base + "?" + query, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{field}));
    }
  }
  // Pages of 7 walk every finding once, critical first.
  std::vector<std::string> seen;
  std::optional<std::string> cursor;
  std::string previous_severity = "critical";
  const std::vector<std::string> order = {"critical", "high", "medium", "low", "unknown"};
  int pages = 0;
  do {
    rapidjson::Document page =
        it::ExpectJson200(it::Get(base + "?limit=7" + (cursor ? "&cursor=" + *cursor : ""), it::Bearer(key)));
    for (const rapidjson::Value& v : page["vulnerabilities"].GetArray()) {
      std::string severity = it::StringMember(v, "severity");
      bool ordered =
          std::find(order.begin(), order.end(), severity) >= std::find(order.begin(), order.end(), previous_severity);
      BOOST_TEST(ordered, severity << " after " << previous_severity);
      previous_severity = severity;
      seen.push_back(it::StringMember(v, "id") + " " + it::StringMember(v["package"], "name"));
    }
    cursor.reset();
    if (page["nextCursor"].IsString()) cursor = page["nextCursor"].GetString();
    BOOST_TEST_REQUIRE(++pages < 100);
  } while (cursor);
  BOOST_TEST(seen.size() == all.size());
  BOOST_TEST(std::set<std::string>(seen.begin(), seen.end()).size() == all.size());

  // A cursor of the version's previous scan does not continue into the new one.
  rapidjson::Document first = it::ExpectJson200(it::Get(base + "?limit=5", it::Bearer(key)));
  std::string old_cursor = first["nextCursor"].GetString();
  std::string report = it::Fixture(kNginxTrivy);
  it::IngestOk({s.image.name,
                "1.0",
                *it::PgQuery("SELECT digest FROM image_versions WHERE id = $1", {s.version_id}).at(0).at(0),
                report,
                std::nullopt,
                dir.Write("later.cdx.json", it::MinimalCycloneDx(report, "2022-07-02T00:00:00Z")),
                std::nullopt,
                std::nullopt,
                {}});
  it::Response stale = it::Get(base + "?limit=5&cursor=" + old_cursor, it::Bearer(key));
  it::ExpectError(stale, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(stale) == std::vector<std::string>{"cursor"}));

  // The portal lists the same per version.
  rapidjson::Document portal = it::ExpectJson200(
      it::Get(it::PortalVersionPath(s.image.id, s.version_id) + "/vulnerabilities?limit=200&severity=critical",
              it::PortalHeaders(tenant)));
  BOOST_TEST(it::StringMember(portal["scan"], "scanner") == "trivy");
}

BOOST_AUTO_TEST_CASE(every_listing_gives_each_finding_its_severity_sources_and_the_source_ranked_by) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "sources", kDebianBuster);
  std::string key = tenant.CreateKey(kAllReads);
  std::string image = "/v1/images/" + s.image.id;
  for (const auto& [url, headers] : std::vector<std::pair<std::string, it::Headers>>{
           {image + "/vulnerabilities", it::Bearer(key)},
           {image + "/versions/1.0/vulnerabilities", it::Bearer(key)},
           {image + "/versions/" + s.version_id + "/vulnerabilities", it::Bearer(key)},
           {it::PortalVersionPath(s.image.id, s.version_id) + "/vulnerabilities", it::PortalHeaders(tenant)}}) {
    BOOST_TEST_CONTEXT(url) {
      rapidjson::Document page = it::ExpectJson200(it::Get(url, headers));
      // Trivy's SeveritySource is nvd: its rating comes first and gives severity and score.
      const rapidjson::Value& libidn = ListedFinding(page, "CVE-2019-18224", "libidn2-0");
      BOOST_TEST(it::StringMember(libidn, "severitySource") == "nvd");
      BOOST_TEST(it::StringMember(libidn, "severity") == "critical");
      BOOST_TEST_REQUIRE(libidn["cvssScore"].IsNumber());
      BOOST_TEST(libidn["cvssScore"].GetDouble() == 9.8);
      BOOST_TEST(CompactJson(libidn["severitySources"]) ==
                 R"([{"source":"nvd","severity":"critical","cvssVersion":"3.1",)"
                 R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8},)"
                 R"({"source":"amazon","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
                 R"({"source":"redhat","severity":"medium","cvssVersion":"3.0",)"
                 R"("cvssVector":"CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L","cvssScore":5.6},)"
                 R"({"source":"ubuntu","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null}])");
      // Ranked by Debian, which gives no CVSS: the score is NVD's 7.8.
      const rapidjson::Value& bash = ListedFinding(page, "CVE-2019-18276", "bash");
      BOOST_TEST(it::StringMember(bash, "severitySource") == "debian");
      BOOST_TEST(it::StringMember(bash, "severity") == "low");
      BOOST_TEST_REQUIRE(bash["cvssScore"].IsNumber());
      BOOST_TEST(bash["cvssScore"].GetDouble() == 7.8);
      const rapidjson::Value& sources = bash["severitySources"];
      BOOST_TEST_REQUIRE(sources.Size() == 7u);
      BOOST_TEST(CompactJson(sources[0]) ==
                 R"({"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null})");
      BOOST_TEST(CompactJson(sources[2]) ==
                 R"({"source":"nvd","severity":"high","cvssVersion":"3.1",)"
                 R"("cvssVector":"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H","cvssScore":7.8})");
    }
  }
}

BOOST_AUTO_TEST_CASE(grype_findings_rank_by_the_matched_record_and_findings_stored_before_list_no_sources) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "grype-sources", kNginxGrype);
  std::string key = tenant.CreateKey(kAllReads);
  std::string url = it::PortalVersionPath(s.image.id, s.version_id) + "/vulnerabilities?limit=200";
  // The matched record is Debian's (Negligible, no CVSS); the related NVD record gives 2.0 and 3.1.
  const std::string expected =
      R"([{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
      R"({"source":"nvd","severity":"high","cvssVersion":"3.1",)"
      R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N","cvssScore":7.5}])";
  for (const auto& [listing, headers] : std::vector<std::pair<std::string, it::Headers>>{
           {url, it::PortalHeaders(tenant)},
           {"/v1/images/" + s.image.id + "/vulnerabilities?limit=200", it::Bearer(key)}}) {
    BOOST_TEST_CONTEXT(listing) {
      rapidjson::Document page = it::ExpectJson200(it::Get(listing, headers));
      const rapidjson::Value& perl = ListedFinding(page, "CVE-2011-4116", "perl-base");
      BOOST_TEST(it::StringMember(perl, "severitySource") == "debian");
      BOOST_TEST(it::StringMember(perl, "severity") == "low");
      BOOST_TEST_REQUIRE(perl["cvssScore"].IsNumber());
      BOOST_TEST(perl["cvssScore"].GetDouble() == 7.5);  // the related NVD record's
      BOOST_TEST(CompactJson(perl["severitySources"]) == expected);
    }
  }
  // A finding stored before V0016 holds the columns' defaults: no sources, none ranked by, the rest as it was.
  it::PgQuery(
      "UPDATE vulnerabilities SET severity_sources = DEFAULT, severity_source = DEFAULT "
      "WHERE set_id = (SELECT latest_findings_set_id FROM image_versions WHERE id = $1) "
      "AND vuln_id = 'CVE-2011-4116' AND package_name = 'perl-base'",
      {s.version_id});
  rapidjson::Document page = it::ExpectJson200(it::Get(url, it::PortalHeaders(tenant)));
  const rapidjson::Value& perl = ListedFinding(page, "CVE-2011-4116", "perl-base");
  BOOST_TEST(CompactJson(perl["severitySources"]) == "[]");
  BOOST_TEST(perl["severitySource"].IsNull());
  BOOST_TEST(it::StringMember(perl, "severity") == "low");
}

BOOST_AUTO_TEST_CASE(vulnerabilities_are_404_before_any_cursor_check_and_keep_the_scan_when_no_finding_matches) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "onetrip", kAlpine310);
  it::Image unscanned = tenant.AddImage("unscanned", {{"2.0"}});
  std::string key = tenant.CreateKey(kAllReads);
  std::string base = "/v1/images/" + s.image.id + "/vulnerabilities";
  std::vector<it::ExpectedFinding> all = it::DeriveFindings(it::Fixture(kAlpine310));
  BOOST_TEST_REQUIRE(all.size() >= 2u);
  auto last = static_cast<rapidjson::SizeType>(all.size() - 1);

  // An unknown image or version is a 404 whatever the cursor.
  it::ExpectError(it::Get("/v1/images/" + kUnknownId + "/vulnerabilities?cursor=bogus", it::Bearer(key)), 404,
                  "NOT_FOUND");
  it::ExpectError(
      it::Get("/api/docker-images/" + s.image.id + "/versions/" + kUnknownId + "/vulnerabilities?cursor=bogus",
              it::PortalHeaders(tenant)),
      404, "NOT_FOUND");

  // A page exactly as long as the list ends it; one finding shorter leaves a cursor to the last one.
  rapidjson::Document whole =
      it::ExpectJson200(it::Get(base + "?limit=" + std::to_string(all.size()), it::Bearer(key)));
  BOOST_TEST(whole["vulnerabilities"].Size() == all.size());
  BOOST_TEST(whole["nextCursor"].IsNull());
  rapidjson::Document head = it::ExpectJson200(it::Get(base + "?limit=" + std::to_string(last), it::Bearer(key)));
  BOOST_TEST_REQUIRE(head["nextCursor"].IsString());
  std::string cursor = head["nextCursor"].GetString();
  rapidjson::Document tail = it::ExpectJson200(it::Get(base + "?cursor=" + cursor, it::Bearer(key)));
  BOOST_TEST_REQUIRE(tail["vulnerabilities"].Size() == 1u);
  BOOST_TEST(it::StringMember(tail["vulnerabilities"][0], "id") ==
             it::StringMember(whole["vulnerabilities"][last], "id"));
  BOOST_TEST(tail["nextCursor"].IsNull());

  // The cursor belongs to that scan: on a version without one it is a 400 naming the cursor.
  it::Response elsewhere = it::Get("/v1/images/" + unscanned.id + "/vulnerabilities?cursor=" + cursor, it::Bearer(key));
  it::ExpectError(elsewhere, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(elsewhere) == std::vector<std::string>{"cursor"}));

  // A filter that matches nothing still names the scan and its counts.
  BOOST_TEST_REQUIRE(
      std::none_of(all.begin(), all.end(), [](const it::ExpectedFinding& f) { return f.fix_state == "not-affected"; }));
  rapidjson::Document none = it::ExpectJson200(it::Get(base + "?fixState=not-affected", it::Bearer(key)));
  BOOST_TEST(none["vulnerabilities"].Size() == 0u);
  BOOST_TEST(none["nextCursor"].IsNull());
  BOOST_TEST(it::StringMember(none["scan"], "id") == it::StringMember(whole["scan"], "id"));
  BOOST_TEST(it::StringMember(none["version"], "id") == s.version_id);
  for (const char* severity : {"critical", "high", "medium", "low", "unknown"}) {
    BOOST_TEST(it::IntMember(none["findingCounts"], severity) == it::IntMember(whole["findingCounts"], severity));
  }
}

// The look-up cannot answer for a version that was never scanned: those are listed apart, the
// latest only by default, every one with versions=all, and only the tenant's licensed ones.
BOOST_AUTO_TEST_CASE(cve_lookup_lists_the_unscanned_versions_it_cannot_answer_for) {
  it::Tenant tenant, other;
  std::string key = tenant.CreateKey(kAllReads);
  it::Image scanned = tenant.AddImage("cve-scanned", {{"1.0"}});
  it::InsertLatestScan(scanned.versions[0].id, {});
  // 1.0 never scanned; 2.0, the latest, never scanned either; 3.0 of another image scanned.
  it::Image unscanned = tenant.AddImage("cve-unscanned", {{"1.0", std::nullopt, std::nullopt, "2026-01-01T00:00:00Z"},
                                                          {"2.0", std::nullopt, std::nullopt, "2026-02-01T00:00:00Z"}});
  it::Image old_unscanned =
      tenant.AddImage("cve-old-unscanned", {{"1.0", std::nullopt, std::nullopt, "2026-01-01T00:00:00Z"},
                                            {"2.0", std::nullopt, std::nullopt, "2026-02-01T00:00:00Z"}});
  it::InsertLatestScan(old_unscanned.versions[1].id, {});  // its latest is scanned, 1.0 is not
  it::Image elsewhere = other.AddImage("cve-elsewhere", {{"1.0"}});

  auto unscanned_of = [&](const std::string& query) {
    rapidjson::Document d = it::ExpectJson200(it::Get("/v1/cve/CVE-2024-3094" + query, it::Bearer(key)));
    std::map<std::string, std::vector<std::string>> tags;  // image name -> tags listed
    for (const auto& image : d["unscannedImages"].GetArray()) {
      for (const auto& v : image["versions"].GetArray())
        tags[image["name"].GetString()].push_back(v["tag"].GetString());
    }
    return tags;
  };
  std::map<std::string, std::vector<std::string>> latest = unscanned_of("");
  BOOST_TEST((latest[unscanned.name] == std::vector<std::string>{"2.0"}));
  BOOST_TEST(latest.count(scanned.name) == 0u);
  BOOST_TEST(latest.count(old_unscanned.name) == 0u);
  BOOST_TEST(latest.count(elsewhere.name) == 0u);
  std::map<std::string, std::vector<std::string>> all = unscanned_of("?versions=all");
  BOOST_TEST((all[unscanned.name] == std::vector<std::string>{"2.0", "1.0"}));
  BOOST_TEST((all[old_unscanned.name] == std::vector<std::string>{"1.0"}));
  BOOST_TEST(all.count(elsewhere.name) == 0u);
}

BOOST_AUTO_TEST_CASE(cve_lookup_normalises_the_id_matches_aliases_and_reports_affected_packages) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string key = tenant.CreateKey(kAllReads);
  // Version 1.0 carries the minecraft server's findings, version 2.0 (newer) those of nginx.
  Scanned s = ScanNewImage(tenant, dir, "cve", kMinecraftGrype, "1.0");
  std::string report = it::Fixture(kNginxGrype);
  it::IngestOk({s.image.name,
                "2.0",
                it::ReportDigest(report),
                report,
                std::nullopt,
                dir.Write("v2.cdx.json", it::MinimalCycloneDx(report, "2022-07-01T17:00:00Z")),
                std::nullopt,
                "2030-01-01T00:00:00Z",
                {}});
  std::vector<it::ExpectedFinding> old_findings = it::DeriveFindings(it::Fixture(kMinecraftGrype));
  std::vector<it::ExpectedFinding> new_findings = it::DeriveFindings(report);

  // An id of the latest version (nginx), asked in lower case.
  const it::ExpectedFinding& current = new_findings.front();
  std::string lower = current.id;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  rapidjson::Document found = it::ExpectJson200(it::Get("/v1/cve/" + lower, it::Bearer(key)));
  BOOST_TEST(it::StringMember(found, "cveId") == current.id);
  BOOST_TEST(it::StringMember(found, "versions") == "latest");
  BOOST_TEST_REQUIRE(found["images"].Size() == 1u);
  const rapidjson::Value& image = found["images"][0];
  BOOST_TEST(it::StringMember(image, "id") == s.image.id);
  BOOST_TEST_REQUIRE(image["versions"].Size() == 1u);
  BOOST_TEST(it::StringMember(image["versions"][0], "tag") == "2.0");
  BOOST_TEST(image["versions"][0]["latest"].GetBool());
  size_t expected_packages = std::count_if(new_findings.begin(), new_findings.end(),
                                           [&](const it::ExpectedFinding& f) { return f.id == current.id; });
  BOOST_TEST(image["versions"][0]["packages"].Size() == expected_packages);
  const rapidjson::Value& package = image["versions"][0]["packages"][0];
  BOOST_TEST(it::StringMember(package, "fixState") == current.fix_state);
  BOOST_TEST(package.HasMember("fixedVersion"));

  // An id only the older version carries: not in the latest, found with versions=all.
  std::string only_old;
  for (const it::ExpectedFinding& f : old_findings) {
    bool in_new = std::any_of(new_findings.begin(), new_findings.end(), [&](const auto& n) { return n.id == f.id; });
    if (!in_new && f.id.rfind("CVE-", 0) == 0) {
      only_old = f.id;
      break;
    }
  }
  BOOST_TEST_REQUIRE(!only_old.empty());
  BOOST_TEST(it::ExpectJson200(it::Get("/v1/cve/" + only_old, it::Bearer(key)))["images"].Size() == 0u);
  rapidjson::Document all = it::ExpectJson200(it::Get("/v1/cve/" + only_old + "?versions=all", it::Bearer(key)));
  BOOST_TEST_REQUIRE(all["images"].Size() == 1u);
  BOOST_TEST(it::StringMember(all["images"][0]["versions"][0], "tag") == "1.0");
  BOOST_TEST(!all["images"][0]["versions"][0]["latest"].GetBool());

  // Grype reports GHSA-wxc4-f4m6-wwqv with CVE-2019-11254 as its related id: either finds it.
  for (const char* id : {"GHSA-wxc4-f4m6-wwqv", "CVE-2019-11254"}) {
    BOOST_TEST_CONTEXT(id) {
      rapidjson::Document ghsa =
          it::ExpectJson200(it::Get(std::string("/v1/cve/") + id + "?versions=all", it::Bearer(key)));
      BOOST_TEST_REQUIRE(ghsa["images"].Size() == 1u);
      bool via_ghsa = false;
      for (const rapidjson::Value& p : ghsa["images"][0]["versions"][0]["packages"].GetArray()) {
        via_ghsa = via_ghsa || it::StringMember(p, "vulnerabilityId") == "GHSA-WXC4-F4M6-WWQV";
      }
      BOOST_TEST(via_ghsa);
    }
  }
  // Unknown: an empty list. Malformed: 400 naming cveId. versions must be latest or all.
  rapidjson::Document unknown = it::ExpectJson200(it::Get("/v1/cve/CVE-2099-99999", it::Bearer(key)));
  BOOST_TEST(unknown["images"].Size() == 0u);
  for (const char* bad : {"CVE-21-1", "log4shell", "CVE-2021-44228x", "GHSA-1234-5678", "CVE-2021-123"}) {
    BOOST_TEST_CONTEXT(bad) {
      it::Response r = it::Get(std::string("/v1/cve/") + bad, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"cveId"}));
    }
  }
  it::Response bad_versions = it::Get("/v1/cve/" + current.id + "?versions=some", it::Bearer(key));
  it::ExpectError(bad_versions, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(bad_versions) == std::vector<std::string>{"versions"}));
}

// Findings sets (sql/V0020): a rescan that finds what an earlier scan of the version found points at
// that scan's stored findings instead of storing them again, and every read answers as before.
BOOST_AUTO_TEST_CASE(a_rescan_finding_the_same_stores_no_finding_again_and_reads_the_same) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "sets", kNginxTrivy, "1.0", "2022-07-01T17:00:00Z");
  std::string key = tenant.CreateKey(kAllReads);
  std::string digest = *it::PgQuery("SELECT digest FROM image_versions WHERE id = $1", {s.version_id}).at(0).at(0);
  auto rescan = [&](const char* fixture, const std::string& time) {
    std::string report = it::Fixture(fixture);
    it::ProcessResult r = it::Ingest({s.image.name,
                                      "1.0",
                                      digest,
                                      report,
                                      std::nullopt,
                                      dir.Write("r" + time + ".cdx.json", it::MinimalCycloneDx(report, time)),
                                      std::nullopt,
                                      std::nullopt,
                                      {}});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    return r.out;
  };
  auto stored = [&] {
    return *it::PgQuery(
                "SELECT count(*) FROM vulnerabilities x JOIN findings_sets fs ON fs.id = x.set_id "
                "WHERE fs.version_id = $1",
                {s.version_id})
                .at(0)
                .at(0) +
           " findings in " +
           *it::PgQuery("SELECT count(*) FROM findings_sets WHERE version_id = $1", {s.version_id}).at(0).at(0) +
           " sets";
  };
  auto set_of_each_scan = [&] {
    std::vector<std::string> sets;
    for (const it::PgRow& row : it::PgQuery("SELECT findings_set_id FROM scans WHERE version_id = $1 "
                                            "ORDER BY scanned_at",
                                            {s.version_id}))
      sets.push_back(*row[0]);
    return sets;
  };
  // The CVE look-up reads the current findings only (sql/V0021): exactly those of the set of the
  // version's latest scan are marked current, whatever the order scans come in.
  auto current_findings = [&] {
    return std::stoul(*it::PgQuery("SELECT count(*) FROM vulnerabilities x JOIN findings_sets fs ON fs.id = x.set_id "
                                   "WHERE fs.version_id = $1 AND x.current",
                                   {s.version_id})
                           .at(0)
                           .at(0));
  };
  auto current_is_the_latest_set = [&] {
    return *it::PgQuery(
                "SELECT bool_and(x.current = (x.set_id = v.latest_findings_set_id)) FROM image_versions v "
                "JOIN scans l ON l.id = v.latest_scan_id AND l.findings_set_id = v.latest_findings_set_id "
                "JOIN findings_sets fs ON fs.version_id = v.id JOIN vulnerabilities x ON x.set_id = fs.id "
                "WHERE v.id = $1",
                {s.version_id})
                .at(0)
                .at(0) == "t";
  };
  std::vector<it::ExpectedFinding> trivy = it::ListedFindings(key, s.image.id);
  BOOST_TEST(current_findings() == trivy.size());
  BOOST_TEST(current_is_the_latest_set());
  std::string once = stored();
  BOOST_TEST(once == std::to_string(trivy.size()) + " findings in 1 sets");

  std::string same = rescan(kNginxTrivy, "2022-07-02T00:00:00Z");
  BOOST_TEST(same.find("findings: the same as an earlier scan of this version, not stored again") != std::string::npos,
             same);
  BOOST_TEST(stored() == once);
  std::vector<std::string> sets = set_of_each_scan();
  BOOST_TEST_REQUIRE(sets.size() == 2u);
  BOOST_TEST(sets[1] == sets[0]);
  BOOST_TEST((it::ListedFindings(key, s.image.id) == trivy));

  // Different findings are a set of their own; the first findings again point at the first set.
  std::string other = rescan(kNginxGrype, "2022-07-03T00:00:00Z");
  BOOST_TEST(other.find("not stored again") == std::string::npos, other);
  std::vector<it::ExpectedFinding> grype = it::ListedFindings(key, s.image.id);
  BOOST_TEST(current_findings() == grype.size());
  BOOST_TEST(current_is_the_latest_set());
  BOOST_TEST(stored() == std::to_string(trivy.size() + grype.size()) + " findings in 2 sets");
  std::string back = rescan(kNginxTrivy, "2022-07-04T00:00:00Z");
  BOOST_TEST(back.find("not stored again") != std::string::npos, back);
  BOOST_TEST(stored() == std::to_string(trivy.size() + grype.size()) + " findings in 2 sets");
  sets = set_of_each_scan();
  BOOST_TEST_REQUIRE(sets.size() == 4u);
  BOOST_TEST(sets[2] != sets[0]);
  BOOST_TEST(sets[3] == sets[0]);
  BOOST_TEST((it::ListedFindings(key, s.image.id) == trivy));
  BOOST_TEST(current_findings() == trivy.size());
  BOOST_TEST(current_is_the_latest_set());

  // Each scan of the history keeps its own counts.
  rapidjson::Document history = it::ExpectJson200(
      it::Get(it::PortalVersionPath(s.image.id, s.version_id) + "/scan-history", it::PortalHeaders(tenant, "viewer")));
  BOOST_TEST_REQUIRE(history["points"].Size() == 4u);
  it::DerivedCounts trivy_counts = it::DeriveCounts(it::DeriveFindings(it::Fixture(kNginxTrivy)));
  it::DerivedCounts grype_counts = it::DeriveCounts(it::DeriveFindings(it::Fixture(kNginxGrype)));
  for (rapidjson::SizeType i = 0; i < 4; ++i) {
    const it::DerivedCounts& expected = i == 2 ? grype_counts : trivy_counts;
    for (const auto& [severity, count] : expected.vulnerabilities) {
      BOOST_TEST(it::IntMember(history["points"][i]["vulnerabilityCounts"], severity.c_str()) == count);
    }
  }
  // A back-filled older scan with other findings changes nothing current.
  rescan(kNginxGrype, "2022-07-01T18:00:00Z");
  BOOST_TEST(current_findings() == trivy.size());
  BOOST_TEST(current_is_the_latest_set());
}

BOOST_AUTO_TEST_SUITE_END()
