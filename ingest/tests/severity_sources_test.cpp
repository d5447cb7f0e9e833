// Severity detail (docs/scans.md, "Severity sources"): every source's rating a report gives, read
// from the real fixture reports with their exact vectors and scores, the rating a finding ranks by,
// and odd ratings, which are dropped or cut down but never make a report refused.
#include <boost/test/unit_test.hpp>

#include "icat/json.hpp"
#include "ingest/ingest_model.hpp"
#include "ingest/reports.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;

using icat::test::FixturePath;
using icat::test::ReadAll;

namespace {

constexpr const char* kDebianBuster = "scans/trivy-integration-v0.50.0/debian-buster.trivy-image-scan.json";
constexpr const char* kSpring4Shell = "scans/trivy-integration-v0.50.0/spring4shell-jre11.trivy-image-scan.json";
constexpr const char* kNginxTrivy = "scans/msusel-2022-07-01/nginx_latest.trivy-0.29.1.json";
constexpr const char* kNginxGrype = "scans/msusel-2022-07-01/nginx_latest.grype-0.38.0.json";
constexpr const char* kMinecraftGrype = "scans/msusel-2022-07-01/itzg_minecraft-server_java8.grype-0.38.0.json";

ctl::Finding FindingOf(const ctl::ScanReport& report, const std::string& id, const std::string& package) {
  for (const ctl::Finding& f : report.findings) {
    if (f.vuln_id == id && f.package_name == package) return f;
  }
  BOOST_FAIL("no finding " << id << " in " << package);
  return {};
}

ctl::Finding FixtureFinding(const char* fixture, const std::string& id, const std::string& package) {
  return FindingOf(ctl::ParseReport(fixture, ReadAll(FixturePath(fixture))), id, package);
}

// The one finding of a Trivy report whose vulnerability is `vulnerability` (a JSON object's members).
ctl::Finding TrivyFinding(const std::string& vulnerability) {
  ctl::ScanReport r = ctl::ParseReport(
      "t.json", R"({"SchemaVersion": 2, "Results": [{"Class": "os-pkgs", "Type": "debian", "Vulnerabilities": [
        {"VulnerabilityID": "CVE-2024-1", "PkgName": "p", )" +
                    vulnerability + "}]}]}");
  BOOST_TEST_REQUIRE(r.findings.size() == 1u);
  return r.findings[0];
}

// The one finding of a Grype report whose match is `match` (a JSON object's members).
ctl::Finding GrypeFinding(const std::string& match) {
  ctl::ScanReport r = ctl::ParseReport("g.json", R"({"descriptor": {"name": "grype"}, "matches": [
      {"artifact": {"name": "p", "type": "deb"}, )" + match +
                                                     "}]}");
  BOOST_TEST_REQUIRE(r.findings.size() == 1u);
  return r.findings[0];
}

std::string Json(const ctl::Finding& f) { return ctl::SeveritySourcesJson(f.severity_sources); }

}  // namespace

BOOST_AUTO_TEST_SUITE(severity_sources)

BOOST_AUTO_TEST_CASE(trivy_gives_every_vendor_severity_with_the_newest_cvss_of_each_source_ranked_first) {
  ctl::Finding libidn = FixtureFinding(kDebianBuster, "CVE-2019-18224", "libidn2-0");
  BOOST_TEST(*libidn.severity_source == "nvd");  // SeveritySource
  BOOST_TEST(libidn.severity == "critical");
  BOOST_TEST(*libidn.cvss_score == 9.8);
  BOOST_TEST(Json(libidn) ==
             R"([{"source":"nvd","severity":"critical","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8},)"
             R"({"source":"amazon","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"redhat","severity":"medium","cvssVersion":"3.0",)"
             R"("cvssVector":"CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L","cvssScore":5.6},)"
             R"({"source":"ubuntu","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null}])");

  // Ranked by Debian, which publishes no CVSS: the finding's score is NVD's 7.8.
  ctl::Finding bash = FixtureFinding(kDebianBuster, "CVE-2019-18276", "bash");
  BOOST_TEST(*bash.severity_source == "debian");
  BOOST_TEST(bash.severity == "low");
  BOOST_TEST(*bash.cvss_score == 7.8);
  BOOST_TEST(Json(bash) ==
             R"([{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"cbl-mariner","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"nvd","severity":"high","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H","cvssScore":7.8},)"
             R"({"source":"oracle-oval","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"photon","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"redhat","severity":"low","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H","cvssScore":7.8},)"
             R"({"source":"ubuntu","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null}])");

  // A library's finding, ranked by the GitHub advisory.
  ctl::Finding beans = FixtureFinding(kSpring4Shell, "CVE-2022-22965", "org.springframework:spring-beans");
  BOOST_TEST(*beans.severity_source == "ghsa");
  BOOST_TEST(*beans.cvss_score == 9.8);
  BOOST_TEST(beans.severity_sources.size() == 3u);
  BOOST_TEST(beans.severity_sources[0].source == "ghsa");
  BOOST_TEST(*beans.severity_sources[2].cvss_vector == "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H");
  BOOST_TEST(*beans.severity_sources[2].cvss_score == 8.1);
}

