// JSON helpers over RapidJSON.
#include "icat/json.hpp"

#include "icat/errors.hpp"

namespace icat {

void WriteKey(JsonWriter& w, std::string_view key) { w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size())); }

void WriteString(JsonWriter& w, std::string_view key, std::string_view value) {
  WriteKey(w, key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteOptionalString(JsonWriter& w, std::string_view key, const std::optional<std::string>& value) {
  if (value) {
    WriteString(w, key, *value);
  } else {
    WriteKey(w, key);
    w.Null();
  }
}

void WriteInt(JsonWriter& w, std::string_view key, long long value) {
  WriteKey(w, key);
  w.Int64(value);
}

void WriteBool(JsonWriter& w, std::string_view key, bool value) {
  WriteKey(w, key);
  w.Bool(value);
}

void WriteStringArray(JsonWriter& w, std::string_view key, const std::vector<std::string>& values) {
  WriteKey(w, key);
  w.StartArray();
  for (const std::string& v : values) w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  w.EndArray();
}

std::string StringObjectJson(const std::vector<std::pair<std::string, std::string>>& members) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  for (const auto& [key, value] : members) WriteString(w, key, value);
  w.EndObject();
  return buffer.GetString();
}

rapidjson::Document ParseJson(std::string_view text) {
  rapidjson::Document document;
  document.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  if (document.HasParseError()) {
    throw ApiError(Error::kMALFORMED_JSON, "The request body is not valid JSON (at byte " +
                                               std::to_string(document.GetErrorOffset()) + ").");
  }
  return document;
}

}  // namespace icat
