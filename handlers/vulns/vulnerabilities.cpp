// GET /v1/images/{id}/vulnerabilities, .../versions/{versionId}/vulnerabilities and the portal's
// per-version equivalent: the findings of a version's latest scan, filtered and cursor-paginated,
// each with the vendor's VEX statement that applies to it, with the counts stored at ingest.
#include <cstdlib>

#include "icat/errors.hpp"
#include "icat/image_reference.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/scan_status.hpp"
#include "queries.hpp"
#include "vulns.hpp"

namespace icat::vulns {

namespace {

// "findingCounts": package findings by severity.
void WriteFindingCounts(JsonWriter& w, const std::array<long long, 5>& counts) {
  WriteKey(w, "findingCounts");
  w.StartObject();
  for (size_t i = 0; i < kSeverities.size(); i++) WriteInt(w, kSeverities[i], counts[i]);
  w.EndObject();
}

void WriteFinding(JsonWriter& w, const FindingView& f) {
  w.StartObject();
  WriteString(w, "id", f.vuln_id);
  WriteStringArray(w, "aliases", f.aliases);
  WriteKey(w, "package");
  w.StartObject();
  WriteString(w, "name", f.package_name);
  WriteOptionalString(w, "version", f.package_version);
  WriteOptionalString(w, "type", f.package_type);
  WriteOptionalString(w, "purl", f.purl);
  w.EndObject();
  WriteString(w, "severity", f.severity);
  WriteOptionalDouble(w, "cvssScore", f.cvss_score);
  WriteString(w, "fixState", f.fix_state);
  WriteOptionalString(w, "fixedVersion", f.fixed_version);
  WriteOptionalString(w, "title", f.title);
  WriteOptionalString(w, "url", f.url);
  WriteKey(w, "severitySources");
  w.RawValue(f.severity_sources.data(), f.severity_sources.size(), rapidjson::kArrayType);
  WriteOptionalString(w, "severitySource", f.severity_source);
  WriteVex(w, f.vex);
  WriteFeeds(w, f.feeds);
  w.EndObject();
}

// The first row of findings_of_*: the image, the version, its latest scan with counts.
ScanView ScanAt(const Rows& rows) {
  ScanView s;
  s.image_id = rows.Text(0, rows.Column("image_id"));
  s.image_name = rows.Text(0, rows.Column("image_name"));
  s.version_id = rows.OptionalText(0, rows.Column("version_id"));
  s.tag = rows.OptionalText(0, rows.Column("tag"));
  s.digest = rows.OptionalText(0, rows.Column("digest"));
  s.scan_id = rows.OptionalText(0, rows.Column("scan_id"));
  s.scanner = rows.OptionalText(0, rows.Column("scanner_name"));
  s.scanner_version = rows.OptionalText(0, rows.Column("scanner_version"));
  s.scanned_at = rows.OptionalText(0, rows.Column("scanned_at"));
  s.vulndb_updated_at = rows.OptionalText(0, rows.Column("vulndb_updated_at"));
  const char* counts[5] = {"critical_count", "high_count", "medium_count", "low_count", "unknown_count"};
  const char* findings[5] = {"findings_critical", "findings_high", "findings_medium", "findings_low",
                             "findings_unknown"};
  for (int i = 0; i < 5; i++) {
    s.vulnerability_counts.by_severity[i] = rows.Int(0, rows.Column(counts[i]));
    s.finding_counts[i] = rows.Int(0, rows.Column(findings[i]));
  }
  s.vulnerability_counts.vex_excluded = rows.Int(0, rows.Column("vex_excluded_count"));
  s.fixable = rows.Int(0, rows.Column("fixable_count"));
  return s;
}

// The findings of at most `count` rows of findings_of_*; the finding columns are NULL when the page is empty.
std::vector<FindingView> FindingsAt(const Rows& rows, int count) {
  const int row_id = rows.Column("finding_id"), vuln_id = rows.Column("vuln_id"), aliases = rows.Column("aliases"),
            package_name = rows.Column("package_name"), package_version = rows.Column("package_version"),
            package_type = rows.Column("package_type"), purl = rows.Column("purl"), severity = rows.Column("severity"),
            cvss_score = rows.Column("cvss_score"), fix_state = rows.Column("fix_state"),
            fixed_version = rows.Column("fixed_version"), title = rows.Column("title"),
            url = rows.Column("primary_url"), severity_sources = rows.Column("severity_sources"),
            severity_source = rows.Column("severity_source");
  const VexColumns vex(rows);
  const FeedColumns feeds(rows);
  std::vector<FindingView> findings;
  for (int row = 0; row < rows.size() && row < count; row++) {
    if (rows.IsNull(row, row_id)) continue;
    FindingView& f = findings.emplace_back();
    f.row_id = rows.Int(row, row_id);
    f.vuln_id = rows.Text(row, vuln_id);
    f.aliases = ParseTextArray(rows.Text(row, aliases));
    f.package_name = rows.Text(row, package_name);
    f.package_version = rows.OptionalText(row, package_version);
    f.package_type = rows.OptionalText(row, package_type);
    f.purl = rows.OptionalText(row, purl);
    f.severity = rows.Text(row, severity);
    if (!rows.IsNull(row, cvss_score)) {
      f.cvss_score = std::strtod(std::string(rows.Text(row, cvss_score)).c_str(), nullptr);
    }
    f.fix_state = rows.Text(row, fix_state);
    f.fixed_version = rows.OptionalText(row, fixed_version);
    f.title = rows.OptionalText(row, title);
    f.url = rows.OptionalText(row, url);
    f.severity_sources = rows.Text(row, severity_sources);
    f.severity_source = rows.OptionalText(row, severity_source);
    f.vex = vex.At(rows, row);
    f.feeds = feeds.At(rows, row);
  }
  return findings;
}

// A cursor holds the scan it belongs to (marked "risk:" in risk order) and where the page ends: the
// last row seen, or in risk order the rows shown so far. A page of one scan never continues into
// another after a new scan arrives, nor into the other order.
// The cursor is refused when read (routes.cpp): malformed, it is a 400 only once the image is found.
std::optional<long long> CursorAfter(const QueryValues& query, const std::optional<std::string>& scan_id, bool risk) {
  std::optional<std::vector<std::string>> cursor = query.Cursor();
  if (!cursor) return std::nullopt;
  if (!scan_id || (*cursor)[0] != (risk ? "risk:" : "") + *scan_id) {
    ThrowInvalid("cursor",
                 "belongs to an earlier scan of this version or to another sort; start again without a cursor");
  }
  return std::atoll((*cursor)[1].c_str());
}

bool ByRisk(const QueryValues& query) { return query.Text("sort") == "risk"; }

// The row a well-formed cursor continues after. The statement needs it before the scan is known;
// ListingReply judges the cursor afterwards, so an unknown image is a 404 whatever the cursor.
std::optional<long long> RowSeen(const QueryValues& query) {
  try {
    std::optional<std::vector<std::string>> cursor = query.Cursor();
    if (!cursor) return std::nullopt;
    std::string scan = ByRisk(query) && (*cursor)[0].starts_with("risk:") ? (*cursor)[0].substr(5) : (*cursor)[0];
    return CursorAfter(query, scan, ByRisk(query));
  } catch (const ApiError&) {
    return std::nullopt;
  }
}

// $1 to $8 of findings_of_* and risk_of_*: tenant, image, filters, where the page starts, one more
// than a page, the feed filters.
std::vector<Param> PageParams(const Context& ctx, const std::string& image_id, const Filters& filters, int limit) {
  auto array = [](const std::optional<std::vector<std::string>>& values) {
    return values ? std::optional(TextArrayLiteral(*values)) : std::nullopt;
  };
  return {ctx.principal.tenant_id,
          image_id,
          array(filters.severities),
          array(filters.fix_states),
          RowSeen(ctx.query),
          limit + 1,
          filters.kev,
          filters.epss_above};
}

// The listing the rows of findings_of_* hold (one round trip: the scan and its page together);
// 404 when there are none.
Reply ListingReply(const QueryValues& query, const Rows& rows, const char* not_found, int limit) {
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, not_found);
  ScanView scan = ScanAt(rows);
  bool risk = ByRisk(query);
  std::optional<long long> after = CursorAfter(query, scan.scan_id, risk);  // 400: malformed or of another scan
  std::vector<FindingView> findings = FindingsAt(rows, limit);
  std::optional<std::string> next;
  if (rows.size() > limit) {
    next = risk ? EncodeCursor({"risk:" + *scan.scan_id, std::to_string(after.value_or(0) + limit)})
                : EncodeCursor({*scan.scan_id, std::to_string(findings.back().row_id)});
  }
  return Reply::Json(200, VulnerabilityListJson(scan, findings, next));
}

// Every findings route ends here: the listing of image `image_id`'s latest version when `version`
// is nullopt, else of the version it names; `known_form` false (a malformed id) is the 404 of an
// unknown one, after the filters are checked as for any other.
Reply Listing(Context& ctx, const std::string& image_id, const std::optional<VersionRef>& version, bool known_form) {
  Filters filters{ctx.query.Words("severity"), ctx.query.Words("fixState"), ctx.query.Text("kev"),
                  ctx.query.Text("epssAbove")};
  int limit = ctx.query.Limit();
  const char* not_found = version ? "No such image or version." : "No such image.";
  if (!known_form) throw ApiError(Error::kNOT_FOUND, not_found);
  std::vector<Param> params = PageParams(ctx, image_id, filters, limit);
  if (version) {
    params.push_back(version->id);
    params.push_back(version->tag);
  }
  const Statement& statement = ByRisk(ctx.query) ? (version ? kRiskOfVersion : kRiskOfLatestVersion)
                                                 : (version ? kFindingsOfVersion : kFindingsOfLatestVersion);
  Rows rows = ctx.db.Run(statement, params);
  return ListingReply(ctx.query, rows, not_found, limit);
}

}  // namespace

