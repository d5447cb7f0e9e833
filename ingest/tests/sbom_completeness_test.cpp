// SBOM completeness against SPEC.md rule 3: the figures of real Trivy and Syft documents
// (../shared/fixtures), and small crafted documents for each figure and rule.
#include "ingest/sbom_completeness.hpp"

#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "icat/json.hpp"
#include "ingest/sbom_docs.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;
using icat::test::FixturePath;
using icat::test::ReadAll;

namespace {

// The figures of a document measured directly (for documents of versions ingest refuses, and for
// crafted ones that need not be schema-valid), with the tool and digest the caller says it names.
ctl::SbomCompleteness Measure(const std::string& json, const std::string& format,
                              std::optional<std::string> tool_name = "trivy",
                              std::optional<std::string> tool_version = "0.50.0",
                              std::optional<std::string> repo_digest = "sha256:" + std::string(64, 'a')) {
  icat::JsonRead read = icat::ReadJson(json, icat::kMaxDocumentDepth);
  BOOST_TEST_REQUIRE(read.error.empty(), read.error);
  ctl::SbomDocument doc;
  doc.format = format;
  doc.tool_name = std::move(tool_name);
  doc.tool_version = std::move(tool_version);
  if (repo_digest) doc.identity.repo_digests.insert(*repo_digest);
  return ctl::MeasureCompleteness(read.document, doc);
}

// A CycloneDX document with these components and dependencies (JSON texts of the arrays).
std::string CycloneDx(const std::string& components, const std::string& dependencies = "[]") {
  return R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "metadata": {"component":
    {"bom-ref": "image", "type": "container", "name": "app"}}, "components": )" +
         components + R"(, "dependencies": )" + dependencies + "}";
}

// A complete library component: exact version, a hash, an SPDX licence id, a purl.
std::string Library(const std::string& ref, const std::string& extra = "") {
  return R"({"bom-ref": ")" + ref + R"(", "type": "library", "name": ")" + ref +
         R"(", "version": "1.2.3", "purl": "pkg:npm/)" + ref +
         R"(@1.2.3", "hashes": [{"alg": "SHA-256", "content": "00"}], "licenses": [{"license": {"id": "MIT"}}])" +
         extra + "}";
}

std::string Spdx(const std::string& packages, const std::string& relationships) {
  return R"({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "packages": )" + packages +
         R"(, "relationships": )" + relationships + "}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sbom_completeness)

// The issue's example: Trivy's fluentd CycloneDX 1.5 has no checksums, licence names that are not
// SPDX ids, tool version "dev" and no image digest. Its 161 components are 160 packages and Debian
// itself (the operating-system component, like the image, is not a package).
BOOST_AUTO_TEST_CASE(trivy_fluentd_cyclonedx_is_measured_and_falls_short_of_rule_3) {
  std::string path =
      FixturePath("sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json");
  ctl::SbomDocument doc = ctl::ParseCycloneDx(path, ReadAll(path));
  const ctl::SbomCompleteness& c = doc.completeness;
  BOOST_TEST(c.packages == 160);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"os", 105}, {"ruby", 55}}));
  BOOST_TEST(c.exact_versions == 160);
  BOOST_TEST(c.checksums == 0);
  BOOST_TEST(c.in_graph == 160);
  BOOST_TEST(c.relationships == 343);
  BOOST_TEST(c.spdx_licenses == 100);  // e.g. base-passwd: GPL-2.0 and "PD"; diffutils: "GFDL"
  BOOST_TEST(*c.tool_name == "trivy");
  BOOST_TEST(*c.tool_version == "dev");
  BOOST_TEST(!c.tool_release);
  BOOST_TEST(!c.image_digest.has_value());
  BOOST_TEST(c.shortfalls == (std::vector<std::string>{"no SPDX licence identifier for 60 of 160 packages",
                                                       "the tool version \"dev\" is not a release version",
                                                       "the image digest is not given"}),
             boost::test_tools::per_element());
  BOOST_TEST(ctl::CompletenessLine(doc) ==
             "cyclonedx 1.5: 160 packages (os 105, ruby 55), exact versions 100%, checksums 0%, dependency graph "
             "100%, SPDX licence ids 62%, tool trivy dev (not a release version), image digest missing; below rule "
             "3: no SPDX licence identifier for 60 of 160 packages, the tool version \"dev\" is not a release "
             "version, the image digest is not given");
}

