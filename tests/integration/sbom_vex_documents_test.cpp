// The VEX documents the service serves (issue 17, docs/vex-documents.md): after `icatctl vex ingest`,
// GET /v1/images/{id}/versions/{versionId}/vex (and the portal's) answers each version's statements as
// OpenVEX or CycloneDX, valid against the official schemas, signed like SBOMs; a repository-wide
// statement reaches a version added later; gc keeps the blobs; and `icat vex` downloads and verifies.
#include <fcntl.h>
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "icat/crypto.hpp"
#include "icat/http.hpp"
#include "icat_client_support.hpp"

namespace it = icat::test;
namespace fs = std::filesystem;

namespace {

using it::kAllReads, it::kAlpine310, it::kUnknownId, it::Shown, it::TamperingProxy;

// Trivy's fluentd image scan with the CycloneDX SBOM of the same run: a real SBOM whose packages
// have purls as bom-refs, so the CycloneDX VEX document can link into it.
constexpr const char* kFluentdScan = "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json";
constexpr const char* kFluentdCdx =
    "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json";
constexpr const char* kFluentdSerial = "3ff14136-e09f-4df9-80ea-000000000163";
// CVE-2019-18224 is found in this package of the fluentd scan, CVE-2020-8165 in activesupport.
constexpr const char* kLibidn = "pkg:deb/debian/libidn2-0@2.0.5-1?arch=amd64&distro=debian-10.2";

struct Version {
  std::string id, tag, digest;
};

// An image licensed to tenant with 1.0 (the fluentd scan and its SBOM) and 2.0 (the latest: the
// Alpine scan and made-up SBOMs).
struct Scanned {
  it::Image image;
  Version v1, v2;
};

Version IngestVersion(const it::Image& image, const std::string& tag, const std::string& report,
                      const std::string& cyclonedx, const std::string& published) {
  Version v{"", tag, it::ReportDigest(report)};
  it::IngestOk({image.name, tag, v.digest, report, std::nullopt, cyclonedx, image.repository, published, {}});
  v.id = it::VersionIdOf(image.name, tag);
  return v;
}

Version IngestAlpine(const it::TempDir& dir, const it::Image& image, const std::string& tag,
                     const std::string& published) {
  std::string report = it::Fixture(kAlpine310);
  std::string sbom = dir.Write(image.name + "_" + tag + ".cdx.json", it::MinimalCycloneDx(report, published));
  return IngestVersion(image, tag, report, sbom, published);
}

// A fresh image licensed to tenant with one version, 1.0, of the alpine scan: no statement names it.
it::Image AlpineImage(it::Tenant& tenant, const it::TempDir& dir, const std::string& label) {
  it::Image image;
  image.name = "it-" + label + "-" + it::RandomSuffix(6);
  image.repository = "registry.example.test/it/" + image.name;
  IngestAlpine(dir, image, "1.0", "2022-07-02T00:00:00Z");
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
  tenant.License(image);
  return image;
}

Scanned ScanImage(it::Tenant& tenant, const it::TempDir& dir, const std::string& label) {
  Scanned s;
  s.image.name = "it-" + label + "-" + it::RandomSuffix(6);
  s.image.repository = "registry.example.test/it/" + s.image.name;
  s.v1 = IngestVersion(s.image, "1.0", it::Fixture(kFluentdScan), it::Fixture(kFluentdCdx), "2021-08-26T00:00:00Z");
  s.v2 = IngestAlpine(dir, s.image, "2.0", "2022-07-02T00:00:00Z");
  s.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {s.image.name}).at(0).at(0);
  tenant.License(s.image);
  return s;
}

// The version as Trivy and Grype name a scanned image.
std::string PurlOf(const it::Image& image, const Version& v) {
  return "pkg:oci/" + image.name + "@" + icat::UrlEncode(v.digest) + "?repository_url=" + icat::UrlEncode(image.repository);
}

