// What the scan tests share: the fixtures directory, running `icatctl ingest`, deriving the
// expected findings straight from a report (an implementation independent of ingest's), the
// state of the database and blob store, signature checks with openssl, and portal tokens.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support.hpp"

namespace icat::test {

// What the scan suites name alike: an id of UUID form no row has, a key's every read scope, and
// the fixture reports they ingest (relative to Fixture's directory).
inline const std::string kUnknownId = "00000000-0000-4000-8000-000000000000";
inline constexpr const char* kAllReads = "read:catalog,read:sbom,read:vulns";
inline constexpr const char* kAlpine310 = "scans/trivy-integration-v0.50.0/alpine-310.trivy-image-scan.json";
inline constexpr const char* kNginxGrype = "scans/msusel-2022-07-01/nginx_latest.grype-0.38.0.json";
inline constexpr const char* kNginxTrivy = "scans/msusel-2022-07-01/nginx_latest.trivy-0.29.1.json";
inline constexpr const char* kMinecraftGrype =
    "scans/msusel-2022-07-01/itzg_minecraft-server_java8.grype-0.38.0.json";

// $ICAT_REPO/../shared/fixtures/<relative>; fails the test when the fixtures are absent.
std::string Fixture(const std::string& relative);
std::string Sha256HexOf(const std::string& bytes);

// A directory under /tmp for one test, removed with its contents at the end of the scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& bytes) const;  // returns the path

 private:
  std::string path_;
};

// One `icatctl ingest` run.
struct IngestArgs {
  std::string image, version, digest;
  std::string report;
  std::optional<std::string> spdx, cyclonedx, repository, published;
  std::vector<std::string> extra;  // more flags, as given
};
ProcessResult Ingest(const IngestArgs& args, const std::vector<std::string>& extra_env = {});
// --digest for an ingest of a report: the registry digest the report names (the first), else a
// random one (ingest requires the former when the report names any).
std::string ReportDigest(const std::string& report_path);
// Runs it and requires success; returns the new (or existing) scan id from the printed line.
std::string IngestOk(const IngestArgs& args);
// The id of version tag of the image named image_name (as the owner reads it).
std::string VersionIdOf(const std::string& image_name, const std::string& tag);
// One version of image (its name and repository) ingested from a fixture report with made-up SBOMs
// of both formats (MinimalSpdx, MinimalCycloneDx, written under dir): where the scan tests start.
struct ScannedVersion {
  std::string id, tag, digest, report, spdx_path, cyclonedx_path;
};
ScannedVersion IngestScannedVersion(const TempDir& dir, const Image& image, const std::string& tag,
                                    const std::string& fixture, const std::string& time = "2022-07-01T17:00:00Z",
                                    const std::optional<std::string>& published = std::nullopt);
// An image with one version and one scan (IngestScannedVersion), licensed to tenant.
struct ScannedImage {
  Image image;
  std::string tag, version_id;
  std::string spdx_path, cyclonedx_path;
};
ScannedImage ScanNewImage(Tenant& tenant, const TempDir& dir, const std::string& label,
                          const std::string& report_fixture, const std::string& tag = "1.0",
                          const std::string& time = "2022-07-01T17:00:00Z");
// The message of an error reply.
std::string MessageOf(const Response& r);
// The path of a version in the tenants' API (/v1/images/{id}/versions/{versionId}) and in the
// portal's (/api/docker-images/{imageId}/versions/{versionId}); the routes below it add to it.
std::string V1VersionPath(const std::string& image_id, const std::string& version_id);
std::string PortalVersionPath(const std::string& image_id, const std::string& version_id);
// `icatctl vex ingest` of document (written to a file under dir), required to succeed; its output.
std::string VexIngestOk(const TempDir& dir, const std::string& document);

// A finding as the API lists it and as the test derives it from a report.
struct ExpectedFinding {
  std::string id, package;
  std::optional<std::string> version;
  std::string severity, fix_state;
  std::optional<std::string> fixed_version;
  bool operator<(const ExpectedFinding& o) const {
    return std::tie(id, package, version, severity, fix_state, fixed_version) <
           std::tie(o.id, o.package, o.version, o.severity, o.fix_state, o.fixed_version);
  }
  bool operator==(const ExpectedFinding& o) const {
    return std::tie(id, package, version, severity, fix_state, fixed_version) ==
           std::tie(o.id, o.package, o.version, o.severity, o.fix_state, o.fixed_version);
  }
};
std::ostream& operator<<(std::ostream& out, const ExpectedFinding& f);

// Straight from the report file (Trivy JSON or Grype JSON), sorted.
std::vector<ExpectedFinding> DeriveFindings(const std::string& report_path);

// Counts by severity: distinct ids at their highest severity, and findings (not-affected excluded).
struct DerivedCounts {
  std::map<std::string, long long> vulnerabilities, findings;
  long long fixable = 0;
};
DerivedCounts DeriveCounts(const std::vector<ExpectedFinding>& findings);

// Every finding of an image's latest scan through GET /v1/images/{id}/vulnerabilities, page by page.
std::vector<ExpectedFinding> ListedFindings(const std::string& key, const std::string& image_id,
                                            rapidjson::Document* first_page = nullptr);
// The same through any listing of findings: path is its URL without a query (a version's, ...).
std::vector<ExpectedFinding> ListedFindingsAt(const std::string& key, const std::string& path,
                                              rapidjson::Document* first_page = nullptr);

// Row counts of every table ingest writes (attestations too), and every path (with size) in the blob store.
std::map<std::string, long long> TableCounts();
std::map<std::string, long long> BlobStoreListing();

// Verifies a detached Ed25519 signature (base64) over a file with `openssl pkeyutl -verify`
// against the key GET /v1/signing-keys publishes under key_id. Returns openssl's output on failure.
std::optional<std::string> OpensslVerifyFailure(const std::string& file_path, const std::string& signature_b64,
                                                const std::string& key_id);

// A portal access token for a tenant (what POST /api/auth/login issues), signed with the stack's secret.
std::string PortalToken(const Tenant& tenant, const std::string& role = "viewer");
Headers PortalHeaders(const Tenant& tenant, const std::string& role = "viewer");

// A minimal CycloneDX 1.5 SBOM describing the image a report names (its image id and layers as
// Trivy records them), for fixture reports that come without an SBOM of an accepted version.
std::string MinimalCycloneDx(const std::string& report_path, const std::string& timestamp);
// MinimalCycloneDx with library components added until it holds at least `bytes` bytes (each with
// an exact version, a purl and an SPDX licence id): big enough that storing it takes a while.
std::string BigCycloneDx(const std::string& report_path, size_t bytes);
// The same as an SPDX 2.3 document.
std::string MinimalSpdx(const std::string& report_path, const std::string& created);

}  // namespace icat::test
