#include "icat/text.hpp"

namespace icat {

namespace {

template <typename Items>
std::string Joined(const Items& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

}  // namespace

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string_view Trim(std::string_view text, std::string_view space) {
  size_t start = text.find_first_not_of(space);
  if (start == std::string_view::npos) return {};
  return text.substr(start, text.find_last_not_of(space) - start + 1);
}

std::string Join(const std::vector<std::string>& items, std::string_view separator) { return Joined(items, separator); }
std::string Join(const std::vector<std::string_view>& items, std::string_view separator) {
  return Joined(items, separator);
}

}  // namespace icat