// The vendor's OpenVEX document: CVE-2019-18224 not_affected in libidn2-0 of 1.0 (by its digest), and
// CVE-2020-8165 affected in every version (the repository, no digest).
std::string VendorVex(const Scanned& s, const std::string& not_affected_time = "2026-03-01T00:00:00Z") {
  return R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" + it::RandomSuffix(8) +
         R"(", "author": "Vendor Security", "timestamp": "2026-03-01T00:00:00Z", "version": 1, "statements": [
    {"vulnerability": {"name": "CVE-2019-18224"}, "timestamp": ")" +
         not_affected_time + R"(",
     "products": [{"@id": "pkg:oci/)" +
         s.image.name + "@" + s.v1.digest + "?repository_url=" + s.image.repository +
         R"(", "subcomponents": [{"@id": ")" + kLibidn + R"("}]}],
     "status": "not_affected", "justification": "vulnerable_code_not_in_execute_path"},
    {"vulnerability": {"name": "CVE-2020-8165"}, "timestamp": "2026-02-01T00:00:00Z",
     "products": [{"@id": "pkg:oci/)" +
         s.image.name + "?repository_url=" + s.image.repository + R"("}],
     "status": "affected", "action_statement": "Upgrade activesupport to 6.0.3.1"}]})";
}

// A download of a VEX document: 200, the headers of a signed download, the signature verified with
// openssl and the document valid against its official schema (icatctl vex check, the validator vex
// ingest uses). Returns the parsed document.
rapidjson::Document ExpectDocument(const it::TempDir& dir, const it::Response& r, const std::string& format,
                                   const std::string& image_name, const std::string& tag) {
  BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
  std::string hex = it::Sha256HexOf(r.body);
  BOOST_TEST(r.Header("content-type") ==
             (format == "openvex" ? "application/json" : "application/vnd.cyclonedx+json; version=1.5"));
  BOOST_TEST(r.Header("content-disposition") == "attachment; filename=\"" + image_name + "_" + tag +
                                                    (format == "openvex" ? ".openvex.json" : ".vex.cdx.json") + "\"");
  BOOST_TEST(r.Header("etag") == "\"sha256:" + hex + "\"");
  BOOST_TEST(r.Header("repr-digest") == "sha-256=:" + icat::Base64Encode(icat::Sha256(r.body)) + ":");
  BOOST_TEST(r.Header("cache-control") == "private, no-cache");
  std::string file = dir.Write("served-" + it::RandomSuffix(6) + ".json", r.body);
  std::optional<std::string> failure =
      it::OpensslVerifyFailure(file, r.Header("x-signature"), r.Header("x-signature-key-id"));
  BOOST_TEST(!failure.has_value(), failure.value_or(""));
  it::ProcessResult check = it::Icatctl({"vex", "check", file});
  BOOST_TEST(check.exit_code == 0, Shown(check));
  BOOST_TEST(check.out.find(format == "openvex" ? ": valid OpenVEX 0.2.0 (official schema)"
                                                : ": valid CycloneDX 1.5 (official schema)") != std::string::npos,
             check.out);
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  BOOST_TEST_REQUIRE(d.IsObject());
  return d;
}

// An OpenVEX document's statements by vulnerability name.
std::map<std::string, const rapidjson::Value*> Statements(const rapidjson::Document& d) {
  std::map<std::string, const rapidjson::Value*> by_name;
  for (const rapidjson::Value& s : d["statements"].GetArray()) by_name[s["vulnerability"]["name"].GetString()] = &s;
  return by_name;
}

// A CycloneDX document's affects refs by vulnerability id.
std::map<std::string, std::vector<std::string>> Affects(const rapidjson::Document& d) {
  std::map<std::string, std::vector<std::string>> refs;
  for (const rapidjson::Value& v : d["vulnerabilities"].GetArray()) {
    for (const rapidjson::Value& a : v["affects"].GetArray()) refs[v["id"].GetString()].push_back(a["ref"].GetString());
  }
  return refs;
}

std::string ServedSha(const std::string& version_id, const std::string& format) {
  std::vector<it::PgRow> rows =
      it::PgQuery("SELECT sha256, document_version FROM vex_served_documents WHERE version_id = $1 AND format = $2",
                  {version_id, format});
  return rows.empty() ? "" : *rows.at(0).at(0) + " v" + *rows.at(0).at(1);
}

