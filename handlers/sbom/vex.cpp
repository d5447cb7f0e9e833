// VEX document downloads (docs/vex-documents.md): the OpenVEX or CycloneDX document of a version,
// written and signed by icatctl from the vendor's statements, sent by nginx from the blob store as
// SBOMs are. VEX is vulnerability data: the /v1 route needs read:vulns.
#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/paging.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"
#include "sbom.hpp"

namespace icat::sbom {

namespace {

std::string_view VexContentType(std::string_view format) {
  return format == "openvex" ? "application/json" : "application/vnd.cyclonedx+json; version=1.5";
}

// Both routes end here: the VEX document of `format` of the version of image_id that `version` names.
// An unknown, malformed or unlicensed image or version is 404 NOT_FOUND; a version no vendor statement
// applies to has no document (OpenVEX needs a statement): 404 VEX_NOT_AVAILABLE, saying so.
Reply VexDownload(Context& ctx, const std::string& image_id, const std::optional<VersionRef>& version,
                  const std::string& format) {
  if (!IsUuid(image_id) || !version) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  Rows rows = ctx.db.Run(kVexOfVersion, {ctx.principal.tenant_id, image_id, version->id, version->tag, format});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  std::string name(rows.Text(0, rows.Column("image_name"))), tag(rows.Text(0, rows.Column("tag")));
  if (rows.IsNull(0, rows.Column("sha256"))) {
    throw ApiError(Error::kVEX_NOT_AVAILABLE, "The vendor has made no VEX statement about version " + tag + " of " +
                                                  name + ", so it has no VEX document.");
  }
  SignedFile file{VexFilename(name, tag, format), std::string(VexContentType(format)),
                  std::string(rows.Text(0, rows.Column("sha256"))), std::string(rows.Text(0, rows.Column("signature"))),
                  std::string(rows.Text(0, rows.Column("signing_key_id")))};
  return DownloadReply(file, ctx.request.Header("if-none-match"));
}

}  // namespace

// GET /v1/images/{id}/versions/{versionId}/vex?format=openvex|cyclonedx   (scope read:vulns)
//   200 the version's VEX document (format omitted: OpenVEX 0.2.0; cyclonedx: CycloneDX 1.5), sent by
//       nginx: Content-Type, Content-Disposition, ETag, Repr-Digest, X-Signature, X-Signature-Key-Id
//   304 If-None-Match names the ETag
//   400 VALIDATION_ERROR (format); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it
//   404 VEX_NOT_AVAILABLE: no vendor statement applies to the version
Reply GetImageVersionVex(Context& ctx) {
  std::string format = ctx.query.Text("format").value_or(std::string(kVexFormats[0]));
  return VexDownload(ctx, ctx.request.PathParam("id"), ParseVersionRef(ctx.request.PathParam("versionId")), format);
}

// GET /api/docker-images/{imageId}/versions/{versionId}/vex?format=openvex|cyclonedx   (portal: token + X-Tenant)
//   As the /v1 route, for the console; the version by its id only
//   400 VALIDATION_ERROR (format, X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version; 404 VEX_NOT_AVAILABLE
Reply GetVersionVex(Context& ctx) {
  std::string format = ctx.query.Text("format").value_or(std::string(kVexFormats[0]));
  std::string version_id = ctx.request.PathParam("versionId");
  std::optional<VersionRef> version;
  if (IsUuid(version_id)) version = VersionRef{version_id, std::nullopt};
  return VexDownload(ctx, ctx.request.PathParam("imageId"), version, format);
}

}  // namespace icat::sbom
