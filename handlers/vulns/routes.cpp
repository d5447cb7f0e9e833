// The routes of icat-vulns: one row per method and path, with who may call it (docs/routes.md).
#include "vulns.hpp"

namespace icat::vulns {

// The /v1 reads are cached: their replies depend on catalogue data only.
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images/{id}/vulnerabilities",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = "severity,fixState,limit,cursor",
       .handler = ICAT_HANDLER(ListImageVulnerabilities),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/vulnerabilities",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = "severity,fixState,limit,cursor",
       .handler = ICAT_HANDLER(ListImageVersionVulnerabilities),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/cve/{cveId}",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = "versions",
       .handler = ICAT_HANDLER(LookUpCve),
       .cached = true},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/vulnerabilities",
       .access = Access::kPortal,
       .query = "severity,fixState,limit,cursor",
       .handler = ICAT_HANDLER(ListVersionVulnerabilities)},
      {.method = "GET",
       .pattern = "/api/cve/{cveId}",
       .access = Access::kPortal,
       .query = "versions",
       .handler = ICAT_HANDLER(LookUpCve)},
  };
  return routes;
}

}  // namespace icat::vulns
