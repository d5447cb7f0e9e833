// The vendor's VEX (issue 17, docs/vex.md) against the running stack: icatctl vex ingest of OpenVEX and
// CycloneDX documents written here with the scanned fixture images' real digests and purls, refusals
// that store nothing, and what a statement changes: the counts everywhere they are shown, a finding's
// `vex`, the CVE look-up, admission decisions and the vex.updated webhook event.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "admission_support.hpp"
#include "portal_support.hpp"
#include "receiver.hpp"
#include "scans_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// Trivy's fluentd scan: CVE-2019-18224 (critical, libidn2-0) and CVE-2020-8165 (high, activesupport).
constexpr const char* kFluentd = "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json";
// Trivy's alpine 3.10 scan: CVE-2019-1549 and CVE-2019-1551 (medium), each in libcrypto1.1 and libssl1.1.
using it::kAlpine310;
constexpr const char* kLibssl = "pkg:apk/alpine/libssl1.1@1.1.1c-r0?arch=x86_64&distro=3.10.2";

// A fresh image licensed to the tenant, one scanned version per tag (published in that order), all
// from one report with made-up digests (the fixture reports name none).
it::Image ScannedImage(it::Tenant& tenant, const it::TempDir& dir, const std::string& label, const char* report,
                       const std::vector<std::string>& tags = {"1.0"}) {
  it::Image image;
  image.name = "it-" + label + "-" + it::RandomSuffix(6);
  image.repository = "registry.example.test/it/" + image.name;
  std::string report_path = it::Fixture(report);
  std::string sbom = dir.Write(image.name + ".cdx.json", it::MinimalCycloneDx(report_path, "2021-08-25T12:20:30Z"));
  for (size_t i = 0; i < tags.size(); ++i) {
    std::string digest = it::RandomDigest();
    std::string published = "2024-0" + std::to_string(i + 1) + "-01T00:00:00Z";
    it::IngestOk({image.name, tags[i], digest, report_path, std::nullopt, sbom, image.repository, published, {}});
    std::string id = *it::PgQuery("SELECT v.id FROM image_versions v JOIN images i ON i.id = v.image_id "
                                  "WHERE i.name = $1 AND v.tag = $2",
                                  {image.name, tags[i]})
                          .at(0)
                          .at(0);
    image.versions.push_back({id, tags[i], digest, std::nullopt, published, {}});
  }
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
  tenant.License(image);
  return image;
}

// The products a statement names the image by: one version by digest, or the whole repository.
std::string ByDigest(const it::Image& image, const it::Version& version) {
  return "pkg:oci/" + image.name + "@sha256%3A" + version.digest.substr(7) + "?repository_url=" + image.repository;
}
std::string ByRepository(const it::Image& image) { return "pkg:oci/" + image.name + "?repository_url=" + image.repository; }

// An OpenVEX 0.2.0 statement (status and its fields as JSON members) about one product.
std::string Statement(const std::string& cve, const std::string& product, const std::string& status,
                      const std::string& subcomponents = "") {
  std::string sub = subcomponents.empty() ? "" : R"(, "subcomponents": [{"@id": ")" + subcomponents + R"("}])";
  return R"({"vulnerability": {"name": ")" + cve + R"("}, "products": [{"@id": ")" + product + "\"" + sub + "}], " +
         status + "}";
}
const std::string kNotAffected =
    R"("status": "not_affected", "justification": "vulnerable_code_not_present", "impact_statement": "Not in this image.")";

std::string OpenVex(const std::vector<std::string>& statements, const std::string& timestamp = "2026-01-10T10:00:00Z") {
  std::string list;
  for (const std::string& s : statements) list += (list.empty() ? "" : ", ") + s;
  return R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" + it::RandomSuffix(8) +
         R"(", "author": "Vendor Security", "timestamp": ")" + timestamp + R"(", "version": 1, "statements": [)" + list +
         "]}";
}

it::ProcessResult VexIngest(const std::vector<std::string>& files) {
  std::vector<std::string> args = {"vex", "ingest"};
  args.insert(args.end(), files.begin(), files.end());
  return it::Icatctl(args);
}