VexColumns::VexColumns(const Rows& rows)
    : status(rows.Column("vex_status")),
      justification(rows.Column("vex_justification")),
      impact(rows.Column("vex_impact")),
      time(rows.Column("vex_time")),
      author(rows.Column("vex_author")) {}

std::optional<VexView> VexColumns::At(const Rows& rows, int row) const {
  if (rows.IsNull(row, status)) return std::nullopt;
  return VexView{std::string(rows.Text(row, status)), rows.OptionalText(row, justification),
                 rows.OptionalText(row, impact), std::string(rows.Text(row, time)),
                 std::string(rows.Text(row, author))};
}

void WriteVex(JsonWriter& w, const std::optional<VexView>& vex) {
  WriteKey(w, "vex");
  if (!vex) {
    w.Null();
    return;
  }
  w.StartObject();
  WriteString(w, "status", vex->status);
  WriteOptionalString(w, "justification", vex->justification);
  WriteOptionalString(w, "impactStatement", vex->impact_statement);
  WriteString(w, "statementTime", vex->statement_time);
  WriteString(w, "author", vex->author);
  w.EndObject();
}

std::string VulnerabilityListJson(const ScanView& s, const std::vector<FindingView>& findings,
                                  const std::optional<std::string>& next_cursor) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteImageOf(w, s.image_id, s.image_name);
  WriteKey(w, "version");
  if (s.version_id) {
    w.StartObject();
    WriteString(w, "id", *s.version_id);
    WriteOptionalString(w, "tag", s.tag);
    WriteOptionalString(w, "digest", s.digest);
    w.EndObject();
  } else {
    w.Null();
  }
  WriteKey(w, "scan");
  if (s.scan_id) {
    w.StartObject();
    WriteString(w, "id", *s.scan_id);
    WriteOptionalString(w, "scanner", s.scanner);
    WriteOptionalString(w, "scannerVersion", s.scanner_version);
    WriteOptionalString(w, "scannedAt", s.scanned_at);
    WriteOptionalString(w, "vulnDbUpdatedAt", s.vulndb_updated_at);
    w.EndObject();
  } else {
    w.Null();
  }
  WriteScanStatus(w, s.scanned_at);
  if (!s.scan_id) {
    // Never scanned: nothing is known, so nothing is given that could read as "no vulnerabilities".
    for (const char* key : {"vulnerabilityCounts", "vexExcludedCount", "findingCounts", "fixableCount",
                            "vulnerabilities", "nextCursor"}) {
      WriteKey(w, key);
      w.Null();
    }
    w.EndObject();
    return buffer.GetString();
  }
  WriteVulnerabilityCounts(w, s.vulnerability_counts);
  WriteFindingCounts(w, s.finding_counts);
  WriteInt(w, "fixableCount", s.fixable);
  WriteKey(w, "vulnerabilities");
  w.StartArray();
  for (const FindingView& f : findings) WriteFinding(w, f);
  w.EndArray();
  WriteOptionalString(w, "nextCursor", next_cursor);
  w.EndObject();
  return buffer.GetString();
}

