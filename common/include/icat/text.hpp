// Small text helpers, one home each: ASCII case, trimming, joining.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace icat {

// ASCII letters only: the protocol words, ids and hosts these are used on are ASCII.
std::string Lower(std::string_view text);
std::string Upper(std::string_view text);

// Without leading and trailing characters of `space` (by default space, tab, CR and LF).
std::string_view Trim(std::string_view text, std::string_view space = " \t\r\n");

// The items with `separator` between them: Join({"GET", "PUT"}, ", ") is "GET, PUT".
std::string Join(const std::vector<std::string>& items, std::string_view separator);
std::string Join(const std::vector<std::string_view>& items, std::string_view separator);

}  // namespace icat
