// Ingest's pure rules: counts, ordering, agreement between documents, the input digest,
// repositories of references, RFC 3339 checks and the outbox events' data.
#include "icat/json.hpp"
#include "ingest/ingest_model.hpp"

#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

namespace ctl = icat::ctl;

namespace {

ctl::Finding F(std::string id, std::string package, std::string severity, std::string fix_state = "not-fixed") {
  ctl::Finding f;
  f.vuln_id = std::move(id);
  f.package_name = std::move(package);
  f.severity = std::move(severity);
  f.fix_state = std::move(fix_state);
  return f;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ingest_model)

BOOST_AUTO_TEST_CASE(findings_sort_by_severity_then_id_then_package) {
  std::vector<ctl::Finding> f = {F("CVE-2", "b", "low"), F("CVE-9", "a", "critical"), F("CVE-1", "z", "low"),
                                 F("CVE-1", "a", "low"), F("CVE-5", "x", "unknown"),  F("CVE-3", "y", "high")};
  ctl::SortFindings(f);
  std::vector<std::string> order;
  for (const auto& x : f) order.push_back(x.vuln_id + "/" + x.package_name);
  BOOST_TEST((order == std::vector<std::string>{"CVE-9/a", "CVE-3/y", "CVE-1/a", "CVE-1/z", "CVE-2/b", "CVE-5/x"}));
  // The service's one ranking (icat/vocabulary.hpp): critical first, a word it does not know last,
  // with unknown.
  BOOST_TEST(icat::SeverityRank("critical") > icat::SeverityRank("high"));
  BOOST_TEST(icat::SeverityRank("low") > icat::SeverityRank("unknown"));
  BOOST_TEST(icat::SeverityRank("bogus") == icat::SeverityRank("unknown"));
}

BOOST_AUTO_TEST_CASE(documents_agree_unless_an_identity_they_both_carry_differs) {
  std::string id_a = "sha256:" + std::string(64, 'a'), id_b = "sha256:" + std::string(64, 'b');
  ctl::ImageIdentity empty, a{id_a, {}, {}}, b{id_b, {}, {}};
  BOOST_TEST(!ctl::IdentityConflict(empty, "x", a, "y").has_value());
  BOOST_TEST(!ctl::IdentityConflict(a, "x", a, "y").has_value());
  std::optional<std::string> conflict = ctl::IdentityConflict(a, "report.json", b, "sbom.json");
  BOOST_TEST_REQUIRE(conflict.has_value());
  BOOST_TEST(conflict->find("report.json and sbom.json describe different images (image id " + id_a) == 0u);

  ctl::ImageIdentity digests_1{std::nullopt, {id_a, id_b}, {}}, digests_2{std::nullopt, {id_b}, {}},
      digests_3{std::nullopt, {"sha256:" + std::string(64, 'c')}, {}};
  BOOST_TEST(!ctl::IdentityConflict(digests_1, "x", digests_2, "y").has_value());  // one shared digest suffices
  BOOST_TEST(ctl::IdentityConflict(digests_1, "x", digests_3, "y").has_value());

  ctl::ImageIdentity layers_1{std::nullopt, {}, {id_a, id_b}}, layers_2{std::nullopt, {}, {id_b, id_a}},
      layers_3{std::nullopt, {}, {id_a}};
  BOOST_TEST(!ctl::IdentityConflict(layers_1, "x", layers_2, "y").has_value());  // order does not matter
  BOOST_TEST(ctl::IdentityConflict(layers_1, "x", layers_3, "y").has_value());
}

// The same-scan rules (docs/scans.md, "Same scan"): one line naming the two values that disagree.
namespace {
const std::string kDigest = "sha256:" + std::string(64, '1'), kOtherDigest = "sha256:" + std::string(64, '2');
const std::string kImage = "sha256:" + std::string(64, '3');

ctl::ScanReport GrypeReport() {
  ctl::ScanReport r;
  r.scanner_name = "grype";
  r.scanned_at = "2024-05-01T10:00:00Z";
  r.identity.repo_digests = {kDigest};
  return r;
}

ctl::SbomDocument SbomOf(std::string tool, std::optional<std::string> created, ctl::ImageIdentity identity = {}) {
  ctl::SbomDocument d;
  d.format = "cyclonedx";
  d.tool_name = std::move(tool);
  d.created = std::move(created);
  d.identity = std::move(identity);
  return d;
}
}  // namespace

BOOST_AUTO_TEST_CASE(same_scan_needs_the_report_s_digest_its_scanner_s_tool_and_its_time) {
  ctl::ScanReport report = GrypeReport();
  ctl::SbomDocument shared = SbomOf("syft", "2024-05-01T10:00:30Z", {std::nullopt, {kDigest}, {}});
  ctl::SameScan ok = ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &shared}});
  BOOST_TEST(!ok.refusal.has_value());
  BOOST_TEST(*ok.scanned_at == "2024-05-01T10:00:00Z");
  BOOST_TEST(ok.notes.empty());

  ctl::SameScan wrong_digest = ctl::CheckSameScan(report, "r.json", kOtherDigest, {{"s.json", &shared}});
  BOOST_TEST(*wrong_digest.refusal == "--digest " + kOtherDigest + " is not the image's digest in r.json (" + kDigest + ")");

  ctl::SbomDocument other_tool = SbomOf("LicenseFind", "2010-01-29T18:30:22Z");
  BOOST_TEST(*ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &other_tool}}).refusal ==
             "s.json comes from LicenseFind, r.json from grype: they are not one scanner's run");

  // No identity in the SBOM: taken as --digest's image (the report names it), within the time of one run.
  ctl::SbomDocument anonymous = SbomOf("grype", "2024-05-01T10:20:00Z");
  ctl::SameScan noted = ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &anonymous}});
  BOOST_TEST(!noted.refusal.has_value());
  BOOST_TEST_REQUIRE(noted.notes.size() == 1u);
  BOOST_TEST(noted.notes[0] == "s.json names no image identity that r.json names: it is taken as the image of --digest " +
                                   kDigest + ", which r.json names");
  ctl::SbomDocument anonymous_old = SbomOf("grype", "2010-01-29T18:30:22Z");
  BOOST_TEST(*ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &anonymous_old}}).refusal ==
             "s.json was created at 2010-01-29T18:30:22Z, r.json scanned at 2024-05-01T10:00:00Z: 5205 days apart, over "
             "the 60 minutes one run may take");
  // The same image, proved, rescanned later: a note, and the report's time.
  ctl::SbomDocument rescanned = SbomOf("syft", "2024-04-01T10:00:00Z", {std::nullopt, {kDigest}, {}});
  ctl::SameScan later = ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &rescanned}});
  BOOST_TEST(!later.refusal.has_value());
  BOOST_TEST(*later.scanned_at == "2024-05-01T10:00:00Z");
  BOOST_TEST_REQUIRE(later.notes.size() == 1u);
  BOOST_TEST(later.notes[0].find("another run on the same image (registry digest " + kDigest + ")") != std::string::npos,
             later.notes[0]);
}