long long Rows(const std::string& table) {
  return std::stoll(*it::PgQuery("SELECT count(*) FROM " + table).at(0).at(0));
}

// What the refusal tests compare before and after: every table VEX ingest writes, and the counts.
std::map<std::string, long long> VexState() {
  std::map<std::string, long long> state;
  for (const char* table : {"vex_documents", "vex_statements", "events"}) state[table] = Rows(table);
  state["excluded"] = std::stoll(*it::PgQuery("SELECT COALESCE(sum(vex_excluded_count), 0) FROM scans").at(0).at(0));
  return state;
}

long long Count(const rapidjson::Value& holder, const char* severity) {
  return holder["vulnerabilityCounts"][severity].GetInt64();
}

// The finding of a listing with this id and package.
const rapidjson::Value& FindingOf(const rapidjson::Document& listing, const std::string& id, const std::string& package) {
  for (const rapidjson::Value& f : listing["vulnerabilities"].GetArray()) {
    if (it::StringMember(f, "id") == id && it::StringMember(f["package"], "name") == package) return f;
  }
  BOOST_FAIL("no finding " << id << " in " << package);
  return listing;
}

// A row's cells as text ("NULL" for NULL), for comparing element by element.
std::vector<std::string> Texts(const it::PgRow& row) {
  std::vector<std::string> texts;
  for (const std::optional<std::string>& cell : row) texts.push_back(cell.value_or("NULL"));
  return texts;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vex_ingest)

BOOST_AUTO_TEST_CASE(openvex_statement_for_a_digest_is_stored_once_with_its_document) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = ScannedImage(tenant, dir, "vexin", kFluentd);
  std::string document = OpenVex({Statement("CVE-2019-18224", ByDigest(image, image.versions[0]), kNotAffected)});
  std::string path = dir.Write("vendor.openvex.json", document);
  it::ProcessResult r = VexIngest({path});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("ingested from " + path + " (openvex, Vendor Security): 1 statement of 1 stored for 1 image, "
                        "0 products unknown; 1 scan recounted; 1 vex.updated event") != std::string::npos,
             r.out);
  std::vector<it::PgRow> stored = it::PgQuery(
      "SELECT d.format, d.author, d.version, st.image_id, st.version_id, st.product, st.vuln_id, st.status, "
      "st.justification, st.impact_statement, rfc3339(st.statement_time) FROM vex_statements st "
      "JOIN vex_documents d ON d.id = st.document_id WHERE d.sha256 = $1",
      {it::Sha256HexOf(document)});
  BOOST_TEST_REQUIRE(stored.size() == 1u);
  std::vector<std::string> expected = {"openvex", "Vendor Security", "1", image.id, image.versions[0].id,
                                       ByDigest(image, image.versions[0]), "CVE-2019-18224", "not_affected",
                                       "vulnerable_code_not_present", "Not in this image.", "2026-01-10T10:00:00Z"};
  BOOST_TEST(Texts(stored[0]) == expected, boost::test_tools::per_element());

  std::map<std::string, long long> before = VexState();
  it::ProcessResult again = VexIngest({path});
  BOOST_TEST(again.exit_code == 0, again.err);
  BOOST_TEST(again.out.find("already ingested: " + path + " holds exactly its bytes; nothing changed") !=
             std::string::npos, again.out);
  BOOST_TEST((VexState() == before));
}

