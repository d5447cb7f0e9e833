// Cursor pagination and shared input checks.
#include "icat/paging.hpp"

#include <cctype>

#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/validate.hpp"

namespace icat {

bool IsDigits(std::string_view text, size_t max_digits) {
  return !text.empty() && text.size() <= max_digits && text.find_first_not_of("0123456789") == std::string_view::npos;
}

int ParseLimit(const Request& request) {
  std::optional<std::string> text = request.Query("limit");
  if (!text) return kDefaultLimit;
  int limit = IsDigits(*text, 4) ? std::stoi(*text) : 0;
  if (limit < 1 || limit > kMaxLimit) ThrowInvalid("limit", "must be a whole number from 1 to 200");
  return limit;
}

std::string EncodeCursor(const std::vector<std::string>& fields) {
  std::string joined;
  for (size_t i = 0; i < fields.size(); i++) joined += (i ? "\n" : "") + fields[i];
  return Base64UrlEncode(joined);
}

std::optional<std::vector<std::string>> ParseCursor(const Request& request, size_t field_count) {
  std::optional<std::string> text = request.Query("cursor");
  if (!text) return std::nullopt;
  std::optional<std::string> joined = Base64UrlDecode(*text);
  std::vector<std::string> fields;
  if (joined) {
    size_t start = 0;
    while (true) {
      size_t end = joined->find('\n', start);
      fields.push_back(joined->substr(start, end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (!joined || text->empty() || fields.size() != field_count || !IsCleanText(*joined, true)) {
    ThrowInvalid("cursor", "is not a cursor returned by this list");
  }
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
