// What `icatctl ingest` refuses: every fixture that is not a Trivy/Grype report, SPDX 2.3 or
// CycloneDX 1.5 (SPDX 2.2, CycloneDX 1.4, 1.6, 1.7, an in-toto envelope, OpenVEX, admission
// reviews), documents that disagree about the image, truncated and malformed files, files over the
// size limit, bad arguments and a digest that contradicts the version. Each refusal is exit 1 (2 for
// bad arguments) with one line naming the file and the reason, and leaves the database and the
// blob store exactly as they were.
#include <boost/test/unit_test.hpp>

#include "scans_support.hpp"

namespace it = icat::test;

namespace {

constexpr const char* kCentosReport = "scans/trivy-integration-v0.50.0/centos-7.trivy-image-scan.json";
constexpr const char* kCentosCdx = "sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.cdx-1.5.json";
constexpr const char* kFluentdReport =
    "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json";
constexpr const char* kFluentdCdx =
    "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json";
constexpr const char* kSpdx23 = "sboms/spec-examples/SPDXJSONExample-v2.3.spdx.json";

struct Refusal {
  std::string what;
  it::IngestArgs args;
  int exit_code;
  std::string file;    // the one line names it ("" for argument errors that concern no file)
  std::string reason;  // and says this
  std::vector<std::string> env = {};
};

it::IngestArgs Args(const std::string& image, const std::string& report, std::optional<std::string> spdx,
                    std::optional<std::string> cyclonedx) {
  return {image,
          "1.0",
          "sha256:" + std::string(64, 'b'),
          report,
          std::move(spdx),
          std::move(cyclonedx),
          "registry.example.test/it/" + image,
          std::nullopt,
          {}};
}

void ExpectRefused(const Refusal& r) {
  BOOST_TEST_CONTEXT(r.what) {
    it::ProcessResult result = it::Ingest(r.args, r.env);
    BOOST_TEST(result.exit_code == r.exit_code, "exit " << result.exit_code << ": " << result.err);
    BOOST_TEST(result.out.empty(), "stdout: " << result.out);
    std::string err = result.err;
    BOOST_TEST_REQUIRE(!err.empty());
    BOOST_TEST(err.back() == '\n');
    BOOST_TEST(err.find('\n') == err.size() - 1, "more than one line: " << err);
    BOOST_TEST(err.rfind("icatctl: ", 0) == 0u, err);
    if (!r.file.empty()) BOOST_TEST(err.find(r.file) != std::string::npos, "does not name " << r.file << ": " << err);
    BOOST_TEST(err.find(r.reason) != std::string::npos, "does not say '" << r.reason << "': " << err);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scan_refusals)

BOOST_AUTO_TEST_CASE(every_other_fixture_and_bad_input_is_refused_leaving_database_and_blob_store_unchanged) {
  it::TempDir dir;
  std::string image = "it-refuse-" + it::RandomSuffix(8);
  std::string centos = it::Fixture(kCentosReport), centos_cdx = it::Fixture(kCentosCdx);
  std::string fluentd = it::Fixture(kFluentdReport), fluentd_cdx = it::Fixture(kFluentdCdx);
  std::string spdx23 = it::Fixture(kSpdx23);
  std::string nginx_grype = it::Fixture("scans/msusel-2022-07-01/nginx_latest.grype-0.38.0.json");
  std::string alpine_trivy = it::Fixture("scans/msusel-2022-07-01/alpine_latest.trivy-0.29.1.json");

  std::vector<Refusal> refusals;
  // SBOMs of versions that are not accepted, each offered as what it claims to be.
  for (const char* spdx22 : {"sboms/guac/alpine_latest.syft-0.57.0.spdx-2.2.json",
                             "sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.spdx-2.2.json"}) {
    refusals.push_back({spdx22, Args(image, centos, it::Fixture(spdx22), std::nullopt), 1, it::Fixture(spdx22),
                        "is SPDX-2.2; only SPDX-2.3 JSON is accepted"});
  }
  for (const char* cdx14 :
       {"sboms/guac/alpine_latest.syft-0.58.0.cdx-1.4.json",
        "sboms/msusel-2022-07-01/alpine_latest.trivy-0.29.1.cdx-1.4.json",
        "sboms/msusel-2022-07-01/golang_1.18.trivy-0.29.1.cdx-1.4.json",
        "sboms/msusel-2022-07-01/itzg_minecraft-server_java8.trivy-0.29.1.cdx-1.4.json",
        "sboms/msusel-2022-07-01/nginx_latest.trivy-0.29.1.cdx-1.4.json",
        "sboms/msusel-2022-07-01/node_lts.trivy-0.29.1.cdx-1.4.json",
        "sboms/msusel-2022-07-01/ubuntu_latest.trivy-0.29.1.cdx-1.4.json", "vex/guac_cyclonedx-1.4-vex-affected.json",
        "vex/guac_cyclonedx-1.4-vex-not-affected.json"}) {
    refusals.push_back({cdx14, Args(image, centos, std::nullopt, it::Fixture(cdx14)), 1, it::Fixture(cdx14),
                        "is CycloneDX 1.4; only CycloneDX 1.5 JSON is accepted"});
  }
  for (const char* later : {"sboms/trivy-integration-later/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.6.json",
                            "sboms/trivy-integration-later/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.7.json"}) {
    std::string version = std::string(later).find("1.6") != std::string::npos ? "1.6" : "1.7";
    refusals.push_back({later, Args(image, fluentd, std::nullopt, it::Fixture(later)), 1, it::Fixture(later),
                        "is CycloneDX " + version + "; only CycloneDX 1.5 JSON is accepted"});
  }
  std::string intoto =
      it::Fixture("sboms/trivy-integration-v0.50.0/centos-7.sbom-input.trivy-dev.cdx-1.5.intoto.jsonl");
  refusals.push_back(
      {"in-toto envelope", Args(image, centos, std::nullopt, intoto), 1, intoto, "in-toto/DSSE envelope"});
  for (const char* openvex :
       {"vex/guac_openvex-affected.json", "vex/guac_openvex-not-affected.json", "vex/trivy_openvex-v0.2.0.json"}) {
    refusals.push_back({openvex, Args(image, centos, std::nullopt, it::Fixture(openvex)), 1, it::Fixture(openvex),
                        "is not a CycloneDX JSON document"});
  }
  // Not the format claimed: an SBOM or an admission review as the report, a report as an SBOM.
  refusals.push_back({"CycloneDX as report", Args(image, centos_cdx, spdx23, std::nullopt), 1, centos_cdx,
                      "is a CycloneDX document, not a scan report"});
  refusals.push_back({"SPDX as report", Args(image, spdx23, spdx23, std::nullopt), 1, spdx23,
                      "is an SPDX document, not a scan report"});
  std::string review = it::Fixture("admission/connaisseur_02_pod.json");
  refusals.push_back({"admission review as report", Args(image, review, spdx23, std::nullopt), 1, review,
                      "is neither a Trivy JSON report (SchemaVersion 2) nor a Grype JSON report"});
  refusals.push_back({"SPDX as CycloneDX", Args(image, centos, std::nullopt, spdx23), 1, spdx23,
                      "is an SPDX document, not CycloneDX"});
  refusals.push_back({"CycloneDX as SPDX", Args(image, centos, centos_cdx, std::nullopt), 1, centos_cdx,
                      "is a CycloneDX document, not SPDX"});
  refusals.push_back({"report as CycloneDX", Args(image, centos, std::nullopt, fluentd), 1, fluentd,
                      "is not a CycloneDX JSON document"});
  std::string schema1 = dir.Write("schema1.json", R"({"SchemaVersion": 1, "ArtifactName": "x", "Results": []})");
  refusals.push_back({"Trivy SchemaVersion 1", Args(image, schema1, spdx23, std::nullopt), 1, schema1,
                      "SchemaVersion 1; only SchemaVersion 2 is accepted"});
  // Documents that disagree about the image.
  refusals.push_back({"centos report, fluentd SBOM", Args(image, centos, std::nullopt, fluentd_cdx), 1, fluentd_cdx,
                      "describe different images (image id"});
  refusals.push_back({"fluentd report, centos SBOM", Args(image, fluentd, std::nullopt, centos_cdx), 1, centos_cdx,
                      "describe different images (image id"});
  std::string nginx_sbom = dir.Write("nginx.cdx.json", it::MinimalCycloneDx(nginx_grype, "2022-07-01T17:00:00Z"));
  refusals.push_back({"alpine report, nginx SBOM", Args(image, alpine_trivy, std::nullopt, nginx_sbom), 1, nginx_sbom,
                      "describe different images"});
  std::string nginx_spdx = dir.Write("nginx.spdx.json", it::MinimalSpdx(nginx_grype, "2022-07-01T17:00:00Z"));
  std::string alpine_cdx = dir.Write("alpine.cdx.json", it::MinimalCycloneDx(alpine_trivy, "2022-07-01T17:00:00Z"));
  refusals.push_back({"SBOMs of two images", Args(image, alpine_trivy, nginx_spdx, alpine_cdx), 1, nginx_spdx,
                      "describe different images"});
  // Invalid against the official schemas: an SPDX of four fields, and CycloneDX with a component
  // type that does not exist, a numeric purl and a timestamp that is no time.
  std::string four_fields = dir.Write("four.spdx.json", R"({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT",
    "documentNamespace": "https://example.test/four", "creationInfo": {"created": "2024-05-01T10:00:00Z"}})");
  refusals.push_back({"SPDX of four fields", Args(image, centos, four_fields, std::nullopt), 1, four_fields,
                      "is not valid SPDX 2.3 (official schema): /creationInfo: Missing required property 'creators'; "
                      "(root): Missing required property 'dataLicense'; (root): Missing required property 'name'"});
  std::string banana = dir.Write("banana.cdx.json", R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1,
    "metadata": {"timestamp": "last tuesday", "component": {"type": "container", "name": "x"}},
    "components": [{"type": "banana", "name": "b", "purl": 7}]})");
  refusals.push_back({"CycloneDX banana", Args(image, centos, std::nullopt, banana), 1, banana,
                      "is not valid CycloneDX 1.5 (official schema): "});
  for (const char* pointer : {"/components/0/type", "/components/0/purl", "/metadata/timestamp"}) {
    refusals.push_back({std::string("CycloneDX banana names ") + pointer,
                        Args(image, centos, std::nullopt, banana), 1, banana, pointer});
  }
  // Valid documents that are not an SBOM of a container image.
  refusals.push_back({"the SPDX 2.3 specification's example", Args(image, centos, spdx23, std::nullopt), 1, spdx23,
                      "describes no container image"});
  std::string cdx_vex = it::Fixture("vex/cyclonedx-spec_valid-vulnerability-1.5.json");
  refusals.push_back({"CycloneDX VEX as SBOM", Args(image, centos, std::nullopt, cdx_vex), 1, cdx_vex,
                      "is a VEX document"});
  // Not provably the same scan of the image of --digest.
  std::string nginx_grype_cdx =
      dir.Write("nginx-grype.cdx.json", it::MinimalCycloneDx(nginx_grype, "2022-07-01T17:00:00Z"));
  refusals.push_back({"--digest not the report's", Args(image, nginx_grype, std::nullopt, nginx_grype_cdx), 1,
                      nginx_grype, "--digest sha256:" + std::string(64, 'b') + " is not the image's digest in"});
  std::string other_tool = it::MinimalSpdx(nginx_grype, "2010-01-29T18:30:22Z");
  other_tool.replace(other_tool.find("Tool: syft-"), 11, "Tool: LicenseFind-");
  std::string other_tool_path = dir.Write("other-tool.spdx.json", other_tool);
  it::IngestArgs unrelated = Args(image, nginx_grype, other_tool_path, std::nullopt);
  unrelated.digest = it::ReportDigest(nginx_grype);
  refusals.push_back({"an SPDX of another tool with a Grype report", unrelated, 1, other_tool_path,
                      "comes from LicenseFind, " + nginx_grype + " from grype: they are not one scanner's run"});
  // An SBOM that names nothing of its image, with a report that names no registry digest (centos).
  auto anonymous = [&](const std::string& name, const std::string& tool, const std::string& timestamp) {
    return dir.Write(name, R"({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "metadata": {
      "timestamp": ")" + timestamp + R"(", "tools": {"components": [{"type": "application", "name": ")" + tool +
                               R"(", "version": "1.0.0"}]}, "component": {"type": "container", "name": "x"}},
      "components": [{"type": "library", "name": "zlib", "version": "1.2.13"}]})");
  };
  std::string anonymous_trivy = anonymous("anonymous-trivy.cdx.json", "trivy", "2021-08-25T12:20:30Z");
  refusals.push_back({"anonymous SBOM, report without a registry digest",
                      Args(image, centos, std::nullopt, anonymous_trivy), 1, anonymous_trivy,
                      "names nothing of the image " + centos + " names, and " + centos +
                          " names no registry digest to hold --digest against"});
  // Strict mode: Trivy's centos-7 SBOM has no checksums, no licence ids and tool version dev.
  it::IngestArgs strict = Args(image, centos, std::nullopt, centos_cdx);
  strict.extra = {"--require-complete"};
  refusals.push_back({"--require-complete", strict, 1, centos_cdx, "is below SPEC.md rule 3 (--require-complete)"});
  // Truncated and malformed files.
  for (const auto& [label, path] :
       {std::pair{"report", centos}, std::pair{"cyclonedx", centos_cdx}, std::pair{"spdx", spdx23}}) {
    std::string bytes = it::ReadFileBytes(path);
    std::string cut = dir.Write(std::string("truncated-") + label + ".json", bytes.substr(0, bytes.size() / 2));
    it::IngestArgs args = Args(image, centos, std::nullopt, centos_cdx);
    if (std::string(label) == "report") args.report = cut;
    if (std::string(label) == "cyclonedx") args.cyclonedx = cut;
    if (std::string(label) == "spdx") args.spdx = cut;
    refusals.push_back({std::string("truncated ") + label, args, 1, cut, "is not valid JSON"});
  }
  std::string empty = dir.Write("empty.json", "");
  refusals.push_back({"empty report", Args(image, empty, spdx23, std::nullopt), 1, empty, "is not valid JSON"});
  std::string missing = dir.path() + "/no-such-file.json";
  refusals.push_back({"missing file", Args(image, centos, std::nullopt, missing), 1, missing, "cannot read"});
  // Over the configured size.
  refusals.push_back({"report over ICAT_INGEST_MAX_BYTES",
                      Args(image, centos, std::nullopt, centos_cdx),
                      1,
                      centos,
                      "over the ICAT_INGEST_MAX_BYTES limit of 4096",
                      {"ICAT_INGEST_MAX_BYTES=4096"}});
  // No usable signing key.
  refusals.push_back({"no signing key",
                      Args(image, centos, std::nullopt, centos_cdx),
                      1,
                      "",
                      "ICAT_SIGNING_KEY_FILE",
                      {"ICAT_SIGNING_KEY_FILE=" + dir.path() + "/absent.pem"}});
  std::string not_a_key = dir.Write("not-a-key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
  refusals.push_back({"signing key not Ed25519",
                      Args(image, centos, std::nullopt, centos_cdx),
                      1,
                      not_a_key,
                      "expected a PEM Ed25519 private key",
                      {"ICAT_SIGNING_KEY_FILE=" + not_a_key}});
  // Bad arguments: exit 2.
  refusals.push_back(
      {"no SBOM", Args(image, centos, std::nullopt, std::nullopt), 2, "", "--spdx FILE and/or --cyclonedx FILE"});
  it::IngestArgs bad_digest = Args(image, centos, std::nullopt, centos_cdx);
  bad_digest.digest = "sha256:XYZ";
  refusals.push_back({"bad digest", bad_digest, 2, "", "--digest: 'sha256:XYZ'"});
  it::IngestArgs bad_time = Args(image, centos, std::nullopt, centos_cdx);
  bad_time.published = "2026-13-01T00:00:00Z";
  refusals.push_back({"bad --published", bad_time, 2, "", "--published"});

  std::map<std::string, long long> tables_before = it::TableCounts();
  std::map<std::string, long long> blobs_before = it::BlobStoreListing();
  for (const Refusal& r : refusals) ExpectRefused(r);
  BOOST_TEST((it::TableCounts() == tables_before), "a refused ingest changed the database");
  BOOST_TEST((it::BlobStoreListing() == blobs_before), "a refused ingest changed the blob store");
  BOOST_TEST(it::PgQuery("SELECT 1 FROM images WHERE name = $1", {image}).empty());
}

