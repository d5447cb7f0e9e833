// build/bin/icat on the versioned and reference endpoints (issue 17 items 1 and 2): icat check's
// exit codes and the fail-on rule on real findings, and an older version's SBOM and findings.
#include <boost/test/unit_test.hpp>

#include "icat_client_support.hpp"

namespace it = icat::test;
using it::kAllReads;
using it::kAlpine310;
using it::Shown;

namespace {

// kAlpine310 (scans_support): two distinct medium ids, both fixed.
// One critical (fixed) and one low (affected).
constexpr const char* kDebianBuster = "scans/trivy-integration-v0.50.0/debian-buster.trivy-image-scan.json";

struct Version {
  std::string tag, digest, spdx_path;
};

struct Scanned {
  std::string name, repository;
  std::vector<Version> versions;  // oldest first
};

// One image with a version per report (tags 1.0, 2.0, ...; published a day apart, so the last is
// the latest), licensed to tenant. report_paths are files (fixtures or changed copies).
Scanned ScanVersions(it::Tenant& tenant, const it::TempDir& dir, const std::string& label,
                     const std::vector<std::string>& report_paths) {
  Scanned s;
  s.name = "it-" + label + "-" + it::RandomSuffix(6);
  s.repository = "registry.example.test/it/" + s.name;
  for (size_t i = 0; i < report_paths.size(); i++) {
    Version v;
    v.tag = std::to_string(i + 1) + ".0";
    v.digest = it::RandomDigest();
    std::string time = "2022-07-0" + std::to_string(i + 1) + "T17:00:00Z";
    v.spdx_path = dir.Write(s.name + "-" + v.tag + ".spdx.json", it::MinimalSpdx(report_paths[i], time));
    std::string cdx = dir.Write(s.name + "-" + v.tag + ".cdx.json", it::MinimalCycloneDx(report_paths[i], time));
    it::IngestOk({s.name, v.tag, v.digest, report_paths[i], v.spdx_path, cdx, s.repository, time, {}});
    s.versions.push_back(v);
  }
  it::Image image;
  image.name = s.name;
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {s.name}).at(0).at(0);
  tenant.License(image);
  return s;
}

// The fixture with every Trivy Status replaced: will_not_fix (wont-fix) or not_affected.
std::string WithStatus(const it::TempDir& dir, const std::string& fixture, const std::string& status) {
  std::string text = it::ReadFileBytes(it::Fixture(fixture));
  for (size_t at = text.find("\"Status\": \"fixed\""); at != std::string::npos;
       at = text.find("\"Status\": \"fixed\"", at)) {
    text.replace(at, 17, "\"Status\": \"" + status + "\"");
  }
  BOOST_TEST_REQUIRE(text.find(status) != std::string::npos, "the fixture's Status is not spelled as expected");
  return dir.Write(status + "-" + it::RandomSuffix(4) + ".json", text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(icat_client_versions)

BOOST_AUTO_TEST_CASE(check_exits_0_below_the_level_and_1_at_it_for_each_reference_form) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanVersions(tenant, dir, "check", {it::Fixture(kAlpine310)});
  std::string key = tenant.CreateKey(kAllReads);
  const Version& v = s.versions[0];
  for (const std::string& reference :
       {s.repository + ":1.0", s.repository + "@" + v.digest, s.repository + ":1.0@" + v.digest}) {
    BOOST_TEST_CONTEXT(reference) {
      it::ProcessResult pass = it::RunIcat(dir, key, {"check", reference, "--fail-on", "high"});
      BOOST_TEST(pass.exit_code == 0, Shown(pass));
      BOOST_TEST(pass.out == "PASS  " + reference + "  " + s.name + " 1.0 " + v.digest.substr(0, 19) +
                                 ": 0 at or above high (critical 0, high 0, medium 2, low 0, unknown 0)\n");
      it::ProcessResult fail = it::RunIcat(dir, key, {"check", reference, "--fail-on", "medium"});
      BOOST_TEST(fail.exit_code == 1, Shown(fail));
      BOOST_TEST(fail.out.rfind("FAIL  " + reference + "  ", 0) == 0, fail.out);
      BOOST_TEST(fail.out.find(": 2 at or above medium (") != std::string::npos, fail.out);
    }
  }
}

// wont-fix counts, as the webhook counts it (icat/vulnerability_rules.hpp): the distributor will not
// fix it, so it stays. The scanner's not_affected does not count.
BOOST_AUTO_TEST_CASE(check_counts_wont_fix_and_leaves_out_not_affected_findings) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string key = tenant.CreateKey(kAllReads);
  Scanned wont_fix = ScanVersions(tenant, dir, "states", {WithStatus(dir, kAlpine310, "will_not_fix")});
  it::ProcessResult counted = it::RunIcat(dir, key, {"check", wont_fix.repository + ":1.0", "--fail-on", "medium"});
  BOOST_TEST(counted.exit_code == 1, Shown(counted));
  BOOST_TEST(counted.out.find(": 2 at or above medium (") != std::string::npos, counted.out);
  Scanned not_affected = ScanVersions(tenant, dir, "states", {WithStatus(dir, kAlpine310, "not_affected")});
  it::ProcessResult r = it::RunIcat(dir, key, {"check", not_affected.repository + ":1.0", "--fail-on", "medium"});
  BOOST_TEST(r.exit_code == 0, Shown(r));
  BOOST_TEST(r.out.find(": 0 at or above medium (") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("; 2 more not counted (not affected, by the vendor's VEX or the scanner)") != std::string::npos,
             r.out);
}

