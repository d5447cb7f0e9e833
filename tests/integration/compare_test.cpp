// Comparing versions and the package look-up (handlers/vulns/compare.cpp, packages.cpp;
// docs/compare.md), over two real ingested scans: the MSUSEL Trivy 0.29.1 runs of
// itzg/minecraft-server:java8 (Alpine 3.9.4 + Java) and alpine:latest (Alpine 3.15.4), each with its
// own run's CycloneDX SBOM, as two versions of one image. What the answer says is checked against
// counts made here from the two SBOM files and the two reports, independently of the service.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "icat_client_support.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

constexpr const char* kMsusel = "msusel-2022-07-01/";
constexpr const char* kOld = "itzg_minecraft-server_java8";  // Alpine 3.9.4
constexpr const char* kNew = "alpine_latest";                // Alpine 3.15.4

// The run's CycloneDX 1.4 SBOM as ingest takes it (1.5 only): specVersion 1.5, and without the
// parts that the 1.5 schema refuses in Trivy 0.29.1's output (duplicate dependsOn items) and that
// hold no package (dependencies, vulnerabilities). Its components are the file's, untouched.
std::string AsCycloneDx15(const std::string& path) {
  rapidjson::Document d;
  d.Parse(it::ReadFileBytes(path).c_str());
  d["specVersion"].SetString("1.5");
  d.RemoveMember("dependencies");
  d.RemoveMember("vulnerabilities");
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  d.Accept(w);
  return buffer.GetString();
}

// purl identity (no qualifiers, subpath or version) -> the full purls of the SBOM's components.
std::map<std::string, std::set<std::string>> PurlsOf(const std::string& sbom_path) {
  rapidjson::Document d;
  d.Parse(it::ReadFileBytes(sbom_path).c_str());
  std::map<std::string, std::set<std::string>> out;
  for (const rapidjson::Value& c : d["components"].GetArray()) {
    if (!c.HasMember("purl")) continue;
    std::string purl = c["purl"].GetString();
    std::string key = purl.substr(0, purl.find_first_of("?#"));
    size_t at = key.rfind('@');
    if (at != std::string::npos && key.find('/', at) == std::string::npos) key.resize(at);
    out[key].insert(purl);
  }
  return out;
}

struct Counts {
  size_t added = 0, removed = 0, changed = 0;
};

// Per identity: purls on both sides are the same package; the others pair up as changed, the rest
// are added or removed.
Counts CountChanges(const std::map<std::string, std::set<std::string>>& from,
                    const std::map<std::string, std::set<std::string>>& to) {
  Counts c;
  std::set<std::string> identities;
  for (const auto& [k, v] : from) identities.insert(k);
  for (const auto& [k, v] : to) identities.insert(k);
  for (const std::string& k : identities) {
    size_t gone = 0, come = 0;
    if (from.count(k)) {
      for (const std::string& p : from.at(k)) gone += !to.count(k) || !to.at(k).count(p);
    }
    if (to.count(k)) {
      for (const std::string& p : to.at(k)) come += !from.count(k) || !from.at(k).count(p);
    }
    size_t pairs = std::min(gone, come);
    c.changed += pairs;
    c.removed += gone - pairs;
    c.added += come - pairs;
  }
  return c;
}

std::set<std::string> VulnIdsOf(const std::string& report) {
  std::set<std::string> ids;
  for (const it::ExpectedFinding& f : it::DeriveFindings(report)) {
    if (f.fix_state != "not-affected") ids.insert(f.id);
  }
  return ids;
}

// One image with the two versions "3.9" (minecraft's run) and "3.15" (alpine's, published later).
struct Compared {
  it::Image image;
  std::string old_sbom, new_sbom, old_report, new_report, old_version, new_version, new_digest;
};

