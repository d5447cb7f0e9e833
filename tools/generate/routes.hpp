// The route tables as the generator reads them (every group's Routes(), linked in, as rows), and
// what every output uses besides.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "icat/json.hpp"
#include "icat/router.hpp"

namespace icat::gen {

// What the generator refuses (an Access it cannot map, an operation without a route, ...): the
// message says what and where; make gen and the build stop on it.
struct GenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Row {
  std::string_view group;  // handlers/<group>/, icat-<group>
  const Route* route;
};

// Every group's routes, each table checked (CheckRouteTable), sorted by path, then method.
const std::vector<Row>& Rows();

// Each path once with its group (the unit nginx routes by), sorted by group, then path.
struct PathOfGroup {
  std::string path;
  std::string group;
};
std::vector<PathOfGroup> Paths();

// The groups that have a route, sorted.
std::vector<std::string> Groups();

// "Public", "ApiKey", ...: the Access as icat-gen routes prints it.
std::string_view AccessName(Access access);

// docs/routes.md's and README's "who may call it": "API key with `read:sbom`", "portal, admin", ...
std::string Who(const Route& route);

// The least portal role a portal route needs ("viewer", "admin"), as OpenAPI's x-icat-role says it;
// empty for a route that is not the portal's.
std::string_view PortalRole(Access access);

// The handler function's own name, without the namespace the row may have written.
std::string_view FunctionName(const Route& route);

// The file of handlers/<group>/ that defines `Reply <function>(Context& ctx)`.
std::string FileOf(std::string_view group, std::string_view function);

// Whether one request path could match both nginx regex locations (an exact location always wins
// over a regex, so a path without parameters clashes with none).
bool PathsOverlap(std::string_view a, std::string_view b);

// Fails when two groups' paths with parameters match one path (nginx would pick one by order).
void CheckNoOverlap();

// The lines of `icat-gen routes`: METHOD PATH GROUP ACCESS SCOPE FUNCTION QUERY ("-" when empty).
std::string RouteLines();

// "/v1/images/{}" for "/v1/images/{id}": an OpenAPI path and a route match whatever their
// parameters are named.
std::string Shape(std::string_view path);

std::string Lower(std::string_view text);
std::string Upper(std::string_view text);

// The whole of a file; fails naming it when it cannot be read.
std::string ReadText(const std::string& path);

// A JSON file; fails naming it when it cannot be read or is not one JSON value.
rapidjson::Document ReadJsonFile(const std::string& path);

// Every occurrence of `from` in text replaced by `to`.
std::string Replaced(std::string text, std::string_view from, std::string_view to);

}  // namespace icat::gen
