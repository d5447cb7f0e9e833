// The catalog group: endpoint functions and the pure shapes of their replies.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icat/pipeline.hpp"
#include "icat/scan_status.hpp"

namespace icat::catalog {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

Reply ListImages(Context& ctx);         // GET /v1/images (and its look-ups ?digest=, ?reference=)
Reply GetImage(Context& ctx);           // GET /v1/images/{id}
Reply ListImageVersions(Context& ctx);  // GET /v1/images/{id}/versions (versions.cpp)
Reply GetImageVersion(Context& ctx);    // GET /v1/images/{id}/versions/{versionId} (versions.cpp)

// How often the calling tenant pulled a version from the registry, and when last (version_pulls;
// docs/registry.md, "Pull counts"): 0 and none when it never did.
struct VersionPulls {
  long long count = 0;
  std::optional<std::string> last_at;
};

struct VersionView {
  std::string id, tag, digest, published_at;
  std::optional<long long> size_bytes;
  std::vector<std::string> hardening_tags;
  VulnerabilityCounts counts;  // of the version's latest scan; zero before the first
  std::optional<std::string> last_scanned_at;  // the latest scan's time; none: never scanned
  // Detail only: {"cyclonedx": {...}, "spdx": {...}}, what the latest scan's SBOMs hold of rule 3
  // (JSON text from Postgres); none when unscanned or measured before ingest measured it.
  std::optional<std::string> sbom_completeness;
  // Detail only: the latest scan's distinct vulnerability ids known to be exploited (CISA's KEV
  // catalogue, docs/feeds.md); none when unscanned.
  std::optional<long long> known_exploited;
  // Read with the version's own rows (VersionsAt) and shown wherever set; the lists' latestVersion
  // has none.
  std::optional<VersionPulls> pulls;
};

struct ImageView {
  std::string id, name, description, repository;
  std::optional<std::string> base_os;
  std::optional<VersionView> latest;
};

// {"images": [...], "nextCursor": ...}: each image with its latest version.
std::string ImageListJson(const std::vector<ImageView>& images, const std::optional<std::string>& next_cursor);

// The version of an image a look-up by digest or reference found.
struct MatchedVersion {
  std::string id, tag, digest;
};
struct ImageMatch {
  ImageView image;
  MatchedVersion matched;
};
// {"images": [...], "nextCursor": null}: each image as ImageListJson shows it, with "matchedVersion":
// {"id", "tag", "digest"}. A look-up answers every match at once.
std::string ImageLookupJson(const std::vector<ImageMatch>& matches);

// The versions of rows of list_versions, page_versions or get_version (with sbom_completeness), at
// most `count`; a row without a version (page_versions past the last one) is skipped.
std::vector<VersionView> VersionsAt(const Rows& rows, int count);
// One version as an element of the detail's "versions": id, tag, digest, sizeBytes, publishedAt,
// hardeningTags, scanStatus, lastScannedAt, vulnerabilityCounts, vexExcludedCount, sbomCompleteness,
// pullCount, lastPulledAt.
std::string VersionJson(const VersionView& version);
// {"versions": [each as VersionJson], "nextCursor": ...}
std::string VersionListJson(const std::vector<VersionView>& versions, const std::optional<std::string>& next_cursor);
// The detail: base OS, size, vulnerabilityCounts (with vexExcludedCount), scanStatus and sbomCompleteness of the latest
// version, and every version with its own; latestVersion with the pulls of its entry in `versions`.
std::string ImageDetailJson(const ImageView& image, const std::vector<VersionView>& versions);

}  // namespace icat::catalog
