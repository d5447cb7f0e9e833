// GET, POST /api/cve-watches and DELETE /api/cve-watches/:id: the CVE ids a tenant watches,
// each listed with the tenant's images whose latest version carries it right now.
#include <map>

#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxNoteChars = 500;

// At most `count` rows of ICAT_WATCH_COLUMNS (queries.hpp).
std::vector<CveWatchView> WatchesAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), cve_id = rows.Column("cve_id"), note = rows.Column("note"),
            created_at = rows.Column("created_at"), created_by = rows.Column("created_by");
  std::vector<CveWatchView> watches;
  for (int row = 0; row < rows.size() && row < count; row++) {
    CveWatchView& w = watches.emplace_back();
    w.id = rows.Text(row, id);
    w.cve_id = rows.Text(row, cve_id);
    w.note = rows.OptionalText(row, note);
    w.created_at = rows.Text(row, created_at);
    w.created_by = rows.OptionalText(row, created_by);
  }
  return watches;
}

// Fills each watch's images with one query for the whole page.
void AddImages(Context& ctx, std::vector<CveWatchView>& watches) {
  if (watches.empty()) return;
  std::vector<std::string> ids;
  for (const CveWatchView& w : watches) ids.push_back(w.id);
  Rows rows = ctx.db.Run(kWatchedImages, {ctx.principal.tenant_id, TextArrayLiteral(ids)});
  std::map<std::string, std::vector<WatchedImage>, std::less<>> by_watch;
  const int watch_id = rows.Column("watch_id"), image_id = rows.Column("image_id"),
            image_name = rows.Column("image_name"), version_id = rows.Column("version_id"), tag = rows.Column("tag"),
            packages = rows.Column("packages");
  for (int row = 0; row < rows.size(); row++) {
    by_watch[std::string(rows.Text(row, watch_id))].push_back(
        {std::string(rows.Text(row, image_id)), std::string(rows.Text(row, image_name)),
         std::string(rows.Text(row, version_id)), std::string(rows.Text(row, tag)),
         ParseTextArray(rows.Text(row, packages))});
  }
  for (CveWatchView& w : watches) w.images = std::move(by_watch[w.id]);
}

void WriteWatch(JsonWriter& w, const CveWatchView& watch) {
  w.StartObject();
  WriteString(w, "id", watch.id);
  WriteString(w, "cveId", watch.cve_id);
  WriteOptionalString(w, "note", watch.note);
  WriteString(w, "createdAt", watch.created_at);
  WriteOptionalString(w, "createdBy", watch.created_by);
  WriteKey(w, "images");
  WriteObjects(w, watch.images, [&](JsonWriter& w, const WatchedImage& image) {
    WriteString(w, "id", image.image_id);
    WriteString(w, "name", image.name);
    WriteString(w, "versionId", image.version_id);
    WriteString(w, "tag", image.tag);
    WriteStringArray(w, "packages", image.packages);
  });
  w.EndObject();
}

}  // namespace

std::string CveWatchJson(const CveWatchView& watch) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteWatch(w, watch);
  return buffer.GetString();
}

std::string CveWatchListJson(const std::vector<CveWatchView>& watches, const std::optional<std::string>& next_cursor) {
  return ListJson("cveWatches", watches, next_cursor, WriteWatch);
}

// GET /api/cve-watches?limit=&cursor=   (portal)
//   200 {"cveWatches": [{id, cveId, note, createdAt, createdBy, images: [{id, name, versionId, tag,
//        packages}]}], "nextCursor"}: newest first; images are those whose latest version carries it
//   400 VALIDATION_ERROR (limit, cursor, headers); 401
Reply ListCveWatches(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListWatches, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  std::vector<CveWatchView> watches = WatchesAt(rows, page.limit);
  AddImages(ctx, watches);
  return JsonReply(200, CveWatchListJson(watches, NextCursor(rows, page.limit)));
}

// POST /api/cve-watches {"cveId", "note"?}   (portal; admin)
//   201 the watch (cveId upper case) with its images
//   400 VALIDATION_ERROR (cveId not CVE-YYYY-NNNN... or GHSA-xxxx-xxxx-xxxx, note over 500
//       characters, unknown fields); 409 CONFLICT: already watched; 401; 403 FORBIDDEN; 415
Reply CreateCveWatch(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  std::optional<std::string> cve = body.String("cveId", Need::kRequired, 40);
  std::optional<std::string> cve_id = cve ? NormaliseVulnId(*cve) : std::nullopt;
  if (cve && !cve_id) body.Issue("cveId", "must be a CVE id (CVE-2024-3094) or a GHSA id (GHSA-xxxx-xxxx-xxxx)");
  std::optional<std::string> note = body.String("note", Need::kOptional, kMaxNoteChars, 0, true);
  if (note && note->empty()) note.reset();
  body.CheckUnknown();
  ThrowIfIssues(issues);

  Rows rows = ctx.db.Run(kInsertWatch, {ctx.principal.tenant_id, *cve_id, note, ctx.principal.user_id});
  if (rows.empty()) throw ApiError(Error::kCONFLICT, *cve_id + " is already on the watch list.");
  std::vector<CveWatchView> watch = WatchesAt(rows, 1);
  AddImages(ctx, watch);
  Audit(ctx, "cve_watch.created", watch[0].id, StringObjectJson({{"cveId", *cve_id}}));
  ctx.cached_data_changed = true;  // admission workers keep the watch list
  return JsonReply(201, CveWatchJson(watch[0]));
}

// DELETE /api/cve-watches/:id   (portal; admin)
//   204; 404 NOT_FOUND: unknown, malformed or another tenant's id; 401; 403 FORBIDDEN
Reply DeleteCveWatch(Context& ctx) {
  std::string id = PathId(ctx, "CVE watch");
  Rows rows = ctx.db.Run(kDeleteWatch, {ctx.principal.tenant_id, id});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such CVE watch.");
  Audit(ctx, "cve_watch.deleted", id, StringObjectJson({{"cveId", std::string(rows.Text(0, rows.Column("cve_id")))}}));
  ctx.cached_data_changed = true;
  return NoContent();
}

}  // namespace icat::account
