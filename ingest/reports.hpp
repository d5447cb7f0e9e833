// Scan reports: Trivy JSON (SchemaVersion 2) and Grype JSON, detected from their content (never
// from the file name) and normalised into findings (docs/scans.md, "Normalisation").
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "ingest/ingest_model.hpp"

namespace icat::ctl {

// Parses one input file's bytes as JSON. Throws Failure "<path>: is not valid JSON: ... (at byte N of SIZE)".
rapidjson::Document ParseInputJson(std::string_view path, std::string_view bytes);

// Parses a scan report. Throws Failure "<path>: <reason>" when it is malformed JSON, not a Trivy
// (SchemaVersion 2) or Grype report, or lacks what a finding needs.
ScanReport ParseReport(std::string_view path, std::string_view bytes);

// The normalisations, exposed for the unit tests and the documentation's table.
std::string TrivySeverity(std::string_view severity);
std::string GrypeSeverity(std::string_view severity);
std::string TrivyFixState(const std::optional<std::string>& status, const std::optional<std::string>& fixed_version);
std::string GrypeFixState(std::string_view state);
std::string TrivyPackageType(std::string_view result_class, std::string_view result_type);
std::string GrypePackageType(std::string_view artifact_type);

}  // namespace icat::ctl
