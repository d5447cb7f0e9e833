// The routes of icat-catalog: one row per method and path, with who may call it (docs/routes.md).
#include "catalog.hpp"
#include "portal_images.hpp"
#include "scan_history.hpp"

namespace icat::catalog {

// The /v1 reads are cached: their replies depend on catalogue data only.
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .query = "q,limit,cursor,digest,reference",
       .handler = ICAT_HANDLER(ListImages),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .handler = ICAT_HANDLER(GetImage),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .query = "limit,cursor",
       .handler = ICAT_HANDLER(ListImageVersions),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .handler = ICAT_HANDLER(GetImageVersion),
       .cached = true},
      {.method = "GET",
       .pattern = "/api/docker-images",
       .access = Access::kPortal,
       .query = "q,limit,cursor",
       .handler = ICAT_HANDLER(ListPortalImages)},
      {.method = "GET",
       .pattern = "/api/docker-images/{id}",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(GetPortalImage)},
      {.method = "GET",
       .pattern = "/api/docker-images/{id}/versions/{vid}/scan-history",
       .access = Access::kPortal,
       .query = "from,to,limit,cursor",
       .handler = ICAT_HANDLER(GetScanHistory)},
  };
  return routes;
}

}  // namespace icat::catalog
