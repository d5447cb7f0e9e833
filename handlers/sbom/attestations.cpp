// Attestations (docs/attestations.md): the in-toto Statements icatctl signed about each version's
// served documents, in Sigstore bundles. Listed here, and each bundle sent by nginx from the blob
// store once authorised, as SBOMs are. The handlers hold no key; they serve what icatctl wrote.
#include <algorithm>

#include "icat/attestation.hpp"
#include "icat/auth.hpp"
#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"
#include "sbom.hpp"

namespace icat::sbom {

namespace {

// The raw document each attestation type is about: its download under the version's path (/v1,
// portal) and the scope that download needs, which the attestation of it needs too.
struct DocumentRoute {
  std::string_view type, api_suffix, portal_suffix;
  Scope scope;
};
constexpr DocumentRoute kDocumentRoutes[] = {
    {"spdx", "/sbom?format=spdx", "/sbom/spdx", Scope::kReadSbom},
    {"cyclonedx", "/sbom?format=cyclonedx", "/sbom/cyclonedx", Scope::kReadSbom},
    {"openvex", "/vex?format=openvex", "/vex?format=openvex", Scope::kReadVulns},
    {"cyclonedx-vex", "/vex?format=cyclonedx", "/vex?format=cyclonedx", Scope::kReadVulns},
};

const DocumentRoute& DocumentRouteOf(std::string_view type) {
  for (const DocumentRoute& route : kDocumentRoutes) {
    if (route.type == type) return route;
  }
  throw std::logic_error("no document route for attestation type " + std::string(type));
}

// Position in kAttestationTypes: the order of the list.
size_t TypeOrder(std::string_view type) {
  size_t i = 0;
  while (i < std::size(kAttestationTypes) && kAttestationTypes[i].name != type) i++;
  return i;
}

// The version a route names and the attestations it serves.
struct VersionAttestations {
  std::string image_name, tag;
  VersionPaths paths;
  std::vector<AttestationView> attestations;
};

// 404 NOT_FOUND for an unknown, malformed or unlicensed image or version.
VersionAttestations Load(Context& ctx, const std::string& image_id, const std::optional<VersionRef>& version,
                         bool portal) {
  if (!IsUuid(image_id) || !version) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  Rows rows = ctx.db.Run(kAttestationsOfVersion, {ctx.principal.tenant_id, image_id, version->id, version->tag});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  auto text = [&](int row, const char* column) { return std::string(rows.Text(row, rows.Column(column))); };
  VersionAttestations v{text(0, "image_name"), text(0, "tag"), {}, {}};
  v.paths = {(portal ? "/api/docker-images/" : "/v1/images/") + image_id + "/versions/" + text(0, "version_id"),
             portal};
  for (int row = 0; row < rows.size(); row++) {
    if (rows.IsNull(row, rows.Column("type"))) continue;
    v.attestations.push_back({text(row, "type"), text(row, "predicate_type"), text(row, "sha256"),
                              text(row, "signing_key_id"), text(row, "subject_name"), text(row, "subject_digest"),
                              text(row, "document_sha256"), text(row, "created_at"),
                              rows.Int(row, rows.Column("size_bytes"))});
  }
  return v;
}

// The portal names versions by id only.
std::optional<VersionRef> PortalVersion(const std::string& version_id) {
  if (!IsUuid(version_id)) return std::nullopt;
  return VersionRef{version_id, std::nullopt};
}

// The bundle of type_name: an unknown type is 404 NOT_FOUND naming the types; on /v1 the scope of
// the attested document's download is needed too (403); a known version without it is 404
// ATTESTATION_NOT_AVAILABLE, saying which it has.
Reply Download(Context& ctx, const std::string& image_id, const std::optional<VersionRef>& version,
               const std::string& type_name, bool portal) {
  const AttestationType* type = FindAttestationType(type_name);
  if (!type) {
    throw ApiError(Error::kNOT_FOUND,
                   "No attestation type of that name; the types are spdx, cyclonedx, openvex and "
                   "cyclonedx-vex.");
  }
  if (!portal) RequireScope(ctx.principal, NameOf(DocumentRouteOf(type->name).scope));
  VersionAttestations v = Load(ctx, image_id, version, portal);
  std::string has;
  for (const AttestationView& a : v.attestations) {
    if (a.type == type->name) {
      SignedFile file{AttestationFilename(v.image_name, v.tag, a.type), std::string(kBundleMediaType), a.sha256_hex, "",
                      ""};
      return DownloadReply(file, ctx.request.Header("if-none-match"));
    }
    has += (has.empty() ? "" : ", ") + a.type;
  }
  throw ApiError(
      Error::kATTESTATION_NOT_AVAILABLE,
      "Version " + v.tag + " of " + v.image_name + " has no attestation of a " + std::string(type->document) +
          ": it serves none, or it is not attested yet. Its attestations: " + (has.empty() ? "none" : has) + ".");
}

}  // namespace

std::string DocumentPath(const VersionPaths& at, std::string_view type) {
  const DocumentRoute& route = DocumentRouteOf(type);
  return at.base + std::string(at.portal ? route.portal_suffix : route.api_suffix);
}

std::string AttestationsJson(const VersionPaths& at, std::vector<AttestationView> attestations) {
  std::stable_sort(attestations.begin(), attestations.end(), [](const AttestationView& a, const AttestationView& b) {
    return TypeOrder(a.type) < TypeOrder(b.type);
  });
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, "attestations");
  WriteObjects(w, attestations, [&](JsonWriter& w, const AttestationView& a) {
    WriteString(w, "type", a.type);
    WriteString(w, "predicateType", a.predicate_type);
    WriteString(w, "mediaType", kBundleMediaType);
    WriteString(w, "digest", "sha256:" + a.sha256_hex);
    WriteInt(w, "size", a.size);
    WriteString(w, "keyId", a.key_id);
    WriteKey(w, "subject");
    w.StartObject();
    WriteString(w, "name", a.subject_name);
    WriteString(w, "digest", a.subject_digest);
    w.EndObject();
    WriteKey(w, "document");
    w.StartObject();
    WriteString(w, "digest", "sha256:" + a.document_sha256_hex);
    WriteString(w, "url", DocumentPath(at, a.type));
    w.EndObject();
    WriteString(w, "url", at.base + "/attestations/" + a.type);
    WriteString(w, "createdAt", a.created_at);
  });
  w.EndObject();
  return buffer.GetString();
}

