// VEX documents as icatctl vex ingest reads them (ingest/vex_docs.cpp): each fixture of
// ../shared/fixtures/vex accepted or refused as docs/vex.md says, the CycloneDX mapping, products as
// catalogue images, and hostile input refused with a message naming the file.
#include "ingest/vex_docs.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "ingest/purl.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;
using icat::test::FixturePath;
using icat::test::ReadAll;
using icat::test::Refusal;

namespace {

ctl::VexDocument Fixture(const std::string& name) {
  std::string path = FixturePath("vex/" + name);
  return ctl::ParseVex(path, ReadAll(path));
}

std::string RefusalOf(const std::string& json) {
  return Refusal([&] { (void)ctl::ParseVex("v.json", json); });
}

// An OpenVEX 0.2.0 document around the statements given as JSON text.
std::string OpenVex(const std::string& statements, const std::string& extra = "") {
  return R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/1", "author": "Vendor",
             "timestamp": "2026-01-10T10:00:00Z", "version": 1, )" +
         extra + R"("statements": [)" + statements + "]}";
}

// A statement about one product (as JSON text).
std::string Statement(const std::string& product, const std::string& rest = R"("status": "fixed")") {
  return R"({"vulnerability": {"name": "CVE-2024-1"}, "products": [)" + product + "], " + rest + "}";
}

// A CycloneDX 1.5 VEX about the image pkg:oci/app@sha256:aa.. with one library and the vulnerabilities given.
std::string CycloneDx(const std::string& vulnerabilities, const std::string& metadata_extra = R"(, "authors": [{"name": "Vendor"}])") {
  return R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "serialNumber": "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79",
             "version": 2, "metadata": {"timestamp": "2026-02-01T00:00:00Z", "component": {"type": "container", "name": "app",
             "bom-ref": "image", "purl": "pkg:oci/app@sha256:)" +
         std::string(64, 'a') + R"(?repository_url=registry.example.test/hardened/app"})" + metadata_extra +
         R"(}, "components": [{"type": "library", "name": "zlib", "version": "1.3", "bom-ref": "zlib",
             "purl": "pkg:deb/debian/zlib1g@1.3?arch=amd64"}], "vulnerabilities": [)" +
         vulnerabilities + "]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vex_docs)

BOOST_AUTO_TEST_CASE(trivy_openvex_is_read_with_its_vulnerability_named_by_id_and_said_so) {
  ctl::VexDocument doc = Fixture("trivy_openvex-v0.2.0.json");
  BOOST_TEST(doc.format == "openvex");
  BOOST_TEST(doc.author == "Aqua Security");
  BOOST_TEST(doc.issued_at == "2024-07-09T11:38:00.115697+04:00");
  BOOST_TEST_REQUIRE(doc.statements.size() == 1u);
  const ctl::VexStatement& s = doc.statements[0];
  BOOST_TEST(s.vuln_id == "CVE-2022-23628");
  BOOST_TEST(s.status == "not_affected");
  BOOST_TEST(s.justification.value_or("") == "vulnerable_code_not_in_execute_path");
  BOOST_TEST(s.impact_statement.value_or("") == "The vulnerable code isn't called");  // both kept
  BOOST_TEST(s.time == doc.issued_at);  // no time of its own: the document's
  BOOST_TEST_REQUIRE(s.products.size() == 1u);
  BOOST_TEST(s.products[0].name == "pkg:golang/github.com/testdata/testdata");
  BOOST_TEST(!s.products[0].image.has_value());  // a Go module, not an image: ingest reports it unknown
  BOOST_TEST((s.products[0].subcomponents == std::vector<std::string>{"pkg:golang/github.com/open-policy-agent/opa@v0.35.0"}));
  BOOST_TEST_REQUIRE(doc.notes.size() == 1u);
  BOOST_TEST(doc.notes[0] ==
             "/statements/0/vulnerability has no name; its @id CVE-2022-23628 is taken as the name, as Trivy writes it");
}

