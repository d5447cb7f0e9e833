// Every scan report and every SPDX 2.3 / CycloneDX 1.5 SBOM of ../shared/fixtures, ingested (those
// describing one image together, as MANIFEST.md pairs them), then read back: the downloaded bytes
// have the file's SHA-256, the signature verifies with openssl against the published key, and the
// listed findings and counts equal what this test derives from the report itself.
//
// Reports that come without an SBOM of an accepted version (the MSUSEL ones ship CycloneDX 1.4)
// are ingested with a minimal SBOM this test writes for the same image (its image id and layers),
// because a scan is ingested with at least one SBOM of its run (DESIGN.md section 3). The official
// SPDX 2.3 example and the CycloneDX 1.5 VEX vector describe no container image: ingest refuses
// them (scan_refusals), so the reports of debian-buster and spring4shell go with made-up SBOMs too.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

constexpr const char* kTrivy = "scans/trivy-integration-v0.50.0/";
constexpr const char* kMsusel = "scans/msusel-2022-07-01/";

// An SBOM of a step: a fixture, one this test writes for the step's report, or none.
struct SbomSource {
  enum class Kind { kNone, kFixture, kMadeUp } kind = Kind::kNone;
  std::string value;  // the fixture's relative path, or the made-up document's timestamp
};
SbomSource None() { return {}; }
SbomSource FixtureSbom(std::string path) { return {SbomSource::Kind::kFixture, std::move(path)}; }
SbomSource MadeUp(std::string timestamp) { return {SbomSource::Kind::kMadeUp, std::move(timestamp)}; }

struct Step {
  std::string report;  // relative to the fixtures
  SbomSource spdx, cyclonedx;
};

struct FixtureCase {
  std::string label, tag;
  std::vector<Step> steps;  // ingested in order into one version
};

std::optional<std::string> SbomPath(const SbomSource& source, const std::string& report, bool spdx,
                                    const it::TempDir& dir, int step) {
  switch (source.kind) {
    case SbomSource::Kind::kNone:
      return std::nullopt;
    case SbomSource::Kind::kFixture:
      return it::Fixture(source.value);
    case SbomSource::Kind::kMadeUp:
      return dir.Write("step" + std::to_string(step) + (spdx ? ".spdx.json" : ".cdx.json"),
                       spdx ? it::MinimalSpdx(report, source.value) : it::MinimalCycloneDx(report, source.value));
  }
  return std::nullopt;
}

std::optional<long long> ReportSize(const std::string& report_path) {
  rapidjson::Document d;
  d.Parse(it::ReadFileBytes(report_path).c_str());
  const rapidjson::Value* holder = nullptr;
  if (d.HasMember("Metadata")) holder = &d["Metadata"];
  if (d.HasMember("source") && d["source"].HasMember("target")) holder = &d["source"]["target"];
  for (const char* name : {"Size", "imageSize"}) {
    if (holder && holder->IsObject() && holder->HasMember(name) && (*holder)[name].IsInt64()) return (*holder)[name].GetInt64();
  }
  return std::nullopt;
}

std::string Filename(const std::string& image, const std::string& tag, const std::string& format) {
  return image + "_" + tag + (format == "spdx" ? ".spdx.json" : ".cdx.json");
}

// A download through either API: the exact bytes, and the headers DESIGN.md section 3 names.
void ExpectDownload(const it::Response& r, const std::string& file, const std::string& format, const std::string& image,
                    const std::string& tag) {
  BOOST_TEST_CONTEXT(format << " download of " << file) {
    BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
    std::string bytes = it::ReadFileBytes(file);
    std::string hex = it::Sha256HexOf(bytes);
    BOOST_TEST(r.body.size() == bytes.size());
    BOOST_TEST(it::Sha256HexOf(r.body) == hex, "the bytes are not the file's");
    BOOST_TEST(r.Header("content-type") ==
               (format == "spdx" ? "application/spdx+json" : "application/vnd.cyclonedx+json; version=1.5"));
    BOOST_TEST(r.Header("content-disposition") == "attachment; filename=\"" + Filename(image, tag, format) + "\"");
    BOOST_TEST(r.Header("etag") == "\"sha256:" + hex + "\"");
    BOOST_TEST(r.Header("repr-digest") == "sha-256=:" + icat::Base64Encode(icat::Sha256(bytes)) + ":");
    BOOST_TEST(!r.Header("x-request-id").empty());
    std::optional<std::string> failure =
        it::OpensslVerifyFailure(file, r.Header("x-signature"), r.Header("x-signature-key-id"));
    BOOST_TEST(!failure.has_value(), failure.value_or(""));
  }
}

void ExpectCounts(const rapidjson::Value& counts, const std::map<std::string, long long>& expected, const char* what) {
  BOOST_TEST_REQUIRE(counts.IsObject(), what << " missing");
  for (const auto& [severity, count] : expected) {
    BOOST_TEST(it::IntMember(counts, severity.c_str()) == count, what << "." << severity);
  }
}