// GET /v1/images/{id}/versions/{versionId}/attestations   (scope read:sbom)
//   200 {"attestations": [...]}: the attestations of the documents the version serves now, in type
//       order (spdx, cyclonedx, openvex, cyclonedx-vex); an empty list when it serves none
//   401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it (by id or tag)
Reply ListImageVersionAttestations(Context& ctx) {
  VersionAttestations v =
      Load(ctx, ctx.request.PathParam("id"), ParseVersionRef(ctx.request.PathParam("versionId")), false);
  return Reply::Json(200, AttestationsJson(v.paths, v.attestations));
}

// GET /v1/images/{id}/versions/{versionId}/attestations/{type}   (scope read:sbom; read:vulns for the VEX types)
//   200 the Sigstore bundle (application/vnd.dev.sigstore.bundle.v0.3+json), sent by nginx:
//       Content-Disposition, ETag, Repr-Digest, Cache-Control
//   304 If-None-Match names the ETag
//   401; 403 INSUFFICIENT_SCOPE (openvex, cyclonedx-vex without read:vulns); 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version, or an unknown type (named)
//   404 ATTESTATION_NOT_AVAILABLE: the version serves no attested document of that type
Reply GetImageVersionAttestation(Context& ctx) {
  return Download(ctx, ctx.request.PathParam("id"), ParseVersionRef(ctx.request.PathParam("versionId")),
                  ctx.request.PathParam("type"), false);
}

// GET /api/docker-images/{imageId}/versions/{versionId}/attestations   (portal: token + X-Tenant)
//   As the /v1 route, for the console; the version by its id only; the URLs are the portal's
//   400 VALIDATION_ERROR (X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version
Reply ListVersionAttestations(Context& ctx) {
  VersionAttestations v =
      Load(ctx, ctx.request.PathParam("imageId"), PortalVersion(ctx.request.PathParam("versionId")), true);
  return Reply::Json(200, AttestationsJson(v.paths, v.attestations));
}

// GET /api/docker-images/{imageId}/versions/{versionId}/attestations/{type}   (portal: token + X-Tenant)
//   As the /v1 route (any role; no scopes in the portal); 304; 400; 401
//   404 NOT_FOUND (unknown type named); 404 ATTESTATION_NOT_AVAILABLE
Reply GetVersionAttestation(Context& ctx) {
  return Download(ctx, ctx.request.PathParam("imageId"), PortalVersion(ctx.request.PathParam("versionId")),
                  ctx.request.PathParam("type"), true);
}

}  // namespace icat::sbom
