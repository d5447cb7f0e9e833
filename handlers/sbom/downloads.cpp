// SBOM downloads, and what every download of the group shares. The handler authorises and
// describes a download; nginx sends the bytes from the blob store (X-Accel-Redirect), so they never
// pass through FastCGI.
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/text.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"
#include "sbom.hpp"

namespace icat::sbom {

namespace {

constexpr std::string_view kBlobLocation = "/_blobs/";

std::string HexDecode(std::string_view hex) {
  auto value = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) bytes += static_cast<char>(value(hex[i]) * 16 + value(hex[i + 1]));
  return bytes;
}

// "<image>_<tag>", a '/' of a nested image name as '_': the start of a download's filename.
std::string FileStem(std::string_view image_name, std::string_view tag) {
  std::string name(image_name);
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return name + "_" + std::string(tag);
}

std::string_view FormatLabel(std::string_view format) { return format == "spdx" ? "SPDX" : "CycloneDX"; }

std::string_view ContentType(std::string_view format) {
  return format == "spdx" ? "application/spdx+json" : "application/vnd.cyclonedx+json; version=1.5";
}

// "CycloneDX and SPDX": the formats of the rows, as a message names them.
std::string FormatsOf(const Rows& rows) {
  const int format = rows.Column("format");
  std::string names;
  for (int row = 0; row < rows.size(); row++) {
    if (rows.IsNull(row, format)) continue;
    names += (names.empty() ? "" : " and ") + std::string(FormatLabel(rows.Text(row, format)));
  }
  return names;
}

// Columns of sbom_of_*: name, version id, tag, scan id, format, sha256, signature, key id. The SBOM
// of the asked format, or with none asked the first row's (CycloneDX, else SPDX). An unknown image
// or version is 404 NOT_FOUND; a known one without that SBOM is 404 SBOM_NOT_AVAILABLE, its message
// saying what is missing and which formats the version has.
SignedFile FileAt(const Rows& rows, const std::optional<std::string>& format, bool latest_version) {
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, latest_version ? "No such image." : "No such image or version.");
  const int format_col = rows.Column("format");
  std::string name(rows.Text(0, rows.Column("image_name")));
  if (rows.IsNull(0, rows.Column("version_id"))) {
    throw ApiError(Error::kSBOM_NOT_AVAILABLE, "Image " + name + " has no versions yet, so it has no SBOM.");
  }
  std::string tag(rows.Text(0, rows.Column("tag")));
  std::string what = "Version " + tag + " of " + name;
  if (rows.IsNull(0, rows.Column("scan_id"))) {
    throw ApiError(Error::kSBOM_NOT_AVAILABLE, what + " has never been scanned, so it has no SBOM in any format.");
  }
  for (int row = 0; row < rows.size(); row++) {
    if (rows.IsNull(row, format_col) || (format && rows.Text(row, format_col) != *format)) continue;
    std::string_view found = rows.Text(row, format_col);
    return {DownloadFilename(name, tag, found),
            std::string(ContentType(found)),
            std::string(rows.Text(row, rows.Column("sha256"))),
            std::string(rows.Text(row, rows.Column("signature"))),
            std::string(rows.Text(row, rows.Column("signing_key_id")))};
  }
  std::string has = FormatsOf(rows);
  std::string asked = format ? std::string(FormatLabel(*format)) + " " : "";
  throw ApiError(Error::kSBOM_NOT_AVAILABLE, what + " has no " + asked + "SBOM: its latest scan came with " +
                                                 (has.empty() ? "none" : has + " only") + ".");
}

// Every SBOM route ends here: the download of image `image_id`'s SBOM in `format` (nullopt: the
// CycloneDX one, else the SPDX one), of its latest version when `version` is nullopt, else of the
// version it names.
Reply Download(Context& ctx, const std::string& image_id, const std::optional<VersionRef>& version,
               const std::optional<std::string>& format) {
  Rows rows = version ? ctx.db.Run(kSbomOfVersion, {ctx.principal.tenant_id, image_id, version->id, version->tag})
                      : ctx.db.Run(kSbomOfLatestVersion, {ctx.principal.tenant_id, image_id});
  return DownloadReply(FileAt(rows, format, !version), ctx.request.Header("if-none-match"));
}

// The portal's downloads name the version by its id only.
Reply VersionDownload(Context& ctx, std::string_view format) {
  std::string image_id = ctx.request.PathParam("imageId");
  std::string version_id = ctx.request.PathParam("versionId");
  if (!IsUuid(image_id) || !IsUuid(version_id)) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  return Download(ctx, image_id, VersionRef{version_id, std::nullopt}, std::string(format));
}

}  // namespace

std::string DownloadFilename(std::string_view image_name, std::string_view tag, std::string_view format) {
  return FileStem(image_name, tag) + (format == "spdx" ? ".spdx.json" : ".cdx.json");
}