Compared IngestBoth(const it::TempDir& dir) {
  Compared c;
  c.image.name = "it-compare-" + it::RandomSuffix(6);
  c.image.repository = "registry.example.test/it/" + c.image.name;
  auto ingest = [&](const char* stem, const std::string& tag, const std::string& published, std::string& sbom,
                    std::string& report) {
    report = it::Fixture(std::string("scans/") + kMsusel + stem + ".trivy-0.29.1.json");
    sbom = dir.Write(tag + ".cdx.json",
                     AsCycloneDx15(it::Fixture(std::string("sboms/") + kMsusel + stem + ".trivy-0.29.1.cdx-1.4.json")));
    std::string digest = it::ReportDigest(report);
    it::IngestOk({c.image.name, tag, digest, report, std::nullopt, sbom, c.image.repository, published, {}});
    return digest;
  };
  ingest(kOld, "3.9", "2022-01-01T00:00:00Z", c.old_sbom, c.old_report);
  c.new_digest = ingest(kNew, "3.15", "2022-07-01T00:00:00Z", c.new_sbom, c.new_report);
  c.old_version = it::VersionIdOf(c.image.name, "3.9");
  c.new_version = it::VersionIdOf(c.image.name, "3.15");
  c.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {c.image.name}).at(0).at(0);
  return c;
}

std::set<std::string> IdsIn(const rapidjson::Value& list) {
  std::set<std::string> ids;
  for (const rapidjson::Value& v : list.GetArray()) ids.insert(it::StringMember(v, "id"));
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(compare_of_two_real_scans_matches_counts_made_from_their_sboms_and_reports) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:vulns");

  // to omitted: the latest version (3.15); from by tag.
  rapidjson::Document d = it::ExpectJson200(it::Get("/v1/images/" + c.image.id + "/compare?from=3.9", it::Bearer(key)));
  BOOST_TEST(it::StringMember(d["from"], "id") == c.old_version);
  BOOST_TEST(it::StringMember(d["to"], "id") == c.new_version);
  BOOST_TEST(it::StringMember(d["to"], "digest") == c.new_digest);

  Counts expected = CountChanges(PurlsOf(c.old_sbom), PurlsOf(c.new_sbom));
  BOOST_TEST(expected.changed > 0u);  // the fixtures' Alpine packages moved versions
  const rapidjson::Value& packages = d["packages"];
  BOOST_TEST(packages["addedCount"].GetInt64() == static_cast<long long>(expected.added));
  BOOST_TEST(packages["removedCount"].GetInt64() == static_cast<long long>(expected.removed));
  BOOST_TEST(packages["changedCount"].GetInt64() == static_cast<long long>(expected.changed));
  BOOST_TEST(packages["added"].Size() == expected.added);
  BOOST_TEST(packages["changed"].Size() == expected.changed);
  // One changed package as the SBOMs say it: musl-utils 1.1.20-r4 -> 1.2.2-r7.
  bool musl = false;
  for (const rapidjson::Value& p : packages["changed"].GetArray()) {
    if (it::StringMember(p, "purl") != "pkg:apk/alpine/musl-utils") continue;
    musl = true;
    BOOST_TEST(it::StringMember(p, "fromVersion") == "1.1.20-r4");
    BOOST_TEST(it::StringMember(p, "toVersion") == "1.2.2-r7");
    BOOST_TEST(it::StringMember(p, "type") == "apk");
  }
  BOOST_TEST(musl);

  std::set<std::string> before = VulnIdsOf(c.old_report), after = VulnIdsOf(c.new_report), fixed, introduced, remaining;
  for (const std::string& id : before) (after.count(id) ? remaining : fixed).insert(id);
  for (const std::string& id : after) {
    if (!before.count(id)) introduced.insert(id);
  }
  const rapidjson::Value& vulns = d["vulnerabilities"];
  BOOST_TEST(IdsIn(vulns["fixed"]) == fixed);
  BOOST_TEST(IdsIn(vulns["introduced"]) == introduced);
  BOOST_TEST(IdsIn(vulns["remaining"]) == remaining);
  BOOST_TEST(vulns["fixedCount"].GetInt64() == static_cast<long long>(fixed.size()));
  BOOST_TEST(!fixed.empty());
  // No feed loaded in this test's rows for these ids is not assumed: epss and kev are objects or null.
  for (const rapidjson::Value& v : vulns["fixed"].GetArray()) {
    BOOST_TEST((v["epss"].IsNull() || v["epss"].IsObject()));
    BOOST_TEST((v["kev"].IsNull() || v["kev"].IsObject()));
  }

  // The same comparison named by digest and by id, and through the portal (ids and digests).
  rapidjson::Document by_ids = it::ExpectJson200(
      it::Get("/v1/images/" + c.image.id + "/compare?from=" + c.old_version + "&to=" + c.new_digest, it::Bearer(key)));
  BOOST_TEST(by_ids["packages"]["changedCount"].GetInt64() == static_cast<long long>(expected.changed));
  rapidjson::Document portal = it::ExpectJson200(
      it::Get("/api/docker-images/" + c.image.id + "/compare?from=" + c.old_version + "&to=" + c.new_version,
              it::PortalHeaders(tenant)));
  BOOST_TEST(portal["vulnerabilities"]["fixedCount"].GetInt64() == static_cast<long long>(fixed.size()));
  // Reversed, added and removed swap.
  rapidjson::Document reversed =
      it::ExpectJson200(it::Get("/v1/images/" + c.image.id + "/compare?from=3.15&to=3.9", it::Bearer(key)));
  BOOST_TEST(reversed["packages"]["addedCount"].GetInt64() == static_cast<long long>(expected.removed));
  BOOST_TEST(IdsIn(reversed["vulnerabilities"]["introduced"]) == fixed);
}

