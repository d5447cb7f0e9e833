// SBOM downloads over ingested scans (handlers/sbom): the format, ETag and 304, the 404s naming what
// is missing, and the signing keys that verify every download.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kUnknownId, it::kAllReads, it::kAlpine310;
using it::MessageOf, it::ScanNewImage;
using Scanned = it::ScannedImage;

// An image whose version 3.10 was scanned (kAlpine310) with the SBOM of one format only, `format`
// (spdx or cyclonedx), licensed to the tenant; sbom_path is that SBOM's file.
struct OneSbomImage {
  it::Image image;
  std::string sbom_path;
};
OneSbomImage ScanWithOneSbom(it::Tenant& tenant, const it::TempDir& dir, const std::string& format) {
  const bool spdx = format == "spdx";
  std::string report = it::Fixture(kAlpine310);
  it::Image image;
  image.name = std::string(spdx ? "it-spdxonly-" : "it-cdxonly-") + it::RandomSuffix(6);
  std::string sbom = spdx ? dir.Write("only.spdx.json", it::MinimalSpdx(report, "2021-08-25T12:20:30Z"))
                          : dir.Write("only.cdx.json", it::MinimalCycloneDx(report, "2021-08-25T12:20:30Z"));
  it::IngestOk({image.name,
                "3.10",
                it::ReportDigest(report),
                report,
                spdx ? std::optional(sbom) : std::nullopt,
                spdx ? std::nullopt : std::optional(sbom),
                "registry.example.test/it/" + image.name,
                std::nullopt,
                {}});
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
  tenant.License(image);
  return {image, sbom};
}

}  // namespace

// The suite's other cases: vulns_test.cpp.
BOOST_AUTO_TEST_SUITE(scans_api)

BOOST_AUTO_TEST_CASE(format_omitted_is_cyclonedx_each_value_serves_its_file_and_others_are_400) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "format", kAlpine310);
  std::string key = tenant.CreateKey(kAllReads);
  std::string base = "/v1/images/" + s.image.id + "/sbom";
  std::string cdx_hex = it::Sha256HexOf(it::ReadFileBytes(s.cyclonedx_path));
  std::string spdx_hex = it::Sha256HexOf(it::ReadFileBytes(s.spdx_path));
  it::Response omitted = it::Get(base, it::Bearer(key));
  BOOST_TEST_REQUIRE(omitted.status == 200, omitted.Summary());
  BOOST_TEST(it::Sha256HexOf(omitted.body) == cdx_hex);
  BOOST_TEST(omitted.Header("content-type") == "application/vnd.cyclonedx+json; version=1.5");
  it::Response cdx = it::Get(base + "?format=cyclonedx", it::Bearer(key));
  BOOST_TEST(it::Sha256HexOf(cdx.body) == cdx_hex);
  BOOST_TEST(cdx.Header("content-disposition") == "attachment; filename=\"" + s.image.name + "_1.0.cdx.json\"");
  it::Response spdx = it::Get(base + "?format=spdx", it::Bearer(key));
  BOOST_TEST(it::Sha256HexOf(spdx.body) == spdx_hex);
  BOOST_TEST(spdx.Header("content-type") == "application/spdx+json");
  BOOST_TEST(spdx.Header("content-disposition") == "attachment; filename=\"" + s.image.name + "_1.0.spdx.json\"");
  for (const char* bad : {"xml", "SPDX", "", "cyclonedx,spdx"}) {
    BOOST_TEST_CONTEXT("format=" << bad) {
      it::Response r = it::Get(base + "?format=" + bad, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"format"}));
      BOOST_TEST(r.body.find("cyclonedx, spdx") != std::string::npos, r.body);
    }
  }
}

