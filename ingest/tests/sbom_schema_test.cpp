// Ingest's schema check: the official SPDX 2.3 and CycloneDX 1.5 schemas (schemas/, valijson) accept
// every real document and every demo SBOM, and refuse each crafted violation with its JSON pointer.
#include "ingest/sbom_schema.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "icat/json.hpp"
#include "ingest/sbom_docs.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;
using icat::test::FixturePath;
using icat::test::ReadAll;
using icat::test::Refusal;

namespace {

// The schema's verdict on a file: "" when valid, else the refusal.
std::string Verdict(ctl::OfficialSchema schema, const std::string& path) {
  icat::JsonRead read = icat::ReadJson(ReadAll(path), icat::kMaxDocumentDepth);
  BOOST_TEST_REQUIRE(read.error.empty(), path << ": " << read.error);
  return Refusal([&] { ctl::ValidateAgainstSchema(schema, path, read.document); });
}

const std::string kSpdxHead =
    R"("spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "documentNamespace": "https://example.test/x")";

// A CycloneDX 1.5 document with one component given as JSON text.
std::string CycloneDxWith(const std::string& component, const std::string& timestamp = "2024-05-01T10:00:00Z") {
  return R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "metadata": {"timestamp": ")" + timestamp +
         R"(", "component": {"type": "container", "name": "app"}}, "components": [)" + component + "]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sbom_schema)

BOOST_AUTO_TEST_CASE(every_real_cyclonedx_1_5_and_spdx_2_3_fixture_is_valid) {
  for (const char* file : {"sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json",
                           "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.sbom-input.trivy-dev.cdx-1.5.json",
                           "sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.cdx-1.5.json",
                           "vex/cyclonedx-spec_valid-vulnerability-1.5.json"}) {
    BOOST_TEST(Verdict(ctl::OfficialSchema::kCycloneDx15, FixturePath(file)) == "", file);
  }
  BOOST_TEST(Verdict(ctl::OfficialSchema::kSpdx23, FixturePath("sboms/spec-examples/SPDXJSONExample-v2.3.spdx.json")) == "");
}

BOOST_AUTO_TEST_CASE(every_demo_sbom_is_valid) {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(icat::test::RepoDir() + "/tools/demo")) {
    std::string name = entry.path().filename();
    if (name != "sbom.spdx.json" && name != "sbom.cdx.json") continue;
    ctl::OfficialSchema schema = name == "sbom.spdx.json" ? ctl::OfficialSchema::kSpdx23 : ctl::OfficialSchema::kCycloneDx15;
    BOOST_TEST(Verdict(schema, entry.path()) == "", entry.path());
    checked++;
  }
  BOOST_TEST(checked >= 16);  // 8 versions (one with two scans), each with both formats
}

BOOST_AUTO_TEST_CASE(an_spdx_document_of_four_fields_is_refused_naming_what_is_missing) {
  std::string four_fields = "{" + kSpdxHead + R"(, "creationInfo": {"created": "2024-05-01T10:00:00Z"}})";
  BOOST_TEST(Refusal([&] { ctl::ParseSpdx("s.json", four_fields); }) ==
             "s.json: is not valid SPDX 2.3 (official schema): /creationInfo: Missing required property 'creators'; "
             "(root): Missing required property 'dataLicense'; (root): Missing required property 'name'");
}

BOOST_AUTO_TEST_CASE(an_spdx_package_purpose_outside_the_enum_is_refused) {
  std::string spdx = "{" + kSpdxHead + R"(, "name": "x", "dataLicense": "CC0-1.0",
    "creationInfo": {"created": "2024-05-01T10:00:00Z", "creators": ["Tool: t-1"]},
    "packages": [{"SPDXID": "SPDXRef-os", "name": "debian", "downloadLocation": "NONE",
                  "primaryPackagePurpose": "OPERATING-SYSTEM"}]})";
  std::string refusal = Refusal([&] { ctl::ParseSpdx("s.json", spdx); });
  BOOST_TEST(refusal.rfind("s.json: is not valid SPDX 2.3 (official schema): /packages/0/primaryPackagePurpose: ", 0) ==
                 0u,
             refusal);
}

BOOST_AUTO_TEST_CASE(a_cyclonedx_banana_type_numeric_purl_and_bad_timestamp_are_each_refused) {
  struct Case {
    std::string document, pointer;
  };
  for (const Case& c : {
           Case{CycloneDxWith(R"({"type": "banana", "name": "x"})"), "/components/0/type: "},
           Case{CycloneDxWith(R"({"type": "library", "name": "x", "purl": 42})"), "/components/0/purl: "},
           Case{CycloneDxWith(R"({"type": "library", "name": "x"})", "yesterday"), "/metadata/timestamp: "},
       }) {
    std::string refusal = Refusal([&] { ctl::ParseCycloneDx("c.json", c.document); });
    BOOST_TEST(refusal.rfind("c.json: is not valid CycloneDX 1.5 (official schema): " + c.pointer, 0) == 0u, refusal);
  }
  BOOST_TEST(Refusal([] { ctl::ParseCycloneDx("c.json", CycloneDxWith(R"({"type": "library", "name": "x"})")); }) == "");
}

