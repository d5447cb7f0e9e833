// The sbom group: signed downloads served by nginx from the blob store once authorised (SBOMs, the
// VEX documents icatctl writes from the vendor's statements, the attestations of both) and the
// public signing keys.
// Endpoint functions, and the pure pieces of their replies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/pipeline.hpp"

namespace icat::sbom {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

Reply GetImageSbom(Context& ctx);         // GET /v1/images/{id}/sbom?format=
Reply GetImageVersionSbom(Context& ctx);  // GET /v1/images/{id}/versions/{versionId}/sbom?format=
Reply GetVersionSpdx(Context& ctx);       // GET /api/docker-images/{imageId}/versions/{versionId}/sbom/spdx
Reply GetVersionCycloneDx(Context& ctx);  // GET /api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx
Reply ListSigningKeys(Context& ctx);      // GET /v1/signing-keys?format=
Reply GetSigningKey(Context& ctx);        // GET /v1/signing-keys/{keyId}
Reply GetImageVersionVex(Context& ctx);   // GET /v1/images/{id}/versions/{versionId}/vex?format=
Reply GetVersionVex(Context& ctx);        // GET /api/docker-images/{imageId}/versions/{versionId}/vex?format=
Reply ListImageVersionAttestations(Context& ctx);  // GET /v1/images/{id}/versions/{versionId}/attestations
Reply GetImageVersionAttestation(Context& ctx);    // GET /v1/images/{id}/versions/{versionId}/attestations/{type}
Reply ListVersionAttestations(Context& ctx);  // GET /api/docker-images/{imageId}/versions/{versionId}/attestations
Reply GetVersionAttestation(Context& ctx);    // GET /api/docker-images/{imageId}/versions/{versionId}/attestations/{type}

// One signed file of the blob store, as a download needs it.
struct SignedFile {
  std::string filename;  // Content-Disposition's
  std::string content_type;
  std::string sha256_hex;  // of the exact bytes
  std::string signature;   // base64 Ed25519; empty for a file that carries its own (an attestation)
  std::string key_id;
};

// "nginx_1.27.3.spdx.json" / ".cdx.json"; a '/' of a nested image name becomes '_'.
std::string DownloadFilename(std::string_view image_name, std::string_view tag, std::string_view format);

// The ETag of a blob: "sha256:<hex>", quoted.
std::string Etag(std::string_view sha256_hex);

// True when an If-None-Match value (a list, weak tags and * allowed) names the ETag.
bool EtagMatches(std::string_view if_none_match, std::string_view etag);

// The reply to an authorised download: 304 when If-None-Match names the ETag, else 200 with an
// X-Accel-Redirect to the blob and the headers nginx copies back (DESIGN.md section 3); the
// X-Signature headers only for a file with a signature.
Reply DownloadReply(const SignedFile& file, std::string_view if_none_match);

// "nginx_1.27.3.openvex.json" / ".vex.cdx.json"; a '/' of a nested image name becomes '_'.
std::string VexFilename(std::string_view image_name, std::string_view tag, std::string_view format);

struct SigningKeyView {
  std::string id, algorithm, public_key_pem, created_at;
  std::optional<std::string> retired_at;
};
// {"keys": [{"id", "algorithm", "publicKeyPem", "use", "createdAt", "retiredAt"}]}; use is
// "signatures" (Ed25519: X-Signature) or "attestations" (ECDSA-P256: the bundles).
std::string SigningKeysJson(const std::vector<SigningKeyView>& keys);
// The same keys as an RFC 7517 JWK Set: {"keys": [{"kty", "crv", "x"[, "y"], "kid", "alg", "use": "sig"}]},
// an Ed25519 key as OKP (RFC 8037), a P-256 key as EC.
std::string SigningKeysJwks(const std::vector<SigningKeyView>& keys);

// One attestation a version serves (a row of served_attestations).
struct AttestationView {
  std::string type, predicate_type, sha256_hex, key_id, subject_name, subject_digest, document_sha256_hex,
      created_at;
  long long size = 0;
};
// Where a version's downloads are: "/v1/images/<id>/versions/<version id>" (API) or
// "/api/docker-images/<id>/versions/<version id>" (portal).
struct VersionPaths {
  std::string base;
  bool portal = false;
};
// The path of the raw document an attestation type is about (its SBOM or VEX download).
std::string DocumentPath(const VersionPaths& at, std::string_view type);
// {"attestations": [{"type", "predicateType", "mediaType", "digest", "size", "keyId", "subject": {"name",
// "digest"}, "document": {"digest", "url"}, "url", "createdAt"}]}, in kAttestationTypes order.
std::string AttestationsJson(const VersionPaths& at, std::vector<AttestationView> attestations);
// "nginx_1.27.3.spdx.sigstore.json"; a '/' of a nested image name becomes '_'.
std::string AttestationFilename(std::string_view image_name, std::string_view tag, std::string_view type);

}  // namespace icat::sbom
