// Cursor pagination (DESIGN.md section 6) and the input checks every list shares.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/http.hpp"
#include "icat/json.hpp"

namespace icat {

// ?limit= (QueryKind::kLimit): 1 to 200, 50 when absent.
inline constexpr int kDefaultLimit = 50;
inline constexpr int kMaxLimit = 200;

// An opaque cursor holding the sort key of the last row of a page.
std::string EncodeCursor(const std::vector<std::string>& fields);
// The fields of a cursor EncodeCursor made with `field_count` fields; nullopt for any other text
// (the pipeline checks ?cursor= with it: query.hpp).
std::optional<std::vector<std::string>> DecodeCursor(std::string_view text, size_t field_count);

// True for 1 to max_digits decimal digits and nothing else (limits, row ids in cursors).
bool IsDigits(std::string_view text, size_t max_digits);

// True for a canonical UUID (8-4-4-4-12 hex). Malformed ids are answered like unknown ones (404).
bool IsUuid(std::string_view text);

// Escapes LIKE wildcards so user text matches literally.
std::string LikeLiteral(std::string_view text);

// The body of every list: {"<key>": [each item as write_item writes it], "nextCursor": next or null}.
template <typename Items, typename WriteItem>
std::string ListJson(std::string_view key, const Items& items, const std::optional<std::string>& next_cursor,
                     WriteItem write_item) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, key);
  w.StartArray();
  for (const auto& item : items) write_item(w, item);
  w.EndArray();
  WriteOptionalString(w, "nextCursor", next_cursor);
  w.EndObject();
  return buffer.GetString();
}

}  // namespace icat
