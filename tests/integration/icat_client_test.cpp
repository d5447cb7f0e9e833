// build/bin/icat, the tenants' client, against the stack: images, a verified SBOM download written
// byte for byte, a tampered download refused without writing, API errors in words, vulns and cve.

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "icat_client_support.hpp"

namespace it = icat::test;
using it::kAllReads;
using it::kAlpine310;
using it::kNginxGrype;
using it::Shown;
using it::TamperingProxy;

namespace {

constexpr const char* kGolangGrype = "scans/msusel-2022-07-01/golang_1.18.grype-0.38.0.json";  // 395 findings

// An image with one scanned version (a report and made-up SBOMs of both formats), licensed to tenant.
struct Scanned {
  std::string name, id, repository, report;
  std::string spdx_path, cyclonedx_path;
};

Scanned ScanImage(it::Tenant& tenant, const it::TempDir& dir, const std::string& label, const std::string& fixture) {
  it::Image image;
  image.name = "it-" + label + "-" + it::RandomSuffix(6);
  image.repository = "registry.example.test/it/" + image.name;
  it::ScannedVersion version = it::IngestScannedVersion(dir, image, "1.0", fixture);
  image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
  tenant.License(image);
  Scanned s;
  s.name = image.name;
  s.id = image.id;
  s.repository = image.repository;
  s.report = version.report;
  s.spdx_path = version.spdx_path;
  s.cyclonedx_path = version.cyclonedx_path;
  return s;
}

// A tenant with one scanned image licensed to it and a key of every read scope: where most tests
// start (`auto& [tenant, dir, s, key] = setup;`).
struct OneImage {
  OneImage(const std::string& label, const std::string& fixture)
      : image(ScanImage(tenant, dir, label, fixture)), key(tenant.CreateKey(kAllReads)) {}
  it::Tenant tenant;
  it::TempDir dir;
  Scanned image;
  std::string key;
};

size_t Entries(const std::string& dir) {
  return static_cast<size_t>(
      std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(icat_client)

BOOST_AUTO_TEST_CASE(images_lists_every_licensed_image_in_a_table_and_as_the_apis_json) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned a = ScanImage(tenant, dir, "icat-a", kAlpine310);
  Scanned b = ScanImage(tenant, dir, "icat-b", kNginxGrype);
  std::string key = tenant.CreateKey(kAllReads);
  it::ProcessResult table = it::RunIcat(dir, key, {"images"});
  BOOST_TEST_REQUIRE(table.exit_code == 0, Shown(table));
  BOOST_TEST(table.out.rfind("NAME ", 0) == 0, table.out);
  for (const Scanned* s : {&a, &b}) {
    BOOST_TEST(table.out.find(s->name + " ") != std::string::npos, table.out);
    BOOST_TEST(table.out.find(s->repository) != std::string::npos, table.out);
  }
  it::ProcessResult json = it::RunIcat(dir, key, {"images", "--json"});
  BOOST_TEST_REQUIRE(json.exit_code == 0, Shown(json));
  rapidjson::Document listed;
  listed.Parse(json.out.c_str());
  rapidjson::Document api = it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
  BOOST_TEST_REQUIRE((listed.IsObject() && listed.HasMember("images") && listed["images"].IsArray()), json.out);
  BOOST_TEST(listed["images"].Size() == 2u);
  BOOST_TEST((listed["images"] == api["images"]));
  BOOST_TEST(listed["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_CASE(sbom_of_the_latest_version_writes_exactly_the_apis_bytes_after_verifying_them) {
  OneImage setup("icat-sbom", kAlpine310);
  auto& [tenant, dir, s, key] = setup;
  for (const std::string format : {"spdx", "cyclonedx"}) {
    BOOST_TEST_CONTEXT(format) {
      std::string out = dir.path() + "/out-" + format + ".json";
      // By name, and by repository.
      for (const std::string& image : {s.name, s.repository}) {
        std::filesystem::remove(out);
        it::ProcessResult r = it::RunIcat(dir, key, {"sbom", image, "--format", format, "-o", out});
        BOOST_TEST_REQUIRE(r.exit_code == 0, Shown(r));
        it::Response api = it::Get("/v1/images/" + s.id + "/sbom?format=" + format, it::Bearer(key));
        BOOST_TEST_REQUIRE(api.status == 200, api.Summary());
        BOOST_TEST((it::ReadFileBytes(out) == api.body));
        BOOST_TEST((it::ReadFileBytes(out) == it::ReadFileBytes(format == "spdx" ? s.spdx_path : s.cyclonedx_path)));
        BOOST_TEST(r.out.rfind("wrote " + out + ": " + s.name + " 1.0 (latest) ", 0) == 0, r.out);
        BOOST_TEST(r.out.find("checksum and attestation verified (" + format + ", key ") != std::string::npos, r.out);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_tampered_download_exits_2_naming_the_check_and_writes_nothing) {
  OneImage setup("icat-tamper", kAlpine310);
  auto& [tenant, dir, s, key] = setup;
  std::string out_dir = dir.path() + "/out";
  std::filesystem::create_directory(out_dir);
  std::string out = out_dir + "/sbom.spdx.json";
  {
    TamperingProxy proxy(TamperingProxy::kFlipByte);
    it::ProcessResult r = it::RunIcat(dir, key, {"sbom", s.name, "--format", "spdx", "-o", out}, proxy.Url());
    BOOST_TEST(proxy.tampered() == 1);
    BOOST_TEST(r.exit_code == 2, Shown(r));
    BOOST_TEST(r.err.find("refusing the " + s.name) != std::string::npos, r.err);
    BOOST_TEST(r.err.find("checksum mismatch") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("nothing was written to " + out) != std::string::npos, r.err);
  }
  BOOST_TEST(Entries(out_dir) == 0u);  // neither the file nor a temp file
  {
    // The checksums restated for the changed bytes: the attestation refuses it (its predicate is the
    // document as served).
    TamperingProxy proxy(TamperingProxy::kRestate);
    it::ProcessResult r = it::RunIcat(dir, key, {"sbom", s.name, "--format", "spdx", "-o", out}, proxy.Url());
    BOOST_TEST(proxy.tampered() == 1);
    BOOST_TEST(r.exit_code == 2, Shown(r));
    BOOST_TEST(r.err.find("its attestation (spdx) does not verify: ") != std::string::npos, r.err);
  }
  BOOST_TEST(Entries(out_dir) == 0u);
  // An existing file is left as it was.
  it::WriteFileBytes(out, "before");
  {
    TamperingProxy proxy(TamperingProxy::kFlipByte);
    it::ProcessResult r = it::RunIcat(dir, key, {"sbom", s.name, "--format", "spdx", "-o", out}, proxy.Url());
    BOOST_TEST(r.exit_code == 2, Shown(r));
  }
  BOOST_TEST(it::ReadFileBytes(out) == "before");
  BOOST_TEST(Entries(out_dir) == 1u);
}

BOOST_AUTO_TEST_CASE(a_wrong_key_exits_2_with_the_apis_error_message_and_request_id) {
  it::Tenant tenant;
  it::TempDir dir;
  Scanned s = ScanImage(tenant, dir, "icat-badkey", kAlpine310);
  std::string wrong = tenant.CreateKey(kAllReads);
  wrong.back() = wrong.back() == 'A' ? 'B' : 'A';
  it::ProcessResult r = it::RunIcat(dir, wrong, {"images"});
  BOOST_TEST(r.exit_code == 2, Shown(r));
  it::Response api = it::Get("/v1/images", it::Bearer(wrong));
  it::ExpectError(api, 401, "UNAUTHENTICATED");
  std::string message = it::StringMember(it::JsonOf(api), "message");
  BOOST_TEST(r.err.find("HTTP 401 UNAUTHENTICATED: " + message) != std::string::npos, r.err);
  BOOST_TEST(r.err.find("(request id ") != std::string::npos, r.err);
  BOOST_TEST(r.out == "");
  // A key without read:sbom: the scope refusal in the API's words, and no file.
  std::string catalog_only = tenant.CreateKey("read:catalog");
  std::string out = dir.path() + "/x.spdx.json";
  it::ProcessResult scope = it::RunIcat(dir, catalog_only, {"sbom", s.name, "--format", "spdx", "-o", out});
  BOOST_TEST(scope.exit_code == 2, Shown(scope));
  BOOST_TEST(scope.err.find("HTTP 403 INSUFFICIENT_SCOPE: ") != std::string::npos, scope.err);
  BOOST_TEST(!std::filesystem::exists(out));
}

BOOST_AUTO_TEST_CASE(the_key_is_read_from_icat_api_key_and_refused_as_an_argument) {
  BOOST_TEST_REQUIRE(std::getenv("ICAT_API_KEY") == nullptr, "the test runner must not set ICAT_API_KEY");
  BOOST_TEST_REQUIRE(std::getenv("ICAT_BASE_URL") != nullptr);  // icat reads the stack's address from it
  OneImage setup("icat-env", kAlpine310);
  auto& [tenant, dir, s, key] = setup;
  std::string icat = it::GetEnv().bin_dir + "/icat";
  it::ProcessResult r = it::RunProcess({icat, "images"}, {}, {"ICAT_API_KEY=" + key});
  BOOST_TEST(r.exit_code == 0, Shown(r));
  BOOST_TEST(r.out.find(s.name) != std::string::npos, r.out);
  it::ProcessResult none = it::RunProcess({icat, "images"});
  BOOST_TEST(none.exit_code == 2, Shown(none));
  BOOST_TEST(none.err.find("no API key: set ICAT_API_KEY or pass --key-file FILE") != std::string::npos, none.err);
  for (const std::vector<std::string>& typed : std::vector<std::vector<std::string>>{
           {"--key", key}, {"--api-key", key}, {"--token", key}, {"--key=" + key}, {key}}) {
    std::vector<std::string> argv = {icat, "images"};
    argv.insert(argv.end(), typed.begin(), typed.end());
    it::ProcessResult refused = it::RunProcess(argv);
    BOOST_TEST(refused.exit_code == 2, Shown(refused));
    BOOST_TEST(refused.err.find("the API key is never an argument") != std::string::npos, refused.err);
    BOOST_TEST(refused.err.find(key) == std::string::npos, "the key is echoed: " << refused.err);
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_image_or_version_exits_2_and_writes_nothing) {
  OneImage setup("icat-unknown", kAlpine310);
  auto& [tenant, dir, s, key] = setup;
  std::string out = dir.path() + "/never.json";
  it::ProcessResult image = it::RunIcat(dir, key, {"sbom", s.name + "-nope", "--format", "spdx", "-o", out});
  BOOST_TEST(image.exit_code == 2, Shown(image));
  BOOST_TEST(image.err.find("no licensed image is named '" + s.name + "-nope'") != std::string::npos, image.err);
  it::ProcessResult version = it::RunIcat(dir, key, {"sbom", s.name + ":9.9.9", "--format", "spdx", "-o", out});
  BOOST_TEST(version.exit_code == 2, Shown(version));
  BOOST_TEST(version.err.find(s.name + " has no version 9.9.9") != std::string::npos, version.err);
  it::ProcessResult digest = it::RunIcat(dir, key, {"vulns", s.name + "@" + it::RandomDigest()});
  BOOST_TEST(digest.exit_code == 2, Shown(digest));
  BOOST_TEST(digest.err.find("has no version with digest sha256:") != std::string::npos, digest.err);
  BOOST_TEST(!std::filesystem::exists(out));
  // Another tenant's image is unknown alike.
  it::Tenant other;
  it::ProcessResult hidden = it::RunIcat(dir, other.CreateKey(kAllReads), {"vulns", s.name});
  BOOST_TEST(hidden.exit_code == 2, Shown(hidden));
  BOOST_TEST(hidden.err.find("no licensed image is named") != std::string::npos, hidden.err);
}

BOOST_AUTO_TEST_CASE(vulns_lists_every_finding_filters_by_severity_and_prints_the_apis_json) {
  OneImage setup("icat-vulns", kGolangGrype);
  auto& [tenant, dir, s, key] = setup;
  std::vector<it::ExpectedFinding> all = it::DeriveFindings(s.report);
  BOOST_TEST_REQUIRE(all.size() > 200u, "the fixture must need more than one page");
  it::ProcessResult json = it::RunIcat(dir, key, {"vulns", s.name, "--json"});
  BOOST_TEST_REQUIRE(json.exit_code == 0, Shown(json));
  rapidjson::Document listed;
  listed.Parse(json.out.c_str());
  BOOST_TEST_REQUIRE((listed.IsObject() && listed.HasMember("vulnerabilities") && listed["vulnerabilities"].IsArray()));
  BOOST_TEST(listed["vulnerabilities"].Size() == all.size());
  BOOST_TEST(listed["nextCursor"].IsNull());
  it::ProcessResult table = it::RunIcat(dir, key, {"vulns", s.name});
  BOOST_TEST_REQUIRE(table.exit_code == 0, Shown(table));
  size_t lines = static_cast<size_t>(std::count(table.out.begin(), table.out.end(), '\n'));
  BOOST_TEST(lines == all.size() + 2);  // the title, the header, one line per finding
  it::DerivedCounts counts = it::DeriveCounts(all);
  BOOST_TEST(table.out.find("critical " + std::to_string(counts.vulnerabilities["critical"]) + ", high " +
                            std::to_string(counts.vulnerabilities["high"])) != std::string::npos,
             table.out.substr(0, 300));
  long long critical = std::count_if(all.begin(), all.end(), [](const it::ExpectedFinding& f) { return f.severity == "critical"; });
  it::ProcessResult only = it::RunIcat(dir, key, {"vulns", s.name, "--severity", "critical", "--json"});
  BOOST_TEST_REQUIRE(only.exit_code == 0);
  rapidjson::Document filtered;
  filtered.Parse(only.out.c_str());
  BOOST_TEST(static_cast<long long>(filtered["vulnerabilities"].Size()) == critical);
  it::ProcessResult bad = it::RunIcat(dir, key, {"vulns", s.name, "--severity", "severe"});
  BOOST_TEST(bad.exit_code == 2, Shown(bad));
  BOOST_TEST(bad.err.find("HTTP 400 VALIDATION_ERROR") != std::string::npos, bad.err);
  BOOST_TEST(bad.err.find("[severity: ") != std::string::npos, bad.err);
}

BOOST_AUTO_TEST_CASE(cve_shows_the_images_that_carry_an_id_and_none_for_an_id_nobody_carries) {
  OneImage setup("icat-cve", kAlpine310);
  auto& [tenant, dir, s, key] = setup;
  std::vector<it::ExpectedFinding> all = it::DeriveFindings(s.report);
  BOOST_TEST_REQUIRE(!all.empty());
  const it::ExpectedFinding& f = all.front();
  it::ProcessResult table = it::RunIcat(dir, key, {"cve", f.id});
  BOOST_TEST_REQUIRE(table.exit_code == 0, Shown(table));
  BOOST_TEST(table.out.find(s.name + " ") != std::string::npos, table.out);
  BOOST_TEST(table.out.find(f.package) != std::string::npos, table.out);
  it::ProcessResult json = it::RunIcat(dir, key, {"cve", f.id, "--json"});
  BOOST_TEST_REQUIRE(json.exit_code == 0, Shown(json));
  rapidjson::Document shown;
  shown.Parse(json.out.c_str());
  BOOST_TEST((shown == it::ExpectJson200(it::Get("/v1/cve/" + f.id, it::Bearer(key)))));
  it::ProcessResult nobody = it::RunIcat(dir, key, {"cve", "CVE-1999-99999"});
  BOOST_TEST(nobody.exit_code == 0, Shown(nobody));
  BOOST_TEST(nobody.out == "no licensed image carries CVE-1999-99999 in the latest version of it\n");
  it::ProcessResult bad = it::RunIcat(dir, key, {"cve", "not-a-cve"});
  BOOST_TEST(bad.exit_code == 2, Shown(bad));
  BOOST_TEST(bad.err.find("VALIDATION_ERROR") != std::string::npos, bad.err);
}

BOOST_AUTO_TEST_SUITE_END()
