// Path matching: literal segments and {name} placeholders, nothing more.
#include "icat/router.hpp"

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
    std::string name = std::string(route.method) + " " + std::string(route.pattern);
    if (route.access == Access::kPortal && route.method != "GET") {
      throw std::logic_error(name + " writes, so it needs Access::kPortalAdmin");
    }
    if (route.access == Access::kPortalSelf && !route.pattern.starts_with(kSelfPrefix)) {
      throw std::logic_error(name + " is Access::kPortalSelf, which only routes under /api/auth/ may be");
    }
    if (route.access == Access::kApiKey && !IsOneOf(route.scope, kScopes)) {
      throw std::logic_error(name + " names no scope of vocabulary.hpp kScopes (\"" + std::string(route.scope) + "\")");
    }
    bool key_in_path = route.pattern.find("{" + std::string(kKeyParam) + "}") != std::string_view::npos;
    if (key_in_path && route.access != Access::kApiKey) throw std::logic_error(name + " has {key} but takes no API key");
  }
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