BOOST_AUTO_TEST_CASE(cyclonedx_analysis_is_mapped_and_a_package_ref_restricts_it_to_that_package) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = ScannedImage(tenant, dir, "vexcdx", kAlpine310);
  std::string document = R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1,
      "metadata": {"timestamp": "2026-01-10T10:00:00Z", "supplier": {"name": "Vendor Security"},
        "component": {"type": "container", "name": ")" + image.name + R"(", "bom-ref": "image", "purl": ")" +
                         ByRepository(image) + R"("}},
      "components": [{"type": "library", "name": "libssl1.1", "version": "1.1.1c-r0", "bom-ref": "libssl", "purl": ")" +
                         kLibssl + R"("}],
      "vulnerabilities": [{"id": "CVE-2019-1549", "analysis": {"state": "not_affected", "justification": "code_not_present"},
                           "affects": [{"ref": "libssl"}]}]})";
  it::VexIngestOk(dir, document);
  std::vector<it::PgRow> stored = it::PgQuery(
      "SELECT st.version_id IS NULL, st.subcomponents::text, st.status, st.justification FROM vex_statements st "
      "JOIN vex_documents d ON d.id = st.document_id WHERE d.sha256 = $1 AND d.format = 'cyclonedx'",
      {it::Sha256HexOf(document)});
  BOOST_TEST_REQUIRE(stored.size() == 1u);
  std::vector<std::string> expected = {"t", "{" + std::string(kLibssl) + "}", "not_affected",
                                       "vulnerable_code_not_present"};
  BOOST_TEST(Texts(stored[0]) == expected, boost::test_tools::per_element());
  // The statement names libssl1.1 only: the same CVE in libcrypto1.1 still counts.
  std::string key = tenant.CreateKey(it::kAllReads);
  rapidjson::Document listing = it::ExpectJson200(it::Get("/v1/images/" + image.id + "/vulnerabilities", it::Bearer(key)));
  BOOST_TEST(it::StringMember(FindingOf(listing, "CVE-2019-1549", "libssl1.1")["vex"], "status") == "not_affected");
  BOOST_TEST(FindingOf(listing, "CVE-2019-1549", "libcrypto1.1")["vex"].IsNull());
  BOOST_TEST(Count(listing, "medium") == 2);
  BOOST_TEST(listing["vexExcludedCount"].GetInt64() == 0);
  BOOST_TEST(listing["findingCounts"]["medium"].GetInt64() == 3);  // one of the four package findings excluded
}

BOOST_AUTO_TEST_CASE(invalid_vex_is_refused_naming_the_problem_and_nothing_is_stored) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = ScannedImage(tenant, dir, "vexbad", kFluentd);
  std::string valid = dir.Write("valid.json", OpenVex({Statement("CVE-2019-18224", ByRepository(image), kNotAffected)}));
  std::string invalid = dir.Write("invalid.json", OpenVex({Statement("CVE-2020-8165", ByRepository(image),
                                                                     R"("status": "not_affected")")}));
  std::map<std::string, long long> before = VexState();
  it::ProcessResult r = VexIngest({valid, invalid});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("icatctl: " + invalid + ": is not valid OpenVEX 0.2.0 (official schema): /statements/0: "
                        "Missing required property 'justification'") == 0u,
             r.err);
  BOOST_TEST((VexState() == before));  // the valid file of the same run is not stored either

  std::string elsewhere = dir.Write(
      "elsewhere.json", OpenVex({Statement("CVE-2019-18224", "pkg:oci/nginx?repository_url=quay.io/other/nginx", kNotAffected)}));
  r = VexIngest({elsewhere});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "icatctl: " + elsewhere + ": no statement names a catalogue image (1 product unknown, the first: "
                      "/statements/0 (CVE-2019-18224): product pkg:oci/nginx?repository_url=quay.io/other/nginx matches "
                      "no catalogue image); nothing was stored\n");
  BOOST_TEST((VexState() == before));

  std::string partly = dir.Write("partly.json", OpenVex({Statement("CVE-2019-18224", ByRepository(image), kNotAffected),
                                                         Statement("CVE-2020-8165", "pkg:golang/x/y@v1", kNotAffected)}));
  r = VexIngest({partly});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("1 statement of 2 stored for 1 image, 1 product unknown") != std::string::npos, r.out);
  BOOST_TEST(r.err == "icatctl: warning: " + partly +
                          ": /statements/1 (CVE-2020-8165): product pkg:golang/x/y@v1 is not a container image; not stored\n");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(vex_effects)