std::string BlobPath(const std::string& sha_and_version) {
  std::string hex = sha_and_version.substr(0, 64);
  const char* dir = std::getenv("ICAT_BLOB_DIR");
  BOOST_TEST_REQUIRE((dir && *dir), "ICAT_BLOB_DIR is not set");
  return std::string(dir) + "/sha256/" + hex.substr(0, 2) + "/" + hex;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vex_documents)

BOOST_AUTO_TEST_CASE(each_version_gets_its_own_statements_signed_and_schema_valid_in_both_formats_by_id_or_tag) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "vexdocs");
  std::string out = it::VexIngestOk(dir, VendorVex(s));
  BOOST_TEST(out.find("served vex documents of " + s.image.name + ": 4 written, 0 removed") != std::string::npos, out);
  std::string key = tenant.CreateKey("read:vulns");

  for (const std::string& name : {s.v1.id, s.v1.tag}) {
    BOOST_TEST_CONTEXT("1.0 as " << name) {
      // Without format: OpenVEX.
      for (const std::string& query : {std::string(""), std::string("?format=openvex")}) {
        rapidjson::Document d =
            ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, name) + "/vex" + query, it::Bearer(key)), "openvex", s.image.name, "1.0");
        BOOST_TEST(std::string(d["@context"].GetString()) == "https://openvex.dev/ns/v0.2.0");
        BOOST_TEST(std::string(d["author"].GetString()) == "Vendor Security");
        BOOST_TEST(std::string(d["timestamp"].GetString()) == "2026-03-01T00:00:00Z");  // the latest statement's
        BOOST_TEST(d["version"].GetInt() == 1);
        std::map<std::string, const rapidjson::Value*> statements = Statements(d);
        BOOST_TEST_REQUIRE(statements.size() == 2u);
        const rapidjson::Value& not_affected = *statements.at("CVE-2019-18224");
        BOOST_TEST(std::string(not_affected["status"].GetString()) == "not_affected");
        BOOST_TEST(std::string(not_affected["justification"].GetString()) == "vulnerable_code_not_in_execute_path");
        BOOST_TEST(std::string(not_affected["products"][0]["@id"].GetString()) == PurlOf(s.image, s.v1));
        BOOST_TEST(std::string(not_affected["products"][0]["hashes"]["sha-256"].GetString()) == s.v1.digest.substr(7));
        BOOST_TEST(std::string(not_affected["products"][0]["subcomponents"][0]["@id"].GetString()) == kLibidn);
        const rapidjson::Value& affected = *statements.at("CVE-2020-8165");
        BOOST_TEST(std::string(affected["action_statement"].GetString()) == "Upgrade activesupport to 6.0.3.1");
        BOOST_TEST(std::string(affected["products"][0]["@id"].GetString()) == PurlOf(s.image, s.v1));
      }
      // CycloneDX: the package by BOM-Link into 1.0's CycloneDX SBOM; every package is the image.
      rapidjson::Document cdx = ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, name) + "/vex" + "?format=cyclonedx", it::Bearer(key)),
                                               "cyclonedx", s.image.name, "1.0");
      std::string link = std::string("urn:cdx:") + kFluentdSerial + "/1#";
      BOOST_TEST((Affects(cdx)["CVE-2019-18224"] == std::vector<std::string>{link + icat::UrlEncode(kLibidn)}));
      BOOST_TEST((Affects(cdx)["CVE-2020-8165"] == std::vector<std::string>{PurlOf(s.image, s.v1)}));
      BOOST_TEST(std::string(cdx["vulnerabilities"][0]["analysis"]["state"].GetString()) == "not_affected");
      BOOST_TEST(std::string(cdx["vulnerabilities"][0]["analysis"]["justification"].GetString()) ==
                 "code_not_reachable");
      BOOST_TEST(std::string(cdx["metadata"]["component"]["purl"].GetString()) == PurlOf(s.image, s.v1));
    }
  }
  // 2.0, the latest: only the statement about every version, about 2.0.
  rapidjson::Document latest =
      ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, "2.0") + "/vex", it::Bearer(key)), "openvex", s.image.name, "2.0");
  std::map<std::string, const rapidjson::Value*> statements = Statements(latest);
  BOOST_TEST_REQUIRE(statements.size() == 1u);
  BOOST_TEST(std::string((*statements.at("CVE-2020-8165"))["products"][0]["@id"].GetString()) == PurlOf(s.image, s.v2));
  BOOST_TEST(std::string(latest["timestamp"].GetString()) == "2026-02-01T00:00:00Z");
  rapidjson::Document latest_cdx = ExpectDocument(
      dir, it::Get(it::V1VersionPath(s.image.id, "2.0") + "/vex" + "?format=cyclonedx", it::Bearer(key)), "cyclonedx", s.image.name, "2.0");
  BOOST_TEST((Affects(latest_cdx)["CVE-2020-8165"] == std::vector<std::string>{PurlOf(s.image, s.v2)}));

  // If-None-Match naming the ETag: 304, no body.
  it::Response first = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(key));
  it::Headers again = it::Bearer(key);
  again.emplace_back("If-None-Match", first.Header("etag"));
  it::Response not_modified = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", again);
  BOOST_TEST(not_modified.status == 304);
  BOOST_TEST(not_modified.body.empty());
}

