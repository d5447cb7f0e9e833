// Request accessors and reply construction.
#include "icat/http.hpp"

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

std::string Request::Header(std::string_view lower_case_name) const {
  auto it = headers.find(std::string(lower_case_name));
  return it == headers.end() ? std::string() : it->second;
}

std::vector<std::pair<std::string, std::string>> Request::QueryParameters() const {
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string_view rest = query;
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    size_t eq = pair.find('=');
    parameters.emplace_back(DecodeComponent(pair.substr(0, eq), true),
                            eq == std::string_view::npos ? std::string() : DecodeComponent(pair.substr(eq + 1), true));
  }
  return parameters;
}

std::optional<std::string> Request::Query(std::string_view name) const {
  for (auto& [key, value] : QueryParameters()) {
    if (key == name) return std::move(value);
  }
  return std::nullopt;
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
