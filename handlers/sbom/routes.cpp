// The routes of icat-sbom: one row per method and path, with who may call it (docs/routes.md).
#include "icat/text.hpp"
#include "sbom.hpp"

namespace icat::sbom {

namespace {
// ?format= of a download: one of `formats`, refused as docs/scans.md words it ("must be one of:
// cyclonedx, spdx").
QueryParam FormatParam(std::vector<std::string_view> formats) {
  std::string problem = "must be one of: " + Join(formats, ", ");
  return query::Word("format", std::move(formats), std::move(problem));
}
}  // namespace

const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images/{id}/sbom",
       .access = Access::kApiKey,
       .scope = Scope::kReadSbom,
       .query = {FormatParam(AsList(kSbomFormats))},
       .handler = ICAT_HANDLER(GetImageSbom)},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/sbom",
       .access = Access::kApiKey,
       .scope = Scope::kReadSbom,
       .query = {FormatParam(AsList(kSbomFormats))},
       .handler = ICAT_HANDLER(GetImageVersionSbom)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/sbom/spdx",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(GetVersionSpdx)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(GetVersionCycloneDx)},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/vex",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = {FormatParam(AsList(kVexFormats))},
       .handler = ICAT_HANDLER(GetImageVersionVex)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/vex",
       .access = Access::kPortal,
       .query = {FormatParam(AsList(kVexFormats))},
       .handler = ICAT_HANDLER(GetVersionVex)},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/attestations",
       .access = Access::kApiKey,
       .scope = Scope::kReadSbom,
       .handler = ICAT_HANDLER(ListImageVersionAttestations)},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/attestations/{type}",
       .access = Access::kApiKey,
       .scope = Scope::kReadSbom,
       .handler = ICAT_HANDLER(GetImageVersionAttestation)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/attestations",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(ListVersionAttestations)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/attestations/{type}",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(GetVersionAttestation)},
      {.method = "GET",
       .pattern = "/v1/signing-keys",
       .access = Access::kPublic,
       .query = {query::Word("format", {"jwks"}, "must be jwks (omit it for the JSON list)")},
       .handler = ICAT_HANDLER(ListSigningKeys)},
      {.method = "GET",
       .pattern = "/v1/signing-keys/{keyId}",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(GetSigningKey)},
  };
  return routes;
}

}  // namespace icat::sbom
