// icatctl scans prune (the scan retention): which scans, findings sets and package sets it removes
// and keeps, that a tenant reads what remains as before, that a dry run changes nothing, and the
// setting and flag.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/test/unit_test.hpp>
#include <ctime>

#include "scans_support.hpp"

namespace it = icat::test;

namespace {

// Neither report has a scan time of its own, so each scan takes its SBOM's: any time a test picks.
using it::kAllReads, it::kNginxGrype, it::kNginxTrivy;

std::string DaysAgo(int days) {
  std::time_t at = std::time(nullptr) - static_cast<std::time_t>(days) * 86400;
  std::tm utc{};
  gmtime_r(&at, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// One version of a new image, licensed to the tenant, scanned once per call of Scan.
struct ScannedVersion {
  it::Image image;
  std::string version_id, digest;
};

// A scan of the version (made with the first) from a report fixture and a CycloneDX SBOM of `time`.
std::string Scan(ScannedVersion& v, const it::TempDir& dir, const char* fixture, const std::string& time) {
  std::string report = it::Fixture(fixture);
  if (v.digest.empty()) v.digest = it::ReportDigest(report);
  std::string sbom = dir.Write(v.image.name + "-" + it::RandomSuffix(6) + ".cdx.json", it::MinimalCycloneDx(report, time));
  return it::IngestOk({v.image.name, "1.0", v.digest, report, std::nullopt, sbom,
                       "registry.example.test/it/" + v.image.name, std::nullopt, {}});
}

void Register(ScannedVersion& v, it::Tenant& tenant) {
  v.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {v.image.name}).at(0).at(0);
  v.version_id = *it::PgQuery("SELECT latest_version_id FROM images WHERE id = $1", {v.image.id}).at(0).at(0);
  tenant.License(v.image);
}

it::ProcessResult Prune(const std::vector<std::string>& flags, const std::string& setting = "") {
  std::vector<std::string> argv = {it::GetEnv().bin_dir + "/icatctl", "scans", "prune"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return it::RunProcess(argv, "", {"ICAT_SCAN_RETENTION_DAYS=" + setting});
}

std::string One(const std::string& sql, const std::string& param) { return *it::PgQuery(sql, {param}).at(0).at(0); }

std::string CompactJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

// What a tenant reads of the version: each scan history point by scan id, the latest scan's
// findings, and the bytes of its CycloneDX SBOM download.
struct Reads {
  std::map<std::string, std::string> points;
  std::vector<it::ExpectedFinding> findings;
  std::string sbom;
};

Reads ReadsOf(const ScannedVersion& v, it::Tenant& tenant, const std::string& key) {
  Reads reads;
  rapidjson::Document history = it::ExpectJson200(
      it::Get("/api/docker-images/" + v.image.id + "/versions/" + v.version_id + "/scan-history", it::PortalHeaders(tenant)));
  for (const rapidjson::Value& point : history["points"].GetArray()) {
    reads.points[it::StringMember(point, "scanId")] = CompactJson(point);
  }
  reads.findings = it::ListedFindings(key, v.image.id);
  it::Response sbom = it::Get("/v1/images/" + v.image.id + "/sbom?format=cyclonedx", it::Bearer(key));
  BOOST_TEST_REQUIRE(sbom.status == 200, sbom.Summary());
  reads.sbom = sbom.body;
  return reads;
}

std::set<std::string> ScansOf(const ScannedVersion& v) {
  std::set<std::string> ids;
  for (const it::PgRow& row : it::PgQuery("SELECT id FROM scans WHERE version_id = $1", {v.version_id})) ids.insert(*row[0]);
  return ids;
}

std::string SetOf(const std::string& scan_id) { return One("SELECT findings_set_id FROM scans WHERE id = $1", scan_id); }
long long FindingsIn(const std::string& set_id) {
  return std::stoll(One("SELECT count(*) FROM vulnerabilities WHERE set_id = $1", set_id));
}
bool SetExists(const std::string& set_id) { return One("SELECT count(*) FROM findings_sets WHERE id = $1", set_id) == "1"; }

// A scan with packages: a MSUSEL Trivy 0.29.1 run (report and its own CycloneDX SBOM, as the compare
// suite ingests them) of version tag, scanned at `time`; without_last leaves the SBOM's last
// component out, so the scan's package set is another one.
constexpr const char* kMsusel = "msusel-2022-07-01/";
std::string ScanWithPackages(const it::Image& image, const it::TempDir& dir, const std::string& stem,
                             const std::string& tag, const std::string& time, bool without_last = false) {
  std::string report = it::Fixture(std::string("scans/") + kMsusel + stem + ".trivy-0.29.1.json");
  rapidjson::Document d;
  d.Parse(it::ReadFileBytes(it::Fixture(std::string("sboms/") + kMsusel + stem + ".trivy-0.29.1.cdx-1.4.json")).c_str());
  d["specVersion"].SetString("1.5");  // as compare_test.cpp: ingest takes 1.5 only, and refuses these two parts
  d.RemoveMember("dependencies");
  d.RemoveMember("vulnerabilities");
  d["metadata"]["timestamp"].SetString(time.c_str(), d.GetAllocator());
  if (without_last) d["components"].PopBack();
  std::string sbom = dir.Write(tag + "-" + it::RandomSuffix(6) + ".cdx.json", CompactJson(d));
  return it::IngestOk({image.name, tag, it::ReportDigest(report), report, std::nullopt, sbom, image.repository,
                       std::nullopt, {}});
}

std::string PackageSetOf(const std::string& scan_id) { return One("SELECT package_set_id FROM scans WHERE id = $1", scan_id); }
long long PackagesIn(const std::string& set_id) {
  return std::stoll(One("SELECT count(*) FROM packages WHERE set_id = $1", set_id));
}
bool PackageSetExists(const std::string& set_id) {
  return One("SELECT count(*) FROM package_sets WHERE id = $1", set_id) == "1";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scans_retention)

BOOST_AUTO_TEST_CASE(prune_removes_old_scans_but_the_latest_and_the_findings_sets_only_they_used) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey(kAllReads);
  it::TempDir dir;
  ScannedVersion v;
  v.image.name = "it-retention-" + it::RandomSuffix(6);
  // Set A only by the oldest scan; set B by an old scan, a recent one and the latest.
  std::string old_a = Scan(v, dir, kNginxTrivy, DaysAgo(50));
  std::string old_b = Scan(v, dir, kNginxGrype, DaysAgo(40));
  std::string recent_b = Scan(v, dir, kNginxGrype, DaysAgo(10));
  std::string latest_b = Scan(v, dir, kNginxGrype, DaysAgo(5));
  Register(v, tenant);
  std::string set_a = SetOf(old_a), set_b = SetOf(latest_b);
  BOOST_TEST_REQUIRE(set_a != set_b);
  BOOST_TEST_REQUIRE(SetOf(old_b) == set_b);
  long long findings_a = FindingsIn(set_a), findings_b = FindingsIn(set_b);
  BOOST_TEST_REQUIRE(findings_a > 0);
  std::string first_seen_before = One("SELECT count(*) FROM vulnerability_first_seen WHERE version_id = $1", v.version_id);
  Reads before = ReadsOf(v, tenant, key);
  BOOST_TEST_REQUIRE(before.points.size() == 4u);
  // Each scan's SBOM was attested while its scan was the latest; only the latest's is served, so the
  // other three attestations go, though one of them is of a scan that stays.
  BOOST_TEST_REQUIRE(One("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == "4");
  const std::string removed_line = "2 scans (2 SBOM records), 1 findings sets (" + std::to_string(findings_a) +
                                   " findings), 3 attestations of " + v.image.name + " 1.0";

  // A dry run says what the run will remove and changes nothing.
  std::map<std::string, long long> counts = it::TableCounts();
  it::ProcessResult dry = Prune({"--image", v.image.name, "--dry-run"}, "20");
  BOOST_TEST_REQUIRE(dry.exit_code == 0, dry.err);
  BOOST_TEST(dry.out.find("would remove " + removed_line + "\n") != std::string::npos, dry.out);
  BOOST_TEST(dry.out.find("scans prune (dry run): would remove 2 scans") != std::string::npos, dry.out);
  BOOST_TEST((it::TableCounts() == counts));
  BOOST_TEST((ScansOf(v) == std::set<std::string>{old_a, old_b, recent_b, latest_b}));

  // The setting's 20 days: the two older scans go, and set A with its findings; set B stays.
  it::ProcessResult run = Prune({"--image", v.image.name}, "20");
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out.find("removed " + removed_line + "\n") != std::string::npos, run.out);
  BOOST_TEST(run.out.find("icatctl gc") != std::string::npos, run.out);
  BOOST_TEST((ScansOf(v) == std::set<std::string>{recent_b, latest_b}));
  BOOST_TEST(!SetExists(set_a));
  BOOST_TEST(FindingsIn(set_a) == 0);
  BOOST_TEST(SetExists(set_b));
  BOOST_TEST(FindingsIn(set_b) == findings_b);
  BOOST_TEST(One("SELECT latest_scan_id FROM image_versions WHERE id = $1", v.version_id) == latest_b);
  BOOST_TEST(One("SELECT count(*) FROM attestations a JOIN served_attestations s USING (version_id, type, "
                 "document_sha256) WHERE a.version_id = $1", v.version_id) == "1");
  BOOST_TEST(One("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == "1");
  BOOST_TEST(One("SELECT count(*) FROM vulnerability_first_seen WHERE version_id = $1", v.version_id) ==
             first_seen_before);

  // What remains reads as before: its history points, the findings and the SBOM download.
  Reads after = ReadsOf(v, tenant, key);
  std::map<std::string, std::string> kept_points = {{recent_b, before.points[recent_b]}, {latest_b, before.points[latest_b]}};
  BOOST_TEST((after.points == kept_points));
  BOOST_TEST((after.findings == before.findings));
  BOOST_TEST(after.sbom == before.sbom);

  // The flag overrides the setting; the latest stays though older than 3 days, and so does set B.
  it::ProcessResult again = Prune({"--image", v.image.name, "--older-than-days", "3"}, "20");
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  BOOST_TEST(again.out.find("removed 1 scans (1 SBOM records), 0 findings sets (0 findings), 0 attestations of " + v.image.name) !=
                 std::string::npos,
             again.out);
  BOOST_TEST(again.out.find("kept 1 scans scanned before") != std::string::npos, again.out);
  BOOST_TEST((ScansOf(v) == std::set<std::string>{latest_b}));
  BOOST_TEST(SetExists(set_b));
  BOOST_TEST((ReadsOf(v, tenant, key).findings == before.findings));
  BOOST_TEST(ReadsOf(v, tenant, key).sbom == before.sbom);
}

BOOST_AUTO_TEST_CASE(prune_removes_the_package_sets_only_removed_scans_used) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:vulns");
  it::TempDir dir;
  it::Image image;
  image.name = "it-retention-packages-" + it::RandomSuffix(6);
  image.repository = "registry.example.test/it/" + image.name;
  // Version 3.9: set FULL only by its old scan, its latest lists one package less (set TRIMMED).
  // Version 3.15: set NEW by an old scan and by its latest, which stays.
  std::string old_full = ScanWithPackages(image, dir, "itzg_minecraft-server_java8", "3.9", DaysAgo(50));
  std::string old_new = ScanWithPackages(image, dir, "alpine_latest", "3.15", DaysAgo(60));
  std::string latest_trimmed = ScanWithPackages(image, dir, "itzg_minecraft-server_java8", "3.9", DaysAgo(5), true);
  std::string latest_new = ScanWithPackages(image, dir, "alpine_latest", "3.15", DaysAgo(10));
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
  tenant.License(image);
  std::string full = PackageSetOf(old_full), trimmed = PackageSetOf(latest_trimmed), new_set = PackageSetOf(latest_new);
  BOOST_TEST_REQUIRE((std::set<std::string>{full, trimmed, new_set}.size() == 3u));
  BOOST_TEST_REQUIRE(PackageSetOf(old_new) == new_set);
  long long full_packages = PackagesIn(full), new_packages = PackagesIn(new_set);
  BOOST_TEST_REQUIRE(full_packages > 1);
  BOOST_TEST_REQUIRE(PackagesIn(trimmed) == full_packages - 1);

  // What a tenant reads of the kept versions' packages: the compare of the two, and a look-up by name.
  auto reads = [&] {
    it::Response compare = it::Get("/v1/images/" + image.id + "/compare?from=3.9&to=3.15", it::Bearer(key));
    BOOST_TEST_REQUIRE(compare.status == 200, compare.Summary());
    it::Response look_up = it::Get("/v1/packages?name=musl-utils", it::Bearer(key));
    BOOST_TEST_REQUIRE(look_up.status == 200, look_up.Summary());
    return compare.body + "\n" + look_up.body;
  };
  std::string before = reads();
  BOOST_TEST_REQUIRE(before.find("musl-utils") != std::string::npos, before);
  const std::string removed_line = "1 package sets (" + std::to_string(full_packages) + " packages) of " + image.name + "\n";

  std::map<std::string, long long> counts = it::TableCounts();
  it::ProcessResult dry = Prune({"--image", image.name, "--dry-run", "--older-than-days", "20"});
  BOOST_TEST_REQUIRE(dry.exit_code == 0, dry.err);
  BOOST_TEST(dry.out.find("would remove " + removed_line) != std::string::npos, dry.out);
  BOOST_TEST((it::TableCounts() == counts));
  BOOST_TEST(PackageSetExists(full));

  it::ProcessResult run = Prune({"--image", image.name, "--older-than-days", "20"});
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out.find("removed " + removed_line) != std::string::npos, run.out);
  BOOST_TEST(run.out.find(", 1 package sets (" + std::to_string(full_packages) + " packages); kept 0 scans") !=
                 std::string::npos,
             run.out);
  BOOST_TEST(!PackageSetExists(full));
  BOOST_TEST(PackagesIn(full) == 0);
  BOOST_TEST(PackageSetExists(new_set));
  BOOST_TEST(PackagesIn(new_set) == new_packages);
  BOOST_TEST(PackageSetExists(trimmed));
  BOOST_TEST(reads() == before);
}

BOOST_AUTO_TEST_CASE(zero_retention_keeps_every_scan_and_bad_arguments_are_refused) {
  std::map<std::string, long long> counts = it::TableCounts();
  for (const auto& [flags, setting] : {std::pair{std::vector<std::string>{}, std::string()},
                                       std::pair{std::vector<std::string>{}, std::string("0")},
                                       std::pair{std::vector<std::string>{"--older-than-days", "0"}, std::string("30")}}) {
    it::ProcessResult kept = Prune(flags, setting);
    BOOST_TEST(kept.exit_code == 0, kept.err);
    BOOST_TEST(kept.out.find("every scan is kept") != std::string::npos, kept.out);
  }
  // Every image's versions in a dry run: a summary, nothing changed.
  it::ProcessResult all = Prune({"--older-than-days", "1", "--dry-run"});
  BOOST_TEST(all.exit_code == 0, all.err);
  BOOST_TEST(all.out.find("scans prune (dry run): would remove ") != std::string::npos, all.out);
  BOOST_TEST((it::TableCounts() == counts));

  it::ProcessResult unknown = Prune({"--older-than-days", "1", "--image", "it-no-such-image-" + it::RandomSuffix(6)});
  BOOST_TEST(unknown.exit_code == 1, unknown.out);
  BOOST_TEST(unknown.err.find("not found") != std::string::npos, unknown.err);
  for (const char* days : {"a week", "-1", "36501"}) {
    it::ProcessResult bad = Prune({"--older-than-days", days});
    BOOST_TEST(bad.exit_code == 2, days << ": " << bad.out);
    BOOST_TEST(bad.err.find("--older-than-days") != std::string::npos, bad.err);
  }
  it::ProcessResult bad_setting = Prune({}, "a month");
  BOOST_TEST(bad_setting.exit_code == 2, bad_setting.out);
  BOOST_TEST(bad_setting.err.find("ICAT_SCAN_RETENTION_DAYS") != std::string::npos, bad_setting.err);
  BOOST_TEST((it::TableCounts() == counts));
}

BOOST_AUTO_TEST_SUITE_END()