// icatctl sbom check says what ingest would of one SBOM, needing nothing but the file.
BOOST_AUTO_TEST_CASE(sbom_check_says_what_ingest_would_of_one_file) {
  std::string centos_cdx = it::Fixture(kCentosCdx);
  it::ProcessResult valid = it::Icatctl({"sbom", "check", centos_cdx});
  BOOST_TEST(valid.exit_code == 0, valid.err);
  BOOST_TEST(valid.out.find(centos_cdx + ": valid CycloneDX 1.5 (official schema), an SBOM of a container image\n"
                            "completeness: cyclonedx 1.5: ") == 0u,
             valid.out);
  BOOST_TEST(valid.out.find("; below rule 3: ") != std::string::npos, valid.out);
  it::ProcessResult strict = it::Icatctl({"sbom", "check", "--require-complete", centos_cdx});
  BOOST_TEST(strict.exit_code == 1);
  BOOST_TEST(strict.err.find("is below SPEC.md rule 3 (--require-complete)") != std::string::npos, strict.err);
  std::string vex = it::Fixture("vex/cyclonedx-spec_valid-vulnerability-1.5.json");
  it::ProcessResult refused = it::Icatctl({"sbom", "check", vex});
  BOOST_TEST(refused.exit_code == 1);
  BOOST_TEST(refused.err == "icatctl: " + vex + ": is a VEX document (vulnerabilities with analysis statements, about "
                                                 "no container image), not an SBOM of an image\n");
  std::string spdx = it::Fixture(kSpdx23);
  BOOST_TEST(it::Icatctl({"sbom", "check", spdx}).err.find("describes no container image") != std::string::npos);
  // A version ingest does not take: said without naming ingest's flags, which sbom check has not.
  for (const char* other : {"sboms/guac/alpine_latest.syft-0.58.0.cdx-1.4.json",
                            "sboms/guac/alpine_latest.syft-0.57.0.spdx-2.2.json"}) {
    std::string path = it::Fixture(other);
    std::string version = std::string(other).find("cdx") != std::string::npos
                              ? "CycloneDX 1.4; only CycloneDX 1.5 JSON is accepted"
                              : "SPDX-2.2; only SPDX-2.3 JSON is accepted";
    it::ProcessResult old = it::Icatctl({"sbom", "check", path});
    BOOST_TEST(old.exit_code == 1);
    BOOST_TEST(old.err == "icatctl: " + path + ": is " + version + "\n");
  }
}