// After a step: the image's latest scan is this one; its findings, counts and SBOMs are the files'.
void VerifyStep(const it::Tenant& tenant, const std::string& key, const it::Image& image, const std::string& tag,
                const std::string& report, const std::optional<std::string>& spdx,
                const std::optional<std::string>& cyclonedx) {
  std::vector<it::ExpectedFinding> expected = it::DeriveFindings(report);
  it::DerivedCounts counts = it::DeriveCounts(expected);
  rapidjson::Document page;
  std::vector<it::ExpectedFinding> listed = it::ListedFindings(key, image.id, &page);
  BOOST_TEST(listed.size() == expected.size());
  BOOST_TEST((listed == expected), "listed findings differ from " << report);
  for (size_t i = 0; i < std::min(listed.size(), expected.size()); i++) {
    if (!(listed[i] == expected[i])) {
      BOOST_ERROR("first difference: listed " << listed[i] << ", expected " << expected[i]);
      break;
    }
  }
  ExpectCounts(page["vulnerabilityCounts"], counts.vulnerabilities, "vulnerabilityCounts");
  ExpectCounts(page["findingCounts"], counts.findings, "findingCounts");
  BOOST_TEST(it::IntMember(page, "fixableCount") == counts.fixable);
  BOOST_TEST(it::StringMember(page["version"], "tag") == tag);

  rapidjson::Document detail = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  ExpectCounts(detail["vulnerabilityCounts"], counts.vulnerabilities, "image detail vulnerabilityCounts");
  // The catalogue list carries the same counts, so a page of images needs no request per image.
  rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images?limit=200", it::Bearer(key)));
  const rapidjson::Value* in_list = nullptr;
  for (const rapidjson::Value& entry : list["images"].GetArray()) {
    if (it::StringMember(entry, "id") == image.id) in_list = &entry;
  }
  BOOST_TEST_REQUIRE(in_list != nullptr);
  ExpectCounts((*in_list)["vulnerabilityCounts"], counts.vulnerabilities, "image list vulnerabilityCounts");
  BOOST_TEST(it::StringMember(detail, "scanStatus") == "scanned");
  // The report's image size (Trivy Metadata.Size, Grype source.target.imageSize) when it gives one.
  if (std::optional<long long> size = ReportSize(report)) BOOST_TEST(it::IntMember(detail, "sizeBytes") == *size);
  // The completeness figures of exactly the SBOMs this scan came with.
  const rapidjson::Value& completeness = detail["sbomCompleteness"];
  BOOST_TEST_REQUIRE(completeness.IsObject());
  BOOST_TEST(completeness.HasMember("spdx") == spdx.has_value());
  BOOST_TEST(completeness.HasMember("cyclonedx") == cyclonedx.has_value());
  for (const auto& figures : completeness.GetObject()) {
    BOOST_TEST(figures.value["packages"].GetInt64() > 0);
    BOOST_TEST(figures.value["meetsRule3"].IsBool());
  }
  // The version in the list carries the same figures as the detail's top level.
  for (const auto& v : detail["versions"].GetArray()) {
    if (it::StringMember(v, "tag") == tag) BOOST_TEST((v["sbomCompleteness"] == completeness));
  }

  std::string version_id = it::StringMember(page["version"], "id");
  for (const auto& [format, file] :
       {std::pair{std::string("spdx"), spdx}, std::pair{std::string("cyclonedx"), cyclonedx}}) {
    it::Response v1 = it::Get("/v1/images/" + image.id + "/sbom?format=" + format, it::Bearer(key));
    std::string portal_url = "/api/docker-images/" + image.id + "/versions/" + version_id + "/sbom/" + format;
    it::Response portal = it::Get(portal_url, it::PortalHeaders(tenant));
    if (file) {
      ExpectDownload(v1, *file, format, image.name, tag);
      ExpectDownload(portal, *file, format, image.name, tag);
      // What is served is valid against the official schema and an SBOM of an image.
      it::TempDir downloads;
      std::string served = downloads.Write("served.json", v1.body);
      it::ProcessResult check = it::Icatctl({"sbom", "check", served});
      BOOST_TEST(check.exit_code == 0, check.err);
      BOOST_TEST(check.out.find(served + ": valid ") == 0u, check.out);
    } else {
      it::ExpectError(v1, 404, "SBOM_NOT_AVAILABLE");
      it::ExpectError(portal, 404, "SBOM_NOT_AVAILABLE");
      std::string label = format == "spdx" ? "no SPDX SBOM" : "no CycloneDX SBOM";
      BOOST_TEST(it::StringMember(it::JsonOf(v1), "message").find(label) != std::string::npos, v1.Summary());
    }
  }
}

