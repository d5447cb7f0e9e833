// How complete an SBOM is against SPEC.md section 1 rule 3 (packages of every kind, exact versions
// with checksums, the dependency graph, SPDX licence ids, tool version, image digest): measured at
// ingest, stored with the SBOM record, shown to tenants. docs/scans.md, "Completeness (rule 3)".
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "ingest/ingest_model.hpp"

namespace icat::ctl {

// The figures of a parsed SPDX 2.3 or CycloneDX 1.5 document. `doc` gives the format, the tool and
// the image identity already read from it.
SbomCompleteness MeasureCompleteness(const rapidjson::Value& document, const SbomDocument& doc);

// The figures as stored with the SBOM record and shown in image detail (camelCase):
// {"packages", "packageKinds": {kind: count}, "exactVersions", "checksums", "inDependencyGraph",
//  "relationships", "spdxLicenses", "toolName", "toolVersion", "toolVersionIsRelease", "imageDigest",
//  "meetsRule3", "shortfalls": [...]}.
std::string CompletenessJson(const SbomCompleteness& c);

// The operator's line: "cyclonedx 1.5: 160 packages (os 105, ruby 55), exact versions 100%, ...".
std::string CompletenessLine(const SbomDocument& doc);

// The rules behind the figures, exposed for the unit tests.
bool IsExactVersion(std::string_view version);      // "2.28-10", not "^1.2", ">=1 <2", "1.x", "*", "latest"
bool IsReleaseVersion(std::string_view version);    // "0.50.0", "v1.2", not "dev" or "0.51.0-SNAPSHOT"
bool IsSpdxLicense(std::string_view text);          // "MIT", "GPL-2.0-or-later WITH Classpath-exception-2.0"
std::string PurlKind(std::string_view purl);        // "pkg:gem/rake@13.0.1" -> "ruby"; "" when it does not say

}  // namespace icat::ctl
