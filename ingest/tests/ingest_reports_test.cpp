// Report and SBOM parsing: format detection from content, the normalisation tables, image
// identities, tool metadata, and one-line refusals naming the file. The fixture reports (when
// ../shared/fixtures is beside the clone) parse into the numbers of findings they hold.
#include <boost/test/unit_test.hpp>
#include <set>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ingest/reports.hpp"
#include "ingest/sbom_docs.hpp"
#include "ingest/session.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;

using icat::test::FixturePath;
using icat::test::ReadAll;
using icat::test::Refusal;

namespace {

const std::string kImageId = "sha256:" + std::string(64, 'a');
const std::string kDiffId = "sha256:" + std::string(64, 'd');
const std::string kRepoDigest = "sha256:" + std::string(64, 'e');

const std::string kTrivy = R"({
  "SchemaVersion": 2, "CreatedAt": "2024-05-01T10:00:00.123456789Z", "ArtifactName": "alpine:3.19",
  "Trivy": {"Version": "0.52.0"},
  "Metadata": {"OS": {"Family": "alpine", "Name": "3.19.1"}, "Size": 7377920, "ImageID": ")" +
                           kImageId + R"(",
    "DiffIDs": [")" + kDiffId +
                           R"("], "RepoTags": ["alpine:3.19"], "RepoDigests": ["alpine@)" + kRepoDigest + R"("]},
  "Results": [
    {"Target": "alpine", "Class": "os-pkgs", "Type": "alpine", "Vulnerabilities": [
      {"VulnerabilityID": "CVE-2024-0001", "PkgName": "libssl3", "InstalledVersion": "3.1.4-r0", "FixedVersion": "3.1.4-r5",
       "Status": "fixed", "Severity": "HIGH", "SeveritySource": "nvd", "Title": "t", "PrimaryURL": "https://x/1",
       "PkgIdentifier": {"PURL": "pkg:apk/alpine/libssl3@3.1.4-r0"},
       "CVSS": {"redhat": {"V3Score": 5.5}, "nvd": {"V2Score": 5.0, "V3Score": 7.5}}, "VendorIDs": ["ALPINE-1"]},
      {"VulnerabilityID": "cve-2024-0002", "PkgName": "busybox", "InstalledVersion": "1.36", "Status": "will_not_fix",
       "Severity": "LOW", "CVSS": {"ghsa": {"V2Score": 4.3}}},
      {"VulnerabilityID": "CVE-2024-0003", "PkgName": "musl", "Status": "not_affected", "Severity": "MEDIUM"},
      {"VulnerabilityID": "CVE-2024-0004", "PkgName": "zlib", "Status": "under_investigation", "Severity": "NONSENSE"}
    ]},
    {"Target": "app/package-lock.json", "Class": "lang-pkgs", "Type": "npm", "Vulnerabilities": [
      {"VulnerabilityID": "GHSA-abcd-efgh-ijkl", "PkgName": "lodash", "InstalledVersion": "4.17.20", "Severity": "CRITICAL",
       "Status": "affected"}]},
    {"Target": "usr/bin/tool", "Class": "lang-pkgs", "Type": "gobinary", "Vulnerabilities": null},
    {"Target": "secrets", "Class": "secret"}
  ]})";

