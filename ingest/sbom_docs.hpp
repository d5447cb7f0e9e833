// SBOM documents as ingest checks them: SPDX 2.3 JSON and CycloneDX 1.5 JSON, their tool, time
// and the image they describe. The bytes themselves are stored verbatim, never re-serialised.
#pragma once

#include <string_view>

#include "ingest/ingest_model.hpp"

namespace icat::ctl {

// Throws Failure "<path>: <reason>" unless the bytes are an SPDX-2.3 JSON document.
SbomDocument ParseSpdx(std::string_view path, std::string_view bytes);

// Throws Failure "<path>: <reason>" unless the bytes are a CycloneDX JSON document of specVersion 1.5.
SbomDocument ParseCycloneDx(std::string_view path, std::string_view bytes);

// Throws Failure "<path>: <reason>" unless the parsed document is an SBOM of a container image
// (NotAnImageSbom) with an RFC 3339 creation time, and, with require_complete, meets rule 3.
void RequireImageSbom(std::string_view path, const SbomDocument& doc, bool require_complete);

// "trivy-0.50.0" -> {"trivy", "0.50.0"}: an SPDX creator "Tool: name-version" split at its last '-'.
std::pair<std::string, std::optional<std::string>> SplitToolName(std::string_view tool);

}  // namespace icat::ctl
