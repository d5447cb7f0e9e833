// Request-body field checks, RFC 3339 times and vulnerability ids.
#include "icat/validate.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>
#include <utility>

#include "icat/text.hpp"

namespace icat {

namespace {

// The code point starting at text[at] and its length in bytes; nullopt for anything but the
// shortest UTF-8 form of a scalar value.
std::optional<std::pair<char32_t, size_t>> NextCodePoint(std::string_view text, size_t at) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  if (lead < 0x80) return std::pair<char32_t, size_t>{lead, 1};
  size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || at + length > text.size()) return std::nullopt;
  char32_t code = lead & (0x7F >> length);
  for (size_t i = 1; i < length; i++) {
    if ((byte(at + i) & 0xC0) != 0x80) return std::nullopt;
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  static const char32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kShortest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
  return std::pair<char32_t, size_t>{code, length};
}

bool IsUnmeant(char32_t code, bool multiline) {
  if (multiline && (code == '\n' || code == '\r' || code == '\t')) return false;
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) ||
         (code >= 0x2066 && code <= 0x2069);
}

std::string CharRange(size_t min_chars, size_t max_chars) {
  if (min_chars == max_chars) return "must have exactly " + std::to_string(min_chars) + " characters";
  if (min_chars <= 1) return "must have 1 to " + std::to_string(max_chars) + " characters";
  return "must have " + std::to_string(min_chars) + " to " + std::to_string(max_chars) + " characters";
}

bool Contains(const std::vector<std::string_view>& values, std::string_view value) {
  for (std::string_view v : values) {
    if (v == value) return true;
  }
  return false;
}

int Digits(std::string_view text, size_t at, size_t count) {
  int value = 0;
  for (size_t i = at; i < at + count; i++) {
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::string OneOf(const std::vector<std::string_view>& allowed) { return "must be one of " + Join(allowed, ", "); }

FieldReader::FieldReader(const rapidjson::Value& object, std::vector<FieldIssue>& issues, std::string path)
    : object_(object), issues_(issues), path_(std::move(path)), is_object_(object.IsObject()) {
  if (!is_object_) issues_.push_back({path_.empty() ? "body" : path_, "must be a JSON object"});
}

std::string FieldReader::Field(std::string_view name) const {
  return path_.empty() ? std::string(name) : path_ + "." + std::string(name);
}

void FieldReader::Issue(std::string_view name, std::string issue) {
  issues_.push_back({Field(name), std::move(issue)});
}

const rapidjson::Value* FieldReader::Find(std::string_view name, Need need) {
  known_.insert(std::string(name));
  if (!is_object_) return nullptr;
  auto it = object_.FindMember(rapidjson::Value(rapidjson::StringRef(name.data(), name.size())));
  if (it == object_.MemberEnd() || it->value.IsNull()) {
    if (need == Need::kRequired) Issue(name, "is required");
    return nullptr;
  }
  return &it->value;
}

bool FieldReader::Has(std::string_view name) { return Find(name, Need::kOptional) != nullptr; }

const rapidjson::Value* FieldReader::Member(std::string_view name, Need need) { return Find(name, need); }

std::optional<std::string> FieldReader::String(std::string_view name, Need need, size_t max_chars, size_t min_chars,
                                               bool multiline) {
  const rapidjson::Value* value = Find(name, need);
  if (!value) return std::nullopt;
  if (!value->IsString()) {
    Issue(name, "must be a string");
    return std::nullopt;
  }
  std::string_view text = Trim(std::string_view(value->GetString(), value->GetStringLength()));
  if (!IsCleanText(text, multiline)) {
    Issue(name, multiline ? "must not contain control or bidirectional-override characters other than newlines and tabs"
                          : "must not contain control or bidirectional-override characters or newlines");
    return std::nullopt;
  }
  size_t chars = Utf8Chars(text);
  if (chars < min_chars || chars > max_chars) {
    Issue(name, CharRange(min_chars, max_chars));
    return std::nullopt;
  }
  return std::string(text);
}

bool IsEmailAddress(std::string_view text) {
  size_t at = text.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == text.size()) return false;
  if (text.find('@', at + 1) != std::string_view::npos) return false;
  return text.find_first_of(" \t\r\n\v\f") == std::string_view::npos;
}

namespace {
// RFC 5322's atext: what a dot-atom's atoms are made of.
bool IsAtext(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool IsDotAtom(std::string_view text, bool (*allowed)(char)) {
  if (text.empty() || text.front() == '.' || text.back() == '.' || text.find("..") != std::string_view::npos) return false;
  for (char c : text) {
    if (c != '.' && !allowed(c)) return false;
  }
  return true;
}

bool IsDomainLabel(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
  for (char c : label) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  }
  return true;
}
}  // namespace

std::optional<std::string> NormaliseMailAddress(std::string_view text) {
  constexpr size_t kMaxAddress = 254, kMaxLocal = 64;
  size_t at = text.rfind('@');
  if (text.size() > kMaxAddress || at == std::string_view::npos || at > kMaxLocal) return std::nullopt;
  std::string_view local = text.substr(0, at), domain = text.substr(at + 1);
  if (!IsDotAtom(local, IsAtext) || domain.find('.') == std::string_view::npos) return std::nullopt;
  for (size_t start = 0; start <= domain.size();) {
    size_t dot = domain.find('.', start);
    if (dot == std::string_view::npos) dot = domain.size();
    if (!IsDomainLabel(domain.substr(start, dot - start))) return std::nullopt;
    start = dot + 1;
  }
  std::string normal(text);
  for (size_t i = at + 1; i < normal.size(); i++) normal[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(normal[i])));
  return normal;
}