BOOST_AUTO_TEST_CASE(package_look_up_finds_the_versions_whose_sboms_hold_it) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:vulns");
  auto matches = [&](const std::string& query) {
    rapidjson::Document d = it::ExpectJson200(it::Get("/v1/packages?" + query, it::Bearer(key)));
    std::set<std::string> versions;
    for (const rapidjson::Value& m : d["matches"].GetArray()) versions.insert(it::StringMember(m["version"], "tag"));
    return versions;
  };
  // musl-utils is in both; by default only the latest version answers.
  BOOST_TEST(matches("purl=pkg:apk/alpine/musl-utils") == std::set<std::string>({"3.15"}));
  BOOST_TEST(matches("purl=pkg:apk/alpine/musl-utils&versions=all") == std::set<std::string>({"3.9", "3.15"}));
  // A purl with a version names that version only.
  BOOST_TEST(matches("purl=pkg:apk/alpine/musl-utils@1.1.20-r4&versions=all") == std::set<std::string>({"3.9"}));
  BOOST_TEST(matches("name=musl-utils&type=apk&versions=all") == std::set<std::string>({"3.9", "3.15"}));
  BOOST_TEST(matches("purl=pkg:apk/alpine/no-such-package&versions=all").empty());
  // Pages of one match each walk both versions.
  rapidjson::Document first =
      it::ExpectJson200(it::Get("/v1/packages?name=musl-utils&versions=all&limit=1", it::Bearer(key)));
  BOOST_TEST(first["matches"].Size() == 1u);
  std::string cursor = it::StringMember(first, "nextCursor");
  rapidjson::Document second =
      it::ExpectJson200(it::Get("/v1/packages?name=musl-utils&versions=all&limit=1&cursor=" + cursor, it::Bearer(key)));
  BOOST_TEST(second["matches"].Size() == 1u);
  BOOST_TEST(second["nextCursor"].IsNull());
  // The portal's equivalent.
  rapidjson::Document portal =
      it::ExpectJson200(it::Get("/api/packages?purl=pkg:apk/alpine/musl-utils", it::PortalHeaders(tenant)));
  BOOST_TEST(portal["matches"].Size() == 1u);
}