// The image vendor's VEX (docs/vex.md): a finding it marks not_affected does not fail the check; an
// `affected` statement leaves the finding counted.
BOOST_AUTO_TEST_CASE(check_leaves_out_what_the_vendors_vex_marks_not_affected) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string key = tenant.CreateKey(kAllReads);
  Scanned s = ScanVersions(tenant, dir, "vendor-vex", {it::Fixture(kAlpine310)});
  std::string reference = s.repository + ":1.0";
  auto statement = [&](const std::string& cve, const std::string& status) {
    return R"({"vulnerability": {"name": ")" + cve + R"("}, "products": [{"@id": "pkg:oci/)" + s.name +
           "?repository_url=" + s.repository + R"("}], )" + status + "}";
  };
  // Alpine 3.10's scan has two medium CVEs: one not_affected, one affected.
  std::string vex = R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" +
                    it::RandomSuffix(8) + R"(", "author": "Vendor Security", "timestamp": "2026-01-10T10:00:00Z", )"
                    R"("version": 1, "statements": [)" +
                    statement("CVE-2019-1549", R"("status": "not_affected", "justification": "vulnerable_code_not_present")") +
                    ", " + statement("CVE-2019-1551", R"("status": "affected", "action_statement": "Upgrade to 2.0.")") +
                    "]}";
  it::VexIngestOk(dir, vex);
  it::ProcessResult r = it::RunIcat(dir, key, {"check", reference, "--fail-on", "medium"});
  BOOST_TEST(r.exit_code == 1, Shown(r));
  BOOST_TEST(r.out.find(": 1 at or above medium (critical 0, high 0, medium 1, low 0, unknown 0); 1 more not "
                        "counted") != std::string::npos,
             r.out);
  const std::string affected = R"("status": "affected", "action_statement": "Upgrade to 2.0.")";
  std::string later = vex;
  later.replace(later.find(affected), affected.size(),
                R"("status": "not_affected", "justification": "vulnerable_code_not_in_execute_path")");
  later.replace(later.find("2026-01-10T10:00:00Z"), 20, "2026-01-11T10:00:00Z");
  it::VexIngestOk(dir, later);
  it::ProcessResult pass = it::RunIcat(dir, key, {"check", reference, "--fail-on", "medium"});
  BOOST_TEST(pass.exit_code == 0, Shown(pass));
  BOOST_TEST(pass.out.find(": 0 at or above medium (") != std::string::npos, pass.out);
}