// Syft 0.58.0's CycloneDX (1.4, which ingest refuses, so measured directly): SPDX ids for every
// package, a release version, but no dependency graph at all and no image digest.
BOOST_AUTO_TEST_CASE(syft_alpine_cyclonedx_has_licence_ids_but_no_graph) {
  std::string json = ReadAll(FixturePath("sboms/guac/alpine_latest.syft-0.58.0.cdx-1.4.json"));
  ctl::SbomCompleteness c = Measure(json, "cyclonedx", "syft", "0.58.0", std::nullopt);
  BOOST_TEST(c.packages == 14);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"os", 14}}));  // pkg:alpine/..., Syft's old purl type
  BOOST_TEST(c.exact_versions == 14);
  BOOST_TEST(c.checksums == 0);
  BOOST_TEST(c.in_graph == 0);
  BOOST_TEST(c.relationships == 0);
  BOOST_TEST(c.spdx_licenses == 14);
  BOOST_TEST(c.tool_release);
  BOOST_TEST(c.shortfalls ==
                 (std::vector<std::string>{"the dependency graph leaves out 14 of 14 packages",
                                           "the image digest is not given"}),
             boost::test_tools::per_element());
}

// Syft 0.57.0's SPDX 2.2 of the same image: its relationships are packages CONTAINS files, which
// place no package in a dependency graph.
BOOST_AUTO_TEST_CASE(syft_alpine_spdx_relationships_to_files_are_no_dependency_graph) {
  std::string json = ReadAll(FixturePath("sboms/guac/alpine_latest.syft-0.57.0.spdx-2.2.json"));
  ctl::SbomCompleteness c = Measure(json, "spdx", "syft", "0.57.0", std::nullopt);
  BOOST_TEST(c.packages == 14);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"os", 14}}));
  BOOST_TEST(c.exact_versions == 14);
  BOOST_TEST(c.checksums == 0);
  BOOST_TEST(c.in_graph == 0);
  BOOST_TEST(c.relationships == 0);
  BOOST_TEST(c.spdx_licenses == 14);  // "MPL-2.0 AND MIT" is an expression of ids
}

// Trivy's centos-7 SPDX: the image and OS packages are not counted; OS CONTAINS places both RPMs;
// "GPLv3+" is no SPDX id, "OpenSSL" is.
BOOST_AUTO_TEST_CASE(trivy_centos_spdx_counts_packages_not_the_image_or_os) {
  std::string json = ReadAll(FixturePath("sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.spdx-2.2.json"));
  ctl::SbomCompleteness c = Measure(json, "spdx", "trivy", "dev", std::nullopt);
  BOOST_TEST(c.packages == 2);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"os", 2}}));
  BOOST_TEST(c.in_graph == 2);
  BOOST_TEST(c.relationships == 3);
  BOOST_TEST(c.spdx_licenses == 1);
}

BOOST_AUTO_TEST_CASE(a_complete_document_meets_rule_3) {
  ctl::SbomCompleteness c = Measure(CycloneDx("[" + Library("a") + ", " + Library("b") + "]",
                                              R"([{"ref": "image", "dependsOn": ["a"]}, {"ref": "a", "dependsOn": ["b"]},
                                                  {"ref": "b", "dependsOn": []}])"),
                                    "cyclonedx");
  BOOST_TEST(c.packages == 2);
  BOOST_TEST(c.exact_versions == 2);
  BOOST_TEST(c.checksums == 2);
  BOOST_TEST(c.in_graph == 2);
  BOOST_TEST(c.relationships == 2);
  BOOST_TEST(c.spdx_licenses == 2);
  BOOST_TEST(c.shortfalls == std::vector<std::string>{}, boost::test_tools::per_element());
}

