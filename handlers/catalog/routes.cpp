// The routes of icat-catalog: one row per method and path, with who may call it (docs/routes.md).
#include "catalog.hpp"
#include "portal_images.hpp"
#include "scan_history.hpp"

namespace icat::catalog {

namespace {
// The image list's page and search, and with `look_ups` /v1's look-ups by digest or reference.
// ListImages judges them in its own order (a look-up's conflicts before any value), so each is
// refused when read.
std::vector<QueryParam> ImageQuery(bool look_ups) {
  std::vector<QueryParam> params = {query::Text("q", 0, 200), query::Limit(),
                                    query::Cursor({CursorField::kText, CursorField::kUuid})};
  if (look_ups) {
    params.push_back(query::Digest("digest"));
    params.push_back(query::Reference("reference"));
  }
  for (QueryParam& param : params) param = query::RefusedOnRead(param);
  return params;
}
}  // namespace

// The /v1 reads are cached: their replies depend on catalogue data only.
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .query = ImageQuery(true),
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
       .query = {query::Limit(), query::Cursor({CursorField::kDigits, CursorField::kTag})},
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
       .query = ImageQuery(false),
       .handler = ICAT_HANDLER(ListPortalImages)},
      {.method = "GET",
       .pattern = "/api/docker-images/{id}",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(GetPortalImage)},
      {.method = "GET",
       .pattern = "/api/docker-images/{id}/versions/{vid}/scan-history",
       .access = Access::kPortal,
       .query = {query::Time("from"), query::Time("to", "from"), query::Limit(),
                 query::Cursor({CursorField::kDigits, CursorField::kDigits, CursorField::kUuid})},
       .handler = ICAT_HANDLER(GetScanHistory)},
  };
  return routes;
}

}  // namespace icat::catalog
