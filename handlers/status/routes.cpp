// The routes of icat-status: one row per method and path, with who may call it (docs/routes.md).
#include "status.hpp"

namespace icat::status {

const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET", .pattern = "/api/status", .access = Access::kPublic, .handler = ICAT_HANDLER(GetStatus)},
  };
  return routes;
}

}  // namespace icat::status