const std::string kGrype = R"({
  "matches": [
    {"vulnerability": {"id": "GHSA-wxc4-f4m6-wwqv", "dataSource": "https://github.com/advisories/GHSA-wxc4-f4m6-wwqv",
       "namespace": "github:language:go", "severity": "Negligible", "fix": {"versions": ["2.2.8", "3.0.1"], "state": "fixed"},
       "cvss": [{"version": "2.0", "metrics": {"baseScore": 5.0}}, {"version": "3.1", "metrics": {"baseScore": 7.5}}]},
     "relatedVulnerabilities": [{"id": "CVE-2019-11254", "namespace": "nvd:cpe", "cvss": []}],
     "artifact": {"name": "gopkg.in/yaml.v2", "version": "v2.2.2", "type": "go-module", "purl": "pkg:golang/gopkg.in/yaml.v2@v2.2.2"}},
    {"vulnerability": {"id": "CVE-2022-0001", "namespace": "debian:distro:debian:11", "severity": "Unknown",
       "fix": {"versions": [], "state": "wont-fix"}, "urls": ["https://u/1"], "cvss": []},
     "relatedVulnerabilities": [{"id": "CVE-2022-0001", "namespace": "nvd:cpe",
       "cvss": [{"version": "3.1", "metrics": {"baseScore": 9.8}}]}],
     "artifact": {"name": "libc6", "version": "2.31", "type": "deb"}}
  ],
  "source": {"type": "image", "target": {"userInput": "nginx:1.21", "imageID": ")" +
                           kImageId + R"(",
    "manifestDigest": "sha256:)" +
                           std::string(64, 'f') + R"(", "tags": ["nginx:1.21"], "imageSize": 141507623,
    "repoDigests": ["nginx@)" +
                           kRepoDigest + R"("], "layers": [{"digest": ")" + kDiffId + R"("}]}},
  "distro": {"name": "debian", "version": "11"},
  "descriptor": {"name": "grype", "version": "0.38.0", "db": {"built": "2022-07-01T08:16:25Z"}}
})";

}  // namespace

BOOST_AUTO_TEST_SUITE(ingest_reports)

BOOST_AUTO_TEST_CASE(trivy_reports_normalise_every_field_docs_scans_md_names) {
  ctl::ScanReport r = ctl::ParseReport("t.json", kTrivy);
  BOOST_TEST(r.scanner_name == "trivy");
  BOOST_TEST(*r.scanner_version == "0.52.0");
  BOOST_TEST(*r.scanned_at == "2024-05-01T10:00:00.123456789Z");
  BOOST_TEST(!r.vulndb_updated_at.has_value());
  BOOST_TEST(*r.os == "alpine 3.19.1");
  BOOST_TEST(*r.image_size == 7377920);
  BOOST_TEST(*r.identity.image_id == kImageId);
  BOOST_TEST((r.identity.diff_ids == std::set<std::string>{kDiffId}));
  BOOST_TEST((r.identity.repo_digests == std::set<std::string>{kRepoDigest}));
  BOOST_TEST((r.repositories == std::vector<std::string>{"docker.io/library/alpine"}));
  BOOST_TEST_REQUIRE(r.findings.size() == 5u);
  const ctl::Finding& ssl = r.findings[0];
  BOOST_TEST(ssl.vuln_id == "CVE-2024-0001");
  BOOST_TEST((ssl.aliases == std::vector<std::string>{"ALPINE-1"}));
  BOOST_TEST(ssl.package_name == "libssl3");
  BOOST_TEST(*ssl.package_version == "3.1.4-r0");
  BOOST_TEST(*ssl.package_type == "os");
  BOOST_TEST(*ssl.purl == "pkg:apk/alpine/libssl3@3.1.4-r0");
  BOOST_TEST(ssl.severity == "high");
  BOOST_TEST(*ssl.cvss_score == 7.5);  // the severity source's (nvd) V3 score
  BOOST_TEST(ssl.fix_state == "fixed");
  BOOST_TEST(*ssl.fixed_version == "3.1.4-r5");
  BOOST_TEST(*ssl.title == "t");
  BOOST_TEST(*ssl.primary_url == "https://x/1");
  BOOST_TEST(r.findings[1].vuln_id == "CVE-2024-0002");  // upper-cased
  BOOST_TEST(r.findings[1].fix_state == "wont-fix");
  BOOST_TEST(*r.findings[1].cvss_score == 4.3);  // no SeveritySource: the only score given (ghsa's)
  BOOST_TEST(r.findings[2].fix_state == "not-affected");
  BOOST_TEST(!r.findings[2].package_version.has_value());
  BOOST_TEST(r.findings[3].fix_state == "unknown");
  BOOST_TEST(r.findings[3].severity == "unknown");
  BOOST_TEST(r.findings[4].vuln_id == "GHSA-ABCD-EFGH-IJKL");
  BOOST_TEST(*r.findings[4].package_type == "npm");
  BOOST_TEST(r.findings[4].fix_state == "not-fixed");
}