BOOST_AUTO_TEST_CASE(guac_not_affected_under_the_unversioned_context_is_read_as_0_2_0) {
  ctl::VexDocument doc = Fixture("guac_openvex-not-affected.json");
  BOOST_TEST(doc.role.value_or("") == "Senior VEXing Engineer");
  BOOST_TEST_REQUIRE(doc.statements.size() == 1u);
  const ctl::VexStatement& s = doc.statements[0];
  BOOST_TEST(s.justification.value_or("") == "inline_mitigations_already_exist");
  BOOST_TEST_REQUIRE(s.products.size() == 1u);
  BOOST_TEST_REQUIRE(s.products[0].image.has_value());
  BOOST_TEST(s.products[0].image->digest.value_or("") ==
             "sha256:23a264e6e429852221a963e9f17338ba3f5796dc7086e46439a6f4482cf6e0cb");
  BOOST_TEST(!s.products[0].image->repository.has_value());  // a digest alone: any repository
  BOOST_TEST(s.products[0].subcomponents.size() == 2u);
  BOOST_TEST_REQUIRE(doc.notes.size() == 1u);
  BOOST_TEST(doc.notes[0].find("names no version; the document has the 0.2.0 shape and is read as 0.2.0") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(guac_affected_with_an_empty_context_is_refused_naming_it) {
  std::string path = FixturePath("vex/guac_openvex-affected.json");
  BOOST_TEST(Refusal([&] { (void)ctl::ParseVex(path, ReadAll(path)); }) ==
             path + ": @context '' is not OpenVEX 0.2.0 (https://openvex.dev/ns/v0.2.0)");
}

BOOST_AUTO_TEST_CASE(every_demo_vex_document_is_read_without_notes) {
  int read = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(icat::test::RepoDir() + "/tools/demo")) {
    if (entry.path().filename() != "vex.openvex.json") continue;
    ctl::VexDocument doc = ctl::ParseVex(entry.path().string(), ReadAll(entry.path()));
    BOOST_TEST(doc.notes.empty(), entry.path());
    for (const ctl::VexStatement& s : doc.statements) {
      for (const ctl::VexProduct& p : s.products) BOOST_TEST(p.image.has_value(), p.name);
    }
    read++;
  }
  BOOST_TEST(read >= 1);  // tools/demo/nginx
}

BOOST_AUTO_TEST_CASE(cyclonedx_1_4_vex_is_refused_as_another_version) {
  for (const char* name : {"guac_cyclonedx-1.4-vex-affected.json", "guac_cyclonedx-1.4-vex-not-affected.json"}) {
    std::string path = FixturePath(std::string("vex/") + name);
    BOOST_TEST(Refusal([&] { (void)ctl::ParseVex(path, ReadAll(path)); }) ==
               path + ": is CycloneDX 1.4; vex ingest takes CycloneDX 1.5 and OpenVEX 0.2.0");
  }
}

BOOST_AUTO_TEST_CASE(cyclonedx_spec_vector_is_refused_without_a_time_and_mapped_with_one) {
  std::string path = FixturePath("vex/cyclonedx-spec_valid-vulnerability-1.5.json");
  std::string bytes = ReadAll(path);
  BOOST_TEST(Refusal([&] { (void)ctl::ParseVex(path, bytes); }) ==
             path + ": has no metadata.timestamp; a VEX document says when it was issued");
  // The same vector with the metadata a vendor's document has.
  std::string dated = bytes;
  dated.replace(dated.find("\"components\""), 0,
                R"("metadata": {"timestamp": "2022-03-01T00:00:00Z", "supplier": {"name": "Acme"}}, )");
  ctl::VexDocument doc = ctl::ParseVex(path, dated);
  BOOST_TEST(doc.format == "cyclonedx");
  BOOST_TEST(doc.author == "Acme");
  BOOST_TEST(doc.ref.value_or("") == "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79");
  BOOST_TEST_REQUIRE(doc.statements.size() == 1u);
  const ctl::VexStatement& s = doc.statements[0];
  BOOST_TEST(s.where == "/vulnerabilities/0");
  BOOST_TEST(s.vuln_id == "SNYK-JAVA-COMFASTERXMLJACKSONCORE-32111");
  BOOST_TEST((s.aliases == std::vector<std::string>{"CVE-2018-7489"}));
  BOOST_TEST(s.status == "not_affected");
  BOOST_TEST(s.justification.value_or("") == "vulnerable_code_not_in_execute_path");  // code_not_reachable
  BOOST_TEST(s.impact_statement.value_or("").find("An optional explanation") == 0u);
  BOOST_TEST(s.time == "2022-02-01T00:00:00.000Z");  // analysis.lastUpdated
  BOOST_TEST_REQUIRE(s.products.size() == 1u);  // a library of no image: an unknown product
  BOOST_TEST(s.products[0].name == "pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.9.4");
  BOOST_TEST(!s.products[0].image.has_value());
}

BOOST_AUTO_TEST_CASE(cyclonedx_package_refs_are_subcomponents_of_the_image_and_images_are_products) {
  std::string image_ref = "registry.example.test/hardened/app@sha256:" + std::string(64, 'b');
  ctl::VexDocument doc = ctl::ParseVex("c.json", CycloneDx(R"(
      {"id": "CVE-2024-1", "analysis": {"state": "not_affected", "justification": "code_not_present"},
       "affects": [{"ref": "urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/2#zlib"}, {"ref": "pkg:deb/debian/libc6@2.36"}]},
      {"id": "CVE-2024-2", "analysis": {"state": "exploitable", "response": ["update"]}, "affects": [{"ref": "image"}]},
      {"id": "CVE-2024-3", "analysis": {"state": "false_positive"}, "affects": [{"ref": ")" + image_ref + R"("}]},
      {"id": "CVE-2024-4", "description": "no analysis: not a statement"})"));
  BOOST_TEST(doc.version == 2);
  BOOST_TEST(doc.author == "Vendor");
  BOOST_TEST_REQUIRE(doc.statements.size() == 3u);
  const ctl::VexStatement& packages = doc.statements[0];
  BOOST_TEST_REQUIRE(packages.products.size() == 1u);
  BOOST_TEST(packages.products[0].name.find("pkg:oci/app@sha256:") == 0u);
  BOOST_TEST((packages.products[0].subcomponents ==
              std::vector<std::string>{"pkg:deb/debian/zlib1g@1.3?arch=amd64", "pkg:deb/debian/libc6@2.36"}));
  BOOST_TEST(packages.justification.value_or("") == "vulnerable_code_not_present");
  BOOST_TEST(packages.time == "2026-02-01T00:00:00Z");  // no time of its own: metadata.timestamp
  const ctl::VexStatement& affected = doc.statements[1];
  BOOST_TEST(affected.status == "affected");
  BOOST_TEST(affected.action_statement.value_or("") == "CycloneDX response: update");
  BOOST_TEST_REQUIRE(affected.products.size() == 1u);
  BOOST_TEST(affected.products[0].subcomponents.empty());
  BOOST_TEST(affected.products[0].image->repository.value_or("") == "registry.example.test/hardened/app");
  const ctl::VexStatement& false_positive = doc.statements[2];
  BOOST_TEST(false_positive.status == "not_affected");
  BOOST_TEST(false_positive.impact_statement.value_or("") == "CycloneDX analysis state false_positive");
  BOOST_TEST(false_positive.products.at(0).name == image_ref);
  BOOST_TEST(false_positive.products.at(0).image->digest.value_or("") == "sha256:" + std::string(64, 'b'));
  BOOST_TEST_REQUIRE(doc.notes.size() == 1u);
  BOOST_TEST(doc.notes[0] == "1 vulnerabilities without an analysis state are not VEX statements and were left out");
}

BOOST_AUTO_TEST_CASE(cyclonedx_states_and_justifications_map_onto_openvex) {
  const std::pair<const char*, const char*> states[] = {
      {"not_affected", "not_affected"}, {"false_positive", "not_affected"}, {"exploitable", "affected"},
      {"resolved", "fixed"}, {"resolved_with_pedigree", "fixed"}, {"in_triage", "under_investigation"}};
  for (const auto& [state, status] : states) BOOST_TEST(ctl::StatusOfCycloneDxState(state).value_or("") == status);
  BOOST_TEST(!ctl::StatusOfCycloneDxState("affected").has_value());
  const std::pair<const char*, const char*> justifications[] = {
      {"code_not_present", "vulnerable_code_not_present"},
      {"code_not_reachable", "vulnerable_code_not_in_execute_path"},
      {"requires_configuration", "vulnerable_code_cannot_be_controlled_by_adversary"},
      {"requires_dependency", "component_not_present"},
      {"requires_environment", "vulnerable_code_cannot_be_controlled_by_adversary"},
      {"protected_by_compiler", "inline_mitigations_already_exist"},
      {"protected_at_runtime", "inline_mitigations_already_exist"},
      {"protected_at_perimeter", "inline_mitigations_already_exist"},
      {"protected_by_mitigating_control", "inline_mitigations_already_exist"}};
  for (const auto& [cdx, openvex] : justifications) BOOST_TEST(ctl::JustificationOfCycloneDx(cdx).value_or("") == openvex);
}

BOOST_AUTO_TEST_CASE(cyclonedx_without_author_or_statements_is_refused) {
  BOOST_TEST(Refusal([] {
               (void)ctl::ParseVex("c.json", CycloneDx(R"({"id": "CVE-1", "analysis": {"state": "in_triage"},
                 "affects": [{"ref": "image"}]})", ""));
             }) == "c.json: names no author (metadata.authors, supplier or manufacture); a VEX document says who speaks");
  BOOST_TEST(Refusal([] { (void)ctl::ParseVex("c.json", CycloneDx(R"({"id": "CVE-1"})")); }) ==
             "c.json: has no vulnerability with an analysis state: it holds no VEX statement");
  BOOST_TEST(Refusal([] {
               (void)ctl::ParseVex("c.json", CycloneDx(R"({"id": "CVE-1", "analysis": {"state": "in_triage"}})"));
             }) == "c.json: /vulnerabilities/0: names no product; a statement says which images it is about");
}

BOOST_AUTO_TEST_CASE(products_name_images_by_oci_purl_reference_or_digest) {
  std::string hex(64, 'c');
  auto product = [](const std::string& name) { return ctl::ImageProductOf(name); };
  auto digest = product("pkg:oci/nginx@sha256%3A" + hex + "?repository_url=registry.example.test/hardened/nginx&tag=1.2");
  BOOST_TEST_REQUIRE(digest.has_value());
  BOOST_TEST(digest->digest.value_or("") == "sha256:" + hex);
  BOOST_TEST(digest->repository.value_or("") == "registry.example.test/hardened/nginx");
  BOOST_TEST(!digest->tag.has_value());  // the digest names the version
  // repository_url without the name (the purl spec's words), percent-encoded, Docker Hub's old host.
  BOOST_TEST(product("pkg:oci/nginx?repository_url=registry.example.test%2Fhardened")->repository.value_or("") ==
             "registry.example.test/hardened/nginx");
  BOOST_TEST(product("pkg:oci/alpine?repository_url=index.docker.io/library/alpine")->repository.value_or("") ==
             "docker.io/library/alpine");
  BOOST_TEST(product("pkg:oci/nginx")->repository.value_or("") == "docker.io/library/nginx");  // the spec's default
  auto tagged = product("pkg:oci/nginx?repository_url=registry.example.test/hardened/nginx&tag=1.27");
  BOOST_TEST(tagged->tag.value_or("") == "1.27");
  auto every = product("registry.example.test/hardened/nginx");
  BOOST_TEST((every->repository.value_or("") == "registry.example.test/hardened/nginx" && !every->tag && !every->digest));
  BOOST_TEST(product("registry.example.test/hardened/nginx:1.27")->tag.value_or("") == "1.27");
  auto pinned = product("registry.example.test/hardened/nginx:1.27@sha256:" + hex);
  BOOST_TEST((pinned->digest.value_or("") == "sha256:" + hex && !pinned->tag));
  BOOST_TEST(product("sha256:" + hex)->digest.value_or("") == "sha256:" + hex);
  for (const std::string& other : {std::string("pkg:golang/github.com/x/y@v1"), std::string("pkg:oci/"),
                                   std::string("cpe:2.3:a:vendor:product:1.0:*:*:*:*:*:*:*"),
                                   std::string("https://vendor.test/product"), std::string(""),
                                   "nginx@sha512:" + std::string(128, 'd')}) {
    BOOST_TEST(!product(other).has_value(), other);
  }
}

BOOST_AUTO_TEST_CASE(oci_purls_split_into_name_version_and_qualifiers) {
  auto oci = ctl::ParseOciPurl("PKG:OCI/debian@sha256%3A244f?Repository_URL=docker.io%2Flibrary%2Fdebian&arch=amd64&tag=latest#x");
  BOOST_TEST_REQUIRE(oci.has_value());
  BOOST_TEST(oci->name == "debian");
  BOOST_TEST(oci->version.value_or("") == "sha256:244f");
  BOOST_TEST(oci->repository_url.value_or("") == "docker.io/library/debian");
  BOOST_TEST(oci->tag.value_or("") == "latest");
  BOOST_TEST(!ctl::ParseOciPurl("pkg:oci/a/b@1").has_value());  // an OCI purl has no namespace
  BOOST_TEST(!ctl::ParseOciPurl("pkg:deb/debian/zlib1g@1").has_value());
}

BOOST_AUTO_TEST_CASE(openvex_products_by_identifiers_hashes_and_statement_times) {
  std::string hex(64, 'e');
  ctl::VexDocument doc = ctl::ParseVex("v.json", OpenVex(
      Statement(R"({"identifiers": {"purl": "pkg:oci/app?repository_url=registry.example.test/hardened/app"},
                   "subcomponents": [{"identifiers": {"purl": "pkg:deb/debian/zlib1g"}}]})",
                R"("status": "under_investigation", "timestamp": "2026-01-11T00:00:00Z")") + ", " +
      Statement(R"({"@id": "https://vendor.test/app", "hashes": {"sha-256": ")" + hex + R"("}})", R"("status": "fixed", "timestamp": "2026-01-11T00:00:00Z",
                   "last_updated": "2026-01-12T00:00:00Z")") + ", " +
      Statement(R"({"@id": "registry.example.test/hardened/app:2"})", R"("status": "affected", "action_statement": "Update")"),
      R"("last_updated": "2026-01-20T00:00:00Z", )"));
  BOOST_TEST_REQUIRE(doc.statements.size() == 3u);
  BOOST_TEST(doc.statements[0].products.at(0).image->repository.value_or("") == "registry.example.test/hardened/app");
  BOOST_TEST((doc.statements[0].products.at(0).subcomponents == std::vector<std::string>{"pkg:deb/debian/zlib1g"}));
  BOOST_TEST(doc.statements[0].time == "2026-01-11T00:00:00Z");
  BOOST_TEST(doc.statements[1].products.at(0).image->digest.value_or("") == "sha256:" + hex);
  BOOST_TEST(doc.statements[1].time == "2026-01-12T00:00:00Z");  // its last_updated
  BOOST_TEST(doc.statements[2].time == "2026-01-20T00:00:00Z");  // the document's last_updated
  BOOST_TEST(doc.statements[2].action_statement.value_or("") == "Update");
  BOOST_TEST(doc.statements[2].products.at(0).image->tag.value_or("") == "2");
}

