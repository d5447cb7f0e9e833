// GET /v1/images (with its look-ups by digest and reference) and GET /v1/images/{id}.
#include "catalog.hpp"
#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/scan_status.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::catalog {

namespace {

// A version's columns in list_images, get_image and list_versions, found once per result: its id,
// tag, digest, size, published time, tags, five counts and the VEX-excluded count, the latest scan's
// time (NULL: never scanned).
struct VersionColumns {
  explicit VersionColumns(const Rows& rows)
      : id(rows.Column("version_id")),
        tag(rows.Column("tag")),
        digest(rows.Column("digest")),
        size_bytes(rows.Column("size_bytes")),
        published_at(rows.Column("published_at")),
        hardening_tags(rows.Column("hardening_tags")),
        counts{rows.Column("critical_count"), rows.Column("high_count"), rows.Column("medium_count"),
               rows.Column("low_count"), rows.Column("unknown_count")},
        vex_excluded(rows.Column("vex_excluded_count")),
        scanned_at(rows.Column("scanned_at")) {}
  int id, tag, digest, size_bytes, published_at, hardening_tags;
  int counts[5];
  int vex_excluded, scanned_at;
};

VersionView VersionAt(const Rows& rows, const VersionColumns& c, int row) {
  VersionView v;
  v.id = rows.Text(row, c.id);
  v.tag = rows.Text(row, c.tag);
  v.digest = rows.Text(row, c.digest);
  if (!rows.IsNull(row, c.size_bytes)) v.size_bytes = rows.Int(row, c.size_bytes);
  v.published_at = rows.Text(row, c.published_at);
  v.hardening_tags = ParseTextArray(rows.Text(row, c.hardening_tags));
  for (size_t i = 0; i < v.counts.by_severity.size(); i++) v.counts.by_severity[i] = rows.Int(row, c.counts[i]);
  v.counts.vex_excluded = rows.Int(row, c.vex_excluded);
  v.last_scanned_at = rows.OptionalText(row, c.scanned_at);
  return v;
}

// At most `count` images of list_images or get_image, each with its latest version.
std::vector<ImageView> ImagesAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), name = rows.Column("name"), description = rows.Column("description"),
            repository = rows.Column("repository"), base_os = rows.Column("base_os");
  const VersionColumns version(rows);
  std::vector<ImageView> images;
  for (int row = 0; row < rows.size() && row < count; row++) {
    ImageView& image = images.emplace_back();
    image.id = rows.Text(row, id);
    image.name = rows.Text(row, name);
    image.description = rows.Text(row, description);
    image.repository = rows.Text(row, repository);
    image.base_os = rows.OptionalText(row, base_os);
    if (!rows.IsNull(row, version.id)) image.latest = VersionAt(rows, version, row);
  }
  return images;
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

// "pullCount" and "lastPulledAt" (null: never pulled).
void WritePulls(JsonWriter& w, const VersionPulls& pulls) {
  WriteKey(w, "pullCount");
  w.Int64(pulls.count);
  WriteOptionalString(w, "lastPulledAt", pulls.last_at);
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
    WriteVulnerabilityCounts(w, v.counts);
    WriteCompleteness(w, v.sbom_completeness);
    WriteOptionalInt(w, "knownExploited", v.known_exploited);
  }
  if (v.pulls) WritePulls(w, *v.pulls);
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

// An image of a list, its members left open for a look-up's matchedVersion.
void WriteListedImageFields(JsonWriter& w, const ImageView& image) {
  WriteImageFields(w, image);
  // The latest version's counts, as in the detail: a catalogue page shows them without a
  // request per image.
  WriteVulnerabilityCounts(w, image.latest ? image.latest->counts : VulnerabilityCounts{});
}

}  // namespace

std::string ImageListJson(const std::vector<ImageView>& images, const std::optional<std::string>& next_cursor) {
  return ListJson("images", images, next_cursor, [](JsonWriter& w, const ImageView& image) {
    w.StartObject();
    WriteListedImageFields(w, image);
    w.EndObject();
  });
}