std::optional<std::string> PasswordIssue(std::string_view password) {
  if (!IsValidUtf8(password)) return "must be valid UTF-8";
  if (password.size() > kMaxPasswordBytes) return "must have at most " + std::to_string(kMaxPasswordBytes) + " bytes";
  if (Utf8Chars(password) < kMinPasswordChars) {
    return "must have at least " + std::to_string(kMinPasswordChars) + " characters";
  }
  return std::nullopt;
}

std::optional<std::string> FieldReader::Enum(std::string_view name, Need need,
                                             const std::vector<std::string_view>& allowed) {
  const rapidjson::Value* value = Find(name, need);
  if (!value) return std::nullopt;
  if (!value->IsString() || !Contains(allowed, std::string_view(value->GetString(), value->GetStringLength()))) {
    Issue(name, OneOf(allowed));
    return std::nullopt;
  }
  return std::string(value->GetString(), value->GetStringLength());
}

std::optional<bool> FieldReader::Bool(std::string_view name, Need need) {
  const rapidjson::Value* value = Find(name, need);
  if (!value) return std::nullopt;
  if (!value->IsBool()) {
    Issue(name, "must be true or false");
    return std::nullopt;
  }
  return value->GetBool();
}

std::optional<long long> FieldReader::Int(std::string_view name, Need need, long long min, long long max) {
  const rapidjson::Value* value = Find(name, need);
  if (!value) return std::nullopt;
  if (!value->IsInt64() || value->GetInt64() < min || value->GetInt64() > max) {
    Issue(name, "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return std::nullopt;
  }
  return value->GetInt64();
}

std::optional<std::vector<std::string>> FieldReader::StringArray(std::string_view name, Need need, size_t max_items,
                                                                 size_t max_chars, bool allow_empty,
                                                                 const std::vector<std::string_view>& allowed) {
  const rapidjson::Value* value = Find(name, need);
  if (!value) return std::nullopt;
  if (!value->IsArray()) {
    Issue(name, "must be an array of strings");
    return std::nullopt;
  }
  if (value->Size() == 0 && !allow_empty) {
    Issue(name, "must name at least one value");
    return std::nullopt;
  }
  if (value->Size() > max_items) {
    Issue(name, "must have at most " + std::to_string(max_items) + " entries");
    return std::nullopt;
  }
  std::vector<std::string> items;
  bool ok = true;
  for (rapidjson::SizeType i = 0; i < value->Size(); i++) {
    std::string field = std::string(name) + "[" + std::to_string(i) + "]";
    const rapidjson::Value& item = (*value)[i];
    if (!item.IsString()) {
      Issue(field, "must be a string");
      ok = false;
      continue;
    }
    std::string_view text(item.GetString(), item.GetStringLength());
    if (!allowed.empty() && !Contains(allowed, text)) {
      Issue(field, OneOf(allowed));
      ok = false;
    } else if (text.empty() || Utf8Chars(text) > max_chars || !IsCleanText(text) || Trim(text) != text) {
      Issue(field, CharRange(1, max_chars) + ", without surrounding spaces or control characters");
      ok = false;
    } else if (std::find(items.begin(), items.end(), text) == items.end()) {
      items.emplace_back(text);
    }
  }
  if (!ok) return std::nullopt;
  return items;
}

void FieldReader::CheckUnknown() {
  if (!is_object_) return;
  for (auto it = object_.MemberBegin(); it != object_.MemberEnd(); ++it) {
    std::string_view name(it->name.GetString(), it->name.GetStringLength());
    if (known_.find(name) == known_.end()) Issue(name, "is not a known field");
  }
}

void ThrowIssues(std::vector<FieldIssue> issues) {
  std::string message = "The request is not valid: ";
  for (size_t i = 0; i < issues.size() && i < 3; i++) {
    message += (i ? "; " : "") + issues[i].field + " " + issues[i].issue;
  }
  if (issues.size() > 3) message += "; and " + std::to_string(issues.size() - 3) + " more (see details)";
  throw ApiError(Error::kVALIDATION_ERROR, message + ".", std::move(issues));
}

void ThrowIfIssues(std::vector<FieldIssue>& issues) {
  if (!issues.empty()) ThrowIssues(std::move(issues));
}

bool IsValidUtf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    auto code = NextCodePoint(text, at);
    if (!code) return false;
    at += code->second;
  }
  return true;
}