BOOST_AUTO_TEST_CASE(not_affected_statement_changes_the_counts_everywhere_and_the_finding_shows_it) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = ScannedImage(tenant, dir, "vexcount", kFluentd);
  const it::Version& version = image.versions[0];
  it::Headers key = it::Bearer(tenant.CreateKey(it::kAllReads));
  rapidjson::Document before = it::ExpectJson200(it::Get("/v1/images/" + image.id, key));
  BOOST_TEST((Count(before, "critical") == 1 && Count(before, "high") == 1 && before["vexExcludedCount"].GetInt64() == 0));

  it::VexIngestOk(dir, OpenVex({Statement("CVE-2019-18224", ByDigest(image, version), kNotAffected)}));
  // Every reply that shows the version's counts: critical 1 -> 0, with the excluded id beside them.
  rapidjson::Document detail = it::ExpectJson200(it::Get("/v1/images/" + image.id, key));
  rapidjson::Document versions = it::ExpectJson200(it::Get("/v1/images/" + image.id + "/versions", key));
  rapidjson::Document one = it::ExpectJson200(it::Get(it::V1VersionPath(image.id, version.id), key));
  rapidjson::Document listing =
      it::ExpectJson200(it::Get(it::V1VersionPath(image.id, version.id) + "/vulnerabilities", key));
  rapidjson::Document history = it::ExpectJson200(it::Get(
      "/api/docker-images/" + image.id + "/versions/" + version.id + "/scan-history", it::PortalHeaders(tenant)));
  rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images?q=" + image.name, key));
  const std::vector<const rapidjson::Value*> shown = {&detail, &detail["versions"][0], &versions["versions"][0], &one,
                                                      &listing, &history["points"][0], &list["images"][0]};
  for (const rapidjson::Value* counted : shown) {
    BOOST_TEST(Count(*counted, "critical") == 0);
    BOOST_TEST(Count(*counted, "high") == 1);
    BOOST_TEST((*counted)["vexExcludedCount"].GetInt64() == 1);
  }
  BOOST_TEST(listing["findingCounts"]["critical"].GetInt64() == 0);
  BOOST_TEST(listing["fixableCount"].GetInt64() == 1);
  // The finding says which statement applies; the other finding has none.
  const rapidjson::Value& vex = FindingOf(listing, "CVE-2019-18224", "libidn2-0")["vex"];
  BOOST_TEST_REQUIRE(vex.IsObject());
  BOOST_TEST(it::StringMember(vex, "status") == "not_affected");
  BOOST_TEST(it::StringMember(vex, "justification") == "vulnerable_code_not_present");
  BOOST_TEST(it::StringMember(vex, "impactStatement") == "Not in this image.");
  BOOST_TEST(it::StringMember(vex, "statementTime") == "2026-01-10T10:00:00Z");
  BOOST_TEST(it::StringMember(vex, "author") == "Vendor Security");
  BOOST_TEST(FindingOf(listing, "CVE-2020-8165", "activesupport")["vex"].IsNull());
  rapidjson::Document cve = it::ExpectJson200(it::Get("/v1/cve/CVE-2019-18224", key));
  for (const rapidjson::Value& found : cve["images"].GetArray()) {
    if (it::StringMember(found, "id") != image.id) continue;
    BOOST_TEST(it::StringMember(found["versions"][0]["packages"][0]["vex"], "status") == "not_affected");
  }

  // A scan ingested after the statement is counted with it.
  std::string later = dir.Write("later.cdx.json", it::MinimalCycloneDx(it::Fixture(kFluentd), "2021-08-25T12:20:31Z"));
  it::IngestOk({image.name, version.tag, version.digest, it::Fixture(kFluentd), std::nullopt, later, image.repository,
                std::nullopt, {}});
  std::vector<it::PgRow> scans =
      it::PgQuery("SELECT critical_count, vex_excluded_count FROM scans WHERE version_id = $1", {version.id});
  BOOST_TEST_REQUIRE(scans.size() == 2u);
  for (const it::PgRow& scan : scans) BOOST_TEST((*scan[0] == "0" && *scan[1] == "1"));
}