// A value of a type a "format" check cannot read (an object where a date-time goes) once made
// valijson abort() the process (vex_fuzz found it; the corpus keeps its input): it is a refusal.
BOOST_AUTO_TEST_CASE(an_object_where_a_formatted_string_goes_is_refused_without_a_crash) {
  rapidjson::Document document = icat::ParseJson(
      R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/1", "author": "a", )"
      R"("timestamp": "2026-01-10T10:00:00Z", "version": 1, "statements": [{"vulnerability": {"name": "CVE-2024-1"}, )"
      R"("products": [{"@id": "pkg:oci/app"}], "status": "affected", "action_statement": "Update", )"
      R"("action_statement_timestamp": {"name": "CVE-2024-4"}}]})");
  std::string refusal = Refusal([&] { ctl::ValidateAgainstSchema(ctl::OfficialSchema::kOpenVex020, "v.json", document); });
  BOOST_TEST(refusal.rfind("v.json: is not valid OpenVEX 0.2.0 (official schema): ", 0) == 0u, refusal);
}

BOOST_AUTO_TEST_CASE(a_refusal_names_five_violations_and_counts_the_rest) {
  std::string components;
  for (int i = 0; i < 8; i++) components += std::string(i ? "," : "") + R"({"type": "banana", "name": "x"})";
  std::string document = R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "components": [)" +
                         components + "]}";
  std::string refusal = Refusal([&] { ctl::ParseCycloneDx("c.json", document); });
  BOOST_TEST(refusal.find("/components/4/type") != std::string::npos, refusal);
  BOOST_TEST(refusal.find("/components/5/type") == std::string::npos, refusal);
  BOOST_TEST(refusal.find("; and ") != std::string::npos, refusal);
}

// valijson checks date-time with std::regex, which recurses once per character: a huge timestamp
// must be a refusal, not a stack overflow.
BOOST_AUTO_TEST_CASE(a_megabyte_timestamp_is_refused_without_a_crash) {
  std::string refusal = Refusal([] {
    ctl::ParseCycloneDx("c.json", CycloneDxWith(R"({"type": "library", "name": "x"})", std::string(1 << 20, '1')));
  });
  BOOST_TEST(refusal.find("/metadata/timestamp") != std::string::npos, refusal);
}

// uniqueItems is checked in linear time for the big arrays (sbom_schema.cpp): equal items are
// found whatever the order of their members, and distinct ones pass.
BOOST_AUTO_TEST_CASE(equal_components_are_refused_whatever_the_order_of_their_members) {
  std::string a = R"({"type": "library", "name": "a", "version": "1"})";
  std::string a_reordered = R"({"version": "1", "name": "a", "type": "library"})";
  std::string b = R"({"type": "library", "name": "a", "version": "2"})";
  BOOST_TEST(Refusal([&] { ctl::ParseCycloneDx("c.json", CycloneDxWith(a + "," + b)); }) == "");
  BOOST_TEST(Refusal([&] { ctl::ParseCycloneDx("c.json", CycloneDxWith(a + "," + b + "," + a_reordered)); }) ==
             "c.json: is not valid CycloneDX 1.5 (official schema): /components: elements at indexes #0 and #2 are "
             "equal (uniqueItems)");
  std::string dependencies = R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1,
    "dependencies": [{"ref": "x", "dependsOn": ["y", "y"]}]})";
  BOOST_TEST(Refusal([&] { ctl::ParseCycloneDx("c.json", dependencies); }) ==
             "c.json: is not valid CycloneDX 1.5 (official schema): /dependencies/0/dependsOn: elements at indexes #0 "
             "and #1 are equal (uniqueItems)");
}

BOOST_AUTO_TEST_CASE(a_string_over_a_mebibyte_is_refused_before_the_schema_check) {
  std::string name(1 << 20, 'x');
  name += 'y';
  std::string refusal = Refusal([&] { ctl::ParseCycloneDx("c.json", CycloneDxWith(R"({"type": "library", "name": ")" + name + R"("})")); });
  BOOST_TEST(refusal == "c.json: /components/0/name: a string of 1048577 bytes, over the 1 MiB a field may hold");
}

BOOST_AUTO_TEST_SUITE_END()