bool IsCleanText(std::string_view text, bool multiline) {
  for (size_t at = 0; at < text.size();) {
    auto code = NextCodePoint(text, at);
    if (!code || IsUnmeant(code->first, multiline)) return false;
    at += code->second;
  }
  return true;
}

size_t Utf8Chars(std::string_view text) {
  size_t count = 0;
  for (unsigned char byte : text) {
    if ((byte & 0xC0) != 0x80) count++;
  }
  return count;
}

std::optional<long long> ParseRfc3339(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
  if (text.size() < 20) return std::nullopt;
  int year = Digits(text, 0, 4), month = Digits(text, 5, 2), day = Digits(text, 8, 2);
  int hour = Digits(text, 11, 2), minute = Digits(text, 14, 2), second = Digits(text, 17, 2);
  if (text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' ||
      year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59 || year < 1) {
    return std::nullopt;
  }
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return std::nullopt;
  size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    size_t digits = 0;
    for (at++; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); at++) digits++;
    if (digits == 0 || digits > 9) return std::nullopt;
  }
  long long offset = 0;
  std::string_view zone = text.substr(at);
  if (zone == "Z" || zone == "z") {
    offset = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    int oh = Digits(zone, 1, 2), om = Digits(zone, 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset = (oh * 3600LL + om * 60LL) * (zone[0] == '+' ? 1 : -1);
  } else {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<long long>(timegm(&tm)) - offset;
}

std::optional<std::string> NormaliseVulnId(std::string_view text) {
  std::string id = Upper(text);
  auto all = [&](size_t at, size_t count, auto predicate) {
    for (size_t i = at; i < at + count; i++) {
      if (i >= id.size() || !predicate(static_cast<unsigned char>(id[i]))) return false;
    }
    return true;
  };
  auto digit = [](unsigned char c) { return std::isdigit(c) != 0; };
  auto alnum = [](unsigned char c) { return std::isdigit(c) != 0 || (c >= 'A' && c <= 'Z'); };
  if (id.rfind("CVE-", 0) == 0 && id.size() >= 13 && id.size() <= 24 && all(4, 4, digit) && id[8] == '-' &&
      all(9, id.size() - 9, digit)) {
    return id;
  }
  if (id.rfind("GHSA-", 0) == 0 && id.size() == 19 && all(5, 4, alnum) && id[9] == '-' && all(10, 4, alnum) &&
      id[14] == '-' && all(15, 4, alnum)) {
    return id;
  }
  return std::nullopt;
}

}  // namespace icat
