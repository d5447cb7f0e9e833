// The pure pieces of the sbom, vulns and scan-history replies: parameters, headers and JSON shapes.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"

#include "../../handlers/catalog/scan_history.hpp"
#include "../../handlers/sbom/sbom.hpp"
#include "../../handlers/vulns/vulns.hpp"
#include "icat/errors.hpp"

namespace {

icat::Request WithQuery(std::string query) {
  icat::Request r;
  r.query = std::move(query);
  return r;
}

// The query values the GET route `pattern` of `routes` parses from `query` (Route::query), its
// invalid values refused as the pipeline refuses them before the handler.
icat::QueryValues ValuesOf(const std::vector<icat::Route>& routes, std::string_view pattern, std::string query) {
  for (const icat::Route& route : routes) {
    if (route.method != "GET" || route.pattern != pattern) continue;
    icat::QueryValues values(route.query, WithQuery(std::move(query)).QueryParameters());
    values.RefuseInvalid();
    return values;
  }
  throw std::logic_error("no route GET " + std::string(pattern));
}

icat::QueryValues SbomQuery(std::string query) {
  return ValuesOf(icat::sbom::Routes(), "/v1/images/{id}/sbom", std::move(query));
}
icat::QueryValues VexQuery(std::string query) {
  return ValuesOf(icat::sbom::Routes(), "/v1/images/{id}/versions/{versionId}/vex", std::move(query));
}
icat::QueryValues KeySetQuery(std::string query) {
  return ValuesOf(icat::sbom::Routes(), "/v1/signing-keys", std::move(query));
}
icat::QueryValues FindingsQuery(std::string query) {
  return ValuesOf(icat::vulns::Routes(), "/v1/images/{id}/vulnerabilities", std::move(query));
}
icat::QueryValues CveQuery(std::string query) {
  return ValuesOf(icat::vulns::Routes(), "/v1/cve/{cveId}", std::move(query));
}

// The field a VALIDATION_ERROR names, or "" when fn throws nothing.
template <typename Fn>
std::string InvalidField(Fn fn) {
  try {
    fn();
  } catch (const icat::ApiError& e) {
    BOOST_TEST((e.error() == icat::Error::kVALIDATION_ERROR));
    return e.details().empty() ? "(no details)" : e.details()[0].field;
  }
  return "";
}

std::string HeaderOf(const icat::Reply& reply, const std::string& name) {
  for (const auto& [key, value] : reply.headers) {
    if (key == name) return value;
  }
  return "";
}

icat::sbom::SignedFile SampleFile() {
  return {icat::sbom::DownloadFilename("hardened/nginx", "1.27.3", "spdx"), "application/spdx+json",
          "17a79156e71b208ebcd0c046643139c68f18d0fe19c9ca1cad3eff2d2ba99438", "c2lnbmF0dXJl", "0123456789abcdef"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sbom_shapes)

BOOST_AUTO_TEST_CASE(format_omitted_is_no_format_and_only_two_values_pass) {
  BOOST_TEST(!SbomQuery("").Text("format").has_value());  // the CycloneDX SBOM, else the SPDX one
  BOOST_TEST(*SbomQuery("format=spdx").Text("format") == "spdx");
  BOOST_TEST(*SbomQuery("format=cyclonedx").Text("format") == "cyclonedx");
  for (const char* bad : {"format=", "format=SPDX", "format=xml", "format=spdx%20"}) {
    BOOST_TEST(InvalidField([&] { SbomQuery(bad); }) == "format", bad);
  }
}

BOOST_AUTO_TEST_CASE(vex_format_omitted_is_openvex_and_only_two_values_pass) {
  // Omitted, the handler serves kVexFormats[0].
  BOOST_TEST(VexQuery("").Text("format").value_or(std::string(icat::kVexFormats[0])) == "openvex");
  BOOST_TEST(*VexQuery("format=openvex").Text("format") == "openvex");
  BOOST_TEST(*VexQuery("format=cyclonedx").Text("format") == "cyclonedx");
  for (const char* bad : {"format=", "format=OpenVEX", "format=spdx", "format=csaf", "format=openvex%20"}) {
    BOOST_TEST(InvalidField([&] { VexQuery(bad); }) == "format", bad);
  }
}

BOOST_AUTO_TEST_CASE(download_headers_describe_the_blob_and_send_nginx_to_it) {
  icat::Reply reply = icat::sbom::DownloadReply(SampleFile(), "");
  BOOST_TEST(reply.status == 200);
  BOOST_TEST(reply.body.empty());
  BOOST_TEST(HeaderOf(reply, "X-Accel-Redirect") ==
             "/_blobs/sha256/17/17a79156e71b208ebcd0c046643139c68f18d0fe19c9ca1cad3eff2d2ba99438");
  BOOST_TEST(HeaderOf(reply, "Content-Type") == "application/spdx+json");
  BOOST_TEST(HeaderOf(reply, "Content-Disposition") == "attachment; filename=\"hardened_nginx_1.27.3.spdx.json\"");
  BOOST_TEST(HeaderOf(reply, "ETag") == "\"sha256:17a79156e71b208ebcd0c046643139c68f18d0fe19c9ca1cad3eff2d2ba99438\"");
  BOOST_TEST(HeaderOf(reply, "Repr-Digest") == "sha-256=:F6eRVucbII680MBGZDE5xo8Y0P4ZycocrT7/LSuplDg=:");
  BOOST_TEST(HeaderOf(reply, "X-Signature") == "c2lnbmF0dXJl");
  BOOST_TEST(HeaderOf(reply, "X-Signature-Key-Id") == "0123456789abcdef");
  BOOST_TEST(icat::sbom::DownloadReply(SampleFile(), "\"sha256:other\"").status == 200);
  BOOST_TEST(icat::sbom::DownloadFilename("nginx", "1.0", "cyclonedx") == "nginx_1.0.cdx.json");
  BOOST_TEST(icat::sbom::VexFilename("hardened/nginx", "1.0", "openvex") == "hardened_nginx_1.0.openvex.json");
  BOOST_TEST(icat::sbom::VexFilename("nginx", "1.0", "cyclonedx") == "nginx_1.0.vex.cdx.json");
}

BOOST_AUTO_TEST_CASE(if_none_match_naming_the_etag_is_answered_304_without_the_blob) {
  std::string etag = icat::sbom::Etag("17a79156e71b208ebcd0c046643139c68f18d0fe19c9ca1cad3eff2d2ba99438");
  for (const std::string& header : {etag, "W/" + etag, "\"a\", " + etag + " ,\"b\"", std::string("*")}) {
    icat::Reply reply = icat::sbom::DownloadReply(SampleFile(), header);
    BOOST_TEST(reply.status == 304, header);
    BOOST_TEST(HeaderOf(reply, "ETag") == etag);
    BOOST_TEST(HeaderOf(reply, "X-Accel-Redirect").empty());
  }
  BOOST_TEST(!icat::sbom::EtagMatches("", etag));
  BOOST_TEST(!icat::sbom::EtagMatches(etag.substr(1, etag.size() - 2), etag));  // unquoted is another tag
}

BOOST_AUTO_TEST_CASE(signing_keys_json_lists_id_algorithm_pem_use_and_dates) {
  rapidjson::Document d = icat::ParseJson(icat::sbom::SigningKeysJson(
      {{"0123456789abcdef", "Ed25519", "-----BEGIN PUBLIC KEY-----\n", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"},
       {"fedcba9876543210", "ECDSA-P256", "-----BEGIN PUBLIC KEY-----\n", "2026-03-01T00:00:00Z", std::nullopt}}));
  BOOST_TEST_REQUIRE(d["keys"].Size() == 2u);
  BOOST_TEST(d["keys"][0]["id"].GetString() == std::string("0123456789abcdef"));
  BOOST_TEST(d["keys"][0]["algorithm"].GetString() == std::string("Ed25519"));
  BOOST_TEST(d["keys"][0]["publicKeyPem"].GetString() == std::string("-----BEGIN PUBLIC KEY-----\n"));
  BOOST_TEST(d["keys"][0]["use"].GetString() == std::string("signatures"));
  BOOST_TEST(d["keys"][0]["createdAt"].GetString() == std::string("2026-01-01T00:00:00Z"));
  BOOST_TEST(d["keys"][0]["retiredAt"].GetString() == std::string("2026-02-01T00:00:00Z"));
  BOOST_TEST(d["keys"][1]["use"].GetString() == std::string("attestations"));
  BOOST_TEST(d["keys"][1]["retiredAt"].IsNull());
  BOOST_TEST(icat::ParseJson(icat::sbom::SigningKeysJson({}))["keys"].Size() == 0u);
}

BOOST_AUTO_TEST_CASE(the_jwk_set_has_an_okp_key_for_ed25519_and_an_ec_key_for_p256) {
  std::string ec_pem = icat::EcdsaP256PublicKeyPem(icat::EcdsaP256NewPrivateKeyPem());
  // RFC 8032's test key, as RFC 8037 appendix A.2 writes it.
  const std::string ed_pem = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n-----END PUBLIC KEY-----\n";
  rapidjson::Document d = icat::ParseJson(icat::sbom::SigningKeysJwks(
      {{"0123456789abcdef", "Ed25519", ed_pem, "2026-01-01T00:00:00Z", std::nullopt},
       {"fedcba9876543210", "ECDSA-P256", ec_pem, "2026-03-01T00:00:00Z", std::nullopt}}));
  BOOST_TEST_REQUIRE(d["keys"].Size() == 2u);
  const rapidjson::Value& ed = d["keys"][0];
  BOOST_TEST(ed["kty"].GetString() == std::string("OKP"));
  BOOST_TEST(ed["crv"].GetString() == std::string("Ed25519"));
  BOOST_TEST(ed["x"].GetString() == std::string("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"));
  BOOST_TEST(!ed.HasMember("y"));
  BOOST_TEST(ed["kid"].GetString() == std::string("0123456789abcdef"));
  BOOST_TEST(ed["alg"].GetString() == std::string("EdDSA"));
  BOOST_TEST(ed["use"].GetString() == std::string("sig"));
  const rapidjson::Value& ec = d["keys"][1];
  icat::JwkPoint point = icat::EcdsaP256JwkPoint(ec_pem);
  BOOST_TEST(ec["kty"].GetString() == std::string("EC"));
  BOOST_TEST(ec["crv"].GetString() == std::string("P-256"));
  BOOST_TEST(ec["x"].GetString() == point.x);
  BOOST_TEST(ec["y"].GetString() == point.y);
  BOOST_TEST(ec["kid"].GetString() == std::string("fedcba9876543210"));
  BOOST_TEST(ec["alg"].GetString() == std::string("ES256"));
  BOOST_TEST(ec["use"].GetString() == std::string("sig"));
}

BOOST_AUTO_TEST_CASE(key_set_format_is_omitted_or_jwks) {
  BOOST_TEST(!KeySetQuery("").Text("format").has_value());
  BOOST_TEST(*KeySetQuery("format=jwks").Text("format") == "jwks");
  for (const char* bad : {"format=", "format=JWKS", "format=pem", "format=json"}) {
    BOOST_TEST(InvalidField([&] { KeySetQuery(bad); }) == "format", bad);
  }
}

BOOST_AUTO_TEST_CASE(attestations_list_in_type_order_with_their_documents_and_bundles) {
  auto view = [](std::string type, std::string predicate) {
    return icat::sbom::AttestationView{type, predicate, std::string(64, 'b'), "fedcba9876543210",
                                       "registry.example/hardened/nginx", "sha256:" + std::string(64, 'd'),
                                       std::string(64, 'c'), "2026-03-01T00:00:00Z", 1234};
  };
  icat::sbom::VersionPaths api{"/v1/images/i/versions/v", false};
  rapidjson::Document d = icat::ParseJson(icat::sbom::AttestationsJson(
      api, {view("cyclonedx-vex", "https://cyclonedx.org/bom"), view("openvex", "https://openvex.dev/ns/v0.2.0"),
            view("spdx", "https://spdx.dev/Document"), view("cyclonedx", "https://cyclonedx.org/bom")}));
  BOOST_TEST_REQUIRE(d["attestations"].Size() == 4u);
  std::vector<std::string> types;
  for (const rapidjson::Value& a : d["attestations"].GetArray()) types.push_back(a["type"].GetString());
  BOOST_TEST((types == std::vector<std::string>{"spdx", "cyclonedx", "openvex", "cyclonedx-vex"}));
  const rapidjson::Value& spdx = d["attestations"][0];
  BOOST_TEST(spdx["predicateType"].GetString() == std::string("https://spdx.dev/Document"));
  BOOST_TEST(spdx["mediaType"].GetString() == std::string("application/vnd.dev.sigstore.bundle.v0.3+json"));
  BOOST_TEST(spdx["digest"].GetString() == "sha256:" + std::string(64, 'b'));
  BOOST_TEST(spdx["size"].GetInt64() == 1234);
  BOOST_TEST(spdx["keyId"].GetString() == std::string("fedcba9876543210"));
  BOOST_TEST(spdx["subject"]["name"].GetString() == std::string("registry.example/hardened/nginx"));
  BOOST_TEST(spdx["subject"]["digest"].GetString() == "sha256:" + std::string(64, 'd'));
  BOOST_TEST(spdx["document"]["digest"].GetString() == "sha256:" + std::string(64, 'c'));
  BOOST_TEST(spdx["document"]["url"].GetString() == std::string("/v1/images/i/versions/v/sbom?format=spdx"));
  BOOST_TEST(spdx["url"].GetString() == std::string("/v1/images/i/versions/v/attestations/spdx"));
  BOOST_TEST(spdx["createdAt"].GetString() == std::string("2026-03-01T00:00:00Z"));
  BOOST_TEST(d["attestations"][3]["document"]["url"].GetString() ==
             std::string("/v1/images/i/versions/v/vex?format=cyclonedx"));
  icat::sbom::VersionPaths portal{"/api/docker-images/i/versions/v", true};
  BOOST_TEST(icat::sbom::DocumentPath(portal, "spdx") == "/api/docker-images/i/versions/v/sbom/spdx");
  BOOST_TEST(icat::sbom::DocumentPath(portal, "cyclonedx") == "/api/docker-images/i/versions/v/sbom/cyclonedx");
  BOOST_TEST(icat::sbom::DocumentPath(portal, "openvex") == "/api/docker-images/i/versions/v/vex?format=openvex");
  BOOST_TEST(icat::ParseJson(icat::sbom::AttestationsJson(api, {}))["attestations"].Size() == 0u);
}

BOOST_AUTO_TEST_CASE(an_attestation_download_names_its_bundle_and_carries_no_x_signature) {
  BOOST_TEST(icat::sbom::AttestationFilename("hardened/nginx", "1.27.3", "cyclonedx-vex") ==
             "hardened_nginx_1.27.3.cyclonedx-vex.sigstore.json");
  icat::sbom::SignedFile file = SampleFile();
  file.signature.clear();
  icat::Reply reply = icat::sbom::DownloadReply(file, "");
  BOOST_TEST(reply.status == 200);
  BOOST_TEST(!HeaderOf(reply, "X-Accel-Redirect").empty());
  for (const auto& [name, value] : reply.headers) BOOST_TEST(name.rfind("X-Signature", 0) != 0u, name);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(vulns_shapes)

BOOST_AUTO_TEST_CASE(filters_accept_comma_separated_known_values_and_name_the_bad_parameter) {
  icat::QueryValues f = FindingsQuery("severity=critical,high&fixState=not-affected");
  BOOST_TEST((*f.Words("severity") == std::vector<std::string>{"critical", "high"}));
  BOOST_TEST((*f.Words("fixState") == std::vector<std::string>{"not-affected"}));
  BOOST_TEST(!FindingsQuery("").Words("severity").has_value());
  BOOST_TEST(InvalidField([] { FindingsQuery("severity=Critical"); }) == "severity");
  BOOST_TEST(InvalidField([] { FindingsQuery("severity=high,"); }) == "severity");
  BOOST_TEST(InvalidField([] { FindingsQuery("fixState=fixed,wontfix"); }) == "fixState");
}

BOOST_AUTO_TEST_CASE(the_list_carries_image_version_scan_counts_findings_and_cursor) {
  icat::vulns::ScanView scan;
  scan.image_id = "i";
  scan.image_name = "nginx";
  scan.version_id = "v";
  scan.tag = "1.0";
  scan.digest = "sha256:x";
  scan.scan_id = "s";
  scan.scanner = "grype";
  scan.scanned_at = "2022-07-01T00:00:00Z";
  scan.vulnerability_counts = {{1, 2, 3, 4, 5}, 8};
  scan.finding_counts = {2, 2, 3, 4, 6};
  scan.fixable = 7;
  icat::vulns::FindingView f;
  f.vuln_id = "CVE-2024-1";
  f.aliases = {"GHSA-AAAA-BBBB-CCCC"};
  f.package_name = "openssl";
  f.package_version = "3.0.1";
  f.severity = "critical";
  f.cvss_score = 9.8;
  f.fix_state = "fixed";
  f.fixed_version = "3.0.2";
  f.severity_sources = R"([{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N",)"
                       R"("cvssScore":9.8},{"source":"debian","severity":null,"cvssVersion":null,"cvssVector":null,)"
                       R"("cvssScore":null}])";
  f.severity_source = "nvd";
  icat::vulns::FindingView before;  // ingested before severity sources were stored
  before.vuln_id = "CVE-2020-1";
  icat::vulns::FindingView excluded = f;
  excluded.vex = icat::vulns::VexView{"not_affected", "vulnerable_code_not_present", std::nullopt,
                                      "2026-01-10T10:00:00Z", "Vendor"};
  rapidjson::Document d =
      icat::ParseJson(icat::vulns::VulnerabilityListJson(scan, {f, before, excluded}, std::string("next")));
  BOOST_TEST(d["image"]["name"].GetString() == std::string("nginx"));
  BOOST_TEST(d["version"]["tag"].GetString() == std::string("1.0"));
  BOOST_TEST(d["scan"]["scanner"].GetString() == std::string("grype"));
  BOOST_TEST(d["scan"]["scannerVersion"].IsNull());
  BOOST_TEST(d["vulnerabilityCounts"]["medium"].GetInt() == 3);
  BOOST_TEST(d["vexExcludedCount"].GetInt() == 8);
  BOOST_TEST(d["findingCounts"]["unknown"].GetInt() == 6);
  BOOST_TEST(d["fixableCount"].GetInt() == 7);
  const rapidjson::Value& v = d["vulnerabilities"][0];
  BOOST_TEST(v["id"].GetString() == std::string("CVE-2024-1"));
  BOOST_TEST(v["aliases"][0].GetString() == std::string("GHSA-AAAA-BBBB-CCCC"));
  BOOST_TEST(v["package"]["name"].GetString() == std::string("openssl"));
  BOOST_TEST(v["package"]["purl"].IsNull());
  BOOST_TEST(v["cvssScore"].GetDouble() == 9.8);
  BOOST_TEST(v["fixState"].GetString() == std::string("fixed"));
  BOOST_TEST(v["fixedVersion"].GetString() == std::string("3.0.2"));
  BOOST_TEST(v["title"].IsNull());
  // The stored sources as they are, and whose rating severity and cvssScore are.
  BOOST_TEST_REQUIRE(v["severitySources"].Size() == 2u);
  BOOST_TEST(v["severitySources"][0]["cvssVector"].GetString() == std::string("CVSS:3.1/AV:N"));
  BOOST_TEST(v["severitySources"][0]["cvssScore"].GetDouble() == 9.8);
  BOOST_TEST(v["severitySources"][1]["severity"].IsNull());
  BOOST_TEST(v["severitySource"].GetString() == std::string("nvd"));
  BOOST_TEST(d["vulnerabilities"][1]["severitySources"].IsArray());
  BOOST_TEST(d["vulnerabilities"][1]["severitySources"].Empty());
  BOOST_TEST(d["vulnerabilities"][1]["severitySource"].IsNull());
  BOOST_TEST(v["vex"].IsNull());  // no statement applies
  const rapidjson::Value& vex = d["vulnerabilities"][2]["vex"];
  BOOST_TEST(vex["status"].GetString() == std::string("not_affected"));
  BOOST_TEST(vex["justification"].GetString() == std::string("vulnerable_code_not_present"));
  BOOST_TEST(vex["impactStatement"].IsNull());
  BOOST_TEST(vex["statementTime"].GetString() == std::string("2026-01-10T10:00:00Z"));
  BOOST_TEST(vex["author"].GetString() == std::string("Vendor"));
  BOOST_TEST(d["nextCursor"].GetString() == std::string("next"));

  icat::vulns::ScanView bare;
  bare.image_id = "i";
  bare.image_name = "new";
  rapidjson::Document empty = icat::ParseJson(icat::vulns::VulnerabilityListJson(bare, {}, std::nullopt));
  BOOST_TEST(empty["version"].IsNull());
  BOOST_TEST(empty["scan"].IsNull());
  BOOST_TEST(d["scanStatus"].GetString() == std::string("scanned"));
  BOOST_TEST(d["lastScannedAt"].GetString() == std::string("2022-07-01T00:00:00Z"));
  // Never scanned: said so, and nothing that could read as "no vulnerabilities".
  BOOST_TEST(empty["scanStatus"].GetString() == std::string("unscanned"));
  BOOST_TEST(empty["lastScannedAt"].IsNull());
  for (const char* key :
       {"vulnerabilityCounts", "vexExcludedCount", "findingCounts", "fixableCount", "vulnerabilities", "nextCursor"}) {
    BOOST_TEST(empty[key].IsNull(), key);
  }
}

BOOST_AUTO_TEST_CASE(cve_ids_are_normalised_to_upper_case_and_anything_else_is_refused) {
  BOOST_TEST(*icat::NormaliseVulnId("cve-2021-44228") == "CVE-2021-44228");
  BOOST_TEST(*icat::NormaliseVulnId("CVE-2024-1234567") == "CVE-2024-1234567");
  BOOST_TEST(*icat::NormaliseVulnId("ghsa-wxc4-f4m6-wwqv") == "GHSA-WXC4-F4M6-WWQV");
  for (const char* bad :
       {"CVE-2021-123", "CVE-21-1234", "CVE-2021-44228 ", "GHSA-wxc4-f4m6", "GHSA-wxc4-f4m6-ww_v", "log4shell", ""}) {
    BOOST_TEST(!icat::NormaliseVulnId(bad).has_value(), bad);
  }
  // LookUpCve: all versions only for versions=all; the value is refused when read.
  BOOST_TEST(!CveQuery("").Text("versions").has_value());
  BOOST_TEST(*CveQuery("versions=latest").Text("versions") == "latest");
  BOOST_TEST(*CveQuery("versions=all").Text("versions") == "all");
  BOOST_TEST(InvalidField([] { CveQuery("versions=every").Text("versions"); }) == "versions");
}

BOOST_AUTO_TEST_CASE(cve_rows_group_by_image_then_version) {
  auto row = [](std::string image, std::string version, std::string package) {
    icat::vulns::CveMatch m;
    m.image_id = image;
    m.image_name = "name-" + image;
    m.repository = "r/" + image;
    m.version_id = version;
    m.tag = "t-" + version;
    m.digest = "d";
    m.latest = version == "v2";
    m.scan_id = "s";
    m.scanned_at = "2024-01-01T00:00:00Z";
    m.vuln_id = "CVE-2024-1";
    m.package_name = package;
    m.severity = "high";
    m.fix_state = "not-fixed";
    return m;
  };
  rapidjson::Document d = icat::ParseJson(icat::vulns::CveLookupJson(
      "CVE-2024-1", true, {row("a", "v2", "p1"), row("a", "v2", "p2"), row("a", "v1", "p1"), row("b", "v9", "p3")},
      {{"c", "name-c", "r/c", "v5", "t-v5", "d", true}, {"c", "name-c", "r/c", "v4", "t-v4", "d", false},
       {"e", "name-e", "r/e", "v7", "t-v7", "d", false}}));
  BOOST_TEST(d["cveId"].GetString() == std::string("CVE-2024-1"));
  BOOST_TEST(d["versions"].GetString() == std::string("all"));
  BOOST_TEST_REQUIRE(d["images"].Size() == 2u);
  const rapidjson::Value& a = d["images"][0];
  BOOST_TEST(a["repository"].GetString() == std::string("r/a"));
  BOOST_TEST_REQUIRE(a["versions"].Size() == 2u);
  BOOST_TEST(a["versions"][0]["latest"].GetBool());
  BOOST_TEST(a["versions"][0]["packages"].Size() == 2u);
  BOOST_TEST(a["versions"][1]["packages"].Size() == 1u);
  BOOST_TEST(a["versions"][0]["packages"][1]["name"].GetString() == std::string("p2"));
  BOOST_TEST(d["images"][1]["versions"][0]["tag"].GetString() == std::string("t-v9"));
  // The versions it cannot answer for, grouped the same way.
  BOOST_TEST_REQUIRE(d["unscannedImages"].Size() == 2u);
  BOOST_TEST(d["unscannedImages"][0]["name"].GetString() == std::string("name-c"));
  BOOST_TEST_REQUIRE(d["unscannedImages"][0]["versions"].Size() == 2u);
  BOOST_TEST(d["unscannedImages"][0]["versions"][0]["latest"].GetBool());
  BOOST_TEST(d["unscannedImages"][0]["versions"][1]["tag"].GetString() == std::string("t-v4"));
  BOOST_TEST(d["unscannedImages"][1]["versions"].Size() == 1u);
  rapidjson::Document none = icat::ParseJson(icat::vulns::CveLookupJson("CVE-2024-2", false, {}, {}));
  BOOST_TEST(none["images"].Size() == 0u);
  BOOST_TEST(none["unscannedImages"].Size() == 0u);
  BOOST_TEST(none["versions"].GetString() == std::string("latest"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(scan_history_shapes)

BOOST_AUTO_TEST_CASE(history_points_carry_time_scanner_counts_and_fixable) {
  icat::catalog::ScanPoint p;
  p.scan_id = "s1";
  p.scanned_at = "2022-07-01T17:00:00Z";
  p.scanner = "trivy";
  p.counts = {{1, 0, 2, 0, 3}, 4};
  p.fixable = 2;
  rapidjson::Document d = icat::ParseJson(icat::catalog::ScanHistoryJson({"i", "nginx", "v", "1.0"}, {p}, std::nullopt));
  BOOST_TEST(d["image"]["name"].GetString() == std::string("nginx"));
  BOOST_TEST(d["version"]["tag"].GetString() == std::string("1.0"));
  const rapidjson::Value& point = d["points"][0];
  BOOST_TEST(point["scanId"].GetString() == std::string("s1"));
  BOOST_TEST(point["scannedAt"].GetString() == std::string("2022-07-01T17:00:00Z"));
  BOOST_TEST(point["scanner"].GetString() == std::string("trivy"));
  BOOST_TEST(point["scannerVersion"].IsNull());
  BOOST_TEST(point["vulnerabilityCounts"]["critical"].GetInt() == 1);
  BOOST_TEST(point["vulnerabilityCounts"]["unknown"].GetInt() == 3);
  BOOST_TEST(point["vexExcludedCount"].GetInt() == 4);
  BOOST_TEST(point["fixableCount"].GetInt() == 2);
  BOOST_TEST(d["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_SUITE_END()