// musl-utils is 1.1.20-r4 in 3.9 and 1.2.2-r7 in 3.15 (the two SBOM files): a range by name picks
// the versions whose package version it holds, numbers compared as numbers (20 > 2 as text).
BOOST_AUTO_TEST_CASE(package_look_up_by_name_and_version_range) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:vulns");
  BOOST_TEST_REQUIRE(
      PurlsOf(c.old_sbom)["pkg:apk/alpine/musl-utils"].count("pkg:apk/alpine/musl-utils@1.1.20-r4?distro=3.9.4") == 1u);
  BOOST_TEST_REQUIRE(
      PurlsOf(c.new_sbom)["pkg:apk/alpine/musl-utils"].count("pkg:apk/alpine/musl-utils@1.2.2-r7?distro=3.15.4") == 1u);
  auto matches = [&](const std::string& range) {
    rapidjson::Document d =
        it::ExpectJson200(it::Get("/v1/packages?name=musl-utils&versions=all&versionRange=" + range, it::Bearer(key)));
    std::set<std::string> versions;
    for (const rapidjson::Value& m : d["matches"].GetArray()) versions.insert(it::StringMember(m["version"], "tag"));
    BOOST_TEST(it::StringMember(d, "versionRange").size() > 0u);
    return versions;
  };
  BOOST_TEST(matches("%3E%3D1.2.0") == std::set<std::string>({"3.15"}));                 // >=1.2.0
  BOOST_TEST(matches("%3C1.2") == std::set<std::string>({"3.9"}));                       // <1.2
  BOOST_TEST(matches("%3E1.1.3") == std::set<std::string>({"3.9", "3.15"}));             // >1.1.3: 20 > 3
  BOOST_TEST(matches("%3E%3D1.1.20-r4,%3C1.2.2-r7") == std::set<std::string>({"3.9"}));  // >=1.1.20-r4,<1.2.2-r7
  BOOST_TEST(matches("%3D1.2.2-r7") == std::set<std::string>({"3.15"}));                 // =1.2.2-r7
  BOOST_TEST(matches("%3E1.2.2-r7").empty());                                            // >1.2.2-r7
  // Without versions=all, the latest version only; the portal's equivalent.
  rapidjson::Document latest =
      it::ExpectJson200(it::Get("/v1/packages?name=musl-utils&versionRange=%3C1.2", it::Bearer(key)));
  BOOST_TEST(latest["matches"].Size() == 0u);
  rapidjson::Document portal = it::ExpectJson200(
      it::Get("/api/packages?name=musl-utils&type=apk&versions=all&versionRange=%3C1.2", it::PortalHeaders(tenant)));
  BOOST_TEST_REQUIRE(portal["matches"].Size() == 1u);
  BOOST_TEST(it::StringMember(portal["matches"][0]["version"], "tag") == "3.9");
  // A range goes with a name, and must be one.
  for (const std::string& query :
       {std::string("purl=pkg:apk/alpine/musl-utils&versionRange=%3C1.2"),
        std::string("name=musl-utils&versionRange=1.2"), std::string("name=musl-utils&versionRange=%3E%3D1.2,"),
        std::string("name=musl-utils&versionRange=%5E1.2"), std::string("name=musl-utils&versionRange=")}) {
    BOOST_TEST_CONTEXT(query) {
      it::Response refused = it::Get("/v1/packages?" + query, it::Bearer(key));
      it::ExpectError(refused, 400, "VALIDATION_ERROR");
      BOOST_TEST(it::MessageOf(refused).find("versionRange") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(another_tenants_unlicensed_image_stays_invisible) {
  it::Tenant owner, stranger;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  owner.License(c.image);
  std::string key = stranger.CreateKey("read:vulns");
  it::ExpectError(it::Get("/v1/images/" + c.image.id + "/compare?from=3.9", it::Bearer(key)), 404, "NOT_FOUND");
  it::ExpectError(
      it::Get("/api/docker-images/" + c.image.id + "/compare?from=" + c.old_version, it::PortalHeaders(stranger)), 404,
      "NOT_FOUND");
  // The package is in the catalogue, but not in anything the stranger is licensed for.
  for (const std::string& path : {std::string("/v1/packages?purl=pkg:apk/alpine/musl-utils&versions=all"),
                                  std::string("/v1/packages?name=musl-utils&versions=all"),
                                  std::string("/v1/packages?name=musl-utils&versions=all&versionRange=%3E0")}) {
    rapidjson::Document d = it::ExpectJson200(it::Get(path, it::Bearer(key)));
    BOOST_TEST(d["matches"].Size() == 0u);
  }
  rapidjson::Document portal = it::ExpectJson200(
      it::Get("/api/packages?purl=pkg:apk/alpine/musl-utils&versions=all", it::PortalHeaders(stranger)));
  BOOST_TEST(portal["matches"].Size() == 0u);
}

BOOST_AUTO_TEST_CASE(bad_parameters_unknown_versions_and_unscanned_versions_are_clear_errors) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:vulns");
  std::string base = "/v1/images/" + c.image.id + "/compare";
  it::ExpectError(it::Get(base, it::Bearer(key)), 400, "VALIDATION_ERROR");                      // from missing
  it::ExpectError(it::Get(base + "?from=no%20such", it::Bearer(key)), 400, "VALIDATION_ERROR");  // no version's form
  it::ExpectError(it::Get(base + "?from=9.9", it::Bearer(key)), 404, "NOT_FOUND");
  it::ExpectError(it::Get(base + "?from=3.9&to=9.9", it::Bearer(key)), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/v1/images/" + it::kUnknownId + "/compare?from=3.9", it::Bearer(key)), 404, "NOT_FOUND");
  it::ExpectError(
      it::Get("/v1/images/" + c.image.id + "/compare?from=3.9", it::Bearer(tenant.CreateKey("read:catalog"))), 403,
      "INSUFFICIENT_SCOPE");
  // The portal names versions by id or digest: a tag is refused.
  it::ExpectError(it::Get("/api/docker-images/" + c.image.id + "/compare?from=3.9", it::PortalHeaders(tenant)), 400,
                  "VALIDATION_ERROR");
  // A version pushed but not scanned: 409 saying so.
  it::AddVersion(c.image, {.tag = "3.16"});
  it::Response unscanned = it::Get(base + "?from=3.9&to=3.16", it::Bearer(key));
  it::ExpectError(unscanned, 409, "CONFLICT");
  BOOST_TEST(it::MessageOf(unscanned).find("no scan") != std::string::npos);
  // The look-up: purl or name, not both, not neither; type only with name; a purl is pkg:...
  for (const std::string& query :
       {std::string(""), std::string("purl=pkg:apk/alpine/x&name=x"), std::string("purl=pkg:apk/alpine/x&type=apk"),
        std::string("purl=apk/x"), std::string("name=x&versions=some")}) {
    BOOST_TEST_CONTEXT(query) {
      it::ExpectError(it::Get("/v1/packages?" + query, it::Bearer(key)), 400, "VALIDATION_ERROR");
    }
  }
}

BOOST_AUTO_TEST_CASE(scans_stored_before_packages_get_them_from_their_sboms_by_backfill) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:vulns");
  std::string path = "/v1/images/" + c.image.id + "/compare?from=3.9";
  long long changed = it::ExpectJson200(it::Get(path, it::Bearer(key)))["packages"]["changedCount"].GetInt64();
  // As a scan ingested before sql/V0032 is: no package set.
  it::PgQuery("UPDATE scans SET package_set_id = NULL WHERE image_id = $1", {c.image.id});
  // Read past the workers' reply caches: the change above is no commit of the service's.
  it::Headers fresh = it::Bearer(key);
  fresh.emplace_back("Cache-Control", "no-cache");
  it::Response before = it::Get(path, fresh);
  it::ExpectError(before, 409, "CONFLICT");
  BOOST_TEST(it::MessageOf(before).find("icatctl packages backfill") != std::string::npos);
  std::string out = it::IcatctlOk({"packages", "backfill"});
  BOOST_TEST(out.find("packages backfill: ") == 0u, out);
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM scans WHERE image_id = $1 AND package_set_id IS NULL", {c.image.id})
                  .at(0)
                  .at(0) == "0");
  BOOST_TEST(it::ExpectJson200(it::Get(path, fresh))["packages"]["changedCount"].GetInt64() == changed);
  // Again: nothing left to do.
  BOOST_TEST(it::IcatctlOk({"packages", "backfill"}).find("backfill: 0 scans") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_first_scan_of_a_new_latest_version_says_what_it_fixes) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c;
  c.image.name = "it-compare-" + it::RandomSuffix(6);
  c.image.repository = "registry.example.test/it/" + c.image.name;
  auto ingest = [&](const char* stem, const std::string& tag, const std::string& published) {
    std::string report = it::Fixture(std::string("scans/") + kMsusel + stem + ".trivy-0.29.1.json");
    std::string sbom =
        dir.Write(tag + ".cdx.json",
                  AsCycloneDx15(it::Fixture(std::string("sboms/") + kMsusel + stem + ".trivy-0.29.1.cdx-1.4.json")));
    it::IngestOk(
        {c.image.name, tag, it::ReportDigest(report), report, std::nullopt, sbom, c.image.repository, published, {}});
    return report;
  };
  std::string old_report = ingest(kOld, "3.9", "2022-01-01T00:00:00Z");
  c.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {c.image.name}).at(0).at(0);
  tenant.License(c.image);  // events go to the licensees of the moment
  std::string new_report = ingest(kNew, "3.15", "2022-07-01T00:00:00Z");
  std::set<std::string> fixed = VulnIdsOf(old_report);
  for (const std::string& id : VulnIdsOf(new_report)) fixed.erase(id);
  std::vector<it::PgRow> events = it::PgQuery(
      "SELECT payload->'fixes'->>'count', payload->'fixes'->'against'->>'tag', "
      "jsonb_array_length(payload->'fixes'->'ids') FROM events "
      "WHERE tenant_id = $1 AND type = 'scan.completed' AND payload->'version'->>'tag' = '3.15'",
      {tenant.id()});
  BOOST_TEST_REQUIRE(events.size() == 1u);
  BOOST_TEST(*events[0].at(0) == std::to_string(fixed.size()));
  BOOST_TEST(*events[0].at(1) == "3.9");
  BOOST_TEST(std::stoul(*events[0].at(2)) == std::min<size_t>(fixed.size(), 100));
  // A rescan of the same version fixes nothing new: no fixes.
  std::string rescan_report = it::Fixture(std::string("scans/") + kMsusel + kNew + ".grype-0.38.0.json");
  std::string rescan_spdx = dir.Write("rescan.spdx.json", it::MinimalSpdx(rescan_report, "2022-07-02T18:00:00Z"));
  it::IngestOk({c.image.name,
                "3.15",
                it::ReportDigest(rescan_report),
                rescan_report,
                rescan_spdx,
                std::nullopt,
                c.image.repository,
                std::nullopt,
                {}});
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM events WHERE tenant_id = $1 AND type = 'scan.completed' "
                          "AND payload ? 'fixes'",
                          {tenant.id()})
                  .at(0)
                  .at(0) == "1");
}

