// GET /v1/cve/{cveId} (and the portal's /api/cve/{cveId}): which of the tenant's licensed images
// carry a vulnerability, in their latest version or, with ?versions=all, in any version.

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"
#include "vulns.hpp"

namespace icat::vulns {

namespace {

// The rows of cve_lookup_*.
std::vector<CveMatch> MatchesAt(const Rows& rows) {
  const int image_id = rows.Column("image_id"), image_name = rows.Column("image_name"),
            repository = rows.Column("repository"), version_id = rows.Column("version_id"), tag = rows.Column("tag"),
            digest = rows.Column("digest"), latest = rows.Column("latest"), scan_id = rows.Column("scan_id"),
            scanned_at = rows.Column("scanned_at"), vuln_id = rows.Column("vuln_id"),
            package_name = rows.Column("package_name"), package_version = rows.Column("package_version"),
            package_type = rows.Column("package_type"), purl = rows.Column("purl"), severity = rows.Column("severity"),
            fix_state = rows.Column("fix_state"), fixed_version = rows.Column("fixed_version");
  const VexColumns vex(rows);
  const FeedColumns feeds(rows);
  std::vector<CveMatch> matches;
  for (int row = 0; row < rows.size(); row++) {
    CveMatch& m = matches.emplace_back();
    m.image_id = rows.Text(row, image_id);
    m.image_name = rows.Text(row, image_name);
    m.repository = rows.Text(row, repository);
    m.version_id = rows.Text(row, version_id);
    m.tag = rows.Text(row, tag);
    m.digest = rows.Text(row, digest);
    m.latest = rows.Bool(row, latest);
    m.scan_id = rows.Text(row, scan_id);
    m.scanned_at = rows.Text(row, scanned_at);
    m.vuln_id = rows.Text(row, vuln_id);
    m.package_name = rows.Text(row, package_name);
    m.package_version = rows.OptionalText(row, package_version);
    m.package_type = rows.OptionalText(row, package_type);
    m.purl = rows.OptionalText(row, purl);
    m.severity = rows.Text(row, severity);
    m.fix_state = rows.Text(row, fix_state);
    m.fixed_version = rows.OptionalText(row, fixed_version);
    m.vex = vex.At(rows, row);
    m.feeds = feeds.At(rows, row);
  }
  return matches;
}

void WritePackage(JsonWriter& w, const CveMatch& m) {
  w.StartObject();
  WriteString(w, "vulnerabilityId", m.vuln_id);
  WriteString(w, "name", m.package_name);
  WriteOptionalString(w, "version", m.package_version);
  WriteOptionalString(w, "type", m.package_type);
  WriteOptionalString(w, "purl", m.purl);
  WriteString(w, "severity", m.severity);
  WriteString(w, "fixState", m.fix_state);
  WriteOptionalString(w, "fixedVersion", m.fixed_version);
  WriteVex(w, m.vex);
  WriteFeeds(w, m.feeds);
  w.EndObject();
}

void StartVersion(JsonWriter& w, const CveMatch& m) {
  w.StartObject();
  WriteString(w, "id", m.version_id);
  WriteString(w, "tag", m.tag);
  WriteString(w, "digest", m.digest);
  WriteBool(w, "latest", m.latest);
  WriteKey(w, "scan");
  w.StartObject();
  WriteString(w, "id", m.scan_id);
  WriteString(w, "scannedAt", m.scanned_at);
  w.EndObject();
  WriteKey(w, "packages");
  w.StartArray();
}

// An image of either list: {"id", "name", "repository", "versions": [ ... left open for its versions.
void StartImage(JsonWriter& w, std::string_view id, std::string_view name, std::string_view repository) {
  w.StartObject();
  WriteString(w, "id", id);
  WriteString(w, "name", name);
  WriteString(w, "repository", repository);
  WriteKey(w, "versions");
  w.StartArray();
}

void EndArrayAndObject(JsonWriter& w) {
  w.EndArray();
  w.EndObject();
}

// The rows of unscanned_*.
std::vector<UnscannedVersion> UnscannedAt(const Rows& rows) {
  const int image_id = rows.Column("image_id"), image_name = rows.Column("image_name"),
            repository = rows.Column("repository"), version_id = rows.Column("version_id"), tag = rows.Column("tag"),
            digest = rows.Column("digest"), latest = rows.Column("latest");
  std::vector<UnscannedVersion> unscanned;
  for (int row = 0; row < rows.size(); row++) {
    unscanned.push_back({std::string(rows.Text(row, image_id)), std::string(rows.Text(row, image_name)),
                         std::string(rows.Text(row, repository)), std::string(rows.Text(row, version_id)),
                         std::string(rows.Text(row, tag)), std::string(rows.Text(row, digest)),
                         rows.Bool(row, latest)});
  }
  return unscanned;
}

// "unscannedImages": each image with its versions that were never scanned.
void WriteUnscanned(JsonWriter& w, const std::vector<UnscannedVersion>& unscanned) {
  WriteKey(w, "unscannedImages");
  w.StartArray();
  for (size_t i = 0; i < unscanned.size(); i++) {
    const UnscannedVersion& u = unscanned[i];
    bool new_image = i == 0 || unscanned[i - 1].image_id != u.image_id;
    if (new_image && i > 0) EndArrayAndObject(w);  // the previous image
    if (new_image) StartImage(w, u.image_id, u.image_name, u.repository);
    w.StartObject();
    WriteString(w, "id", u.version_id);
    WriteString(w, "tag", u.tag);
    WriteString(w, "digest", u.digest);
    WriteBool(w, "latest", u.latest);
    w.EndObject();
  }
  if (!unscanned.empty()) EndArrayAndObject(w);
  w.EndArray();
}

}  // namespace

std::string CveLookupJson(const std::string& cve_id, bool all_versions, const std::vector<CveMatch>& matches,
                          const std::vector<UnscannedVersion>& unscanned) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "cveId", cve_id);
  WriteString(w, "versions", all_versions ? "all" : "latest");
  WriteKey(w, "images");
  w.StartArray();
  for (size_t i = 0; i < matches.size(); i++) {
    const CveMatch& m = matches[i];
    bool new_image = i == 0 || matches[i - 1].image_id != m.image_id;
    bool new_version = new_image || matches[i - 1].version_id != m.version_id;
    if (new_version && i > 0) EndArrayAndObject(w);  // the previous version
    if (new_image && i > 0) EndArrayAndObject(w);    // the previous image
    if (new_image) StartImage(w, m.image_id, m.image_name, m.repository);
    if (new_version) StartVersion(w, m);
    WritePackage(w, m);
  }
  if (!matches.empty()) {
    EndArrayAndObject(w);
    EndArrayAndObject(w);
  }
  w.EndArray();
  WriteUnscanned(w, unscanned);
  w.EndObject();
  return buffer.GetString();
}

