// Whether a version was ever scanned, and what its scan counted, said the same way by every reply
// that shows a version or a scan (DESIGN.md section 10: unscanned never reads as clean).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "icat/json.hpp"
#include "icat/vocabulary.hpp"

namespace icat {

// "image": {"id", "name"}: the image a reply about one of its versions (its findings, its scan
// history) names first.
inline void WriteImageOf(JsonWriter& w, std::string_view id, std::string_view name) {
  WriteKey(w, "image");
  w.StartObject();
  WriteString(w, "id", id);
  WriteString(w, "name", name);
  w.EndObject();
}

// "scanStatus": "scanned" or "unscanned", and "lastScannedAt": the time of the version's latest
// scan, or null when it has none.
inline void WriteScanStatus(JsonWriter& w, const std::optional<std::string>& last_scanned_at) {
  WriteString(w, "scanStatus", last_scanned_at ? "scanned" : "unscanned");
  WriteOptionalString(w, "lastScannedAt", last_scanned_at);
}

// The counts stored on a scan (sql/V0017 scan_recount): distinct vulnerability ids by severity, and
// the ids the vendor's VEX marks not_affected, which those counts leave out.
struct VulnerabilityCounts {
  std::array<long long, 5> by_severity{};  // in kSeverities' order
  long long vex_excluded = 0;
};

// "vulnerabilityCounts": {"critical", "high", "medium", "low", "unknown"}, and beside it
// "vexExcludedCount" (docs/vex.md).
inline void WriteVulnerabilityCounts(JsonWriter& w, const VulnerabilityCounts& counts) {
  WriteKey(w, "vulnerabilityCounts");
  w.StartObject();
  for (size_t i = 0; i < kSeverities.size(); i++) WriteInt(w, kSeverities[i], counts.by_severity[i]);
  w.EndObject();
  WriteInt(w, "vexExcludedCount", counts.vex_excluded);
}

}  // namespace icat