BOOST_AUTO_TEST_CASE(trivy_before_vendor_severity_rates_its_severity_source_with_its_severity) {
  // Trivy 0.29 gives SeveritySource and Severity but no VendorSeverity; a 2.0-only source keeps its 2.0.
  ctl::Finding perl = FixtureFinding(kNginxTrivy, "CVE-2011-4116", "perl-base");
  BOOST_TEST(*perl.severity_source == "debian");
  BOOST_TEST(*perl.cvss_score == 7.5);  // NVD's: Debian gives none (and NVD goes before redhat's 1.9)
  BOOST_TEST(Json(perl) ==
             R"([{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"nvd","severity":null,"cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N","cvssScore":7.5},)"
             R"({"source":"redhat","severity":null,"cvssVersion":"2.0","cvssVector":"AV:L/AC:M/Au:N/C:N/I:P/A:N",)"
             R"("cvssScore":1.9}])");
}

BOOST_AUTO_TEST_CASE(grype_gives_the_matched_record_first_then_each_related_record) {
  // Grype 0.38: the Debian record (Negligible, no CVSS) is the match; the related NVD record has 2.0 and 3.1.
  ctl::Finding perl = FixtureFinding(kNginxGrype, "CVE-2011-4116", "perl-base");
  BOOST_TEST(*perl.severity_source == "debian");
  BOOST_TEST(perl.severity == "low");
  BOOST_TEST(*perl.cvss_score == 7.5);  // the related NVD record's
  BOOST_TEST(Json(perl) ==
             R"([{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"nvd","severity":"high","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N","cvssScore":7.5}])");

  // A GitHub advisory (namespace github:go) matched, NVD's record related.
  ctl::Finding yaml = FixtureFinding(kMinecraftGrype, "GHSA-WXC4-F4M6-WWQV", "gopkg.in/yaml.v2");
  BOOST_TEST(*yaml.severity_source == "ghsa");
  BOOST_TEST(Json(yaml) ==
             R"([{"source":"ghsa","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"nvd","severity":"medium","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H","cvssScore":6.5}])");

  // NVD matched directly: its 2.0 score is the finding's.
  ctl::Finding nvd = FixtureFinding(kMinecraftGrype, "CVE-2007-1667", "imagemagick");
  BOOST_TEST(*nvd.severity_source == "nvd");
  BOOST_TEST(*nvd.cvss_score == 9.3);
  BOOST_TEST(*nvd.severity_sources[0].cvss_version == "2.0");
  BOOST_TEST(*nvd.severity_sources[0].cvss_vector == "AV:N/AC:M/Au:N/C:C/I:C/A:C");
}

BOOST_AUTO_TEST_CASE(newer_grype_names_primary_and_secondary_scores_by_their_source) {
  // Grype 0.7x: cvss entries carry source and type; a Secondary one is another organisation's rating.
  ctl::Finding f = GrypeFinding(R"("vulnerability": {"id": "CVE-2024-1", "namespace": "nvd:cpe", "severity": "High",
      "cvss": [{"source": "nvd@nist.gov", "type": "Primary", "version": "3.1",
                "vector": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", "metrics": {"baseScore": 7.5}},
               {"source": "secalert@redhat.com", "type": "Secondary", "version": "3.1",
                "vector": "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N", "metrics": {"baseScore": 5.9}},
               {"source": "nvd@nist.gov", "type": "Primary", "version": "2.0",
                "vector": "AV:N/AC:L/Au:N/C:P/I:N/A:N", "metrics": {"baseScore": 5.0}}]},
    "relatedVulnerabilities": [{"id": "GHSA-aaaa-bbbb-cccc", "namespace": "github:language:python", "severity": "Critical",
      "cvss": [{"version": "4.0", "vector": "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
                "metrics": {"baseScore": 9.3}},
               {"version": "3.1", "vector": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "metrics": {"baseScore": 9.8}}]},
      {"id": "CVE-2024-1", "namespace": "nvd:cpe", "severity": "Low", "cvss": []}])");
  BOOST_TEST(*f.severity_source == "nvd");
  BOOST_TEST(*f.cvss_score == 7.5);
  BOOST_TEST(Json(f) ==
             R"([{"source":"nvd","severity":"high","cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N","cvssScore":7.5},)"
             R"({"source":"ghsa","severity":"critical","cvssVersion":"4.0",)"
             R"("cvssVector":"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N","cvssScore":9.3},)"
             R"({"source":"secalert@redhat.com","severity":null,"cvssVersion":"3.1",)"
             R"("cvssVector":"CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N","cvssScore":5.9}])");
}