BOOST_AUTO_TEST_CASE(icat_diff_prints_the_comparison_and_its_json) {
  it::Tenant tenant;
  it::TempDir dir;
  Compared c = IngestBoth(dir);
  tenant.License(c.image);
  std::string key = tenant.CreateKey("read:catalog,read:vulns");
  it::ProcessResult text = it::RunIcat(dir, key, {"diff", c.image.name, "3.9", "3.15"});
  BOOST_TEST_REQUIRE(text.exit_code == 0, it::Shown(text));
  Counts expected = CountChanges(PurlsOf(c.old_sbom), PurlsOf(c.new_sbom));
  BOOST_TEST(text.out.find(c.image.name + " 3.9 -> 3.15: packages " + std::to_string(expected.added) + " added, " +
                           std::to_string(expected.removed) + " removed, " + std::to_string(expected.changed) +
                           " changed") == 0u,
             text.out);
  BOOST_TEST(text.out.find("changed  musl-utils") != std::string::npos, text.out);
  it::ProcessResult json = it::RunIcat(dir, key, {"diff", c.image.name, "3.9", "3.15", "--format", "json"});
  BOOST_TEST_REQUIRE(json.exit_code == 0, it::Shown(json));
  rapidjson::Document d;
  d.Parse(json.out.c_str());
  BOOST_TEST_REQUIRE(d.IsObject());
  BOOST_TEST(d["packages"]["changedCount"].GetInt64() == static_cast<long long>(expected.changed));
  // A version the image does not have: the API's 404, exit 2.
  it::ProcessResult unknown = it::RunIcat(dir, key, {"diff", c.image.name, "3.9", "9.9"});
  BOOST_TEST(unknown.exit_code == 2, it::Shown(unknown));
}

BOOST_AUTO_TEST_SUITE_END()
