// SBOMs and VEX documents checked against the official JSON schemas of their format (schemas/,
// compiled into icatctl).
#pragma once

#include <rapidjson/document.h>

#include <string_view>

namespace icat::ctl {

enum class OfficialSchema { kSpdx23, kCycloneDx15, kOpenVex020 };

// Throws Failure "<path>: is not valid <SPDX 2.3|CycloneDX 1.5|OpenVEX 0.2.0> (official schema): <pointer>:
// <message>; ..." naming the first few violations by JSON pointer, unless the document is valid
// against the schema.
void ValidateAgainstSchema(OfficialSchema schema, std::string_view path, const rapidjson::Value& document);

// The text of one file of schemas/ by its name ("spdx.schema.json"); std::out_of_range for another name.
// Defined in the source tools/embed-schemas generates.
std::string_view EmbeddedSchema(std::string_view file_name);

}  // namespace icat::ctl