BOOST_AUTO_TEST_CASE(grype_reports_normalise_every_field_docs_scans_md_names) {
  ctl::ScanReport r = ctl::ParseReport("g.json", kGrype);
  BOOST_TEST(r.scanner_name == "grype");
  BOOST_TEST(*r.scanner_version == "0.38.0");
  BOOST_TEST(!r.scanned_at.has_value());
  BOOST_TEST(*r.vulndb_updated_at == "2022-07-01T08:16:25Z");
  BOOST_TEST(*r.os == "debian 11");
  BOOST_TEST(*r.image_size == 141507623);
  BOOST_TEST(*r.identity.image_id == kImageId);
  // repoDigests (what Trivy names) and the platform manifestDigest (what Syft names) alike.
  BOOST_TEST((r.identity.repo_digests == std::set<std::string>{kRepoDigest, "sha256:" + std::string(64, 'f')}));
  BOOST_TEST((r.identity.diff_ids == std::set<std::string>{kDiffId}));
  BOOST_TEST((r.repositories == std::vector<std::string>{"docker.io/library/nginx"}));
  BOOST_TEST_REQUIRE(r.findings.size() == 2u);
  const ctl::Finding& yaml = r.findings[0];
  BOOST_TEST(yaml.vuln_id == "GHSA-WXC4-F4M6-WWQV");
  BOOST_TEST((yaml.aliases == std::vector<std::string>{"CVE-2019-11254"}));
  BOOST_TEST(yaml.severity == "low");  // Negligible
  BOOST_TEST(yaml.fix_state == "fixed");
  BOOST_TEST(*yaml.fixed_version == "2.2.8, 3.0.1");
  BOOST_TEST(*yaml.cvss_score == 7.5);  // the matched record's (ghsa) highest CVSS version's base score
  BOOST_TEST(*yaml.package_type == "go");
  BOOST_TEST(*yaml.primary_url == "https://github.com/advisories/GHSA-wxc4-f4m6-wwqv");
  BOOST_TEST(!yaml.title.has_value());
  const ctl::Finding& libc = r.findings[1];
  BOOST_TEST(libc.aliases.empty());          // a related entry with the same id is no alias
  BOOST_TEST(*libc.cvss_score == 9.8);  // the matched record (debian) has none: the related NVD record's
  BOOST_TEST(libc.severity == "unknown");
  BOOST_TEST(libc.fix_state == "wont-fix");
  BOOST_TEST(!libc.fixed_version.has_value());
  BOOST_TEST(*libc.package_type == "os");
  BOOST_TEST(*libc.primary_url == "https://u/1");
}

BOOST_AUTO_TEST_CASE(normalisation_tables) {
  BOOST_TEST(ctl::TrivySeverity("CRITICAL") == "critical");
  BOOST_TEST(ctl::TrivySeverity("UNKNOWN") == "unknown");
  BOOST_TEST(ctl::GrypeSeverity("Negligible") == "low");
  BOOST_TEST(ctl::GrypeSeverity("High") == "high");
  BOOST_TEST(ctl::TrivyFixState(std::nullopt, std::string("1.2")) == "fixed");
  BOOST_TEST(ctl::TrivyFixState(std::nullopt, std::nullopt) == "not-fixed");
  BOOST_TEST(ctl::TrivyFixState(std::string("fix_deferred"), std::nullopt) == "not-fixed");
  BOOST_TEST(ctl::TrivyFixState(std::string("end_of_life"), std::nullopt) == "wont-fix");
  BOOST_TEST(ctl::TrivyFixState(std::string("unknown"), std::string("1.2")) == "unknown");
  BOOST_TEST(ctl::GrypeFixState("not-fixed") == "not-fixed");
  BOOST_TEST(ctl::GrypeFixState("") == "unknown");
  BOOST_TEST(ctl::TrivyPackageType("lang-pkgs", "jar") == "java");
  BOOST_TEST(ctl::TrivyPackageType("lang-pkgs", "gemspec") == "ruby");
  BOOST_TEST(ctl::TrivyPackageType("lang-pkgs", "pip") == "python");
  BOOST_TEST(ctl::TrivyPackageType("lang-pkgs", "cargo") == "rust");
  BOOST_TEST(ctl::TrivyPackageType("custom", "") == "binary");
  BOOST_TEST(ctl::TrivyPackageType("lang-pkgs", "swift") == "swift");
  BOOST_TEST(ctl::GrypePackageType("java-archive") == "java");
  BOOST_TEST(ctl::GrypePackageType("apk") == "os");
  BOOST_TEST(ctl::GrypePackageType("binary") == "binary");
  BOOST_TEST(ctl::GrypePackageType("python") == "python");
}

