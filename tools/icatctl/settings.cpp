// icatctl settings: the settings table as Markdown, which README.md embeds, so the
// documentation comes from the same rows the programs read.
#include <iostream>

#include "commands.hpp"
#include "icat/config.hpp"

namespace icat::ctl {
namespace {

// A '|' would end the cell and "<prefix>" would vanish as an HTML tag; backslashes keep both literal.
std::string Cell(std::string_view text) {
  std::string cell;
  for (char c : text) {
    if (c == '|' || c == '<') cell += '\\';
    cell += c;
  }
  return cell;
}

}  // namespace

void PrintSettings(const Args&) {
  std::cout << "| Variable | Default | Value | Read by | Description |\n|---|---|---|---|---|\n";
  for (const Setting& setting : AllSettings()) {
    std::cout << "| " << Cell(setting.name) << " | " << Cell(setting.default_value) << " | " << Cell(RuleText(setting))
              << " | " << ReadersText(setting) << " | " << Cell(setting.description) << " |\n";
  }
}

}  // namespace icat::ctl
