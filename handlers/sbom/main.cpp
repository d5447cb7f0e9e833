// icat-sbom: signed downloads (bytes served by nginx from the blob store) of SBOMs, of the VEX
// documents icatctl writes and of the attestations of both, and the signing keys.
#include "queries.hpp"
#include "sbom.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  static const std::vector<icat::Route> routes = {
      {"GET", "/v1/images/{id}/sbom", Access::kApiKey, "read:sbom", "format", icat::sbom::GetImageSbom},
      {"GET", "/v1/images/{id}/versions/{versionId}/sbom", Access::kApiKey, "read:sbom", "format",
       icat::sbom::GetImageVersionSbom},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/sbom/spdx", Access::kPortal, "", "",
       icat::sbom::GetVersionSpdx},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx", Access::kPortal, "", "",
       icat::sbom::GetVersionCycloneDx},
      {"GET", "/v1/images/{id}/versions/{versionId}/vex", Access::kApiKey, "read:vulns", "format",
       icat::sbom::GetImageVersionVex},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/vex", Access::kPortal, "", "format",
       icat::sbom::GetVersionVex},
      {"GET", "/v1/images/{id}/versions/{versionId}/attestations", Access::kApiKey, "read:sbom", "",
       icat::sbom::ListImageVersionAttestations},
      {"GET", "/v1/images/{id}/versions/{versionId}/attestations/{type}", Access::kApiKey, "read:sbom", "",
       icat::sbom::GetImageVersionAttestation},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/attestations", Access::kPortal, "", "",
       icat::sbom::ListVersionAttestations},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/attestations/{type}", Access::kPortal, "", "",
       icat::sbom::GetVersionAttestation},
      {"GET", "/v1/signing-keys", Access::kPublic, "", "format", icat::sbom::ListSigningKeys},
      {"GET", "/v1/signing-keys/{keyId}", Access::kPublic, "", "", icat::sbom::GetSigningKey},
  };
  return icat::ServeGroup("sbom", routes, icat::sbom::kStatements, argc, argv);
}