BOOST_AUTO_TEST_CASE(a_digest_contradicting_the_existing_version_is_refused_and_stores_nothing) {
  std::string image = "it-digest-" + it::RandomSuffix(8);
  it::IngestArgs first = Args(image, it::Fixture(kCentosReport), std::nullopt, it::Fixture(kCentosCdx));
  it::IngestOk(first);
  // A new SBOM (new bytes, so a new blob if it got that far) with another digest for version 1.0.
  it::TempDir dir;
  std::string fresh =
      dir.Write("centos.cdx.json", it::MinimalCycloneDx(it::Fixture(kCentosReport), "2021-08-25T12:20:30Z"));
  it::IngestArgs second = Args(image, it::Fixture(kCentosReport), std::nullopt, fresh);
  second.digest = "sha256:" + std::string(64, 'c');
  std::map<std::string, long long> tables_before = it::TableCounts();
  std::map<std::string, long long> blobs_before = it::BlobStoreListing();
  ExpectRefused({"other digest", second, 1, "", "--digest: version 1.0 of " + image + " has digest sha256:bbbb"});
  BOOST_TEST((it::TableCounts() == tables_before));
  BOOST_TEST((it::BlobStoreListing() == blobs_before));
}

BOOST_AUTO_TEST_SUITE_END()
