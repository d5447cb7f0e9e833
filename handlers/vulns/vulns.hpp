// The vulns group: a version's findings (latest scan) and the CVE look-up across licensed images.
// Endpoint functions, and the pure pieces of their replies.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/feeds.hpp"
#include "icat/json.hpp"
#include "icat/pipeline.hpp"
#include "icat/scan_status.hpp"
#include "icat/vocabulary.hpp"

namespace icat::vulns {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

Reply ListImageVulnerabilities(Context& ctx);  // GET /v1/images/{id}/vulnerabilities
Reply ListImageVersionVulnerabilities(Context& ctx);  // GET /v1/images/{id}/versions/{versionId}/vulnerabilities
Reply ListVersionVulnerabilities(
    Context& ctx);              // GET /api/docker-images/{imageId}/versions/{versionId}/vulnerabilities
Reply LookUpCve(Context& ctx);  // GET /v1/cve/{cveId} and /api/cve/{cveId}
Reply CompareVersions(Context& ctx);        // GET /v1/images/{id}/compare
Reply ComparePortalVersions(Context& ctx);  // GET /api/docker-images/{imageId}/compare
Reply LookUpPackage(Context& ctx);          // GET /v1/packages and /api/packages

// The head of a listing: image, version and the scan the findings come from, with stored counts.
struct ScanView {
  std::string image_id, image_name;
  std::optional<std::string> version_id, tag, digest;  // absent before the first version
  std::optional<std::string> scan_id, scanner, scanner_version, scanned_at, vulndb_updated_at;  // before the first scan
  VulnerabilityCounts vulnerability_counts;   // distinct ids at their highest severity, and the VEX-excluded
  std::array<long long, 5> finding_counts{};  // package findings, as kSeverities
  long long fixable = 0;                      // distinct ids with a fix in some package
};

// The vendor's VEX statement that applies to a finding (docs/vex.md).
struct VexView {
  std::string status;  // one of kVexStatuses
  std::optional<std::string> justification, impact_statement;
  std::string statement_time, author;
};

// The VEX columns of a result (vex_status, vex_justification, vex_impact, vex_time, vex_author), found
// once; At is nullopt for a row no statement applies to.
struct VexColumns {
  explicit VexColumns(const Rows& rows);
  std::optional<VexView> At(const Rows& rows, int row) const;
  int status, justification, impact, time, author;
};
// "vex": null or {"status", "justification", "impactStatement", "statementTime", "author"}.
void WriteVex(JsonWriter& w, const std::optional<VexView>& vex);

struct FindingView {
  long long row_id = 0;  // the page cursor
  std::string vuln_id;
  std::vector<std::string> aliases;
  std::string package_name;
  std::optional<std::string> package_version, package_type, purl;
  std::string severity;
  std::optional<double> cvss_score;
  std::string fix_state;
  std::optional<std::string> fixed_version, title, url;
  std::string severity_sources = "[]";         // the stored JSON array, sent as it is
  std::optional<std::string> severity_source;  // whose rating severity and cvss_score are
  std::optional<VexView> vex;
  FeedFacts feeds;  // EPSS and KEV (docs/feeds.md)
};

// ?severity= and ?fixState=: words of kSeverities / kFixStates; ?kev=true|false; ?epssAbove= a
// fraction (routes.cpp); nullopt when absent.
struct Filters {
  std::optional<std::vector<std::string>> severities, fix_states;
  std::optional<std::string> kev, epss_above;
};

// {"image", "version", "scan", "scanStatus", "lastScannedAt", "vulnerabilityCounts", "vexExcludedCount",
//  "findingCounts", "fixableCount", "vulnerabilities": [...], "nextCursor"}; counts, list and cursor are
//  null when the version was never scanned. Each finding carries "vex" (WriteVex), "epss" and "kev" (WriteFeeds).
std::string VulnerabilityListJson(const ScanView& scan, const std::vector<FindingView>& findings,
                                  const std::optional<std::string>& next_cursor);

// One row of the look-up: a finding of the id in one version of one image.
struct CveMatch {
  std::string image_id, image_name, repository;
  std::string version_id, tag, digest;
  bool latest = false;
  std::string scan_id, scanned_at;
  std::string vuln_id, package_name;
  std::optional<std::string> package_version, package_type, purl;
  std::string severity, fix_state;
  std::optional<std::string> fixed_version;
  std::optional<VexView> vex;
  FeedFacts feeds;
};

// A licensed version that was never scanned: the look-up cannot say whether it carries the id.
struct UnscannedVersion {
  std::string image_id, image_name, repository;
  std::string version_id, tag, digest;
  bool latest = false;
};

// {"cveId", "versions": "latest"|"all", "images": [{"id", "name", "repository", "versions": [{"id",
//  "tag", "digest", "latest", "scan": {"id", "scannedAt"}, "packages": [... each with "vex"]}]}],
//  "unscannedImages": [{"id", "name", "repository", "versions": [{"id", "tag", "digest", "latest"}]}]};
// rows of both lists arrive grouped by image, then version.
std::string CveLookupJson(const std::string& cve_id, bool all_versions, const std::vector<CveMatch>& matches,
                          const std::vector<UnscannedVersion>& unscanned);

}  // namespace icat::vulns