BOOST_AUTO_TEST_CASE(the_finding_ranks_by_the_scanners_choice_and_takes_its_severity_and_score) {
  ctl::Finding f;
  f.severity = "high";
  f.cvss_score = 1.0;
  f.severity_sources = {{"redhat", "medium", "3.1", "CVSS:3.1/AV:N", 6.1},
                        {"nvd", "critical", "3.1", std::nullopt, 9.8},
                        {"amazon", "low"}};
  ctl::RankBy(f, std::string("redhat"));
  BOOST_TEST(*f.severity_source == "redhat");
  BOOST_TEST(*f.cvss_score == 6.1);
  // The scanner's severity is its reading of the rating, so the rating says the same.
  BOOST_TEST(*f.severity_sources[0].severity == "high");
  std::vector<std::string> order;
  for (const ctl::SeverityRating& r : f.severity_sources) order.push_back(r.source);
  BOOST_TEST((order == std::vector<std::string>{"redhat", "amazon", "nvd"}));

  // A source the report rates nowhere else is added with the scanner's severity and no score; the
  // finding's score is then NVD's.
  ctl::RankBy(f, std::string("debian"));
  BOOST_TEST(f.severity_sources.size() == 4u);
  BOOST_TEST(f.severity_sources[0].source == "debian");
  BOOST_TEST(*f.severity_sources[0].severity == "high");
  BOOST_TEST(!f.severity_sources[0].cvss_score.has_value());
  BOOST_TEST(*f.cvss_score == 9.8);

  // The scanner names none: the severity is unattributed, the sources go by name, the score is NVD's.
  ctl::RankBy(f, std::nullopt);
  BOOST_TEST(!f.severity_source.has_value());
  BOOST_TEST(*f.cvss_score == 9.8);
  BOOST_TEST(f.severity_sources[0].source == "amazon");

  // Without NVD, the first source (by name) that scores it; without any score, none.
  ctl::Finding trivy = TrivyFinding(R"("Severity": "MEDIUM", "CVSS": {"redhat": {"V3Score": 5.9}})");
  BOOST_TEST(!trivy.severity_source.has_value());
  BOOST_TEST(trivy.severity == "medium");
  BOOST_TEST(*trivy.cvss_score == 5.9);
  ctl::Finding unscored = TrivyFinding(R"("Severity": "LOW", "VendorSeverity": {"debian": 1})");
  BOOST_TEST(!unscored.cvss_score.has_value());
  ctl::Finding grype = GrypeFinding(R"("vulnerability": {"id": "CVE-1", "severity": "High",
      "cvss": [{"version": "3.1", "metrics": {"baseScore": 7.5}}]})");
  BOOST_TEST(!grype.severity_source.has_value());  // a record without a namespace names no source
  BOOST_TEST(grype.severity_sources.empty());
}