BOOST_AUTO_TEST_CASE(a_version_no_statement_applies_to_is_404_vex_not_available_and_other_formats_400) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = AlpineImage(tenant, dir, "novex");
  std::string key = tenant.CreateKey("read:vulns");
  std::string path = "/v1/images/" + image.id + "/versions/1.0/vex";
  for (const std::string& query : {std::string(""), std::string("?format=cyclonedx")}) {
    it::Response r = it::Get(path + query, it::Bearer(key));
    it::ExpectError(r, 404, "VEX_NOT_AVAILABLE");
    BOOST_TEST(it::StringMember(it::JsonOf(r), "message") ==
               "The vendor has made no VEX statement about version 1.0 of " + image.name +
                   ", so it has no VEX document.");
  }
  for (const std::string bad : {"csaf", "OpenVEX", "spdx", ""}) {
    it::Response r = it::Get(path + "?format=" + bad, it::Bearer(key));
    it::ExpectError(r, 400, "VALIDATION_ERROR");
    BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"format"}));
  }
  it::Response unknown = it::Get(path + "?version=1.0", it::Bearer(key));
  it::ExpectError(unknown, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(unknown) == std::vector<std::string>{"version"}));
}

BOOST_AUTO_TEST_CASE(keys_without_read_vulns_get_403_and_unknown_unlicensed_or_other_tenants_versions_404) {
  it::Tenant tenant, other;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "vexscope");
  it::VexIngestOk(dir, VendorVex(s));
  for (const std::string scopes : {"read:catalog,read:sbom", "admission"}) {
    it::Response r = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(tenant.CreateKey(scopes)));
    it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
    BOOST_TEST(r.Header("www-authenticate") == "Bearer error=\"insufficient_scope\", scope=\"read:vulns\"");
  }
  std::string key = tenant.CreateKey(kAllReads);
  for (const std::string& version : {std::string("9.9"), kUnknownId, std::string("-bad")}) {
    it::ExpectError(it::Get(it::V1VersionPath(s.image.id, version) + "/vex", it::Bearer(key)), 404, "NOT_FOUND");
  }
  it::ExpectError(it::Get("/v1/images/" + kUnknownId + "/versions/1.0/vex", it::Bearer(key)), 404, "NOT_FOUND");
  // Another tenant, not licensed for the image: as unknown, with every scope.
  std::string theirs = other.CreateKey(kAllReads);
  for (const std::string& version : {s.v1.id, s.v1.tag}) {
    it::ExpectError(it::Get(it::V1VersionPath(s.image.id, version) + "/vex", it::Bearer(theirs)), 404, "NOT_FOUND");
  }

  // The portal's download: the same bytes for a signed-in user of the tenant, by version id only.
  std::string portal = "/api/docker-images/" + s.image.id + "/versions/" + s.v1.id + "/vex";
  it::Response api = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex" + "?format=cyclonedx", it::Bearer(key));
  it::Response console = it::Get(portal + "?format=cyclonedx", it::PortalHeaders(tenant));
  ExpectDocument(dir, console, "cyclonedx", s.image.name, "1.0");
  BOOST_TEST((console.body == api.body));
  it::Response openvex = it::Get(portal, it::PortalHeaders(tenant));  // OpenVEX unless asked otherwise
  ExpectDocument(dir, openvex, "openvex", s.image.name, "1.0");
  BOOST_TEST((openvex.body == it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(key)).body));
  it::ExpectError(it::Get(portal, it::PortalHeaders(other)), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/api/docker-images/" + s.image.id + "/versions/1.0/vex", it::PortalHeaders(tenant)), 404,
                  "NOT_FOUND");
  it::Response bad = it::Get(portal + "?format=csaf", it::PortalHeaders(tenant));
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(a_statement_about_every_version_reaches_a_later_version_and_changes_count_the_version_up) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "vexlater");
  it::VexIngestOk(dir, VendorVex(s));
  std::string key = tenant.CreateKey("read:vulns");
  std::string v1_before = ServedSha(s.v1.id, "openvex");

  // A version added after the statement: scan ingest serves it the statement about every version.
  Version v3 = IngestAlpine(dir, s.image, "3.0", "2023-01-01T00:00:00Z");
  rapidjson::Document d =
      ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, "3.0") + "/vex", it::Bearer(key)), "openvex", s.image.name, "3.0");
  std::map<std::string, const rapidjson::Value*> statements = Statements(d);
  BOOST_TEST_REQUIRE(statements.size() == 1u);
  BOOST_TEST(std::string((*statements.at("CVE-2020-8165"))["products"][0]["@id"].GetString()) == PurlOf(s.image, v3));
  // The other versions' documents are unchanged: same bytes, same document version.
  BOOST_TEST(ServedSha(s.v1.id, "openvex") == v1_before);
  BOOST_TEST(v1_before.ends_with(" v1"));

  // A newer statement: 1.0's documents change, their version counts up, the old ETag no longer matches.
  it::Response before = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(key));
  it::VexIngestOk(dir, VendorVex(s, "2026-04-01T00:00:00Z"));
  it::Headers again = it::Bearer(key);
  again.emplace_back("If-None-Match", before.Header("etag"));
  rapidjson::Document changed = ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", again), "openvex", s.image.name, "1.0");
  BOOST_TEST(changed["version"].GetInt() == 2);
  rapidjson::Document before_doc = it::JsonOf(before);
  BOOST_TEST(std::string(changed["@id"].GetString()) == std::string(before_doc["@id"].GetString()));  // one document
  BOOST_TEST(std::string(changed["timestamp"].GetString()) == "2026-04-01T00:00:00Z");
  BOOST_TEST(ServedSha(s.v1.id, "openvex").ends_with(" v2"));
  BOOST_TEST(ServedSha(v3.id, "openvex").ends_with(" v1"));  // its statements did not change
}

