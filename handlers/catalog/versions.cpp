// GET /v1/images/{id}/versions and GET /v1/images/{id}/versions/{versionId}: every version of an
// image, each as the image's detail shows it.
#include "catalog.hpp"
#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/paging.hpp"
#include "queries.hpp"

namespace icat::catalog {

// GET /v1/images/{id}/versions?limit=&cursor=   (scope read:catalog)
//   200 {"versions": [...], "nextCursor": string|null}: newest published first, each as an element
//       of the detail's versions (counts, scanStatus, lastScannedAt, sbomCompleteness, the caller's
//       pullCount and lastPulledAt); [] before the
//       first version
//   400 VALIDATION_ERROR (limit, cursor); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed id, all alike
Reply ListImageVersions(Context& ctx) {
  int limit = ctx.query.Limit();
  // The cursor holds the last version's published time (epoch microseconds) and tag: the sort key.
  std::optional<std::vector<std::string>> after = ctx.query.Cursor();
  std::string id = ctx.request.PathParam("id");
  if (!IsUuid(id)) throw ApiError(Error::kNOT_FOUND, "No such image.");
  Rows rows = ctx.db.Run(kPageVersions, {ctx.principal.tenant_id, id, after ? std::optional((*after)[0]) : std::nullopt,
                                         after ? std::optional((*after)[1]) : std::nullopt, limit + 1});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image.");
  std::vector<VersionView> versions = VersionsAt(rows, limit);
  std::optional<std::string> next;
  if (rows.size() > limit) {
    const int published_us = rows.Column("published_us");
    next = EncodeCursor({std::string(rows.Text(limit - 1, published_us)), versions.back().tag});
  }
  return Reply::Json(200, VersionListJson(versions, next));
}

// GET /v1/images/{id}/versions/{versionId}   (scope read:catalog)
//   200 the version {versionId} names (its id or its tag), as an element of the detail's versions
//   401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it, all alike
Reply GetImageVersion(Context& ctx) {
  std::string id = ctx.request.PathParam("id");
  std::optional<VersionRef> version = ParseVersionRef(ctx.request.PathParam("versionId"));
  if (!IsUuid(id) || !version) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  Rows rows = ctx.db.Run(kGetVersion, {ctx.principal.tenant_id, id, version->id, version->tag});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  return Reply::Json(200, VersionJson(VersionsAt(rows, 1).at(0)));
}

}  // namespace icat::catalog
