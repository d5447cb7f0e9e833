#include "routes.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "handlers/account/account.hpp"
#include "handlers/admission/admission.hpp"
#include "handlers/auth/sessions.hpp"
#include "handlers/catalog/catalog.hpp"
#include "handlers/registry/registry.hpp"
#include "handlers/sbom/sbom.hpp"
#include "handlers/status/status.hpp"
#include "handlers/vulns/vulns.hpp"
#include "icat/vocabulary.hpp"

namespace icat::gen {
namespace {

struct Group {
  std::string_view name;  // handlers/<name>/, icat-<name>
  const std::vector<Route>& (*routes)();
};

// Every handler group.
const std::vector<Group> kGroups = {
    {"account", account::Routes}, {"admission", admission::Routes}, {"auth", auth::Routes},
    {"catalog", catalog::Routes}, {"registry", registry::Routes},   {"sbom", sbom::Routes},
    {"status", status::Routes},   {"vulns", vulns::Routes},
};

// How each Access is said: its name, who may call such a route ("{scope}" stands for the route's
// scope) and the least portal role. The switch has no default, so a new Access is a compile warning
// here, and one without words a GenError, never a silent "admin".
struct AccessWords {
  std::string_view name;
  std::string_view who;
  std::string_view portal_role;
};

AccessWords WordsOf(Access access) {
  switch (access) {
    case Access::kPublic:
      return {"Public", "anyone", ""};
    case Access::kApiKey:
      return {"ApiKey", "API key with `{scope}`", ""};
    case Access::kPortal:
      return {"Portal", "portal, any role", "viewer"};
    case Access::kPortalAdmin:
      return {"PortalAdmin", "portal, admin", "admin"};
    case Access::kPortalSelf:
      return {"PortalSelf", "portal, any role (own account)", "viewer"};
    case Access::kRegistry:
      return {"Registry", "registry client: Basic, an API key with `{scope}` or a publisher's password", ""};
  }
  throw GenError("an Access the generator does not know: " + std::to_string(static_cast<int>(access)));
}

// "q,limit,cursor" as the row lists them; "-" for none.
std::string QueryList(const Route& route) {
  std::string list;
  for (std::string_view name : QueryNames(route)) list += (list.empty() ? "" : ",") + std::string(name);
  return list.empty() ? "-" : list;
}

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> segments;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    segments.push_back(path.substr(start, slash - start));
    if (slash == std::string_view::npos) return segments;
    start = slash + 1;
  }
}

bool IsParam(std::string_view segment) { return segment.starts_with('{') && segment.ends_with('}'); }

bool HasParam(std::string_view path) { return path.find('{') != std::string_view::npos; }

}  // namespace

const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> all;
    for (const Group& group : kGroups) {
      CheckRouteTable(group.routes());
      for (const Route& route : group.routes()) all.push_back({group.name, &route});
    }
    std::sort(all.begin(), all.end(), [](const Row& a, const Row& b) {
      return std::pair(a.route->pattern, a.route->method) < std::pair(b.route->pattern, b.route->method);
    });
    return all;
  }();
  return rows;
}

std::vector<PathOfGroup> Paths() {
  std::set<std::pair<std::string, std::string>> by_group;  // (group, path)
  for (const Row& row : Rows()) by_group.emplace(row.group, row.route->pattern);
  std::vector<PathOfGroup> paths;
  for (const auto& [group, path] : by_group) paths.push_back({path, group});
  return paths;
}

std::vector<std::string> Groups() {
  std::set<std::string> groups;
  for (const Row& row : Rows()) groups.emplace(row.group);
  return {groups.begin(), groups.end()};
}

std::string_view AccessName(Access access) { return WordsOf(access).name; }

std::string Who(const Route& route) {
  std::string scope = route.scope ? std::string(NameOf(*route.scope)) : "";
  return Replaced(std::string(WordsOf(route.access).who), "{scope}", scope);
}

std::string_view PortalRole(Access access) { return WordsOf(access).portal_role; }

std::string_view FunctionName(const Route& route) {
  std::string_view function = route.handler.name;
  size_t colons = function.rfind("::");
  return colons == std::string_view::npos ? function : function.substr(colons + 2);
}

std::string FileOf(std::string_view group, std::string_view function) {
  std::string directory = "handlers/" + std::string(group);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".cpp") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  std::string definition = "Reply " + std::string(function) + "(Context& ctx)";
  for (const std::string& file : files) {
    std::istringstream lines(ReadText(file));
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with(definition)) return file;
    }
  }
  throw GenError("no " + directory + "/*.cpp defines " + std::string(function));
}

bool PathsOverlap(std::string_view a, std::string_view b) {
  if (!HasParam(a) || !HasParam(b)) return false;
  std::vector<std::string_view> left = Segments(a), right = Segments(b);
  if (left.size() != right.size()) return false;
  for (size_t i = 0; i < left.size(); ++i) {
    if (left[i] != right[i] && !IsParam(left[i]) && !IsParam(right[i])) return false;
  }
  return true;
}

void CheckNoOverlap() {
  std::vector<PathOfGroup> paths = Paths();
  std::string clashes;
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = i + 1; j < paths.size(); ++j) {
      if (paths[i].group != paths[j].group && PathsOverlap(paths[i].path, paths[j].path)) {
        clashes += "\n  " + paths[i].path + " (" + paths[i].group + ") and " + paths[j].path + " (" + paths[j].group +
                   ") match the same paths";
      }
    }
  }
  if (!clashes.empty()) throw GenError("two groups route one path; nginx would pick one by order:" + clashes);
}

std::string RouteLines() {
  std::string lines;
  for (const Group& group : kGroups) {
    CheckRouteTable(group.routes());
    for (const Route& r : group.routes()) {
      lines += std::string(r.method) + ' ' + std::string(r.pattern) + ' ' + std::string(group.name) + ' ' +
               std::string(AccessName(r.access)) + ' ' + (r.scope ? std::string(NameOf(*r.scope)) : "-") + ' ' +
               std::string(FunctionName(r)) + ' ' + QueryList(r) + '\n';
    }
  }
  return lines;
}

std::string Shape(std::string_view path) {
  std::string shape;
  for (size_t i = 0; i < path.size(); ++i) {
    size_t close = path[i] == '{' ? path.find('}', i) : std::string_view::npos;
    shape += close == std::string_view::npos ? std::string(1, path[i]) : "{}";
    if (close != std::string_view::npos) i = close;
  }
  return shape;
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::string Upper(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::string ReadText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw GenError("cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

rapidjson::Document ReadJsonFile(const std::string& path) {
  JsonRead read = ReadJson(ReadText(path), kMaxDocumentDepth);
  if (!read.error.empty()) throw GenError(path + " is not valid JSON: " + read.error);
  return std::move(read.document);
}

std::string Replaced(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace icat::gen