BOOST_AUTO_TEST_CASE(reports_are_recognised_by_content_and_refused_in_one_line_naming_the_file) {
  BOOST_TEST(Refusal([] { ctl::ParseReport("r.json", R"({"SchemaVersion": 1, "Results": []})"); }) ==
             "r.json: is a Trivy JSON report of SchemaVersion 1; only SchemaVersion 2 is accepted");
  BOOST_TEST(Refusal([] { ctl::ParseReport("r.json", R"({"bomFormat": "CycloneDX"})"); }) ==
             "r.json: is a CycloneDX document, not a scan report (pass it as --cyclonedx)");
  BOOST_TEST(Refusal([] { ctl::ParseReport("r.json", R"({"kind": "AdmissionReview"})"); }) ==
             "r.json: is neither a Trivy JSON report (SchemaVersion 2) nor a Grype JSON report");
  BOOST_TEST(Refusal([] { ctl::ParseReport("r.json", "[1, 2]"); }) ==
             "r.json: is not a scan report (a JSON object is expected)");
  std::string truncated = Refusal([] { ctl::ParseReport("r.json", kTrivy.substr(0, 100)); });
  BOOST_TEST(truncated.rfind("r.json: is not valid JSON: ", 0) == 0u, truncated);
  BOOST_TEST(truncated.find("of 100)") != std::string::npos, truncated);
  BOOST_TEST(Refusal([] {
               ctl::ParseReport("r.json",
                                R"({"SchemaVersion": 2, "Results": [{"Vulnerabilities": [{"PkgName": "x"}]}]})");
             }) == "r.json: Results[0].Vulnerabilities[0] has no VulnerabilityID");
  BOOST_TEST(Refusal([] {
               ctl::ParseReport("r.json", R"({"matches": [{"vulnerability": {"id": "CVE-1"}}], "source": {}})");
             }) == "r.json: matches[0] has no artifact object");
  for (const std::string& text : {std::string("{\"a\": \"\xff\"}"), std::string("")}) {
    BOOST_TEST(Refusal([&] { ctl::ParseReport("r.json", text); }).rfind("r.json: is not valid JSON", 0) == 0u);
  }
}

BOOST_AUTO_TEST_CASE(spdx_2_3_documents_give_their_tool_time_and_trivy_image_identity) {
  std::string spdx = R"({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "name": "x", "dataLicense": "CC0-1.0",
    "documentNamespace": "https://example.test/x", "creationInfo": {"created": "2024-05-01T10:00:00Z",
    "creators": ["Organization: aquasecurity", "Tool: trivy-0.52.0"]},
    "documentDescribes": ["SPDXRef-ContainerImage-1"],
    "packages": [{"SPDXID": "SPDXRef-ContainerImage-1", "name": "alpine:3.19", "primaryPackagePurpose": "CONTAINER",
      "downloadLocation": "NONE",
      "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                        "referenceLocator": "pkg:oci/alpine@sha256%3A)" +
                     std::string(64, 'e') + R"(?repository_url=x"}],
      "annotations": [{"annotationDate": "2024-05-01T10:00:00Z", "annotationType": "OTHER", "annotator": "Tool: trivy",
                       "comment": "ImageID: )" +
                     kImageId + R"("}, {"annotationDate": "2024-05-01T10:00:00Z", "annotationType": "OTHER",
                       "annotator": "Tool: trivy", "comment": "DiffID: )" + kDiffId + R"("}]}]})";
  ctl::SbomDocument d = ctl::ParseSpdx("s.json", spdx);
  BOOST_TEST(d.format == "spdx");
  BOOST_TEST(d.spec_version == "2.3");
  BOOST_TEST(*d.tool_name == "trivy");
  BOOST_TEST(*d.tool_version == "0.52.0");
  BOOST_TEST(*d.created == "2024-05-01T10:00:00Z");
  BOOST_TEST(*d.identity.image_id == kImageId);
  BOOST_TEST((d.identity.diff_ids == std::set<std::string>{kDiffId}));
  BOOST_TEST((d.identity.repo_digests == std::set<std::string>{kRepoDigest}));
  auto [name, version] = ctl::SplitToolName("LicenseFind-1.0");
  BOOST_TEST(name == "LicenseFind");
  BOOST_TEST(*version == "1.0");
  BOOST_TEST(!ctl::SplitToolName("syft").second.has_value());
}

