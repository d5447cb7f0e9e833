// GET /v1/images and GET /v1/images/{id}.
#include "catalog.hpp"

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/scan_status.hpp"

namespace icat::catalog {

namespace {

SeverityCounts CountsAt(const Rows& rows, int row, int first_col) {
  return {rows.Int(row, first_col), rows.Int(row, first_col + 1), rows.Int(row, first_col + 2),
          rows.Int(row, first_col + 3), rows.Int(row, first_col + 4)};
}

// Reads a version from 12 columns starting at `col`: id, tag, digest, size, published, tags, 5 counts,
// the latest scan's time (NULL: never scanned).
VersionView VersionAt(const Rows& rows, int row, int col) {
  VersionView v;
  v.id = rows.Text(row, col);
  v.tag = rows.Text(row, col + 1);
  v.digest = rows.Text(row, col + 2);
  if (!rows.IsNull(row, col + 3)) v.size_bytes = rows.Int(row, col + 3);
  v.published_at = rows.Text(row, col + 4);
  v.hardening_tags = ParseTextArray(rows.Text(row, col + 5));
  v.counts = CountsAt(rows, row, col + 6);
  v.last_scanned_at = rows.OptionalText(row, col + 11);
  return v;
}

ImageView ImageAt(const Rows& rows, int row) {
  ImageView image;
  image.id = rows.Text(row, 0);
  image.name = rows.Text(row, 1);
  image.description = rows.Text(row, 2);
  image.repository = rows.Text(row, 3);
  image.base_os = rows.OptionalText(row, 4);
  if (!rows.IsNull(row, 5)) image.latest = VersionAt(rows, row, 5);
  return image;
}

void WriteCounts(JsonWriter& w, std::string_view key, const SeverityCounts& c) {
  WriteKey(w, key);
  w.StartObject();
  WriteInt(w, "critical", c.critical);
  WriteInt(w, "high", c.high);
  WriteInt(w, "medium", c.medium);
  WriteInt(w, "low", c.low);
  WriteInt(w, "unknown", c.unknown);
  w.EndObject();
}

void WriteOptionalInt(JsonWriter& w, std::string_view key, const std::optional<long long>& value) {
  WriteKey(w, key);
  if (value) w.Int64(*value);
  else w.Null();
}

// "sbomCompleteness": the stored figures per format (docs/scans.md, "Completeness"), or null.
void WriteCompleteness(JsonWriter& w, const std::optional<std::string>& figures) {
  WriteKey(w, "sbomCompleteness");
  if (figures) w.RawValue(figures->data(), figures->size(), rapidjson::kObjectType);
  else w.Null();
}

void WriteVersion(JsonWriter& w, const VersionView& v, bool with_counts) {
  w.StartObject();
  WriteString(w, "id", v.id);
  WriteString(w, "tag", v.tag);
  WriteString(w, "digest", v.digest);
  WriteOptionalInt(w, "sizeBytes", v.size_bytes);
  WriteString(w, "publishedAt", v.published_at);
  WriteStringArray(w, "hardeningTags", v.hardening_tags);
  WriteScanStatus(w, v.last_scanned_at);
  if (with_counts) {
    WriteCounts(w, "vulnerabilityCounts", v.counts);
    WriteCompleteness(w, v.sbom_completeness);
  }
  w.EndObject();
}

void WriteImageFields(JsonWriter& w, const ImageView& image) {
  WriteString(w, "id", image.id);
  WriteString(w, "name", image.name);
  WriteString(w, "description", image.description);
  WriteString(w, "repository", image.repository);
  WriteOptionalString(w, "baseOs", image.base_os);
  WriteKey(w, "latestVersion");
  if (image.latest) WriteVersion(w, *image.latest, false);
  else w.Null();
}

}  // namespace

std::string ImageListJson(const std::vector<ImageView>& images, const std::optional<std::string>& next_cursor) {
  return ListJson("images", images, next_cursor, [](JsonWriter& w, const ImageView& image) {
    w.StartObject();
    WriteImageFields(w, image);
    w.EndObject();
  });
}

std::string ImageDetailJson(const ImageView& image, const std::vector<VersionView>& versions) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteImageFields(w, image);
  WriteOptionalInt(w, "sizeBytes", image.latest ? image.latest->size_bytes : std::nullopt);
  // The counts keep the type SPEC.md gives them (zeros before a scan); scanStatus says whether they mean anything.
  WriteCounts(w, "vulnerabilityCounts", image.latest ? image.latest->counts : SeverityCounts{});
  WriteScanStatus(w, image.latest ? image.latest->last_scanned_at : std::nullopt);
  std::optional<std::string> latest_completeness;
  for (const VersionView& v : versions) {
    if (image.latest && v.id == image.latest->id) latest_completeness = v.sbom_completeness;
  }
  WriteCompleteness(w, latest_completeness);
  WriteKey(w, "versions");
  w.StartArray();
  for (const VersionView& v : versions) WriteVersion(w, v, true);
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

// GET /v1/images?limit=&cursor=&q=   (scope read:catalog)
//   200 {"images": [...], "nextCursor": string|null}: licensed images by name
//   400 VALIDATION_ERROR (limit, cursor); 401; 403 INSUFFICIENT_SCOPE; 429
Reply ListImages(Context& ctx) {
  int limit = ParseLimit(ctx.request);
  std::optional<std::vector<std::string>> after = ParseCursor(ctx.request, 2);
  if (after && !IsUuid((*after)[1])) ThrowInvalid("cursor", "is not a cursor returned by this list");
  std::optional<std::string> q = ctx.request.Query("q");
  if (q && q->size() > 200) ThrowInvalid("q", "must be at most 200 characters");

  Rows rows = ctx.db.Run("list_images", {ctx.principal.tenant_id, q ? std::optional(LikeLiteral(*q)) : std::nullopt,
                                         after ? std::optional((*after)[0]) : std::nullopt,
                                         after ? std::optional((*after)[1]) : std::nullopt, limit + 1});
  std::vector<ImageView> images;
  for (int row = 0; row < rows.size() && row < limit; row++) images.push_back(ImageAt(rows, row));
  std::optional<std::string> next;
  if (rows.size() > limit) next = EncodeCursor({images.back().name, images.back().id});
  return Reply::Json(200, ImageListJson(images, next));
}

// GET /v1/images/{id}   (scope read:catalog)
//   200 the image with base OS, size, vulnerabilityCounts, scanStatus and sbomCompleteness of the latest
//       version, and its versions, each with scanStatus ("scanned" or "unscanned"), lastScannedAt and
//       sbomCompleteness
//   404 NOT_FOUND: unknown, malformed or unlicensed id, all alike; 401; 403 INSUFFICIENT_SCOPE; 429
Reply GetImage(Context& ctx) {
  std::string id = ctx.request.PathParam("id");
  if (!IsUuid(id)) throw ApiError(Error::kNOT_FOUND, "No such image.");
  std::vector<Rows> found = ctx.db.RunAll({{"get_image", {ctx.principal.tenant_id, id}},
                                           {"list_versions", {ctx.principal.tenant_id, id}}});
  const Rows& image_rows = found[0];
  const Rows& version_rows = found[1];
  if (image_rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image.");
  std::vector<VersionView> versions;
  for (int row = 0; row < version_rows.size(); row++) {
    versions.push_back(VersionAt(version_rows, row, 0));
    versions.back().sbom_completeness = version_rows.OptionalText(row, 12);
  }
  return Reply::Json(200, ImageDetailJson(ImageAt(image_rows, 0), versions));
}

}  // namespace icat::catalog
