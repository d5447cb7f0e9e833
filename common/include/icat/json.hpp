// JSON with RapidJSON: a writer for replies and a strict parser for request bodies.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icat {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Small helpers so reply-shaping functions stay readable.
void WriteString(JsonWriter& w, std::string_view key, std::string_view value);
void WriteOptionalString(JsonWriter& w, std::string_view key, const std::optional<std::string>& value);
void WriteInt(JsonWriter& w, std::string_view key, long long value);
void WriteBool(JsonWriter& w, std::string_view key, bool value);
void WriteStringArray(JsonWriter& w, std::string_view key, const std::vector<std::string>& values);
void WriteKey(JsonWriter& w, std::string_view key);

// An object of string members in the given order, e.g. an audit detail {"email": ..., "reason": ...}.
std::string StringObjectJson(const std::vector<std::pair<std::string, std::string>>& members);

// Parses a request body; throws ApiError MALFORMED_JSON when it is not one JSON value.
rapidjson::Document ParseJson(std::string_view text);

}  // namespace icat