void RunCase(const FixtureCase& c) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:catalog,read:sbom,read:vulns");
  it::TempDir dir;
  it::Image image;
  image.name = "it-fx-" + c.label + "-" + it::RandomSuffix(6);
  std::string digest = it::ReportDigest(it::Fixture(c.steps.at(0).report));
  std::string repository = "registry.example.test/it/" + image.name;
  for (size_t i = 0; i < c.steps.size(); i++) {
    const Step& step = c.steps[i];
    BOOST_TEST_CONTEXT(c.label << " step " << i + 1 << ": " << step.report) {
      std::string report = it::Fixture(step.report);
      std::optional<std::string> spdx = SbomPath(step.spdx, report, true, dir, static_cast<int>(i));
      std::optional<std::string> cyclonedx = SbomPath(step.cyclonedx, report, false, dir, static_cast<int>(i));
      it::ProcessResult result = it::Ingest({image.name, c.tag, digest, report, spdx, cyclonedx, repository, {}, {}});
      BOOST_TEST_REQUIRE(result.exit_code == 0, result.err);
      BOOST_TEST(result.out.find(" ingested: ") != std::string::npos, result.out);
      if (i == 0) {
        image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image.name}).at(0).at(0);
        tenant.License(image);
      }
      VerifyStep(tenant, key, image, c.tag, report, spdx, cyclonedx);
    }
  }
  rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images?q=" + image.name, it::Bearer(key)));
  BOOST_TEST_REQUIRE(list["images"].Size() == 1u);
  BOOST_TEST(it::StringMember(list["images"][0]["latestVersion"], "tag") == c.tag);
  BOOST_TEST(it::StringMember(list["images"][0]["latestVersion"], "digest") == digest);
}

// The MSUSEL images: one Trivy 0.29.1 and one Grype 0.38.0 run of the same image, as two scans of
// one version (Grype's made-up SBOM is an hour younger, so its scan is the latest afterwards).
FixtureCase Msusel(const std::string& label, const std::string& file_stem, const std::string& tag) {
  return {label,
          tag,
          {{std::string(kMsusel) + file_stem + ".trivy-0.29.1.json", None(), MadeUp("2022-07-01T17:00:00Z")},
           {std::string(kMsusel) + file_stem + ".grype-0.38.0.json", MadeUp("2022-07-01T18:00:00Z"), None()}}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scan_fixtures)

BOOST_AUTO_TEST_CASE(fluentd_image_scan_then_sbom_scan_serve_their_own_sboms_and_findings) {
  RunCase({"fluentd",
           "1.0",
           {{std::string(kTrivy) + "fluentd-multiple-lockfiles.trivy-image-scan.json", None(),
             FixtureSbom("sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json")},
            {std::string(kTrivy) + "fluentd-multiple-lockfiles.trivy-sbom-scan.json", None(),
             FixtureSbom(
                 "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.sbom-input.trivy-dev.cdx-1.5.json")}}});
}

BOOST_AUTO_TEST_CASE(centos_7_scan_with_its_cyclonedx_1_5_sbom_round_trips) {
  RunCase({"centos-7",
           "7.6.1810",
           {{std::string(kTrivy) + "centos-7.trivy-image-scan.json", None(),
             FixtureSbom("sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.cdx-1.5.json")}}});
}

BOOST_AUTO_TEST_CASE(debian_buster_and_spring4shell_scans_round_trip_with_sboms_of_their_images) {
  RunCase({"debian-buster",
           "10.1",
           {{std::string(kTrivy) + "debian-buster.trivy-image-scan.json", MadeUp("2021-08-25T12:20:30Z"), None()}}});
  RunCase({"spring4shell",
           "jre11",
           {{std::string(kTrivy) + "spring4shell-jre11.trivy-image-scan.json", None(), MadeUp("2021-08-25T12:20:30Z")}}});
}

BOOST_AUTO_TEST_CASE(alpine_310_and_ubuntu_1804_scans_round_trip_with_both_formats) {
  RunCase({"alpine-310",
           "3.10.2",
           {{std::string(kTrivy) + "alpine-310.trivy-image-scan.json", MadeUp("2021-08-25T12:20:30Z"),
             MadeUp("2021-08-25T12:20:30Z")}}});
  RunCase({"ubuntu-1804",
           "18.04",
           {{std::string(kTrivy) + "ubuntu-1804.trivy-image-scan.json", MadeUp("2021-08-25T12:20:30Z"), None()}}});
}

BOOST_AUTO_TEST_CASE(msusel_alpine_trivy_and_grype_runs_round_trip) {
  RunCase(Msusel("alpine", "alpine_latest", "latest"));
}

BOOST_AUTO_TEST_CASE(msusel_ubuntu_trivy_and_grype_runs_round_trip) {
  RunCase(Msusel("ubuntu", "ubuntu_latest", "latest"));
}

BOOST_AUTO_TEST_CASE(msusel_nginx_trivy_and_grype_runs_round_trip) {
  RunCase(Msusel("nginx", "nginx_latest", "latest"));
}

BOOST_AUTO_TEST_CASE(msusel_golang_trivy_and_grype_runs_round_trip) {
  RunCase(Msusel("golang", "golang_1.18", "1.18"));
}

BOOST_AUTO_TEST_CASE(msusel_minecraft_server_trivy_and_grype_runs_round_trip) {
  RunCase(Msusel("minecraft", "itzg_minecraft-server_java8", "java8"));
}

BOOST_AUTO_TEST_SUITE_END()