// Checksums are asked "where available": shown, not required.
BOOST_AUTO_TEST_CASE(missing_checksums_are_counted_but_do_not_fail_rule_3) {
  ctl::SbomCompleteness c = Measure(
      CycloneDx(R"([{"bom-ref": "a", "type": "library", "name": "a", "version": "1.0", "licenses": [{"expression": "MIT"}]}])",
                R"([{"ref": "a", "dependsOn": []}])"),
      "cyclonedx");
  BOOST_TEST(c.checksums == 0);
  BOOST_TEST(c.shortfalls.empty());
}

BOOST_AUTO_TEST_CASE(a_component_only_named_in_dependson_has_unknown_dependencies) {
  ctl::SbomCompleteness c = Measure(CycloneDx("[" + Library("a") + ", " + Library("b") + "]",
                                              R"([{"ref": "image", "dependsOn": ["a", "b"]}, {"ref": "a"}])"),
                                    "cyclonedx");
  BOOST_TEST(c.in_graph == 1);
  BOOST_TEST(c.relationships == 2);
  BOOST_TEST(c.shortfalls == (std::vector<std::string>{"the dependency graph leaves out 1 of 2 packages"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(kinds_come_from_the_purl_then_the_scanner_type_then_the_component_type) {
  ctl::SbomCompleteness c = Measure(CycloneDx(R"([
      {"type": "library", "name": "j", "purl": "pkg:maven/org.a/j@1.0"},
      {"type": "library", "name": "g", "properties": [{"name": "aquasecurity:trivy:PkgType", "value": "gobinary"}]},
      {"type": "library", "name": "d", "properties": [{"name": "aquasecurity:trivy:Class", "value": "os-pkgs"},
                                                        {"name": "aquasecurity:trivy:PkgType", "value": "debian"}]},
      {"type": "library", "name": "b", "purl": "pkg:generic/busybox@1.36",
       "properties": [{"name": "syft:package:type", "value": "binary"}]},
      {"type": "application", "name": "tool"},
      {"type": "library", "name": "x"},
      {"type": "library", "name": "h", "purl": "pkg:hex/phoenix@1.7.0",
       "components": [{"type": "library", "name": "inner", "purl": "pkg:pypi/requests@2.31.0"}]},
      {"type": "operating-system", "name": "debian", "version": "12"},
      {"type": "container", "name": "another image"}])"),
                                    "cyclonedx");
  BOOST_TEST(c.packages == 8);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"binary", 2}, {"go", 1}, {"hex", 1}, {"java", 1},
                                                          {"os", 1}, {"python", 1}, {"unknown", 1}}));
}

BOOST_AUTO_TEST_CASE(every_licence_of_a_package_must_be_an_spdx_id) {
  ctl::SbomCompleteness c = Measure(CycloneDx(R"([
      {"type": "library", "name": "id", "licenses": [{"license": {"id": "Apache-2.0"}}]},
      {"type": "library", "name": "name-that-is-an-id", "licenses": [{"license": {"name": "GPL-2.0-only"}}]},
      {"type": "library", "name": "expression", "licenses": [{"expression": "(MIT OR Apache-2.0) AND BSD-3-Clause"}]},
      {"type": "library", "name": "two", "licenses": [{"license": {"id": "MIT"}}, {"license": {"name": "public-domain"}}]},
      {"type": "library", "name": "text-only", "licenses": [{"license": {"url": "https://example.test/licence"}}]},
      {"type": "library", "name": "none"}])"),
                                    "cyclonedx");
  BOOST_TEST(c.packages == 6);
  BOOST_TEST(c.spdx_licenses == 3);
}