std::string ImageLookupJson(const std::vector<ImageMatch>& matches) {
  return ListJson("images", matches, std::nullopt, [](JsonWriter& w, const ImageMatch& match) {
    w.StartObject();
    WriteListedImageFields(w, match.image);
    WriteKey(w, "matchedVersion");
    w.StartObject();
    WriteString(w, "id", match.matched.id);
    WriteString(w, "tag", match.matched.tag);
    WriteString(w, "digest", match.matched.digest);
    w.EndObject();
    w.EndObject();
  });
}

std::vector<VersionView> VersionsAt(const Rows& rows, int count) {
  const VersionColumns columns(rows);
  const int completeness = rows.Column("sbom_completeness"), pull_count = rows.Column("pull_count"),
            last_pulled_at = rows.Column("last_pulled_at"), known_exploited = rows.Column("known_exploited");
  std::vector<VersionView> versions;
  for (int row = 0; row < rows.size() && static_cast<int>(versions.size()) < count; row++) {
    if (rows.IsNull(row, columns.id)) continue;
    VersionView& v = versions.emplace_back(VersionAt(rows, columns, row));
    v.sbom_completeness = rows.OptionalText(row, completeness);
    if (!rows.IsNull(row, known_exploited)) v.known_exploited = rows.Int(row, known_exploited);
    v.pulls = VersionPulls{rows.Int(row, pull_count), rows.OptionalText(row, last_pulled_at)};
  }
  return versions;
}

std::string VersionJson(const VersionView& version) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteVersion(w, version, true);
  return buffer.GetString();
}

std::string VersionListJson(const std::vector<VersionView>& versions, const std::optional<std::string>& next_cursor) {
  return ListJson("versions", versions, next_cursor,
                  [](JsonWriter& w, const VersionView& version) { WriteVersion(w, version, true); });
}

