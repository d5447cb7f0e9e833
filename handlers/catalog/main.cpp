// icat-catalog: the image catalogue, as the tenant's licences let it see it.
#include "catalog.hpp"
#include "portal_images.hpp"
#include "queries.hpp"
#include "scan_history.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  // The /v1 reads are cached (the last flag): their replies depend on catalogue data only.
  static const std::vector<icat::Route> routes = {
      {"GET", "/v1/images", Access::kApiKey, "read:catalog", "q,limit,cursor,digest,reference", icat::catalog::ListImages,
       false, true},
      {"GET", "/v1/images/{id}", Access::kApiKey, "read:catalog", "", icat::catalog::GetImage, false, true},
      {"GET", "/v1/images/{id}/versions", Access::kApiKey, "read:catalog", "limit,cursor",
       icat::catalog::ListImageVersions, false, true},
      {"GET", "/v1/images/{id}/versions/{versionId}", Access::kApiKey, "read:catalog", "",
       icat::catalog::GetImageVersion, false, true},
      {"GET", "/api/docker-images", Access::kPortal, "", "q,limit,cursor", icat::catalog::ListPortalImages},
      {"GET", "/api/docker-images/{id}", Access::kPortal, "", "", icat::catalog::GetPortalImage},
      {"GET", "/api/docker-images/{id}/versions/{vid}/scan-history", Access::kPortal, "", "from,to,limit,cursor",
       icat::catalog::GetScanHistory},
  };
  return icat::ServeGroup("catalog", routes, icat::catalog::kStatements, argc, argv);
}