BOOST_AUTO_TEST_CASE(version_statements_apply_to_their_version_repository_ones_to_all_and_the_latest_wins) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = ScannedImage(tenant, dir, "vexscope", kFluentd, {"1.0", "2.0"});
  const it::Version &v1 = image.versions[0], &v2 = image.versions[1];
  it::Headers key = it::Bearer(tenant.CreateKey(it::kAllReads));
  auto listing = [&](const it::Version& v) {
    return it::ExpectJson200(it::Get(it::V1VersionPath(image.id, v.id) + "/vulnerabilities", key));
  };
  auto status = [&](const it::Version& v, const std::string& cve, const std::string& package) -> std::string {
    rapidjson::Document l = listing(v);
    const rapidjson::Value& vex = FindingOf(l, cve, package)["vex"];
    return vex.IsNull() ? "none" : it::StringMember(vex, "status");
  };

  it::VexIngestOk(dir, OpenVex({Statement("CVE-2019-18224", ByDigest(image, v1), kNotAffected)}, "2026-01-10T00:00:00Z"));
  BOOST_TEST(status(v1, "CVE-2019-18224", "libidn2-0") == "not_affected");
  BOOST_TEST(status(v2, "CVE-2019-18224", "libidn2-0") == "none");  // another version
  BOOST_TEST((Count(listing(v1), "critical") == 0 && Count(listing(v2), "critical") == 1));

  it::VexIngestOk(dir, OpenVex({Statement("CVE-2020-8165", ByRepository(image), kNotAffected)}, "2026-01-11T00:00:00Z"));
  for (const it::Version* v : {&v1, &v2}) {
    BOOST_TEST(status(*v, "CVE-2020-8165", "activesupport") == "not_affected");  // every version
    BOOST_TEST(Count(listing(*v), "high") == 0);
  }
  BOOST_TEST(listing(v1)["vexExcludedCount"].GetInt64() == 2);
  BOOST_TEST(listing(v2)["vexExcludedCount"].GetInt64() == 1);

  // A later statement about every version replaces 1.0's earlier one; an older one changes nothing.
  it::VexIngestOk(dir, OpenVex({Statement("CVE-2019-18224", ByRepository(image),
                                      R"("status": "affected", "action_statement": "Update to 3.0")")},
                           "2026-01-12T00:00:00Z"));
  it::VexIngestOk(dir, OpenVex({Statement("CVE-2020-8165", ByDigest(image, v2), R"("status": "fixed")")},
                           "2026-01-01T00:00:00Z"));
  BOOST_TEST(status(v1, "CVE-2019-18224", "libidn2-0") == "affected");
  BOOST_TEST(Count(listing(v1), "critical") == 1);
  BOOST_TEST(listing(v1)["vexExcludedCount"].GetInt64() == 1);
  BOOST_TEST(status(v2, "CVE-2020-8165", "activesupport") == "not_affected");
}

BOOST_AUTO_TEST_CASE(admission_allows_what_the_vendor_marks_not_affected_unless_the_policy_counts_it) {
  it::PortalTenant t;
  it::TempDir dir;
  it::Image image = ScannedImage(t.tenant, dir, "vexadm", kFluentd);
  std::string admission_key = t.tenant.CreateKey("admission");
  std::string reference = image.repository + ":1.0";
  auto review = [&] {
    std::string uid = "uid-" + it::RandomSuffix(12);
    return std::pair(uid, it::ExpectAnswer(it::PostReview(admission_key, it::PodReview(uid, reference)), uid));
  };
  auto [denied_uid, denied] = review();
  BOOST_TEST(!denied.allowed);
  BOOST_TEST(denied.message.find("severityThreshold: 1 vulnerability at or above critical in " + image.name +
                                 ":1.0: CVE-2019-18224") != std::string::npos,
             denied.message);

  it::VexIngestOk(dir, OpenVex({Statement("CVE-2019-18224", ByDigest(image, image.versions[0]), kNotAffected)}));
  auto [allowed_uid, allowed] = review();
  BOOST_TEST(allowed.allowed, allowed.message);
  std::vector<it::PgRow> recorded = it::PgQuery(
      "SELECT images->0->>'vendorNotAffectedCves' FROM admission_decisions WHERE tenant_id = $1 AND request_uid = $2",
      {t.id(), allowed_uid});
  BOOST_TEST_REQUIRE(recorded.size() == 1u);
  BOOST_TEST(recorded[0][0].value_or("") == R"(["CVE-2019-18224"])");

  it::Response wrong = it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"trustVendorVex": "no"})");
  it::ExpectError(wrong, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(wrong) == std::vector<std::string>{"trustVendorVex"}, boost::test_tools::per_element());
  it::Response saved = it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"trustVendorVex": false})");
  BOOST_TEST_REQUIRE(saved.status == 200, saved.Summary());
  BOOST_TEST(!it::JsonOf(saved)["trustVendorVex"].GetBool());
  auto [counted_uid, counted] = review();
  BOOST_TEST(!counted.allowed);
  BOOST_TEST(counted.message.find("CVE-2019-18224") != std::string::npos, counted.message);
}

