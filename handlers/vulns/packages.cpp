// GET /v1/packages and /api/packages: which of the tenant's licensed images and versions carry a
// package, from their latest scans' SBOMs as ingested (docs/compare.md, "Package look-up").
#include <algorithm>

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "queries.hpp"
#include "version_range.hpp"
#include "vulns.hpp"

namespace icat::vulns {

namespace {

// A purl names a version when an '@' follows its last '/' (before any qualifiers or subpath).
bool PurlNamesVersion(std::string_view purl) {
  purl = purl.substr(0, purl.find_first_of("?#"));
  size_t at = purl.rfind('@');
  return at != std::string_view::npos && purl.find('/', at) == std::string_view::npos;
}

void WriteMatch(JsonWriter& w, const Rows& rows, int row) {
  auto text = [&](const char* column) { return rows.Text(row, rows.Column(column)); };
  w.StartObject();
  WriteKey(w, "image");
  w.StartObject();
  WriteString(w, "id", text("image_id"));
  WriteString(w, "name", text("image_name"));
  WriteString(w, "repository", text("repository"));
  w.EndObject();
  WriteKey(w, "version");
  w.StartObject();
  WriteString(w, "id", text("version_id"));
  WriteString(w, "tag", text("tag"));
  WriteString(w, "digest", text("digest"));
  WriteKey(w, "latest");
  w.Bool(rows.Bool(row, rows.Column("latest")));
  w.EndObject();
  WriteKey(w, "scan");
  w.StartObject();
  WriteString(w, "id", text("scan_id"));
  WriteString(w, "scannedAt", text("scanned_at"));
  w.EndObject();
  WriteKey(w, "packages");
  std::string_view packages = text("packages");
  w.RawValue(packages.data(), packages.size(), rapidjson::kArrayType);
  w.EndObject();
}

// The versions of the named package within the range, as the text[] of kPackagesByName's $8: the
// tenant's versions of it listed first, the range applied here (SQL cannot order them).
std::string VersionsInRange(Context& ctx, const std::string& name, const std::optional<std::string>& type,
                            const std::vector<VersionBound>& range) {
  Rows rows = ctx.db.Run(kPackageVersionsByName, {ctx.principal.tenant_id, name, type});
  std::vector<std::string> wanted;
  for (int row = 0; row < rows.size(); row++) {
    std::string_view version = rows.Text(row, 0);
    if (InVersionRange(range, version)) wanted.emplace_back(version);
  }
  return TextArrayLiteral(wanted);
}

}  // namespace

// GET /v1/packages?purl=|name=[&type=][&versionRange=]&versions=latest|all&limit=&cursor=   (scope read:vulns)
// GET /api/packages (portal: token + X-Tenant), the same
//   200 {"purl"|"name", "type", "versionRange", "versions", "matches": [{"image", "version", "scan", "packages"}],
//        "nextCursor"}: the licensed versions (latest ones unless versions=all) whose latest scan's
//        SBOMs list the package: by purl, its identity (and its version when the purl names one);
//        by name, that name (and type, and a version within versionRange: ">=2.0.0,<2.17.1",
//        version_range.hpp); by image id, then version id
//   400 VALIDATION_ERROR: neither or both of purl and name, type or versionRange without name, a
//       purl not starting pkg:, a versionRange that is no range, limit, cursor; 401;
//       403 INSUFFICIENT_SCOPE; 429
Reply LookUpPackage(Context& ctx) {
  std::optional<std::string> purl = ctx.query.Text("purl"), name = ctx.query.Text("name"),
                             type = ctx.query.Text("type"), range_text = ctx.query.Text("versionRange");
  if (purl.has_value() == name.has_value()) ThrowInvalid("purl", "give either purl or name (with an optional type)");
  if (purl && type) ThrowInvalid("type", "goes with name; a purl names its type");
  if (purl && purl->rfind("pkg:", 0) != 0) ThrowInvalid("purl", "must be a package URL (pkg:type/name...)");
  if (purl && range_text) ThrowInvalid("versionRange", "goes with name; a purl names its version");
  std::optional<std::vector<VersionBound>> range;
  if (range_text) {
    range = ParseVersionRange(*range_text);
    if (!range)
      ThrowInvalid("versionRange", "must be bounds separated by commas, each >=, >, <=, < or = and a version");
  }
  bool all_versions = ctx.query.Text("versions").value_or("latest") == "all";
  int limit = ctx.query.Limit();
  std::optional<std::vector<std::string>> cursor = ctx.query.Cursor();
  std::optional<std::string> after_image, after_version;
  if (cursor) after_image = (*cursor)[0], after_version = (*cursor)[1];
  std::vector<Param> params = {ctx.principal.tenant_id, purl ? *purl : *name, after_image,
                               after_version,           all_versions,         limit + 1};
  if (purl) {
    params.push_back(PurlNamesVersion(*purl));
  } else {
    params.push_back(type);
    params.push_back(range ? std::optional(VersionsInRange(ctx, *name, type, *range)) : std::nullopt);
  }
  Rows rows = ctx.db.Run(purl ? kPackagesByPurl : kPackagesByName, params);

  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteOptionalString(w, "purl", purl);
  WriteOptionalString(w, "name", name);
  WriteOptionalString(w, "type", type);
  WriteOptionalString(w, "versionRange", range_text);
  WriteString(w, "versions", all_versions ? "all" : "latest");
  WriteKey(w, "matches");
  w.StartArray();
  const int shown = std::min(rows.size(), limit);
  for (int row = 0; row < shown; row++) WriteMatch(w, rows, row);
  w.EndArray();
  std::optional<std::string> next;
  if (rows.size() > limit) {
    next = EncodeCursor({std::string(rows.Text(shown - 1, rows.Column("image_id"))),
                         std::string(rows.Text(shown - 1, rows.Column("version_id")))});
  }
  WriteOptionalString(w, "nextCursor", next);
  w.EndObject();
  return Reply::Json(200, buffer.GetString());
}

}  // namespace icat::vulns