BOOST_AUTO_TEST_CASE(spdx_documents_of_other_versions_and_other_formats_are_refused) {
  BOOST_TEST(Refusal([] { ctl::ParseSpdx("s.json", R"({"spdxVersion": "SPDX-2.2"})"); }) ==
             "s.json: is SPDX-2.2; only SPDX-2.3 JSON is accepted");
  BOOST_TEST(Refusal([] { ctl::ParseSpdx("s.json", R"({"bomFormat": "CycloneDX", "specVersion": "1.5"})"); }) ==
             "s.json: is a CycloneDX document, not SPDX (pass it as --cyclonedx)");
  BOOST_TEST(Refusal([] { ctl::ParseSpdx("s.json", R"({"name": "x"})"); }) ==
             "s.json: is not an SPDX JSON document (no spdxVersion)");
  // The official schema names what is missing; the 2.3.1 errata's documentNamespace is checked beyond it.
  BOOST_TEST(Refusal([] {
               ctl::ParseSpdx("s.json",
                              R"({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "creationInfo": {}})");
             }) == "s.json: is not valid SPDX 2.3 (official schema): /creationInfo: Missing required property "
                   "'created'; /creationInfo: Missing required property 'creators'; (root): Missing required "
                   "property 'dataLicense'; (root): Missing required property 'name'");
  BOOST_TEST(Refusal([] {
               ctl::ParseSpdx("s.json", R"({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "name": "x",
                 "dataLicense": "CC0-1.0", "creationInfo": {"created": "2024-05-01T10:00:00Z", "creators": ["Tool: t-1"]}})");
             }) == "s.json: is not a valid SPDX 2.3 document: no documentNamespace");
}

BOOST_AUTO_TEST_CASE(cyclonedx_1_5_documents_give_their_tool_time_and_image_identity) {
  std::string cdx =
      R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "metadata": {"timestamp": "2024-05-01T10:00:00+00:00",
    "tools": {"components": [{"type": "application", "group": "aquasecurity", "name": "trivy", "version": "0.52.0"}]},
    "component": {"type": "container", "name": "alpine:3.19",
      "purl": "pkg:oci/alpine@sha256:)" +
      std::string(64, 'e') + R"(?arch=amd64",
      "properties": [{"name": "aquasecurity:trivy:ImageID", "value": ")" +
      kImageId + R"("},
                     {"name": "aquasecurity:trivy:DiffID", "value": ")" +
      kDiffId + R"("},
                     {"name": "aquasecurity:trivy:RepoDigest", "value": "alpine@)" +
      kRepoDigest + R"("}]}}})";
  ctl::SbomDocument d = ctl::ParseCycloneDx("c.json", cdx);
  BOOST_TEST(d.format == "cyclonedx");
  BOOST_TEST(d.spec_version == "1.5");
  BOOST_TEST(*d.tool_name == "trivy");
  BOOST_TEST(*d.tool_version == "0.52.0");
  BOOST_TEST(*d.created == "2024-05-01T10:00:00+00:00");
  BOOST_TEST(*d.identity.image_id == kImageId);
  BOOST_TEST((d.identity.repo_digests == std::set<std::string>{kRepoDigest}));
  BOOST_TEST((d.identity.diff_ids == std::set<std::string>{kDiffId}));
  // The 1.4 form of tools, and no image at all, are fine too.
  ctl::SbomDocument old_tools = ctl::ParseCycloneDx(
      "c.json",
      R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "metadata": {"tools": [{"name": "syft", "version": "1.0"}]}})");
  BOOST_TEST(*old_tools.tool_name == "syft");
  BOOST_TEST(!old_tools.identity.image_id.has_value());
}

