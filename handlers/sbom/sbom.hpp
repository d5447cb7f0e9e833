// The sbom group: signed SBOM downloads (served by nginx from the blob store once authorised) and
// the public signing keys. Endpoint functions, and the pure pieces of their replies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/pipeline.hpp"

namespace icat::sbom {

Reply GetImageSbom(Context& ctx);         // GET /v1/images/{id}/sbom?format=
Reply GetImageVersionSbom(Context& ctx);  // GET /v1/images/{id}/versions/{versionId}/sbom?format=
Reply GetVersionSpdx(Context& ctx);       // GET /api/docker-images/{imageId}/versions/{versionId}/sbom/spdx
Reply GetVersionCycloneDx(Context& ctx);  // GET /api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx
Reply ListSigningKeys(Context& ctx);      // GET /v1/signing-keys

// One stored SBOM, as a download needs it.
struct SbomFile {
  std::string image_name, tag;
  std::string format;      // spdx or cyclonedx
  std::string sha256_hex;  // of the exact bytes
  std::string signature;   // base64 Ed25519
  std::string key_id;
};

// ?format=: cyclonedx, spdx, or nullopt when omitted (the CycloneDX SBOM, else the SPDX one); anything
// else is 400 VALIDATION_ERROR naming format.
std::optional<std::string> ParseFormat(const Request& request);

// "nginx_1.27.3.spdx.json" / ".cdx.json"; a '/' of a nested image name becomes '_'.
std::string DownloadFilename(std::string_view image_name, std::string_view tag, std::string_view format);

// The ETag of a blob: "sha256:<hex>", quoted.
std::string Etag(std::string_view sha256_hex);

// True when an If-None-Match value (a list, weak tags and * allowed) names the ETag.
bool EtagMatches(std::string_view if_none_match, std::string_view etag);

// The reply to an authorised download: 304 when If-None-Match names the ETag, else 200 with an
// X-Accel-Redirect to the blob and the headers nginx copies back (DESIGN.md section 3).
Reply DownloadReply(const SbomFile& file, std::string_view if_none_match);

struct SigningKeyView {
  std::string id, algorithm, public_key_pem;
};
// {"keys": [{"id", "algorithm", "publicKeyPem"}]}
std::string SigningKeysJson(const std::vector<SigningKeyView>& keys);

}  // namespace icat::sbom