BOOST_AUTO_TEST_CASE(same_scan_without_a_registry_digest_needs_a_shared_identity) {
  ctl::ScanReport report;
  report.scanner_name = "trivy";
  report.identity.image_id = kImage;
  ctl::SbomDocument anonymous = SbomOf("trivy", "2024-05-01T10:00:00Z");
  BOOST_TEST(*ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &anonymous}}).refusal ==
             "s.json names nothing of the image r.json names, and r.json names no registry digest to hold --digest "
             "against: nothing shows they describe one image");
  ctl::ScanReport nothing;
  nothing.scanner_name = "trivy";
  BOOST_TEST(ctl::CheckSameScan(nothing, "r.json", kDigest, {{"s.json", &anonymous}}).refusal->find("r.json names no image") == 0u);
  // The report names no time: the SBOM's, when it names the report's image.
  ctl::SbomDocument named = SbomOf("trivy", "2024-05-01T10:00:00Z", {kImage, {}, {}});
  ctl::SameScan trusted = ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &named}});
  BOOST_TEST(*trusted.scanned_at == "2024-05-01T10:00:00Z");
  // One image, proved by its id; but nothing names a registry digest: --digest is the operator's word.
  BOOST_TEST_REQUIRE(trusted.notes.size() == 1u);
  BOOST_TEST(trusted.notes[0] == "--digest " + kDigest + " is taken on the operator's word: neither r.json nor s.json "
                                 "names a registry digest to hold it against (the documents show only that they "
                                 "describe one image)");
  ctl::SbomDocument second = named;
  BOOST_TEST(ctl::CheckSameScan(report, "r.json", kDigest, {{"a.json", &named}, {"b.json", &second}}).notes.at(0).find(
                 "neither r.json, a.json nor b.json names") != std::string::npos);
  // An SBOM that names a registry digest holds --digest against it, though the report names none.
  ctl::SbomDocument digested = SbomOf("trivy", "2024-05-01T10:00:00Z", {kImage, {kDigest}, {}});
  BOOST_TEST(ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &digested}}).notes.empty());
  BOOST_TEST(*ctl::CheckSameScan(report, "r.json", kOtherDigest, {{"s.json", &digested}}).refusal ==
             "--digest " + kOtherDigest + " is not the image's digest in s.json (" + kDigest + ")");
}