std::string VexFilename(std::string_view image_name, std::string_view tag, std::string_view format) {
  return FileStem(image_name, tag) + (format == "openvex" ? ".openvex.json" : ".vex.cdx.json");
}

std::string AttestationFilename(std::string_view image_name, std::string_view tag, std::string_view type) {
  return FileStem(image_name, tag) + "." + std::string(type) + ".sigstore.json";
}

std::string Etag(std::string_view sha256_hex) { return "\"sha256:" + std::string(sha256_hex) + "\""; }

bool EtagMatches(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    size_t comma = if_none_match.find(',');
    std::string candidate(Trim(if_none_match.substr(0, comma), " \t"));
    if_none_match = comma == std::string_view::npos ? std::string_view() : if_none_match.substr(comma + 1);
    if (candidate == "*") return true;
    if (candidate.rfind("W/", 0) == 0) candidate.erase(0, 2);  // If-None-Match compares weakly
    if (candidate == etag) return true;
  }
  return false;
}

Reply DownloadReply(const SignedFile& file, std::string_view if_none_match) {
  Reply reply;
  std::string etag = Etag(file.sha256_hex);
  // Authenticated content: caches may keep it but must revalidate (a cheap 304).
  reply.headers = {{"ETag", etag}, {"Cache-Control", "private, no-cache"}};
  if (EtagMatches(if_none_match, etag)) {
    reply.status = 304;
    return reply;
  }
  reply.status = 200;
  reply.headers.emplace_back("Content-Type", file.content_type);
  reply.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + file.filename + "\"");
  reply.headers.emplace_back("Repr-Digest", "sha-256=:" + Base64Encode(HexDecode(file.sha256_hex)) + ":");
  if (!file.signature.empty()) {
    reply.headers.emplace_back("X-Signature", file.signature);
    reply.headers.emplace_back("X-Signature-Key-Id", file.key_id);
  }
  reply.headers.emplace_back("X-Accel-Redirect", std::string(kBlobLocation) + "sha256/" + file.sha256_hex.substr(0, 2) +
                                                     "/" + file.sha256_hex);
  return reply;
}

// GET /v1/images/{id}/sbom?format=cyclonedx|spdx   (scope read:sbom)
//   200 the latest version's SBOM of its latest scan (format omitted: the CycloneDX one, else the SPDX
//       one), exactly as the scanner wrote it (sent by nginx): Content-Type, Content-Disposition, ETag,
//       Repr-Digest, X-Signature, X-Signature-Key-Id
//   304 If-None-Match names the ETag
//   400 VALIDATION_ERROR (format); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed id
//   404 SBOM_NOT_AVAILABLE: no version, no scan, or no SBOM of that format; the message names those it has
Reply GetImageSbom(Context& ctx) {
  std::optional<std::string> format = ctx.query.Text("format");  // cyclonedx or spdx (routes.cpp)
  std::string id = ctx.request.PathParam("id");
  if (!IsUuid(id)) throw ApiError(Error::kNOT_FOUND, "No such image.");
  return Download(ctx, id, std::nullopt, format);
}

// GET /v1/images/{id}/versions/{versionId}/sbom?format=cyclonedx|spdx   (scope read:sbom)
//   As GET /v1/images/{id}/sbom, for the version {versionId} names: its id or its tag
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it
//   404 SBOM_NOT_AVAILABLE: the version has no scan, or no SBOM of that format
Reply GetImageVersionSbom(Context& ctx) {
  std::optional<std::string> format = ctx.query.Text("format");
  std::string id = ctx.request.PathParam("id");
  std::optional<VersionRef> version = ParseVersionRef(ctx.request.PathParam("versionId"));
  if (!IsUuid(id) || !version) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  return Download(ctx, id, version, format);
}

// GET /api/docker-images/{imageId}/versions/{versionId}/sbom/spdx   (portal: token + X-Tenant)
//   200 that version's SPDX 2.3 SBOM (headers as above); 304 If-None-Match names the ETag
//   400 VALIDATION_ERROR (X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version
//   404 SBOM_NOT_AVAILABLE: no scan or no SPDX SBOM; the message names the formats the version has
Reply GetVersionSpdx(Context& ctx) { return VersionDownload(ctx, "spdx"); }

// GET /api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx   (portal: token + X-Tenant)
//   200 that version's CycloneDX 1.5 SBOM (headers as above); 304 If-None-Match names the ETag
//   400 VALIDATION_ERROR (X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version
//   404 SBOM_NOT_AVAILABLE: no scan or no CycloneDX SBOM; the message names the formats the version has
Reply GetVersionCycloneDx(Context& ctx) { return VersionDownload(ctx, "cyclonedx"); }

}  // namespace icat::sbom