// GET /v1/cve/{cveId}?versions=latest|all   (scope read:vulns; portal: GET /api/cve/{cveId})
//   200 {"cveId", "versions", "images": [...]}: licensed images whose latest version (or, with
//       versions=all, any version) carries the id or has it as an alias, with the affected
//       packages, fixState and fixedVersion; an id no image carries gives an empty list; and
//       unscannedImages: the licensed images whose latest version (versions=all: any version) was
//       never scanned, for which the answer cannot say
//   400 VALIDATION_ERROR (cveId: CVE-YYYY-NNNN... or GHSA-xxxx-xxxx-xxxx; versions); 401; 403; 429
Reply LookUpCve(Context& ctx) {
  std::optional<std::string> cve_id = NormaliseVulnId(ctx.request.PathParam("cveId"));
  if (!cve_id) ThrowInvalid("cveId", "must look like CVE-2024-3094 or GHSA-xxxx-xxxx-xxxx");
  bool all_versions = ctx.query.Text("versions") == "all";  // else latest, the default
  std::vector<Rows> found =
      ctx.db.RunAll({{all_versions ? kCveLookupAll : kCveLookupLatest, {ctx.principal.tenant_id, *cve_id}},
                     {all_versions ? kUnscannedAll : kUnscannedLatest, {ctx.principal.tenant_id}}});
  return Reply::Json(200, CveLookupJson(*cve_id, all_versions, MatchesAt(found[0]), UnscannedAt(found[1])));
}

}  // namespace icat::vulns