BOOST_AUTO_TEST_CASE(schema_violations_are_refused_by_json_pointer) {
  std::string product = R"({"@id": "pkg:oci/app"})";
  BOOST_TEST(RefusalOf(OpenVex(Statement(product, R"("status": "not_affected")"))) ==
             "v.json: is not valid OpenVEX 0.2.0 (official schema): /statements/0: Missing required property "
             "'justification'; /statements/0: Missing required property 'impact_statement'; /statements/0: Failed to "
             "validate against any schemas allowed by anyOf constraint; /statements/0: Failed to validate against a "
             "conditional schema set by if-then-else constraints");
  BOOST_TEST(RefusalOf(OpenVex(Statement(product, R"("status": "affected")"))).find(
                 "/statements/0: Missing required property 'action_statement'") != std::string::npos);
  BOOST_TEST(RefusalOf(OpenVex(Statement(product, R"("status": "gone")"))).find(
                 "/statements/0/status: Failed to match against any enum values") != std::string::npos);
  std::string version_0 = OpenVex(Statement(product));
  version_0.replace(version_0.find("\"version\": 1"), 12, "\"version\": 0");
  BOOST_TEST(RefusalOf(version_0).find("/version: Expected number greater than or equal to 1") != std::string::npos);
  std::string bad_time = OpenVex(Statement(product));
  bad_time.replace(bad_time.find("2026-01-10T10:00:00Z"), 20, "yesterday");
  BOOST_TEST(RefusalOf(bad_time).find("/timestamp: String should be a valid date-time") != std::string::npos);
  BOOST_TEST(RefusalOf(R"({"@context": "https://openvex.dev/ns/v0.2.0", "statements": {}})").find(
                 "is not valid OpenVEX 0.2.0 (official schema)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(statements_must_name_images_and_package_purls) {
  BOOST_TEST(RefusalOf(OpenVex(R"({"vulnerability": {"name": "CVE-1"}, "status": "fixed"})")) ==
             "v.json: /statements/0: names no product; a statement says which images it is about");
  BOOST_TEST(RefusalOf(OpenVex(Statement(R"({"@id": "pkg:oci/app", "subcomponents": [{"@id": "libssl"}]})"))) ==
             "v.json: /statements/0: subcomponent 'libssl' is not a package purl; subcomponents are matched by purl");
  std::string spaced = OpenVex(Statement(R"({"@id": "pkg:oci/app"})"));
  spaced.replace(spaced.find("CVE-2024-1"), 10, "CVE 2024 1");
  BOOST_TEST(RefusalOf(spaced) == "v.json: /statements/0/vulnerability/name: 'CVE 2024 1' is not a vulnerability id "
                                  "(1 to 128 printable characters without spaces)");
}

BOOST_AUTO_TEST_CASE(hostile_input_is_refused_naming_the_file) {
  BOOST_TEST(RefusalOf("[]") == "v.json: is not a VEX document (a JSON object is expected)");
  BOOST_TEST(RefusalOf("{\"a\": 1}") ==
             "v.json: is neither OpenVEX (an @context of https://openvex.dev/ns/v0.2.0) nor CycloneDX (bomFormat)");
  BOOST_TEST(RefusalOf("{\"statements\": ").find("v.json: is not valid JSON") == 0u);
  std::string deep(100000, '[');
  BOOST_TEST(RefusalOf("{\"statements\": " + deep).find("v.json: is not valid JSON") == 0u);
  std::string huge = OpenVex(Statement(R"({"@id": "pkg:oci/app"})", R"("status": "fixed", "status_notes": ")" +
                                                                     std::string((1 << 20) + 1, 'x') + "\""));
  BOOST_TEST(RefusalOf(huge) ==
             "v.json: /statements/0/status_notes: a string of 1048577 bytes, over the 1 MiB a field may hold");
  std::string products;
  for (size_t i = 0; i <= ctl::kMaxVexProducts; ++i) {
    products += (i ? ", " : "") + std::string(R"({"@id": "pkg:oci/app)") + std::to_string(i) + "\"}";
  }
  BOOST_TEST(RefusalOf(OpenVex(Statement(products))) ==
             "v.json: names 10001 products over its statements, more than the 10000 one document may name; split it");
  BOOST_TEST(RefusalOf(R"({"bomFormat": "CycloneDX", "specVersion": 1.5})") ==
             "v.json: is CycloneDX (none); vex ingest takes CycloneDX 1.5 and OpenVEX 0.2.0");
  BOOST_TEST(RefusalOf(R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "vulnerabilities": "x"})").find(
                 "is not valid CycloneDX 1.5 (official schema): /vulnerabilities:") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
