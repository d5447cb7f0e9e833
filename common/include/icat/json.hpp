// JSON with RapidJSON: a writer for replies and the one safe reader for every JSON text we take in.
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
void WriteOptionalDouble(JsonWriter& w, std::string_view key, const std::optional<double>& value);
void WriteBool(JsonWriter& w, std::string_view key, bool value);
void WriteStringArray(JsonWriter& w, std::string_view key, const std::vector<std::string>& values);
void WriteKey(JsonWriter& w, std::string_view key);

// An array of one object per item, whose members write_members(w, item) writes: every list of
// records in a reply, a stored column or a document is written this one way.
template <typename Items, typename WriteMembers>
void WriteObjects(JsonWriter& w, const Items& items, WriteMembers&& write_members) {
  w.StartArray();
  for (const auto& item : items) {
    w.StartObject();
    write_members(w, item);
    w.EndObject();
  }
  w.EndArray();
}

// An object of string members in the given order, e.g. an audit detail {"email": ..., "reason": ...}.
std::string StringObjectJson(const std::vector<std::pair<std::string, std::string>>& members);

// Nesting limits (levels of arrays and objects). Request bodies are small, flat documents; the
// scan reports and SBOMs icatctl reads nest about 15 deep. Within these limits a recursive walk
// of a read document (Writer Accept, CopyFrom) cannot exhaust the stack.
inline constexpr size_t kMaxBodyDepth = 64;
inline constexpr size_t kMaxDocumentDepth = 512;

struct JsonRead {
  rapidjson::Document document;  // null when error is set
  std::string error;             // why the text is not one JSON value, e.g. "invalid value (at byte 3 of 9)"
};

// Reads exactly one JSON value from text: iteratively (no recursion on the input), at most
// max_depth levels deep, strings valid UTF-8 without lone surrogates, numbers finite, nothing after
// the value but whitespace (a NUL byte included: RapidJSON alone would stop there).
[[nodiscard]] JsonRead ReadJson(std::string_view text, size_t max_depth);

// Reads a request body (kMaxBodyDepth); throws ApiError MALFORMED_JSON saying why it is not one JSON value.
rapidjson::Document ParseJson(std::string_view text);

// Whether a Content-Type is JSON: application/json in any case, parameters allowed, a charset only utf-8.
bool IsJsonMediaType(std::string_view content_type);

}  // namespace icat
