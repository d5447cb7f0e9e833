// The sbom group: signed downloads served by nginx from the blob store once authorised (SBOMs, and
// the VEX documents icatctl writes from the vendor's statements) and the public signing keys.
// Endpoint functions, and the pure pieces of their replies.
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
Reply GetImageVersionVex(Context& ctx);   // GET /v1/images/{id}/versions/{versionId}/vex?format=
Reply GetVersionVex(Context& ctx);        // GET /api/docker-images/{imageId}/versions/{versionId}/vex?format=

// One signed file of the blob store, as a download needs it.
struct SignedFile {
  std::string filename;  // Content-Disposition's
  std::string content_type;
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
Reply DownloadReply(const SignedFile& file, std::string_view if_none_match);

// ?format= of a VEX download: openvex (also when omitted) or cyclonedx; anything else is 400
// VALIDATION_ERROR naming format.
std::string ParseVexFormat(const Request& request);

// "nginx_1.27.3.openvex.json" / ".vex.cdx.json"; a '/' of a nested image name becomes '_'.
std::string VexFilename(std::string_view image_name, std::string_view tag, std::string_view format);

struct SigningKeyView {
  std::string id, algorithm, public_key_pem;
};
// {"keys": [{"id", "algorithm", "publicKeyPem"}]}
std::string SigningKeysJson(const std::vector<SigningKeyView>& keys);

}  // namespace icat::sbom