BOOST_AUTO_TEST_CASE(check_of_several_references_fails_when_one_fails_and_errors_on_an_unknown_one) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned clean = ScanVersions(tenant, dir, "clean", {it::Fixture(kAlpine310)});
  Scanned critical = ScanVersions(tenant, dir, "critical", {it::Fixture(kDebianBuster)});
  std::string key = tenant.CreateKey(kAllReads);
  it::ProcessResult both = it::RunIcat(dir, key, {"check", clean.repository + ":1.0", critical.repository + ":1.0", "--fail-on", "high"});
  BOOST_TEST(both.exit_code == 1, Shown(both));
  BOOST_TEST(both.out.find("PASS  " + clean.repository + ":1.0") != std::string::npos, both.out);
  BOOST_TEST(both.out.find("FAIL  " + critical.repository + ":1.0") != std::string::npos, both.out);
  BOOST_TEST(both.out.find(": 1 at or above high (critical 1, high 0, medium 0, low 1, unknown 0)") != std::string::npos,
             both.out);
  std::string unknown = clean.repository + ":9.9";
  it::ProcessResult missing = it::RunIcat(dir, key, {"check", clean.repository + ":1.0", unknown, "--fail-on", "high"});
  BOOST_TEST(missing.exit_code == 2, Shown(missing));
  BOOST_TEST(missing.out.find("ERROR " + unknown + ": unknown reference") != std::string::npos, missing.out);
  // Another tenant's image is unknown alike.
  it::Tenant other;
  it::ProcessResult hidden = it::RunIcat(dir, other.CreateKey(kAllReads), {"check", critical.repository + ":1.0", "--fail-on", "high"});
  BOOST_TEST(hidden.exit_code == 2, Shown(hidden));
  BOOST_TEST(hidden.out.find(": unknown reference") != std::string::npos, hidden.out);
  // A wrong key: exit 2, the API's words.
  it::ProcessResult wrong = it::RunIcat(dir, "icat_live_wrong", {"check", clean.repository + ":1.0", "--fail-on", "high"});
  BOOST_TEST(wrong.exit_code == 2, Shown(wrong));
  BOOST_TEST(wrong.out.find("HTTP 401") != std::string::npos, wrong.out);
}

// Unknown vulnerabilities are not none: check fails such a version (exit 1) and vulns says so.
BOOST_AUTO_TEST_CASE(check_fails_a_version_never_scanned_and_vulns_calls_its_findings_unknown) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = tenant.AddImage("never", {{"1.0"}});
  std::string key = tenant.CreateKey(kAllReads);
  std::string reference = image.repository + ":1.0";
  it::ProcessResult check = it::RunIcat(dir, key, {"check", reference, "--fail-on", "critical"});
  BOOST_TEST(check.exit_code == 1, Shown(check));
  BOOST_TEST(check.out.rfind("FAIL  " + reference + "  " + image.name + " 1.0 ", 0) == 0, check.out);
  BOOST_TEST(check.out.find(": never scanned, its vulnerabilities are unknown\n") != std::string::npos, check.out);
  it::ProcessResult vulns = it::RunIcat(dir, key, {"vulns", image.name + ":1.0"});
  BOOST_TEST(vulns.exit_code == 0, Shown(vulns));
  BOOST_TEST(vulns.out.find(": never scanned, so its vulnerabilities are unknown (not none)") != std::string::npos,
             vulns.out);
}

BOOST_AUTO_TEST_CASE(an_older_version_by_tag_or_digest_gets_its_own_sbom_and_findings) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanVersions(tenant, dir, "older", {it::Fixture(kDebianBuster), it::Fixture(kAlpine310)});
  std::string key = tenant.CreateKey(kAllReads);
  const Version& old = s.versions[0];
  for (const std::string& spec : {s.name + ":1.0", s.name + "@" + old.digest, s.repository + ":1.0@" + old.digest}) {
    BOOST_TEST_CONTEXT(spec) {
      std::string out = dir.path() + "/old-" + it::RandomSuffix(4) + ".spdx.json";
      it::ProcessResult r = it::RunIcat(dir, key, {"sbom", spec, "--format", "spdx", "-o", out});
      BOOST_TEST_REQUIRE(r.exit_code == 0, Shown(r));
      BOOST_TEST((it::ReadFileBytes(out) == it::ReadFileBytes(old.spdx_path)));
    }
  }
  std::string latest = dir.path() + "/latest.spdx.json";
  it::ProcessResult r = it::RunIcat(dir, key, {"sbom", s.name, "--format", "spdx", "-o", latest});
  BOOST_TEST_REQUIRE(r.exit_code == 0, Shown(r));
  BOOST_TEST((it::ReadFileBytes(latest) == it::ReadFileBytes(s.versions[1].spdx_path)));
  it::ProcessResult vulns = it::RunIcat(dir, key, {"vulns", s.name + ":1.0"});
  BOOST_TEST_REQUIRE(vulns.exit_code == 0, Shown(vulns));
  BOOST_TEST(vulns.out.find("CVE-2019-18224") != std::string::npos, vulns.out);  // debian-buster's critical
  BOOST_TEST(vulns.out.find("CVE-2019-1549") == std::string::npos, vulns.out);   // alpine-310's, the latest's
}

BOOST_AUTO_TEST_SUITE_END()