std::string ImageDetailJson(const ImageView& image, const std::vector<VersionView>& versions) {
  std::optional<std::string> latest_completeness;
  ImageView shown = image;
  // The latest version's pulls are its entry's; none there (published between the two reads) is
  // none yet.
  if (shown.latest) shown.latest->pulls = VersionPulls{};
  for (const VersionView& v : versions) {
    if (!image.latest || v.id != image.latest->id) continue;
    latest_completeness = v.sbom_completeness;
    if (v.pulls) shown.latest->pulls = v.pulls;
  }
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteImageFields(w, shown);
  WriteOptionalInt(w, "sizeBytes", image.latest ? image.latest->size_bytes : std::nullopt);
  // The counts keep the type SPEC.md gives them (zeros before a scan); scanStatus says whether they mean anything.
  WriteVulnerabilityCounts(w, image.latest ? image.latest->counts : VulnerabilityCounts{});
  WriteScanStatus(w, image.latest ? image.latest->last_scanned_at : std::nullopt);
  WriteCompleteness(w, latest_completeness);
  WriteKey(w, "versions");
  w.StartArray();
  for (const VersionView& v : versions) WriteVersion(w, v, true);
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

namespace {

// The images of images_by_digest or image_by_reference, each with its matched version.
std::vector<ImageMatch> MatchesAt(const Rows& rows) {
  std::vector<ImageView> images = ImagesAt(rows, rows.size());
  const int id = rows.Column("matched_id"), tag = rows.Column("matched_tag"), digest = rows.Column("matched_digest");
  std::vector<ImageMatch> matches;
  for (int row = 0; row < rows.size(); row++) {
    matches.push_back({images[row], {std::string(rows.Text(row, id)), std::string(rows.Text(row, tag)),
                                     std::string(rows.Text(row, digest))}});
  }
  return matches;
}

// GET /v1/images?digest= or ?reference=: the licensed images having a version of that digest, or
// the one image the reference resolves to as the admission webhook resolves it (the digest when it
// has one, else repository and tag), each with matchedVersion; none is an empty list. limit is
// checked as on the list; every match is answered (nextCursor null).
//   400 VALIDATION_ERROR: a malformed digest or reference; both given; either with q or cursor
Reply LookUpImages(Context& ctx) {
  std::vector<FieldIssue> issues;
  bool by_digest = ctx.query.Has("digest");
  const char* by = by_digest ? "digest" : "reference";
  if (by_digest && ctx.query.Has("reference")) issues.push_back({"reference", "cannot be combined with digest"});
  for (const char* other : {"q", "cursor"}) {
    if (ctx.query.Has(other)) issues.push_back({other, std::string("cannot be combined with ") + by});
  }
  ThrowIfIssues(issues);
  ctx.query.Limit();  // checked as on the list
  if (by_digest) {
    std::string digest = *ctx.query.Text("digest");
    return Reply::Json(200, ImageLookupJson(MatchesAt(ctx.db.Run(kImagesByDigest, {ctx.principal.tenant_id, digest}))));
  }
  std::optional<ImageReference> ref = ctx.query.Reference("reference");
  Rows rows = ctx.db.Run(kImageByReference, {ctx.principal.tenant_id, TextArrayLiteral({ref->digest.value_or("")}),
                                             TextArrayLiteral({ref->Repository()}),
                                             TextArrayLiteral({ref->EffectiveTag()})});
  return Reply::Json(200, ImageLookupJson(MatchesAt(rows)));
}

}  // namespace

// GET /v1/images?limit=&cursor=&q=   (scope read:catalog)
// GET /v1/images?digest=sha256:<64 hex> | ?reference=<image reference>   (the look-ups, LookUpImages)
//   200 {"images": [...], "nextCursor": string|null}: licensed images by name
//   400 VALIDATION_ERROR (limit, cursor, q, digest, reference); 401; 403 INSUFFICIENT_SCOPE; 429
// Its query values are refused when read (routes.cpp), in this order.
Reply ListImages(Context& ctx) {
  if (ctx.query.Has("digest") || ctx.query.Has("reference")) return LookUpImages(ctx);
  int limit = ctx.query.Limit();
  std::optional<std::vector<std::string>> after = ctx.query.Cursor();
  std::optional<std::string> q = ctx.query.Text("q");

  Rows rows = ctx.db.Run(kListImages, {ctx.principal.tenant_id, q ? std::optional(LikeLiteral(*q)) : std::nullopt,
                                       after ? std::optional((*after)[0]) : std::nullopt,
                                       after ? std::optional((*after)[1]) : std::nullopt, limit + 1});
  std::vector<ImageView> images = ImagesAt(rows, limit);
  std::optional<std::string> next;
  if (rows.size() > limit) next = EncodeCursor({images.back().name, images.back().id});
  return Reply::Json(200, ImageListJson(images, next));
}

// GET /v1/images/{id}   (scope read:catalog)
//   200 the image with base OS, size, vulnerabilityCounts, scanStatus and sbomCompleteness of the latest
//       version, and its versions, each with scanStatus ("scanned" or "unscanned"), lastScannedAt,
//       sbomCompleteness, and the caller's pullCount and lastPulledAt (latestVersion too)
//   404 NOT_FOUND: unknown, malformed or unlicensed id, all alike; 401; 403 INSUFFICIENT_SCOPE; 429
Reply GetImage(Context& ctx) {
  std::string id = ctx.request.PathParam("id");
  if (!IsUuid(id)) throw ApiError(Error::kNOT_FOUND, "No such image.");
  std::vector<Rows> found =
      ctx.db.RunAll({{kGetImage, {ctx.principal.tenant_id, id}}, {kListVersions, {ctx.principal.tenant_id, id}}});
  const Rows& image_rows = found[0];
  const Rows& version_rows = found[1];
  if (image_rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image.");
  return Reply::Json(200, ImageDetailJson(ImagesAt(image_rows, 1).at(0), VersionsAt(version_rows, version_rows.size())));
}

}  // namespace icat::catalog