BOOST_AUTO_TEST_CASE(spdx_graph_licences_checksums_and_the_image_and_os_left_out) {
  ctl::SbomCompleteness c = Measure(
      Spdx(R"([
        {"SPDXID": "SPDXRef-image", "name": "app", "primaryPackagePurpose": "CONTAINER"},
        {"SPDXID": "SPDXRef-os", "name": "debian", "versionInfo": "12", "primaryPackagePurpose": "OPERATING_SYSTEM"},
        {"SPDXID": "SPDXRef-a", "name": "a", "versionInfo": "1.0", "licenseConcluded": "NOASSERTION",
         "licenseDeclared": "MIT", "checksums": [{"algorithm": "SHA256", "checksumValue": "00"}],
         "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                           "referenceLocator": "pkg:deb/debian/a@1.0"}]},
        {"SPDXID": "SPDXRef-b", "name": "b", "versionInfo": ">=2.0", "licenseConcluded": "LicenseRef-mine",
         "primaryPackagePurpose": "APPLICATION"},
        {"SPDXID": "SPDXRef-c", "name": "c", "versionInfo": "3", "licenseDeclared": "NONE"},
        {"SPDXID": "SPDXRef-d", "name": "d", "versionInfo": "4", "licenseDeclared": "Zlib"}])",
           R"([
        {"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES", "relatedSpdxElement": "SPDXRef-image"},
        {"spdxElementId": "SPDXRef-image", "relationshipType": "CONTAINS", "relatedSpdxElement": "SPDXRef-os"},
        {"spdxElementId": "SPDXRef-os", "relationshipType": "CONTAINS", "relatedSpdxElement": "SPDXRef-a"},
        {"spdxElementId": "SPDXRef-b", "relationshipType": "DEPENDS_ON", "relatedSpdxElement": "NONE"},
        {"spdxElementId": "SPDXRef-c", "relationshipType": "CONTAINS", "relatedSpdxElement": "SPDXRef-File-1"}])"),
      "spdx");
  BOOST_TEST(c.packages == 4);
  BOOST_TEST((c.kinds == std::map<std::string, long long>{{"binary", 1}, {"os", 1}, {"unknown", 2}}));
  BOOST_TEST(c.exact_versions == 3);
  BOOST_TEST(c.checksums == 1);
  BOOST_TEST(c.in_graph == 2);  // a (in the OS) and b (DEPENDS_ON NONE); c only contains a file, d is nowhere
  BOOST_TEST(c.relationships == 3);
  BOOST_TEST(c.spdx_licenses == 2);  // a (declared MIT), d
  BOOST_TEST(c.shortfalls == (std::vector<std::string>{"no exact version for 1 of 4 packages",
                                                       "the dependency graph leaves out 2 of 4 packages",
                                                       "no SPDX licence identifier for 2 of 4 packages"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(tool_and_digest_shortfalls) {
  std::string doc = CycloneDx("[" + Library("a") + "]", R"([{"ref": "a", "dependsOn": []}])");
  BOOST_TEST(Measure(doc, "cyclonedx", std::nullopt, std::nullopt).shortfalls ==
                 (std::vector<std::string>{"the tool that made it is not named", "the tool version is not given"}),
             boost::test_tools::per_element());
  BOOST_TEST(Measure(doc, "cyclonedx", "syft", "1.0.0-SNAPSHOT-abc", std::nullopt).shortfalls ==
                 (std::vector<std::string>{"the tool version \"1.0.0-SNAPSHOT-abc\" is not a release version",
                                           "the image digest is not given"}),
             boost::test_tools::per_element());
  BOOST_TEST(Measure(CycloneDx("[]"), "cyclonedx").shortfalls == std::vector<std::string>{"it lists no packages"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_stored_json_names_every_figure_in_camel_case) {
  ctl::SbomCompleteness c = Measure(CycloneDx("[" + Library("a") + "]"), "cyclonedx", "trivy", "dev");
  icat::JsonRead read = icat::ReadJson(ctl::CompletenessJson(c), 8);
  BOOST_TEST_REQUIRE(read.error.empty());
  const rapidjson::Value& d = read.document;
  BOOST_TEST(d["packages"].GetInt() == 1);
  BOOST_TEST(d["packageKinds"]["npm"].GetInt() == 1);
  BOOST_TEST(d["exactVersions"].GetInt() == 1);
  BOOST_TEST(d["checksums"].GetInt() == 1);
  BOOST_TEST(d["inDependencyGraph"].GetInt() == 0);
  BOOST_TEST(d["relationships"].GetInt() == 0);
  BOOST_TEST(d["spdxLicenses"].GetInt() == 1);
  BOOST_TEST(std::string(d["toolName"].GetString()) == "trivy");
  BOOST_TEST(std::string(d["toolVersion"].GetString()) == "dev");
  BOOST_TEST(d["toolVersionIsRelease"].GetBool() == false);
  BOOST_TEST(std::string(d["imageDigest"].GetString()) == "sha256:" + std::string(64, 'a'));
  BOOST_TEST(d["meetsRule3"].GetBool() == false);
  BOOST_TEST(d["shortfalls"].Size() == 2u);
  BOOST_TEST(d.MemberCount() == 13u);
}

BOOST_AUTO_TEST_CASE(exact_versions_are_single_versions_not_ranges_or_wildcards) {
  for (const char* exact : {"2.28-10", "1:1.2.13.dfsg-1", "1.0.6-9.2~deb10u1", "4.2.46-31.el7", "v0.0.0-20210101-abcdef",
                            "1.2^post1", "3.2019.1009", "1.0.post1"}) {
    BOOST_TEST(ctl::IsExactVersion(exact), exact);
  }
  for (const char* not_exact : {"", "^1.2.3", "~1.2", ">=1.0", ">=1.0 <2.0", "1.x", "2.X.1", "*", "1.2.*", "[1.0,2.0)",
                                "1.0 - 2.0", "1 || 2", "latest", "NOASSERTION", "vers:npm/>=1.0"}) {
    BOOST_TEST(!ctl::IsExactVersion(not_exact), not_exact);
  }
}

BOOST_AUTO_TEST_CASE(release_versions_are_dotted_numbers) {
  for (const char* release : {"0.50.0", "v1.2", "2.0.10"}) BOOST_TEST(ctl::IsReleaseVersion(release), release);
  for (const char* other : {"", "dev", "1", "v", "0.51.0-SNAPSHOT", "1.2.", ".1.2", "1..2", "canary"}) {
    BOOST_TEST(!ctl::IsReleaseVersion(other), other);
  }
}

BOOST_AUTO_TEST_CASE(spdx_licences_are_ids_of_the_list_or_expressions_of_them) {
  for (const char* id : {"MIT", "mit", "GPL-2.0+", "GPL-2.0-only", "Apache-2.0 OR MIT", "MPL-2.0 and MIT",
                         "(MIT AND BSD-3-Clause) OR GPL-2.0-or-later WITH Classpath-exception-2.0", "((Zlib))"}) {
    BOOST_TEST(ctl::IsSpdxLicense(id), id);
  }
  for (const char* other : {"", "NOASSERTION", "NONE", "LicenseRef-mine", "public-domain", "GPLv3+", "Expat",
                            "MIT AND", "OR MIT", "(MIT", "MIT)", "MIT OR OR Zlib", "MIT Zlib", "()", "+"}) {
    BOOST_TEST(!ctl::IsSpdxLicense(other), other);
  }
}

BOOST_AUTO_TEST_CASE(purl_types_map_to_the_findings_package_types) {
  BOOST_TEST(ctl::PurlKind("pkg:deb/debian/bash@5.0-4?arch=amd64") == "os");
  BOOST_TEST(ctl::PurlKind("pkg:rpm/centos/bash@4.2.46") == "os");
  BOOST_TEST(ctl::PurlKind("pkg:apk/alpine/musl@1.2.3") == "os");
  BOOST_TEST(ctl::PurlKind("pkg:gem/rake@13.0.1") == "ruby");
  BOOST_TEST(ctl::PurlKind("pkg:maven/org.a/b@1") == "java");
  BOOST_TEST(ctl::PurlKind("pkg:golang/github.com/a/b@v1.0.0") == "go");
  BOOST_TEST(ctl::PurlKind("pkg:pypi/requests@2.31.0") == "python");
  BOOST_TEST(ctl::PurlKind("pkg:npm/%40scope/a@1.0.0") == "npm");
  BOOST_TEST(ctl::PurlKind("pkg:Cargo/serde@1.0") == "rust");
  BOOST_TEST(ctl::PurlKind("pkg:generic/busybox@1.36").empty());
  BOOST_TEST(ctl::PurlKind("pkg:oci/alpine@sha256%3Aabc").empty());
  BOOST_TEST(ctl::PurlKind("not a purl").empty());
}

BOOST_AUTO_TEST_SUITE_END()
