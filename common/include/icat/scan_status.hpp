// Whether a version was ever scanned, said the same way by every reply that shows a version
// (DESIGN.md section 10: unscanned never reads as clean).
#pragma once

#include <optional>
#include <string>

#include "icat/json.hpp"

namespace icat {

// "scanStatus": "scanned" or "unscanned", and "lastScannedAt": the time of the version's latest
// scan, or null when it has none.
inline void WriteScanStatus(JsonWriter& w, const std::optional<std::string>& last_scanned_at) {
  WriteString(w, "scanStatus", last_scanned_at ? "scanned" : "unscanned");
  WriteOptionalString(w, "lastScannedAt", last_scanned_at);
}

}  // namespace icat
