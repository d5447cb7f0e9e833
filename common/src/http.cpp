// Request accessors and reply construction.
#include "icat/http.hpp"

#include <cctype>

namespace icat {

namespace {
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string DecodeComponent(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 && HexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}
}  // namespace

std::string UrlDecode(std::string_view text) { return DecodeComponent(text, false); }

std::string UrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<std::string> CookieValue(std::string_view header, std::string_view name) {
  auto trim = [](std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
  };
  while (!header.empty()) {
    size_t semicolon = header.find(';');
    std::string_view pair = trim(header.substr(0, semicolon));
    header = semicolon == std::string_view::npos ? std::string_view() : header.substr(semicolon + 1);
    size_t equals = pair.find('=');
    if (equals == std::string_view::npos || trim(pair.substr(0, equals)) != name) continue;
    std::string_view value = trim(pair.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return std::string(value);
  }
  return std::nullopt;
}

std::optional<std::string> Request::Cookie(std::string_view name) const { return CookieValue(Header("cookie"), name); }

std::string Request::Header(std::string_view lower_case_name) const {
  auto it = headers.find(std::string(lower_case_name));
  return it == headers.end() ? std::string() : it->second;
}

namespace {
// Calls visit(raw_name, raw_value) for each "name=value" of a query string, in order, until it
// returns false; a pair without '=' has an empty value.
template <typename Visit>
void ForEachRawPair(std::string_view query, Visit visit) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    size_t eq = pair.find('=');
    if (!visit(pair.substr(0, eq), eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1))) return;
  }
}
}  // namespace

QueryPairs Request::QueryParameters() const {
  QueryPairs parameters;
  ForEachRawPair(query, [&](std::string_view name, std::string_view value) {
    parameters.emplace_back(DecodeComponent(name, true), DecodeComponent(value, true));
    return true;
  });
  return parameters;
}

// Decodes only names until the asked one: the hot path reads one or two parameters.
std::optional<std::string> Request::Query(std::string_view name) const {
  std::optional<std::string> found;
  ForEachRawPair(query, [&](std::string_view raw_name, std::string_view raw_value) {
    if (DecodeComponent(raw_name, true) != name) return true;
    found = DecodeComponent(raw_value, true);
    return false;
  });
  return found;
}

std::string Request::PathParam(std::string_view name) const {
  auto it = path_params.find(std::string(name));
  return it == path_params.end() ? std::string() : it->second;
}

Reply Reply::Json(int status, std::string body) {
  Reply reply;
  reply.status = status;
  reply.headers.emplace_back("Content-Type", "application/json");
  reply.body = std::move(body);
  return reply;
}

}  // namespace icat
