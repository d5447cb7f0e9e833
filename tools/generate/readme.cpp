// README.md's generated parts: the route tables of /v1 and /api (each row's summary from its OpenAPI
// operation) and the settings table (from common/src/config.cpp's table), each between its markers.
#include <rapidjson/document.h>

#include "icat/config.hpp"
#include "icat/json.hpp"
#include "outputs.hpp"
#include "routes.hpp"

namespace icat::gen {
namespace {

// The summary of the route's operation in the OpenAPI source `doc`; fails when it has none.
std::string SummaryOf(const rapidjson::Document& doc, const std::string& doc_path, const Route& route) {
  std::string method = Lower(route.method), shape = Shape(route.pattern);
  if (doc.IsObject() && doc.HasMember("paths") && doc["paths"].IsObject()) {
    for (const auto& item : doc["paths"].GetObject()) {
      if (Shape(item.name.GetString()) != shape || !item.value.IsObject()) continue;
      auto operation = item.value.FindMember(method.c_str());
      if (operation == item.value.MemberEnd() || !operation->value.IsObject()) continue;
      auto summary = operation->value.FindMember("summary");
      if (summary != operation->value.MemberEnd() && summary->value.IsString() &&
          summary->value.GetStringLength() > 0) {
        return summary->value.GetString();
      }
    }
  }
  throw GenError(doc_path + ": no summary for " + RouteName(route));
}

// One row per route under /<prefix>/, with who may call it and what its operation's summary says.
std::string RouteTable(std::string_view prefix, const std::string& doc_path) {
  rapidjson::Document doc = ReadJsonFile(doc_path);
  std::string table = "| Method | Path | Who may call it | What it does |\n|---|---|---|---|\n";
  std::string under = "/" + std::string(prefix) + "/";
  for (const Row& row : Rows()) {
    const Route& r = *row.route;
    if (!r.pattern.starts_with(under)) continue;
    table += "| " + std::string(r.method) + " | `" + std::string(r.pattern) + "` | " + Who(r) + " | " +
             Replaced(SummaryOf(doc, doc_path, r), "|", "\\|") + " |\n";
  }
  return table;
}

// A '|' would end the cell and "<prefix>" would vanish as an HTML tag; backslashes keep both literal.
std::string Cell(std::string_view text) {
  std::string cell;
  for (char c : text) {
    if (c == '|' || c == '<') cell += '\\';
    cell += c;
  }
  return cell;
}

// text with the lines between the line `begin` and the line `end` replaced by `content`.
std::string Between(const std::string& text, const std::string& begin, const std::string& end,
                    const std::string& content) {
  size_t start = text.find("\n" + begin + "\n");
  size_t stop = start == std::string::npos ? start : text.find("\n" + end + "\n", start + begin.size() + 1);
  if (stop == std::string::npos) throw GenError("README.md: no line " + begin + " followed by a line " + end);
  return text.substr(0, start + begin.size() + 2) + content + text.substr(stop + 1);
}

}  // namespace

std::string SettingsTable() {
  std::string table = "| Variable | Default | Value | Read by | Description |\n|---|---|---|---|---|\n";
  for (const Setting& setting : AllSettings()) {
    table += "| " + Cell(setting.name) + " | " + Cell(setting.default_value) + " | " + Cell(RuleText(setting)) + " | " +
             ReadersText(setting) + " | " + Cell(setting.description) + " |\n";
  }
  return table;
}

std::string Readme() {
  std::string text = ReadText("README.md");
  text = Between(text, "<!-- settings -->", "<!-- /settings -->", SettingsTable());
  text = Between(text, "<!-- routes v1 -->", "<!-- /routes -->", RouteTable("v1", "nginx/openapi.json"));
  return Between(text, "<!-- routes api -->", "<!-- /routes -->", RouteTable("api", "nginx/openapi-portal.json"));
}

}  // namespace icat::gen
