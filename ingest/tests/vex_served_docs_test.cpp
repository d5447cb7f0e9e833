// The VEX documents the service serves (ingest/vex_served_docs.cpp, docs/vex-documents.md):
// valid against the official schemas, the same bytes for the same statements, the version as Trivy
// and Grype name it, the CycloneDX analysis mapped back, BOM-Links into the version's SBOM, which
// statements are left out, and documents vex ingest reads back as the statements they were made of.
#include "ingest/vex_served_docs.hpp"

#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/vocabulary.hpp"
#include "ingest/purl.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_schema.hpp"
#include "ingest/vex_docs.hpp"

namespace ctl = icat::ctl;

namespace {

const std::string kHex = "5a992077baba51b97f27591a10d54d2f2723dc9c81a3fe419e261023f2554933";
const ctl::VexSubject kSubject{"7d1e6c2a-3b4f-4c5d-8e9f-0a1b2c3d4e5f", "registry.example.test/hardened/nginx", "1.27.3",
                               "sha256:" + kHex};
const std::string kPurl = "pkg:oci/nginx@sha256%3A" + kHex + "?repository_url=registry.example.test%2Fhardened%2Fnginx";
const std::string kLibidn = "pkg:deb/debian/libidn2-0@2.0.5-1?arch=amd64&distro=debian-10.2";

ctl::ServedStatement Statement(long long id, std::string vuln_id, std::string status, std::string time,
                               std::vector<std::string> subcomponents = {}) {
  ctl::ServedStatement s;
  s.id = id;
  s.vuln_id = std::move(vuln_id);
  s.status = std::move(status);
  s.time = std::move(time);
  s.subcomponents = std::move(subcomponents);
  s.author = "Vendor Security";
  return s;
}

// One statement of each status: not_affected (justified, about one package, with an alias), affected
// without an action statement (as a CycloneDX exploitable may come), fixed, under_investigation.
std::vector<ctl::ServedStatement> EveryStatus() {
  ctl::ServedStatement not_affected = Statement(1, "CVE-2019-18224", "not_affected", "2026-03-01T10:00:00Z", {kLibidn});
  not_affected.aliases = {"GHSA-XXXX-YYYY-ZZZZ"};
  not_affected.justification = "vulnerable_code_not_in_execute_path";
  not_affected.impact_statement = "idn2 is never called";
  ctl::ServedStatement affected = Statement(2, "CVE-2020-8165", "affected", "2026-03-02T10:00:00Z");
  ctl::ServedStatement fixed = Statement(3, "CVE-2021-1", "fixed", "2026-01-01T00:00:00Z");
  fixed.impact_statement = "left over from an earlier status";  // not a fixed statement's field
  ctl::ServedStatement triage = Statement(4, "CVE-2022-2", "under_investigation", "2026-02-01T00:00:00Z");
  return ctl::StatementsToServe({affected, not_affected, triage, fixed});
}

rapidjson::Document Parsed(const std::string& bytes) { return ctl::ParseInputJson("document", bytes); }

const rapidjson::Value* StatementOf(const rapidjson::Document& d, const std::string& vuln_id) {
  for (const rapidjson::Value& s : d["statements"].GetArray()) {
    if (std::string(s["vulnerability"]["name"].GetString()) == vuln_id) return &s;
  }
  return nullptr;
}

const rapidjson::Value* VulnerabilityOf(const rapidjson::Document& d, const std::string& vuln_id) {
  for (const rapidjson::Value& v : d["vulnerabilities"].GetArray()) {
    if (std::string(v["id"].GetString()) == vuln_id) return &v;
  }
  return nullptr;
}

std::vector<std::string> Refs(const rapidjson::Value& vulnerability) {
  std::vector<std::string> refs;
  for (const rapidjson::Value& a : vulnerability["affects"].GetArray()) refs.push_back(a["ref"].GetString());
  return refs;
}

// A CycloneDX SBOM of the version as Trivy writes it (purls as bom-refs): the image, two versions of
// libidn2-0 (one nested), a package without a purl, one whose bom-ref is not its purl.
const std::string kSbom = R"({"bomFormat": "CycloneDX", "specVersion": "1.5",
  "serialNumber": "urn:uuid:3ff14136-e09f-4df9-80ea-000000000163", "version": 2,
  "metadata": {"component": {"bom-ref": "3ff14136-e09f-4df9-80ea-000000000001", "type": "container", "name": "nginx"}},
  "components": [
    {"bom-ref": ")" + kLibidn +
                          R"(", "type": "library", "name": "libidn2-0", "purl": ")" + kLibidn + R"("},
    {"bom-ref": "3ff14136-e09f-4df9-80ea-000000000002", "type": "application", "name": "app", "components": [
      {"bom-ref": "pkg:deb/debian/libidn2-0@2.0.4", "type": "library", "name": "libidn2-0",
       "purl": "pkg:deb/debian/libidn2-0@2.0.4"}]},
    {"bom-ref": "no-purl", "type": "library", "name": "mystery"},
    {"bom-ref": "3ff14136-e09f-4df9-80ea-000000000004", "type": "library", "name": "zlib",
     "purl": "pkg:deb/debian/zlib1g@1.3"}]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(vex_served_docs)

BOOST_AUTO_TEST_CASE(openvex_document_is_valid_reproducible_and_names_the_version_as_scanners_do) {
  std::vector<ctl::ServedStatement> statements = EveryStatus();
  std::string bytes = ctl::OpenVexDocument(kSubject, statements, 3);
  BOOST_TEST(bytes == ctl::OpenVexDocument(kSubject, statements, 3));
  BOOST_TEST(bytes.back() == '\n');
  rapidjson::Document d = Parsed(bytes);
  BOOST_CHECK_NO_THROW(ctl::ValidateAgainstSchema(ctl::OfficialSchema::kOpenVex020, "openvex", d));
  BOOST_TEST(std::string(d["@context"].GetString()) == "https://openvex.dev/ns/v0.2.0");
  BOOST_TEST(std::string(d["@id"].GetString()) == ctl::DocumentUrn(kSubject.version_id, "openvex"));
  BOOST_TEST(std::string(d["author"].GetString()) == "Vendor Security");
  BOOST_TEST(std::string(d["timestamp"].GetString()) == "2026-03-02T10:00:00Z");  // the latest statement's
  BOOST_TEST(d["version"].GetInt() == 3);
  BOOST_TEST_REQUIRE(d["statements"].Size() == 4u);

  const rapidjson::Value& product = (*StatementOf(d, "CVE-2019-18224"))["products"][0];
  BOOST_TEST(std::string(product["@id"].GetString()) == kPurl);
  BOOST_TEST(std::string(product["identifiers"]["purl"].GetString()) == kPurl);
  BOOST_TEST(std::string(product["hashes"]["sha-256"].GetString()) == kHex);
  BOOST_TEST(std::string(product["subcomponents"][0]["@id"].GetString()) == kLibidn);
  const rapidjson::Value& not_affected = *StatementOf(d, "CVE-2019-18224");
  BOOST_TEST(std::string(not_affected["vulnerability"]["aliases"][0].GetString()) == "GHSA-XXXX-YYYY-ZZZZ");
  BOOST_TEST(std::string(not_affected["justification"].GetString()) == "vulnerable_code_not_in_execute_path");
  BOOST_TEST(std::string(not_affected["impact_statement"].GetString()) == "idn2 is never called");
  BOOST_TEST(std::string(not_affected["timestamp"].GetString()) == "2026-03-01T10:00:00Z");
  // OpenVEX requires an affected statement's action statement: what vexctl writes when none was given.
  BOOST_TEST(std::string((*StatementOf(d, "CVE-2020-8165"))["action_statement"].GetString()) ==
             std::string(ctl::kNoActionStatement));
  BOOST_TEST(!(*StatementOf(d, "CVE-2020-8165"))["products"][0].HasMember("subcomponents"));
  // A statement carries its status's fields only.
  BOOST_TEST(!(*StatementOf(d, "CVE-2021-1")).HasMember("impact_statement"));
  // Several authors: the service speaks for them.
  statements[0].author = "Another Vendor";
  rapidjson::Document mixed = Parsed(ctl::OpenVexDocument(kSubject, statements, 1));
  BOOST_TEST(std::string(mixed["author"].GetString()) ==
             "Image catalogue service, for Another Vendor; Vendor Security");
}

BOOST_AUTO_TEST_CASE(a_changed_statement_or_document_version_changes_the_bytes) {
  std::vector<ctl::ServedStatement> statements = EveryStatus();
  std::string before = ctl::OpenVexDocument(kSubject, statements, 1);
  BOOST_TEST(before != ctl::OpenVexDocument(kSubject, statements, 2));
  statements[0].status = "fixed";
  BOOST_TEST(before != ctl::OpenVexDocument(kSubject, statements, 1));
}

BOOST_AUTO_TEST_CASE(cyclonedx_document_is_valid_and_maps_each_statement_back_onto_an_analysis) {
  std::vector<ctl::ServedStatement> statements = EveryStatus();
  std::string bytes = ctl::CycloneDxVexDocument(kSubject, statements, 2, std::nullopt);
  BOOST_TEST(bytes == ctl::CycloneDxVexDocument(kSubject, statements, 2, std::nullopt));
  rapidjson::Document d = Parsed(bytes);
  BOOST_CHECK_NO_THROW(ctl::ValidateAgainstSchema(ctl::OfficialSchema::kCycloneDx15, "cyclonedx", d));
  BOOST_TEST(std::string(d["serialNumber"].GetString()) == ctl::DocumentUrn(kSubject.version_id, "cyclonedx"));
  BOOST_TEST(d["version"].GetInt() == 2);
  BOOST_TEST(std::string(d["metadata"]["timestamp"].GetString()) == "2026-03-02T10:00:00Z");
  BOOST_TEST(std::string(d["metadata"]["authors"][0]["name"].GetString()) == "Vendor Security");
  const rapidjson::Value& image = d["metadata"]["component"];
  BOOST_TEST(std::string(image["purl"].GetString()) == kPurl);
  BOOST_TEST(std::string(image["bom-ref"].GetString()) == kPurl);
  BOOST_TEST(std::string(image["name"].GetString()) == kSubject.repository);

  const rapidjson::Value& not_affected = *VulnerabilityOf(d, "CVE-2019-18224");
  BOOST_TEST(std::string(not_affected["analysis"]["state"].GetString()) == "not_affected");
  BOOST_TEST(std::string(not_affected["analysis"]["justification"].GetString()) == "code_not_reachable");
  BOOST_TEST(std::string(not_affected["analysis"]["detail"].GetString()) == "idn2 is never called");
  BOOST_TEST(std::string(not_affected["analysis"]["lastUpdated"].GetString()) == "2026-03-01T10:00:00Z");
  BOOST_TEST(std::string(not_affected["references"][0]["id"].GetString()) == "GHSA-XXXX-YYYY-ZZZZ");
  // No SBOM to link to: the package is a component of this document, the image its metadata's.
  BOOST_TEST((Refs(not_affected) == std::vector<std::string>{kLibidn}));
  BOOST_TEST_REQUIRE(d["components"].Size() == 1u);
  BOOST_TEST(std::string(d["components"][0]["bom-ref"].GetString()) == kLibidn);
  BOOST_TEST(std::string(d["components"][0]["name"].GetString()) == "libidn2-0");
  const rapidjson::Value& affected = *VulnerabilityOf(d, "CVE-2020-8165");
  BOOST_TEST(std::string(affected["analysis"]["state"].GetString()) == "exploitable");
  BOOST_TEST(!affected["analysis"].HasMember("detail"));
  BOOST_TEST((Refs(affected) == std::vector<std::string>{kPurl}));
  BOOST_TEST(std::string((*VulnerabilityOf(d, "CVE-2021-1"))["analysis"]["state"].GetString()) == "resolved");
  BOOST_TEST(!(*VulnerabilityOf(d, "CVE-2021-1"))["analysis"].HasMember("detail"));
  BOOST_TEST(std::string((*VulnerabilityOf(d, "CVE-2022-2"))["analysis"]["state"].GetString()) == "in_triage");
}

BOOST_AUTO_TEST_CASE(every_openvex_word_has_a_cyclonedx_word_that_ingest_reads_back_as_it) {
  for (std::string_view status : icat::kVexStatuses) {
    std::optional<std::string> state = ctl::CycloneDxStateOf(status);
    BOOST_TEST_REQUIRE(state.has_value(), status);
    BOOST_TEST(ctl::StatusOfCycloneDxState(*state).value_or("") == status);
  }
  for (std::string_view justification : icat::kVexJustifications) {
    std::optional<std::string> word = ctl::CycloneDxJustificationOf(justification);
    BOOST_TEST_REQUIRE(word.has_value(), justification);
    BOOST_TEST(ctl::JustificationOfCycloneDx(*word).value_or("") == justification);
  }
  BOOST_TEST(*ctl::CycloneDxJustificationOf("inline_mitigations_already_exist") == "protected_by_mitigating_control");
  BOOST_TEST(*ctl::CycloneDxJustificationOf("component_not_present") == "requires_dependency");
}

BOOST_AUTO_TEST_CASE(packages_are_bom_links_into_the_versions_cyclonedx_sbom_when_it_has_them) {
  std::optional<ctl::SbomLinks> links = ctl::SbomLinksOf(kSbom);
  BOOST_TEST_REQUIRE(links.has_value());
  BOOST_TEST(links->serial == "3ff14136-e09f-4df9-80ea-000000000163");
  BOOST_TEST(links->version == 2);

  std::vector<ctl::ServedStatement> statements = {
      Statement(1, "CVE-1", "fixed", "2026-01-01T00:00:00Z", {kLibidn}),                      // that version
      Statement(2, "CVE-2", "fixed", "2026-01-01T00:00:00Z", {"pkg:deb/debian/libidn2-0"}),   // any version
      Statement(3, "CVE-3", "fixed", "2026-01-01T00:00:00Z", {"pkg:npm/absent@1.0.0"}),       // not in the SBOM
      Statement(4, "CVE-4", "fixed", "2026-01-01T00:00:00Z"),                                 // every package
      Statement(5, "CVE-5", "fixed", "2026-01-01T00:00:00Z", {"pkg:deb/debian/zlib1g@1.3"}),  // bom-ref no purl
  };
  rapidjson::Document d = Parsed(ctl::CycloneDxVexDocument(kSubject, statements, 1, links));
  BOOST_CHECK_NO_THROW(ctl::ValidateAgainstSchema(ctl::OfficialSchema::kCycloneDx15, "cyclonedx", d));
  const std::string link = "urn:cdx:3ff14136-e09f-4df9-80ea-000000000163/2#";
  const std::string libidn_link =
      link + "pkg%3Adeb%2Fdebian%2Flibidn2-0%402.0.5-1%3Farch%3Damd64%26distro%3Ddebian-10.2";
  BOOST_TEST((Refs(*VulnerabilityOf(d, "CVE-1")) == std::vector<std::string>{libidn_link}));
  BOOST_TEST((Refs(*VulnerabilityOf(d, "CVE-2")) ==
              std::vector<std::string>{libidn_link, link + "pkg%3Adeb%2Fdebian%2Flibidn2-0%402.0.4"}));
  BOOST_TEST((Refs(*VulnerabilityOf(d, "CVE-3")) == std::vector<std::string>{"pkg:npm/absent@1.0.0"}));
  BOOST_TEST((Refs(*VulnerabilityOf(d, "CVE-4")) == std::vector<std::string>{kPurl}));  // the document's image
  BOOST_TEST((Refs(*VulnerabilityOf(d, "CVE-5")) == std::vector<std::string>{"pkg:deb/debian/zlib1g@1.3"}));
  BOOST_TEST_REQUIRE(d["components"].Size() == 2u);  // only the packages not linked
  BOOST_TEST(std::string(d["components"][0]["purl"].GetString()) == "pkg:npm/absent@1.0.0");

  // vex ingest reads the links back as the packages' purls.
  ctl::VexDocument read = ctl::ParseVex("served.cdx.json", ctl::CycloneDxVexDocument(kSubject, statements, 1, links));
  BOOST_TEST_REQUIRE(read.statements.size() == 5u);
  BOOST_TEST((read.statements[0].products.at(0).subcomponents == std::vector<std::string>{kLibidn}));
  BOOST_TEST((read.statements[1].products.at(0).subcomponents ==
              std::vector<std::string>{kLibidn, "pkg:deb/debian/libidn2-0@2.0.4"}));
  BOOST_TEST(read.statements[3].products.at(0).subcomponents.empty());
  BOOST_TEST(read.statements[3].products.at(0).image->digest.value_or("") == kSubject.digest);

  // An SBOM a BOM-Link cannot name: no links, the document's own components.
  for (const std::string& sbom :
       {std::string(R"({"bomFormat": "CycloneDX", "specVersion": "1.5"})"),
        std::string(R"({"serialNumber": "urn:uuid:3FF14136-E09F-4DF9-80EA-000000000163"})"),
        std::string(R"({"serialNumber": "urn:uuid:3ff14136-e09f-4df9-80ea-000000000163", "version": 0})"),
        std::string("not json")}) {
    BOOST_TEST(!ctl::SbomLinksOf(sbom).has_value(), sbom);
  }
}

BOOST_AUTO_TEST_CASE(a_statement_is_left_out_when_a_preferred_one_applies_to_all_it_would) {
  // In vex_statement_for's order: the first is preferred to everything after it.
  ctl::ServedStatement every_package = Statement(10, "CVE-1", "not_affected", "2026-05-01T00:00:00Z");
  ctl::ServedStatement one_package = Statement(9, "CVE-1", "affected", "2026-04-01T00:00:00Z", {kLibidn});
  ctl::ServedStatement newer_package = Statement(8, "CVE-2", "fixed", "2026-05-01T00:00:00Z", {kLibidn});
  ctl::ServedStatement older_every = Statement(7, "CVE-2", "affected", "2026-04-01T00:00:00Z");
  ctl::ServedStatement by_alias = Statement(6, "GHSA-aaaa-bbbb-cccc", "fixed", "2026-05-01T00:00:00Z");
  by_alias.aliases = {"CVE-3"};
  ctl::ServedStatement older_cve3 = Statement(5, "CVE-3", "under_investigation", "2026-04-01T00:00:00Z");
  ctl::ServedStatement duplicate = Statement(4, "CVE-2", "fixed", "2026-05-01T00:00:00Z", {kLibidn});
  std::vector<ctl::ServedStatement> served =
      ctl::StatementsToServe({every_package, newer_package, by_alias, one_package, older_every, older_cve3, duplicate});
  std::vector<long long> ids;
  for (const ctl::ServedStatement& s : served) ids.push_back(s.id);
  // CVE-1's package statement is older than the one about every package: out. CVE-2's about every
  // package still applies to the others: in, older first. CVE-3 is an alias of the newer GHSA one.
  BOOST_TEST((ids == std::vector<long long>{10, 7, 8, 6}));
}

BOOST_AUTO_TEST_CASE(vex_ingest_reads_a_served_document_back_as_the_statements_it_was_made_of) {
  std::vector<ctl::ServedStatement> statements = EveryStatus();
  for (const std::string& bytes : {ctl::OpenVexDocument(kSubject, statements, 1),
                                   ctl::CycloneDxVexDocument(kSubject, statements, 1, std::nullopt)}) {
    ctl::VexDocument doc = ctl::ParseVex("served.json", bytes);
    BOOST_TEST(doc.author == "Vendor Security");
    BOOST_TEST_REQUIRE(doc.statements.size() == statements.size());
    for (size_t i = 0; i < statements.size(); i++) {
      const ctl::VexStatement& read = doc.statements[i];
      BOOST_TEST_CONTEXT(doc.format << " " << statements[i].vuln_id) {
        BOOST_TEST(read.vuln_id == statements[i].vuln_id);
        BOOST_TEST(read.aliases == statements[i].aliases);
        BOOST_TEST(read.status == statements[i].status);
        BOOST_TEST(read.time == statements[i].time);
        BOOST_TEST(read.justification.value_or("") == statements[i].justification.value_or(""));
        BOOST_TEST_REQUIRE(read.products.size() == 1u);
        BOOST_TEST_REQUIRE(read.products[0].image.has_value());
        BOOST_TEST(read.products[0].image->digest.value_or("") == kSubject.digest);
        BOOST_TEST(read.products[0].image->repository.value_or("") == kSubject.repository);
        BOOST_TEST(read.products[0].subcomponents == statements[i].subcomponents);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(document_urns_are_stable_version_8_uuids_of_version_and_format) {
  std::string urn = ctl::DocumentUrn(kSubject.version_id, "openvex");
  BOOST_TEST(urn == ctl::DocumentUrn(kSubject.version_id, "openvex"));
  BOOST_TEST(urn != ctl::DocumentUrn(kSubject.version_id, "cyclonedx"));
  BOOST_TEST(urn != ctl::DocumentUrn("00000000-0000-4000-8000-000000000000", "openvex"));
  BOOST_TEST_REQUIRE(urn.size() == 45u);
  BOOST_TEST(urn.substr(0, 9) == "urn:uuid:");
  BOOST_TEST(urn[23] == '8');                                          // version 8
  BOOST_TEST(std::string("89ab").find(urn[28]) != std::string::npos);  // the RFC 9562 variant
}

BOOST_AUTO_TEST_CASE(image_purls_and_purl_keys) {
  BOOST_TEST(ctl::ImagePurl(kSubject.repository, kSubject.digest) == kPurl);
  BOOST_TEST(ctl::ImagePurl("registry.example.test:5000/a/b", "sha256:ab") ==
             "pkg:oci/b@sha256%3Aab?repository_url=registry.example.test%3A5000%2Fa%2Fb");
  std::optional<ctl::OciPurl> parsed = ctl::ParseOciPurl(kPurl);  // what ingest reads of it
  BOOST_TEST_REQUIRE(parsed.has_value());
  BOOST_TEST(parsed->version.value_or("") == kSubject.digest);
  BOOST_TEST(parsed->repository_url.value_or("") == kSubject.repository);
  BOOST_TEST(ctl::PurlKey(kLibidn) == "pkg:deb/debian/libidn2-0@2.0.5-1");
  BOOST_TEST(ctl::PurlKeyAnyVersion(kLibidn) == "pkg:deb/debian/libidn2-0");
  BOOST_TEST(ctl::PurlKeyAnyVersion("pkg:deb/debian/libidn2-0") == "pkg:deb/debian/libidn2-0");
  BOOST_TEST(ctl::PurlKey("pkg:npm/a@1#sub/path") == "pkg:npm/a@1");
}

BOOST_AUTO_TEST_SUITE_END()