BOOST_AUTO_TEST_CASE(a_scan_of_an_sbom_lets_the_sbom_speak_for_the_image) {
  ctl::ScanReport report;
  report.scanner_name = "trivy";
  report.scanned_sbom = true;
  report.scanned_at = "2021-08-25T12:20:30Z";  // before the SBOM: the goldens of Trivy's own tests
  ctl::SbomDocument named = SbomOf("trivy", "2022-06-14T15:10:14Z", {kImage, {}, {}});
  ctl::SameScan ok = ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &named}});
  BOOST_TEST(!ok.refusal.has_value());
  BOOST_TEST_REQUIRE(ok.notes.size() == 2u);
  BOOST_TEST(ok.notes[0].find("s.json speaks for the image") != std::string::npos, ok.notes[0]);
  BOOST_TEST(ok.notes[1].find("is taken on the operator's word") != std::string::npos, ok.notes[1]);
  ctl::SbomDocument other = SbomOf("trivy", "2022-06-14T15:10:14Z", {kImage, {kOtherDigest}, {}});
  BOOST_TEST(*ctl::CheckSameScan(report, "r.json", kDigest, {{"s.json", &other}}).refusal ==
             "--digest " + kDigest + " is not the image's digest in s.json (" + kOtherDigest + ")");
}

BOOST_AUTO_TEST_CASE(the_input_digest_depends_on_each_file_and_its_role) {
  std::string base = ctl::InputDigest("report", std::string("spdx"), std::nullopt);
  BOOST_TEST(base.size() == 64u);
  BOOST_TEST(base == ctl::InputDigest("report", std::string("spdx"), std::nullopt));
  BOOST_TEST(base != ctl::InputDigest("report", std::nullopt, std::string("spdx")));
  BOOST_TEST(base != ctl::InputDigest("report!", std::string("spdx"), std::nullopt));
  BOOST_TEST(base != ctl::InputDigest("report", std::string("spdx"), std::string("cdx")));
}

BOOST_AUTO_TEST_CASE(repositories_of_references_follow_docker_naming) {
  BOOST_TEST(*ctl::RepositoryOf("alpine:latest") == "docker.io/library/alpine");
  BOOST_TEST(*ctl::RepositoryOf("alpine@sha256:" + std::string(64, 'a')) == "docker.io/library/alpine");
  BOOST_TEST(*ctl::RepositoryOf("itzg/minecraft-server:java8") == "docker.io/itzg/minecraft-server");
  BOOST_TEST(*ctl::RepositoryOf("ghcr.io/aquasecurity/trivy-test-images:centos-7") ==
             "ghcr.io/aquasecurity/trivy-test-images");
  BOOST_TEST(*ctl::RepositoryOf("localhost:5000/team/app:1.0") == "localhost:5000/team/app");
  BOOST_TEST(*ctl::RepositoryOf("index.docker.io/library/nginx:1.27") == "docker.io/library/nginx");
  BOOST_TEST(*ctl::RepositoryOf("registry.example.test/hardened/nginx") == "registry.example.test/hardened/nginx");
  BOOST_TEST(!ctl::RepositoryOf("").has_value());
  BOOST_TEST(!ctl::RepositoryOf("Upper/Case:1").has_value());
  BOOST_TEST(!ctl::RepositoryOf("testdata/fixtures/images/centos 7.tar.gz").has_value());
}

