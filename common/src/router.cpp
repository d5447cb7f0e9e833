// Path matching: literal segments and {name} placeholders, nothing more.
#include "icat/router.hpp"

#include <algorithm>
#include <stdexcept>

#include "icat/vocabulary.hpp"

namespace icat {

namespace {
// Where a route may act on the caller's own account (Access::kPortalSelf).
constexpr std::string_view kSelfPrefix = "/api/auth/";

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> segments;
  if (path.empty() || path[0] != '/') return segments;
  path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    segments.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return segments;
}

bool MatchPattern(std::string_view pattern, const std::vector<std::string_view>& path_segments,
                  std::map<std::string, std::string>& params) {
  std::vector<std::string_view> pattern_segments = Segments(pattern);
  if (pattern_segments.size() != path_segments.size()) return false;
  std::map<std::string, std::string> found;
  for (size_t i = 0; i < pattern_segments.size(); i++) {
    std::string_view want = pattern_segments[i];
    if (want.size() > 2 && want.front() == '{' && want.back() == '}') {
      if (path_segments[i].empty()) return false;
      found[std::string(want.substr(1, want.size() - 2))] = UrlDecode(path_segments[i]);
    } else if (want != path_segments[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}
}  // namespace

void CheckRouteTable(const std::vector<Route>& routes) {
  for (const Route& route : routes) {
    std::string name = RouteName(route);
    if (!route.handler.function || route.handler.name.empty()) throw std::logic_error(name + " has no handler");
    if (route.access == Access::kPortal && route.method != "GET") {
      throw std::logic_error(name + " writes, so it needs Access::kPortalAdmin");
    }
    if (route.access == Access::kPortalSelf && !route.pattern.starts_with(kSelfPrefix)) {
      throw std::logic_error(name + " is Access::kPortalSelf, which only routes under /api/auth/ may be");
    }
    bool takes_key = route.access == Access::kApiKey || route.access == Access::kRegistry;
    if (takes_key && !route.scope) throw std::logic_error(name + " takes an API key, so it names the scope it needs");
    if (!takes_key && route.scope) throw std::logic_error(name + " names a scope but takes no API key");
    std::string query_problem = QueryDeclarationProblem(route.query);
    if (!query_problem.empty()) throw std::logic_error(name + ": " + query_problem);
    if (route.access == Access::kRegistry && !route.refusal) {
      throw std::logic_error(name + " is Access::kRegistry, whose errors need the registry's shape (Route::refusal)");
    }
    if (route.method != "GET" && route.transaction == Transaction::kRead) {
      throw std::logic_error(name + " writes, so it cannot declare Transaction::kRead");
    }
    if (route.access == Access::kPublic && route.transaction != Transaction::kByMethod) {
      throw std::logic_error(name + " is public: its handler opens what it needs, so it declares no transaction");
    }
    bool key_in_path = route.pattern.find("{" + std::string(kKeyParam) + "}") != std::string_view::npos;
    if (key_in_path && route.access != Access::kApiKey)
      throw std::logic_error(name + " has {key} but takes no API key");
  }
}

std::vector<std::string_view> QueryNames(const Route& route) {
  std::vector<std::string_view> names;
  for (const QueryParam& param : route.query) names.push_back(param.name);
  return names;
}

Transaction TransactionOf(const Route& route) {
  if (route.transaction != Transaction::kByMethod) return route.transaction;
  return route.method == "GET" ? Transaction::kRead : Transaction::kWrite;
}

std::string RouteName(const Route& route) { return std::string(route.method) + " " + std::string(route.pattern); }

std::vector<std::string> UnknownQueryParameters(const QueryPairs& parameters, const std::vector<QueryParam>& accepted) {
  auto is_accepted = [&accepted](std::string_view name) {
    return std::any_of(accepted.begin(), accepted.end(), [name](const QueryParam& p) { return p.name == name; });
  };
  std::vector<std::string> unknown;
  for (const auto& [name, value] : parameters) {
    if (name.empty() && value.empty()) continue;
    if (is_accepted(name) || std::find(unknown.begin(), unknown.end(), name) != unknown.end()) continue;
    unknown.push_back(name);
  }
  return unknown;
}

RouteMatch MatchRoute(const std::vector<Route>& routes, std::string_view method, std::string_view path) {
  RouteMatch match;
  std::vector<std::string_view> segments = Segments(path);
  for (const Route& route : routes) {
    std::map<std::string, std::string> params;
    if (!MatchPattern(route.pattern, segments, params)) continue;
    // HEAD is GET without the body (nginx drops it), so every GET route answers HEAD too.
    if (route.method == method || (method == "HEAD" && route.method == "GET")) {
      match.route = &route;
      match.path_params = std::move(params);
      match.allowed_methods.clear();
      return match;
    }
    match.allowed_methods.push_back(route.method);
  }
  return match;
}

}  // namespace icat