BOOST_AUTO_TEST_CASE(cyclonedx_documents_of_other_versions_and_other_formats_are_refused) {
  for (const char* version : {"1.4", "1.6", "1.7"}) {
    std::string doc = std::string(R"({"bomFormat": "CycloneDX", "specVersion": ")") + version + "\"}";
    BOOST_TEST(Refusal([&] { ctl::ParseCycloneDx("c.json", doc); }) ==
               std::string("c.json: is CycloneDX ") + version + "; only CycloneDX 1.5 JSON is accepted");
  }
  BOOST_TEST(Refusal([] { ctl::ParseCycloneDx("c.json", R"({"payloadType": "application/vnd.in-toto+json"})"); }) ==
             "c.json: is an in-toto/DSSE envelope, not a CycloneDX JSON document (extract the SBOM first)");
  BOOST_TEST(Refusal([] { ctl::ParseCycloneDx("c.json", R"({"spdxVersion": "SPDX-2.3"})"); }) ==
             "c.json: is an SPDX document, not CycloneDX (pass it as --spdx)");
  BOOST_TEST(Refusal([] { ctl::ParseCycloneDx("c.json", R"({"@context": "https://openvex.dev/ns"})"); }) ==
             "c.json: is not a CycloneDX JSON document (no \"bomFormat\": \"CycloneDX\")");
}

BOOST_AUTO_TEST_CASE(every_fixture_report_parses_into_the_findings_it_holds) {
  struct Expected {
    const char* file;
    const char* scanner;
    size_t findings;
    size_t distinct;
  };
  for (const Expected& e : std::vector<Expected>{
           {"scans/msusel-2022-07-01/alpine_latest.trivy-0.29.1.json", "trivy", 0, 0},
           {"scans/msusel-2022-07-01/alpine_latest.grype-0.38.0.json", "grype", 0, 0},
           {"scans/msusel-2022-07-01/golang_1.18.trivy-0.29.1.json", "trivy", 395, 191},
           {"scans/msusel-2022-07-01/golang_1.18.grype-0.38.0.json", "grype", 395, 191},
           {"scans/msusel-2022-07-01/itzg_minecraft-server_java8.trivy-0.29.1.json", "trivy", 224, 94},
           {"scans/msusel-2022-07-01/itzg_minecraft-server_java8.grype-0.38.0.json", "grype", 662, 297},
           {"scans/msusel-2022-07-01/nginx_latest.trivy-0.29.1.json", "trivy", 152, 98},
           {"scans/msusel-2022-07-01/nginx_latest.grype-0.38.0.json", "grype", 152, 98},
           {"scans/msusel-2022-07-01/ubuntu_latest.trivy-0.29.1.json", "trivy", 22, 12},
           {"scans/msusel-2022-07-01/ubuntu_latest.grype-0.38.0.json", "grype", 22, 12},
           {"scans/trivy-integration-v0.50.0/alpine-310.trivy-image-scan.json", "trivy", 4, 2},
           {"scans/trivy-integration-v0.50.0/centos-7.trivy-image-scan.json", "trivy", 3, 3},
           {"scans/trivy-integration-v0.50.0/debian-buster.trivy-image-scan.json", "trivy", 2, 2},
           {"scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json", "trivy", 2, 2},
           {"scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-sbom-scan.json", "trivy", 3, 3},
           {"scans/trivy-integration-v0.50.0/spring4shell-jre11.trivy-image-scan.json", "trivy", 1, 1},
           {"scans/trivy-integration-v0.50.0/ubuntu-1804.trivy-image-scan.json", "trivy", 5, 2}}) {
    BOOST_TEST_CONTEXT(e.file) {
      ctl::ScanReport r = ctl::ParseReport(e.file, ReadAll(FixturePath(e.file)));
      BOOST_TEST(r.scanner_name == e.scanner);
      BOOST_TEST(r.findings.size() == e.findings);
      std::set<std::string> distinct;
      for (const ctl::Finding& f : r.findings) {
        if (f.fix_state != "not-affected") distinct.insert(f.vuln_id);
      }
      BOOST_TEST(distinct.size() == e.distinct);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