BOOST_AUTO_TEST_CASE(rfc3339_times_need_a_real_date_and_an_offset) {
  for (const char* good : {"2021-08-25T12:20:30.000000005Z", "2024-02-29T00:00:00+02:00", "2022-07-01T17:01:46-04:00",
                           "2022-07-01t17:01:46z"}) {
    BOOST_TEST(ctl::IsRfc3339(good), good);
  }
  for (const char* bad :
       {"2023-02-29T00:00:00Z", "2022-13-01T00:00:00Z", "2022-07-01T24:00:00Z", "2022-07-01 17:01:46Z",
        "2022-07-01T17:01:46", "yesterday", "2022-07-01T17:01:46+25:00", "2022-07-01T17:01:46.Z"}) {
    BOOST_TEST(!ctl::IsRfc3339(bad), bad);
  }
  BOOST_TEST(icat::Upper("ghsa-wxc4-f4m6-wwqv") == "GHSA-WXC4-F4M6-WWQV");
}

BOOST_AUTO_TEST_CASE(event_data_names_image_version_and_scan_and_optionally_findings_and_the_cve) {
  ctl::EventSubject s{"img-id", "nginx", "ver-id", "1.27.3", "sha256:abc", "scan-id", "trivy", "2026-01-01T00:00:00Z"};
  rapidjson::Document plain = icat::ParseJson(ctl::EventData(s));
  BOOST_TEST(plain.MemberCount() == 3u);
  BOOST_TEST(plain["image"]["id"].GetString() == std::string("img-id"));
  BOOST_TEST(plain["image"]["name"].GetString() == std::string("nginx"));
  BOOST_TEST(plain["version"]["tag"].GetString() == std::string("1.27.3"));
  BOOST_TEST(plain["version"]["digest"].GetString() == std::string("sha256:abc"));
  BOOST_TEST(plain["scan"]["scanner"].GetString() == std::string("trivy"));
  BOOST_TEST(plain["scan"]["scannedAt"].GetString() == std::string("2026-01-01T00:00:00Z"));
  std::vector<ctl::EventFinding> found = {{"CVE-2024-1", "high", "openssl", "fixed"}};
  std::string cve = "CVE-2024-1";
  rapidjson::Document watch = icat::ParseJson(ctl::EventData(s, &found, &cve));
  BOOST_TEST(watch["cveId"].GetString() == cve);
  BOOST_TEST_REQUIRE(watch["vulnerabilities"].Size() == 1u);
  const rapidjson::Value& v = watch["vulnerabilities"][0];
  BOOST_TEST(v["id"].GetString() == cve);
  BOOST_TEST(v["severity"].GetString() == std::string("high"));
  BOOST_TEST(v["package"].GetString() == std::string("openssl"));
  BOOST_TEST(v["fixState"].GetString() == std::string("fixed"));
}

BOOST_AUTO_TEST_CASE(newly_present_compares_id_and_package_and_ignores_not_affected) {
  std::vector<ctl::EventFinding> before = {
      {"CVE-1", "low", "a", "not-fixed"}, {"CVE-2", "high", "b", "fixed"}, {"CVE-4", "low", "d", "not-affected"}};
  std::vector<ctl::EventFinding> after = {{"CVE-1", "low", "a", "fixed"},
                                          {"CVE-1", "low", "x", "not-fixed"},
                                          {"CVE-3", "high", "c", "fixed"},
                                          {"CVE-4", "low", "d", "not-fixed"},
                                          {"CVE-5", "low", "e", "not-affected"}};
  std::vector<std::string> detected, fixed;
  for (const auto& f : ctl::NewlyPresent(after, before)) detected.push_back(f.vuln_id + "/" + f.package);
  for (const auto& f : ctl::NewlyPresent(before, after)) fixed.push_back(f.vuln_id + "/" + f.package);
  BOOST_TEST((detected == std::vector<std::string>{"CVE-1/x", "CVE-3/c", "CVE-4/d"}));
  BOOST_TEST((fixed == std::vector<std::string>{"CVE-2/b"}));
  BOOST_TEST(ctl::NewlyPresent(after, {}).size() == 4u);  // a first scan: all but not-affected
}

BOOST_AUTO_TEST_SUITE_END()
