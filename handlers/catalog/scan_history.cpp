// GET /api/docker-images/:id/versions/:vid/scan-history: one point per scan of the version, oldest
// first, with the counts stored at ingest.
#include "scan_history.hpp"

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::catalog {

namespace {

// At most `count` scans of kScanHistory.
std::vector<ScanPoint> PointsAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), scanned_at = rows.Column("scanned_at"), scanner = rows.Column("scanner_name"),
            scanner_version = rows.Column("scanner_version"), vulndb_updated_at = rows.Column("vulndb_updated_at"),
            fixable = rows.Column("fixable_count"), vex_excluded = rows.Column("vex_excluded_count");
  const int counts[5] = {rows.Column("critical_count"), rows.Column("high_count"), rows.Column("medium_count"),
                         rows.Column("low_count"), rows.Column("unknown_count")};
  std::vector<ScanPoint> points;
  for (int row = 0; row < rows.size() && row < count; row++) {
    ScanPoint& p = points.emplace_back();
    p.scan_id = rows.Text(row, id);
    p.scanned_at = rows.Text(row, scanned_at);
    p.scanner = rows.Text(row, scanner);
    p.scanner_version = rows.OptionalText(row, scanner_version);
    p.vulndb_updated_at = rows.OptionalText(row, vulndb_updated_at);
    for (int i = 0; i < 5; i++) p.counts.by_severity[i] = rows.Int(row, counts[i]);
    p.counts.vex_excluded = rows.Int(row, vex_excluded);
    p.fixable = rows.Int(row, fixable);
  }
  return points;
}

}  // namespace

std::string ScanHistoryJson(const HistorySubject& subject, const std::vector<ScanPoint>& points,
                            const std::optional<std::string>& next_cursor) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteImageOf(w, subject.image_id, subject.image_name);
  WriteKey(w, "version");
  w.StartObject();
  WriteString(w, "id", subject.version_id);
  WriteString(w, "tag", subject.tag);
  w.EndObject();
  WriteKey(w, "points");
  WriteObjects(w, points, [&](JsonWriter& w, const ScanPoint& p) {
    WriteString(w, "scanId", p.scan_id);
    WriteString(w, "scannedAt", p.scanned_at);
    WriteString(w, "scanner", p.scanner);
    WriteOptionalString(w, "scannerVersion", p.scanner_version);
    WriteOptionalString(w, "vulnDbUpdatedAt", p.vulndb_updated_at);
    WriteVulnerabilityCounts(w, p.counts);
    WriteInt(w, "fixableCount", p.fixable);
  });
  WriteOptionalString(w, "nextCursor", next_cursor);
  w.EndObject();
  return buffer.GetString();
}

// GET /api/docker-images/:id/versions/:vid/scan-history?from=&to=&limit=&cursor=   (portal: token + X-Tenant)
//   200 {"image", "version", "points": [...], "nextCursor"}: one point per scan, oldest first, with
//       from <= scannedAt < to (each bound optional)
//   400 VALIDATION_ERROR (from, to, limit, cursor, X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or a version not of that image
Reply GetScanHistory(Context& ctx) {
  // from and to are passed on as given (RFC 3339 times, to not before from: routes.cpp).
  std::optional<std::string> from = ctx.query.Text("from"), to = ctx.query.Text("to");
  int limit = ctx.query.Limit();
  std::optional<std::vector<std::string>> after = ctx.query.Cursor();
  std::string image_id = ctx.request.PathParam("id"), version_id = ctx.request.PathParam("vid");
  if (!IsUuid(image_id) || !IsUuid(version_id)) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  Rows version = ctx.db.Run(kScanHistoryVersion, {ctx.principal.tenant_id, image_id, version_id});
  if (version.empty()) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  auto cursor = [&](int i) { return after ? std::optional((*after)[i]) : std::nullopt; };
  Rows rows = ctx.db.Run(kScanHistory,
                         {ctx.principal.tenant_id, version_id, from, to, cursor(0), cursor(1), cursor(2), limit + 1});
  std::vector<ScanPoint> points = PointsAt(rows, limit);
  std::optional<std::string> next;
  if (rows.size() > limit) {
    int last = limit - 1;
    next = EncodeCursor({std::string(rows.Text(last, rows.Column("scanned_us"))),
                         std::string(rows.Text(last, rows.Column("created_us"))), points.back().scan_id});
  }
  HistorySubject subject{std::string(version.Text(0, version.Column("image_id"))),
                         std::string(version.Text(0, version.Column("image_name"))),
                         std::string(version.Text(0, version.Column("version_id"))),
                         std::string(version.Text(0, version.Column("tag")))};
  return Reply::Json(200, ScanHistoryJson(subject, points, next));
}

}  // namespace icat::catalog