BOOST_AUTO_TEST_CASE(gc_keeps_the_served_documents_blobs_and_removes_those_replaced) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "vexgc");
  it::VexIngestOk(dir, VendorVex(s));
  std::string old_blob = BlobPath(ServedSha(s.v1.id, "openvex"));
  it::VexIngestOk(dir, VendorVex(s, "2026-04-01T00:00:00Z"));
  std::vector<std::string> served;
  for (const Version& v : {s.v1, s.v2}) {
    for (const char* format : {"openvex", "cyclonedx"}) served.push_back(BlobPath(ServedSha(v.id, format)));
  }
  // All of them older than the grace period.
  for (const std::string& path : served) BOOST_TEST_REQUIRE(fs::exists(path), path);
  BOOST_TEST_REQUIRE(fs::exists(old_blob));
  timespec old_times[2] = {{std::time(nullptr) - 7200, 0}, {std::time(nullptr) - 7200, 0}};
  for (const std::string& path : served) BOOST_TEST_REQUIRE(utimensat(AT_FDCWD, path.c_str(), old_times, 0) == 0);
  BOOST_TEST_REQUIRE(utimensat(AT_FDCWD, old_blob.c_str(), old_times, 0) == 0);

  it::ProcessResult gc = it::Icatctl({"gc", "--grace", "3600"});
  BOOST_TEST_REQUIRE(gc.exit_code == 0, Shown(gc));
  for (const std::string& path : served) BOOST_TEST(fs::exists(path), path << " was removed: " << gc.out);
  BOOST_TEST(!fs::exists(old_blob), "the replaced document's blob is still there");
  std::string key = tenant.CreateKey("read:vulns");
  ExpectDocument(dir, it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(key)), "openvex", s.image.name, "1.0");
}

