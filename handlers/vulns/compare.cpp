// GET /v1/images/{id}/compare and the portal's equivalent: what moving from one version of an image
// to another changes, in packages (from the SBOMs as ingested) and vulnerabilities (from the two
// versions' latest scans), docs/compare.md.
#include "compare.hpp"

#include <cstdlib>

#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/paging.hpp"
#include "icat/scan_status.hpp"
#include "queries.hpp"
#include "vulns.hpp"

namespace icat::vulns {

namespace {

// A version named by ?from= or ?to=: its id, its tag or its digest, as params of compare_versions.
struct SideRef {
  std::optional<std::string> id, tag, digest;
};

// 400 unless the text can name a version; the portal names versions by id or digest only.
SideRef ReadSide(const std::string& name, const std::string& text, bool tags) {
  if (IsImageDigest(text)) return {std::nullopt, std::nullopt, text};
  std::optional<VersionRef> ref = ParseVersionRef(text);
  if (ref && (tags || ref->id)) return {ref->id, tags ? ref->tag : std::nullopt, std::nullopt};
  ThrowInvalid(name, tags ? "must be a version id, tag or digest (sha256:<hex>)" : "must be a version id or digest");
}

// One side of the answer, as compare_versions returns it (columns prefixed "from_" or "to_").
struct Side {
  std::string id, tag, digest;
  std::optional<std::string> scan_id, scanned_at, package_set, findings_set;
};

Side SideAt(const Rows& rows, const std::string& prefix, const char* name, const std::string& text) {
  if (rows.IsNull(0, rows.Column(prefix + "id"))) {
    throw ApiError(Error::kNOT_FOUND, "No version " + text + " of this image (" + name + ").");
  }
  auto text_of = [&](const char* column) { return rows.OptionalText(0, rows.Column(prefix + column)); };
  Side side{*text_of("id"),        *text_of("tag"),     *text_of("digest"), text_of("scan_id"),
            text_of("scanned_at"), text_of("packages"), text_of("findings")};
  if (!side.scan_id) {
    throw ApiError(Error::kCONFLICT, "Version " + side.tag + " (" + name + ") has no scan yet: nothing to compare.");
  }
  if (!side.package_set) {
    throw ApiError(Error::kCONFLICT, "The latest scan of version " + side.tag + " (" + name +
                                         ") has no stored packages: it was ingested without SBOMs or before "
                                         "packages were stored (an operator runs icatctl packages backfill).");
  }
  return side;
}

std::vector<PackageRow> PackagesOf(Db& db, const std::string& set_id) {
  Rows rows = db.Run(kPackagesOfSet, {set_id});
  const int identity = rows.Column("identity"), purl = rows.Column("purl"), name = rows.Column("name"),
            type = rows.Column("type"), version = rows.Column("version");
  std::vector<PackageRow> out;
  out.reserve(rows.size());
  for (int i = 0; i < rows.size(); i++) {
    out.push_back({std::string(rows.Text(i, identity)), std::string(rows.Text(i, purl)),
                   std::string(rows.Text(i, name)), std::string(rows.Text(i, type)), rows.OptionalText(i, version)});
  }
  return out;
}

std::vector<FindingRow> FindingsOf(Db& db, const std::string& set_id) {
  Rows rows = db.Run(kFindingsOfSet, {set_id});
  const int vuln_id = rows.Column("vuln_id"), aliases = rows.Column("aliases"), severity = rows.Column("severity"),
            fix_state = rows.Column("fix_state"), package_name = rows.Column("package_name"),
            package_version = rows.Column("package_version"), purl = rows.Column("purl");
  const FeedColumns feeds(rows);
  std::vector<FindingRow> out;
  for (int i = 0; i < rows.size(); i++) {
    FindingRow& f = out.emplace_back();
    f.vuln_id = rows.Text(i, vuln_id);
    f.aliases = ParseTextArray(rows.Text(i, aliases));
    f.severity = rows.Text(i, severity);
    f.fix_state = rows.Text(i, fix_state);
    f.package_name = rows.Text(i, package_name);
    f.package_version = rows.OptionalText(i, package_version);
    f.purl = rows.OptionalText(i, purl);
    f.feeds = feeds.At(rows, i);
  }
  return out;
}

void WriteSide(JsonWriter& w, const char* key, const Side& side) {
  WriteKey(w, key);
  w.StartObject();
  WriteString(w, "id", side.id);
  WriteString(w, "tag", side.tag);
  WriteString(w, "digest", side.digest);
  WriteKey(w, "scan");
  w.StartObject();
  WriteString(w, "id", *side.scan_id);
  WriteString(w, "scannedAt", *side.scanned_at);
  w.EndObject();
  w.EndObject();
}

// Every compare route ends here; `tags` false for the portal, which names versions by id or digest.
Reply Compare(Context& ctx, const std::string& image_id, bool tags) {
  if (!ctx.query.Has("from")) ThrowInvalid("from", "is required: the version to compare from");
  std::string from_text = ctx.query.Text("from").value_or("");
  std::optional<std::string> to_text = ctx.query.Text("to");
  SideRef from = ReadSide("from", from_text, tags);
  SideRef to = to_text ? ReadSide("to", *to_text, tags) : SideRef{};
  if (!IsUuid(image_id)) throw ApiError(Error::kNOT_FOUND, "No such image.");
  Rows rows = ctx.db.Run(kCompareVersions, {ctx.principal.tenant_id, image_id, from.id, from.tag, from.digest, to.id,
                                            to.tag, to.digest, to_text.has_value()});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such image.");
  Side before = SideAt(rows, "from_", "from", from_text);
  Side after = SideAt(rows, "to_", "to", to_text.value_or("latest"));
  PackageDiff packages = DiffPackages(PackagesOf(ctx.db, *before.package_set), PackagesOf(ctx.db, *after.package_set));
  VulnDiff vulns =
      DiffVulnerabilities(FindingsOf(ctx.db, *before.findings_set), FindingsOf(ctx.db, *after.findings_set));

  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteImageOf(w, rows.Text(0, rows.Column("image_id")), rows.Text(0, rows.Column("image_name")));
  WriteSide(w, "from", before);
  WriteSide(w, "to", after);
  WritePackageDiff(w, packages);
  WriteVulnDiff(w, vulns);
  w.EndObject();
  return Reply::Json(200, buffer.GetString());
}

}  // namespace

// GET /v1/images/{id}/compare?from=&to=   (scope read:vulns)
//   200 the comparison (docs/compare.md); to absent: the image's latest version
//   400 VALIDATION_ERROR (from missing, from or to naming no version's form); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it
//   409 CONFLICT: a version without a scan, or whose latest scan has no stored packages
Reply CompareVersions(Context& ctx) { return Compare(ctx, ctx.request.PathParam("id"), true); }

// GET /api/docker-images/{imageId}/compare?from=&to=   (portal: token + X-Tenant)
//   as above; versions by id or digest (the portal names versions by id)
Reply ComparePortalVersions(Context& ctx) { return Compare(ctx, ctx.request.PathParam("imageId"), false); }

}  // namespace icat::vulns
