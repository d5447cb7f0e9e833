// Cursor pagination and shared input checks.
#include "icat/paging.hpp"

#include <cctype>

#include "icat/crypto.hpp"
#include "icat/validate.hpp"

namespace icat {

bool IsDigits(std::string_view text, size_t max_digits) {
  return !text.empty() && text.size() <= max_digits && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string EncodeCursor(const std::vector<std::string>& fields) {
  std::string joined;
  for (size_t i = 0; i < fields.size(); i++) joined += (i ? "\n" : "") + fields[i];
  return Base64UrlEncode(joined);
}

std::optional<std::vector<std::string>> DecodeCursor(std::string_view text, size_t field_count) {
  std::optional<std::string> joined = Base64UrlDecode(text);
  if (!joined || text.empty() || !IsCleanText(*joined, true)) return std::nullopt;
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t end = joined->find('\n', start);
    fields.push_back(joined->substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (fields.size() != field_count) return std::nullopt;
  return fields;
}

bool IsUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); i++) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

std::string LikeLiteral(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '%' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace icat
