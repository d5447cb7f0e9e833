// The portal's scan history of one version: GET /api/docker-images/:id/versions/:vid/scan-history.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/pipeline.hpp"
#include "icat/scan_status.hpp"

namespace icat::catalog {

Reply GetScanHistory(Context& ctx);

// One scan of the version: a point of the time series.
struct ScanPoint {
  std::string scan_id, scanned_at, scanner;
  std::optional<std::string> scanner_version, vulndb_updated_at;
  VulnerabilityCounts counts;  // distinct vulnerabilities by severity, and those the vendor's VEX took out
  long long fixable = 0;       // distinct vulnerabilities with a fix available
};

struct HistorySubject {
  std::string image_id, image_name, version_id, tag;
};

// {"image": {"id", "name"}, "version": {"id", "tag"}, "points": [{"scanId", "scannedAt", "scanner",
//  "scannerVersion", "vulnDbUpdatedAt", "vulnerabilityCounts", "vexExcludedCount", "fixableCount"}],
//  "nextCursor"}
std::string ScanHistoryJson(const HistorySubject& subject, const std::vector<ScanPoint>& points,
                            const std::optional<std::string>& next_cursor);

// Seconds since the epoch of an RFC 3339 date-time (any offset, optional fraction); nullopt when
// the text is not one or names no real date.


}  // namespace icat::catalog
