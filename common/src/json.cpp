// JSON helpers over RapidJSON: the reply writers and the one safe reader.
#include "icat/json.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <strings.h>

#include <cctype>
#include <cmath>

#include "icat/errors.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"

namespace icat {

namespace {

// Not kParseFullPrecisionFlag: RapidJSON 1.1's full-precision path takes clz of zero on "0E-67"
// (undefined behaviour, found by tests/fuzz/json_body_fuzz.cpp).
constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;

// What the reader refused on its own, beyond RapidJSON's checks.
enum class Refusal { kNone, kTooDeep, kLoneSurrogate, kInfinite };

// Passes the reader's events on to the document, stopping the read at the depth limit, a lone
// surrogate or an infinite number.
class CheckedHandler {
 public:
  CheckedHandler(rapidjson::Document& document, size_t max_depth) : document_(document), max_depth_(max_depth) {}

  bool Null() { return document_.Null(); }
  bool Bool(bool b) { return document_.Bool(b); }
  bool Int(int i) { return document_.Int(i); }
  bool Uint(unsigned i) { return document_.Uint(i); }
  bool Int64(int64_t i) { return document_.Int64(i); }
  bool Uint64(uint64_t i) { return document_.Uint64(i); }
  bool Double(double d) { return Finite(d) && document_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) { return document_.RawNumber(s, n, copy); }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return Text(s, n) && document_.String(s, n, copy); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return Text(s, n) && document_.Key(s, n, copy); }
  bool StartObject() { return Enter() && document_.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    depth_--;
    return document_.EndObject(members);
  }
  bool StartArray() { return Enter() && document_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    depth_--;
    return document_.EndArray(elements);
  }

  Refusal refusal() const { return refusal_; }

 private:
  bool Enter() {
    if (++depth_ <= max_depth_) return true;
    refusal_ = Refusal::kTooDeep;
    return false;
  }
  // RapidJSON 1.1 reads "2E308" as infinity without an error; no writer can put it back (found by fuzzing).
  bool Finite(double d) {
    if (std::isfinite(d)) return true;
    refusal_ = Refusal::kInfinite;
    return false;
  }
  // RapidJSON 1.1 decodes an escaped lone low surrogate (\uDC00) into the bytes ED B0 80, which
  // are not UTF-8 and which Postgres refuses; raw bytes are checked while reading, decoded ones here.
  bool Text(const char* s, rapidjson::SizeType n) {
    if (IsValidUtf8(std::string_view(s, n))) return true;
    refusal_ = Refusal::kLoneSurrogate;
    return false;
  }

  rapidjson::Document& document_;
  size_t max_depth_;
  size_t depth_ = 0;
  Refusal refusal_ = Refusal::kNone;
};

// RapidJSON's English message as a phrase: "Invalid value." becomes "invalid value".
std::string Phrase(rapidjson::ParseErrorCode code) {
  std::string text = rapidjson::GetParseError_En(code);
  if (!text.empty() && text.back() == '.') text.pop_back();
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

void WriteKey(JsonWriter& w, std::string_view key) { w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size())); }

void WriteString(JsonWriter& w, std::string_view key, std::string_view value) {
  WriteKey(w, key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteOptionalDouble(JsonWriter& w, std::string_view key, const std::optional<double>& value) {
  WriteKey(w, key);
  if (value)
    w.Double(*value);
  else
    w.Null();
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

JsonRead ReadJson(std::string_view text, size_t max_depth) {
  JsonRead read;
  rapidjson::MemoryStream stream(text.data(), text.size());  // bounded: it never reads past the view
  rapidjson::ParseResult result;
  Refusal refusal = Refusal::kNone;
  auto parse = [&](rapidjson::Document& document) {
    CheckedHandler handler(document, max_depth);
    rapidjson::Reader reader;
    result = reader.Parse<kFlags>(stream, handler);
    refusal = handler.refusal();
    return !result.IsError();
  };
  read.document.Populate(parse);
  if (refusal == Refusal::kTooDeep) {
    read.error = "more than " + std::to_string(max_depth) + " levels of nested arrays and objects";
  } else if (refusal == Refusal::kLoneSurrogate) {
    read.error = "a lone UTF-16 surrogate escape in a string";
  } else if (refusal == Refusal::kInfinite) {
    read.error = Phrase(rapidjson::kParseErrorNumberTooBig);  // as RapidJSON says it for 1e309
  } else if (result.IsError()) {
    read.error = Phrase(result.Code());
  } else if (stream.Tell() != text.size()) {
    read.error = "bytes after the JSON value";  // RapidJSON ends its input at a NUL byte
  }
  if (!read.error.empty()) {
    // "of <size>" shows a truncated input at once: the error is at its last byte.
    size_t at = result.IsError() ? result.Offset() : stream.Tell();
    read.error += " (at byte " + std::to_string(at) + " of " + std::to_string(text.size()) + ")";
    read.document.SetNull();
  }
  return read;
}

rapidjson::Document ParseJson(std::string_view text) {
  JsonRead read = ReadJson(text, kMaxBodyDepth);
  if (!read.error.empty())
    throw ApiError(Error::kMALFORMED_JSON, "The request body is not valid JSON: " + read.error + ".");
  return std::move(read.document);
}

bool IsJsonMediaType(std::string_view content_type) {
  size_t semicolon = content_type.find(';');
  if (!EqualsNoCase(Trim(content_type.substr(0, semicolon), " \t"), "application/json")) return false;
  while (semicolon != std::string_view::npos) {
    content_type.remove_prefix(semicolon + 1);
    semicolon = content_type.find(';');
    std::string_view parameter = Trim(content_type.substr(0, semicolon), " \t");
    if (parameter.empty()) continue;  // "application/json;" is allowed
    size_t equals = parameter.find('=');
    if (equals == std::string_view::npos) return false;
    std::string_view value = Trim(parameter.substr(equals + 1), " \t");
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    // JSON is UTF-8 (RFC 8259): a body announced in another charset would be misread.
    if (EqualsNoCase(Trim(parameter.substr(0, equals), " \t"), "charset") && !EqualsNoCase(value, "utf-8")) return false;
  }
  return true;
}

}  // namespace icat