BOOST_AUTO_TEST_CASE(icat_vex_writes_the_verified_document_or_exits_3_when_there_is_none) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "icatvex");
  it::VexIngestOk(dir, VendorVex(s));
  std::string key = tenant.CreateKey(kAllReads);

  std::string out = dir.path() + "/vex.openvex.json";
  it::ProcessResult r = it::RunIcat(dir, key, {"vex", s.image.name + ":1.0", "-o", out});
  BOOST_TEST_REQUIRE(r.exit_code == 0, Shown(r));
  it::Response api = it::Get(it::V1VersionPath(s.image.id, "1.0") + "/vex", it::Bearer(key));
  BOOST_TEST((it::ReadFileBytes(out) == api.body));
  BOOST_TEST(r.out.rfind("wrote " + out + ": " + s.image.name + " 1.0 OpenVEX document, ", 0) == 0, r.out);
  BOOST_TEST(r.out.find("checksum and attestation verified (openvex, key ") != std::string::npos, r.out);
  // CycloneDX to stdout; without a tag, the latest version's.
  it::ProcessResult cdx = it::RunIcat(dir, key, {"vex", s.image.name, "--format", "cyclonedx"});
  BOOST_TEST_REQUIRE(cdx.exit_code == 0, Shown(cdx));
  BOOST_TEST((cdx.out == it::Get(it::V1VersionPath(s.image.id, "2.0") + "/vex" + "?format=cyclonedx", it::Bearer(key)).body));

  // Tampered on the way: refused, nothing written.
  std::string tampered_out = dir.path() + "/tampered.json";
  for (TamperingProxy::Mode mode : {TamperingProxy::kFlipByte, TamperingProxy::kRestate}) {
    TamperingProxy proxy(mode);
    it::ProcessResult t = it::RunIcat(dir, key, {"vex", s.image.name + ":1.0", "-o", tampered_out}, proxy.Url());
    BOOST_TEST(proxy.tampered() == 1);
    BOOST_TEST(t.exit_code == 2, Shown(t));
    BOOST_TEST(t.err.find(mode == TamperingProxy::kFlipByte
                              ? "checksum mismatch"
                              : "its attestation (openvex) does not verify: ") != std::string::npos,
               t.err);
    BOOST_TEST(!fs::exists(tampered_out));
  }

  // A version the vendor said nothing about: exit 3, its reason, nothing written.
  it::Image bare = AlpineImage(tenant, dir, "icatnovex");
  std::string none_out = dir.path() + "/none.json";
  it::ProcessResult none = it::RunIcat(dir, key, {"vex", bare.name + ":1.0", "-o", none_out});
  BOOST_TEST(none.exit_code == 3, Shown(none));
  BOOST_TEST(none.err == "icat: The vendor has made no VEX statement about version 1.0 of " + bare.name +
                             ", so it has no VEX document. Nothing was written to " + none_out + ". (exit 3)\n",
             none.err);
  BOOST_TEST(!fs::exists(none_out));
  // A bad format is a usage error; a key without read:vulns the API's refusal.
  BOOST_TEST(it::RunIcat(dir, key, {"vex", s.image.name, "--format", "csaf"}).exit_code == 2);
  it::ProcessResult scope = it::RunIcat(dir, tenant.CreateKey("read:catalog"), {"vex", s.image.name + ":1.0"});
  BOOST_TEST(scope.exit_code == 2, Shown(scope));
  BOOST_TEST(scope.err.find("INSUFFICIENT_SCOPE") != std::string::npos, scope.err);
}

BOOST_AUTO_TEST_SUITE_END()