BOOST_AUTO_TEST_CASE(format_omitted_serves_the_spdx_sbom_when_the_scan_has_no_cyclonedx) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string key = tenant.CreateKey(kAllReads);
  OneSbomImage spdx_only = ScanWithOneSbom(tenant, dir, "spdx");
  const it::Image& only = spdx_only.image;
  const std::string& name = only.name;
  it::Response omitted = it::Get("/v1/images/" + only.id + "/sbom", it::Bearer(key));
  BOOST_TEST_REQUIRE(omitted.status == 200, omitted.Summary());
  BOOST_TEST(omitted.body == it::ReadFileBytes(spdx_only.sbom_path));
  BOOST_TEST(omitted.Header("content-type") == "application/spdx+json");
  it::Response cdx = it::Get("/v1/images/" + only.id + "/sbom?format=cyclonedx", it::Bearer(key));
  it::ExpectError(cdx, 404, "SBOM_NOT_AVAILABLE");
  BOOST_TEST(MessageOf(cdx) ==
             "Version 3.10 of " + name + " has no CycloneDX SBOM: its latest scan came with SPDX only.");
}

BOOST_AUTO_TEST_CASE(if_none_match_naming_the_etag_gives_304_and_anything_else_the_file) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanNewImage(tenant, dir, "etag", kAlpine310);
  std::string key = tenant.CreateKey(kAllReads);
  std::string url = "/v1/images/" + s.image.id + "/sbom?format=spdx";
  std::string etag = "\"sha256:" + it::Sha256HexOf(it::ReadFileBytes(s.spdx_path)) + "\"";
  for (const std::string& match : {etag, "\"other\", " + etag, "W/" + etag, std::string("*")}) {
    BOOST_TEST_CONTEXT("If-None-Match: " << match) {
      it::Headers headers = it::Bearer(key);
      headers.emplace_back("If-None-Match", match);
      it::Response r = it::Get(url, headers);
      BOOST_TEST(r.status == 304, r.Summary());
      BOOST_TEST(r.body.empty());
      BOOST_TEST(r.Header("etag") == etag);
    }
  }
  it::Headers other = it::Bearer(key);
  other.emplace_back("If-None-Match", "\"sha256:" + std::string(64, '0') + "\"");
  it::Response r = it::Get(url, other);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.Header("etag") == etag);
  // The portal download honours it too.
  it::Headers portal = it::PortalHeaders(tenant);
  portal.emplace_back("If-None-Match", etag);
  BOOST_TEST(it::Get(it::PortalVersionPath(s.image.id, s.version_id) + "/sbom/spdx", portal).status == 304);
}