// GET /v1/images/{id}/vulnerabilities?severity=&fixState=&kev=&epssAbove=&sort=&limit=&cursor=   (scope read:vulns)
//   200 the findings of the latest scan of the image's latest version, severity first (sort=risk:
//       known exploited, then EPSS, then severity; docs/feeds.md), each with epss and kev, with the
//       stored counts and scanStatus "scanned"; before the first version or scan, scanStatus
//       "unscanned" with version/scan, counts and vulnerabilities null (never an empty list)
//   400 VALIDATION_ERROR (severity, fixState, kev, epssAbove, sort, limit, cursor); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed id, all alike
Reply ListImageVulnerabilities(Context& ctx) {
  std::string id = ctx.request.PathParam("id");
  return Listing(ctx, id, std::nullopt, IsUuid(id));
}

// GET /v1/images/{id}/versions/{versionId}/vulnerabilities?severity=&fixState=&kev=&epssAbove=&sort=&limit=&cursor=
//   (scope read:vulns)
//   200 as above, for the latest scan of the version {versionId} names: its id or its tag
//   400 VALIDATION_ERROR (severity, fixState, kev, epssAbove, sort, limit, cursor); 401; 403 INSUFFICIENT_SCOPE; 429
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or no such version of it
Reply ListImageVersionVulnerabilities(Context& ctx) {
  std::string id = ctx.request.PathParam("id");
  std::optional<VersionRef> version = ParseVersionRef(ctx.request.PathParam("versionId"));
  return Listing(ctx, id, version, IsUuid(id) && version);
}

// GET
// /api/docker-images/{imageId}/versions/{versionId}/vulnerabilities?severity=&fixState=&kev=&epssAbove=&sort=&limit=&cursor=
//   (portal: token + X-Tenant)
//   200 as above, for that version's latest scan
//   400 VALIDATION_ERROR (X-Tenant, Authorization, severity, fixState, limit, cursor); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image or version
Reply ListVersionVulnerabilities(Context& ctx) {
  std::string image_id = ctx.request.PathParam("imageId");
  std::string version_id = ctx.request.PathParam("versionId");
  // The portal names a version by its id only.
  return Listing(ctx, image_id, VersionRef{version_id, std::nullopt}, IsUuid(image_id) && IsUuid(version_id));
}

}  // namespace icat::vulns