BOOST_AUTO_TEST_CASE(odd_ratings_are_dropped_or_cut_down_and_never_refuse_the_report) {
  // Maps of the wrong type, levels outside 0-4, scores that are no numbers or out of 0.1-10.
  BOOST_TEST(TrivyFinding(R"("Severity": "HIGH", "SeveritySource": "nvd", "VendorSeverity": [3], "CVSS": "x")")
                 .severity_sources.size() == 1u);
  ctl::Finding f = TrivyFinding(R"("Severity": "HIGH", "SeveritySource": "NVD",
      "VendorSeverity": {"a": 7, "b": -1, "c": "HIGH", "d": 2.5, "e": null, "": 3, "f": 0},
      "CVSS": {"nvd": {"V3Score": "7.5", "V3Vector": "CVSS:3.1/AV:N", "V2Score": 5, "V2Vector": "AV:N/AC:L"},
               "g": {"V3Score": 0}, "h": {"V3Score": 11}, "i": {"V2Score": -1}, "j": [1], "k": null,
               "l": {"V3Score": 6.25, "V3Vector": "CVSS:3.1/AV:N <script>"},
               "m": {"V40Score": 8.7, "V40Vector": "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
                     "V3Score": 9.1, "V3Vector": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N"},
               "n": {"V3Score": 4.4}})");
  BOOST_TEST(*f.severity_source == "nvd");  // lower case, as sources are named
  BOOST_TEST(Json(f) ==
             R"([{"source":"nvd","severity":"high","cvssVersion":"2.0","cvssVector":"AV:N/AC:L","cvssScore":5.0},)"
             R"({"source":"f","severity":"unknown","cvssVersion":null,"cvssVector":null,"cvssScore":null},)"
             R"({"source":"l","severity":null,"cvssVersion":null,"cvssVector":null,"cvssScore":6.3},)"
             R"({"source":"m","severity":null,"cvssVersion":"4.0",)"
             R"("cvssVector":"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N","cvssScore":8.7},)"
             R"({"source":"n","severity":null,"cvssVersion":null,"cvssVector":null,"cvssScore":4.4}])");
  BOOST_TEST(*f.cvss_score == 5.0);

  ctl::Finding g = GrypeFinding(R"("vulnerability": {"id": "CVE-1", "namespace": "alpine:distro:alpine:3.19",
      "severity": "Negligible", "cvss": [{"version": "three", "vector": "CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N",
      "metrics": {"baseScore": 7.5}}, {"version": "3.1", "metrics": {"baseScore": "9.8"}}, {"version": "3.1"}, 7,
      {"type": "Secondary", "version": "3.1", "metrics": {"baseScore": 9.0}}]},
    "relatedVulnerabilities": [{"id": "CVE-1", "namespace": "nvd:cpe", "cvss": {"version": "3.1"}}, "x",
                               {"namespace": 5, "severity": "High"}])");
  BOOST_TEST(*g.severity_source == "alpine");
  BOOST_TEST(Json(g) == R"([{"source":"alpine","severity":"low","cvssVersion":"3.0",)"
                        R"("cvssVector":"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N","cvssScore":7.5}])");
}

// docs/scans.md: the ranked rating's score, else NVD's, else the first other source's with one.
std::optional<double> ExpectedScore(const ctl::Finding& f) {
  if (f.severity_source && f.severity_sources[0].cvss_score) return f.severity_sources[0].cvss_score;
  for (const ctl::SeverityRating& r : f.severity_sources) {
    if (r.source == "nvd" && r.cvss_score) return r.cvss_score;
  }
  for (const ctl::SeverityRating& r : f.severity_sources) {
    if (r.cvss_score) return r.cvss_score;
  }
  return std::nullopt;
}

BOOST_AUTO_TEST_CASE(every_fixture_finding_takes_severity_and_score_from_the_rating_it_names_first) {
  for (const char* fixture : {"scans/msusel-2022-07-01/golang_1.18.trivy-0.29.1.json",
                              "scans/msusel-2022-07-01/golang_1.18.grype-0.38.0.json",
                              "scans/msusel-2022-07-01/itzg_minecraft-server_java8.trivy-0.29.1.json", kMinecraftGrype,
                              kNginxTrivy, kNginxGrype, "scans/msusel-2022-07-01/ubuntu_latest.trivy-0.29.1.json",
                              "scans/msusel-2022-07-01/ubuntu_latest.grype-0.38.0.json",
                              "scans/trivy-integration-v0.50.0/alpine-310.trivy-image-scan.json",
                              "scans/trivy-integration-v0.50.0/centos-7.trivy-image-scan.json", kDebianBuster,
                              "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json",
                              "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-sbom-scan.json",
                              kSpring4Shell, "scans/trivy-integration-v0.50.0/ubuntu-1804.trivy-image-scan.json"}) {
    BOOST_TEST_CONTEXT(fixture) {
      for (const ctl::Finding& f : ctl::ParseReport(fixture, ReadAll(FixturePath(fixture))).findings) {
        BOOST_TEST_CONTEXT(f.vuln_id << " in " << f.package_name) {
          if (f.severity_source) {
            BOOST_TEST_REQUIRE(!f.severity_sources.empty());
            BOOST_TEST(f.severity_sources[0].source == *f.severity_source);
            BOOST_TEST(*f.severity_sources[0].severity == f.severity);
          }
          BOOST_TEST((f.cvss_score == ExpectedScore(f)));
          for (size_t i = 1; i + 1 < f.severity_sources.size(); ++i) {
            BOOST_TEST((f.severity_sources[i].source < f.severity_sources[i + 1].source));  // by name, once each
          }
          BOOST_TEST(icat::ParseJson(Json(f)).IsArray());
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