BOOST_AUTO_TEST_CASE(missing_versions_scans_formats_and_malformed_ids_are_404_saying_what_is_missing) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string key = tenant.CreateKey(kAllReads);
  it::Image bare = tenant.AddImage("bare");
  it::Response no_version = it::Get("/v1/images/" + bare.id + "/sbom", it::Bearer(key));
  // A known image without the SBOM asked for is SBOM_NOT_AVAILABLE, never the unknown image's NOT_FOUND.
  it::ExpectError(no_version, 404, "SBOM_NOT_AVAILABLE");
  BOOST_TEST(MessageOf(no_version).find("has no versions yet") != std::string::npos);
  it::Image unscanned = tenant.AddImage("unscanned", {{"2.0"}});
  it::Response no_scan = it::Get("/v1/images/" + unscanned.id + "/sbom?format=spdx", it::Bearer(key));
  it::ExpectError(no_scan, 404, "SBOM_NOT_AVAILABLE");
  BOOST_TEST(MessageOf(no_scan).find("has never been scanned") != std::string::npos);
  // An unscanned version's findings: 200 saying so, with no list or counts that could read as clean.
  rapidjson::Document unknown =
      it::ExpectJson200(it::Get("/v1/images/" + unscanned.id + "/vulnerabilities", it::Bearer(key)));
  BOOST_TEST(it::StringMember(unknown, "scanStatus") == "unscanned");
  BOOST_TEST(unknown["lastScannedAt"].IsNull());
  BOOST_TEST(unknown["vulnerabilities"].IsNull());
  BOOST_TEST(unknown["vulnerabilityCounts"].IsNull());
  BOOST_TEST(unknown["scan"].IsNull());
  BOOST_TEST(it::StringMember(unknown["version"], "tag") == "2.0");

  // A scan that came with a CycloneDX SBOM only.
  const it::Image only = ScanWithOneSbom(tenant, dir, "cyclonedx").image;
  const std::string& name = only.name;
  it::Response no_spdx = it::Get("/v1/images/" + only.id + "/sbom?format=spdx", it::Bearer(key));
  it::ExpectError(no_spdx, 404, "SBOM_NOT_AVAILABLE");
  BOOST_TEST(MessageOf(no_spdx) ==
             "Version 3.10 of " + name + " has no SPDX SBOM: its latest scan came with CycloneDX only.");

  for (const std::string& id : {std::string("not-a-uuid"), kUnknownId, std::string("%27%20OR%201%3D1")}) {
    BOOST_TEST_CONTEXT("id " << id) {
      it::ExpectError(it::Get("/v1/images/" + id + "/sbom", it::Bearer(key)), 404, "NOT_FOUND");
      it::ExpectError(it::Get("/v1/images/" + id + "/vulnerabilities", it::Bearer(key)), 404, "NOT_FOUND");
      it::Headers portal = it::PortalHeaders(tenant);
      it::ExpectError(it::Get("/api/docker-images/" + only.id + "/versions/" + id + "/sbom/cyclonedx", portal), 404,
                      "NOT_FOUND");
      it::ExpectError(it::Get("/api/docker-images/" + id + "/versions/" + kUnknownId + "/vulnerabilities", portal), 404,
                      "NOT_FOUND");
      it::ExpectError(it::Get("/api/docker-images/" + only.id + "/versions/" + id + "/scan-history", portal), 404,
                      "NOT_FOUND");
    }
  }
  // A version of another image is not this image's version.
  std::string other_version =
      *it::PgQuery("SELECT latest_version_id FROM images WHERE id = $1", {unscanned.id}).at(0).at(0);
  it::ExpectError(it::Get("/api/docker-images/" + only.id + "/versions/" + other_version + "/sbom/cyclonedx",
                          it::PortalHeaders(tenant)),
                  404, "NOT_FOUND");
  // A format the portal does not offer is no path at all.
  it::ExpectError(
      it::Get("/api/docker-images/" + only.id + "/versions/" + other_version + "/sbom/xml", it::PortalHeaders(tenant)),
      404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(signing_keys_are_public_and_the_key_of_every_download_is_among_them) {
  it::Response r = it::Get("/v1/signing-keys");
  rapidjson::Document body = it::ExpectJson200(r);
  BOOST_TEST_REQUIRE((body.IsObject() && body["keys"].IsArray() && body["keys"].Size() >= 1u), r.Summary());
  std::string pem = it::ReadFileBytes(std::getenv("ICAT_SIGNING_KEY_FILE"));
  std::string stack_key_id = icat::SigningKeyId(icat::Ed25519PublicKeyPem(pem));
  bool found = false;
  for (const rapidjson::Value& key : body["keys"].GetArray()) {
    // Ingest records the P-256 attestation key beside the Ed25519 one (issue 27).
    std::string algorithm = it::StringMember(key, "algorithm");
    BOOST_TEST((algorithm == "Ed25519" || algorithm == "ECDSA-P256"), algorithm);
    BOOST_TEST(it::StringMember(key, "use") == (algorithm == "Ed25519" ? "signatures" : "attestations"));
    BOOST_TEST(it::StringMember(key, "id").size() == 16u);
    BOOST_TEST(it::StringMember(key, "publicKeyPem").rfind("-----BEGIN PUBLIC KEY-----", 0) == 0u);
    if (it::StringMember(key, "id") == stack_key_id) {
      found = true;
      BOOST_TEST(it::StringMember(key, "publicKeyPem") == icat::Ed25519PublicKeyPem(pem));
    }
  }
  BOOST_TEST(found, "the stack's key " << stack_key_id << " is not published");
  // The key id is SHA-256 of the public key's DER, first 16 hex characters, as openssl computes it.
  it::TempDir dir;
  std::string der = dir.path() + "/pub.der";
  it::ProcessResult out = it::RunProcess(
      {"openssl", "pkey", "-in", std::getenv("ICAT_SIGNING_KEY_FILE"), "-pubout", "-outform", "DER", "-out", der});
  BOOST_TEST_REQUIRE(out.exit_code == 0, out.err);
  BOOST_TEST(it::Sha256HexOf(it::ReadFileBytes(der)).substr(0, 16) == stack_key_id);
}

BOOST_AUTO_TEST_SUITE_END()