BOOST_AUTO_TEST_CASE(vex_updated_reaches_a_licensed_tenant_and_not_an_unlicensed_one) {
  it::PortalTenant licensed, unlicensed;
  it::TempDir dir;
  it::Image image = ScannedImage(licensed.tenant, dir, "vexhook", kFluentd);
  it::Receiver licensed_receiver, unlicensed_receiver;
  for (auto [t, receiver] : {std::pair(&licensed, &licensed_receiver), std::pair(&unlicensed, &unlicensed_receiver)}) {
    it::Response created = it::Send("POST", "/api/webhooks", t->As(t->admin),
                                    R"({"url": ")" + receiver->Url() + R"(", "events": ["vex.updated"]})");
    BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  }
  it::VexIngestOk(dir, OpenVex({Statement("CVE-2019-18224", ByDigest(image, image.versions[0]), kNotAffected)}));

  std::vector<it::ReceivedRequest> got = licensed_receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST_REQUIRE(body.IsObject());
  BOOST_TEST(it::StringMember(body, "type") == "vex.updated");
  const rapidjson::Value& data = body["data"];
  BOOST_TEST(it::StringMember(data["image"], "id") == image.id);
  BOOST_TEST_REQUIRE(data["versions"].Size() == 1u);
  BOOST_TEST(it::StringMember(data["versions"][0], "tag") == "1.0");
  BOOST_TEST(it::StringMember(data["versions"][0], "digest") == image.versions[0].digest);
  BOOST_TEST(it::StringMember(data["document"], "author") == "Vendor Security");
  BOOST_TEST_REQUIRE(data["statements"].Size() == 1u);
  const rapidjson::Value& statement = data["statements"][0];
  BOOST_TEST(it::StringMember(statement, "vulnerability") == "CVE-2019-18224");
  BOOST_TEST(it::StringMember(statement, "status") == "not_affected");
  BOOST_TEST(it::StringMember(statement, "justification") == "vulnerable_code_not_present");
  BOOST_TEST(it::StringMember(statement["version"], "tag") == "1.0");
  std::this_thread::sleep_for(2s);  // the dispatcher has sent everything due by now
  BOOST_TEST(unlicensed_receiver.Received().empty());
  BOOST_TEST(it::PgQuery("SELECT 1 FROM events WHERE tenant_id = $1 AND type = 'vex.updated'", {unlicensed.id()}).empty());
}

BOOST_AUTO_TEST_CASE(scan_recount_counts_ids_once_at_their_highest_severity_and_skips_not_affected) {
  // The one counting rule (sql/V0017 scan_recount) on findings written straight into a scan.
  it::Tenant tenant;
  it::Image image = tenant.AddImage("vexrule", {{"1.0"}});
  std::string scan = it::InsertLatestScan(image.versions[0].id, {});
  for (const char* finding : {"('CVE-2024-1', 'openssl', 'medium', 'fixed')", "('CVE-2024-1', 'libssl3', 'critical', 'not-fixed')",
                              "('CVE-2024-2', 'zlib', 'low', 'fixed')", "('CVE-2024-3', 'curl', 'unknown', 'wont-fix')",
                              "('CVE-2024-9', 'curl', 'high', 'not-affected')"}) {
    it::PgQuery("INSERT INTO vulnerabilities (set_id, vuln_id, package_name, severity, fix_state) SELECT $1::uuid, f.* FROM "
                "(VALUES " + std::string(finding) + ") f",
                {scan});
  }
  std::vector<it::PgRow> counts = it::PgQuery(
      "SELECT critical_count, high_count, medium_count, low_count, unknown_count, findings_critical, findings_medium, "
      "fixable_count, vex_excluded_count FROM scan_recount($1)",
      {scan});
  std::vector<std::string> expected = {"1", "0", "0", "1", "1", "1", "1", "2", "0"};
  BOOST_TEST(Texts(counts.at(0)) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
