// The vulns group's named SQL. Every query joins licences: an unlicensed image does not exist.
#pragma once

#include <vector>

#include "icat/db.hpp"
#include "icat/feeds.hpp"
#include "icat/image_reference.hpp"

namespace icat::vulns {

// The vendor's VEX statement that applies to finding x of version v (sql/V0017 vex_statement_for, one
// indexed look-up per finding), as vx, and its columns (NULL when none applies).
#define ICAT_VEX_OF_FINDING \
  "LEFT JOIN LATERAL vex_statement_for(v.image_id, v.id, x.vuln_id, x.aliases, x.purl) vx ON true "
#define ICAT_VEX_COLUMNS                                                                                \
  "vx.status AS vex_status, vx.justification AS vex_justification, vx.impact_statement AS vex_impact, " \
  "rfc3339(vx.statement_time) AS vex_time, vx.author AS vex_author "

// The same for a finding of image $2's page: when the image has no statement at all (one look-up,
// an InitPlan run once per statement), no finding is looked up; a page of 50 findings spent most of
// its time starting the per-finding look-up (bench/README.md, "The -miss rows").
#define ICAT_VEX_OF_PAGE_FINDING                                                                        \
  "LEFT JOIN LATERAL (SELECT * FROM vex_statement_for(v.image_id, v.id, x.vuln_id, x.aliases, x.purl) " \
  "WHERE EXISTS (SELECT FROM vex_statements g WHERE g.image_id = $2::uuid)) vx ON true "

// The image, a version and that version's latest scan with its stored counts, then one finding of
// the page with its severity sources and VEX statement (20 columns, NULL when the page is empty).
#define ICAT_LISTING_COLUMNS                                                                                          \
  "i.id AS image_id, i.name AS image_name, v.id AS version_id, v.tag, v.digest, s.id AS scan_id, s.scanner_name, "    \
  "s.scanner_version, rfc3339(s.scanned_at) AS scanned_at, "                                                          \
  "rfc3339(s.vulndb_updated_at) AS vulndb_updated_at, s.critical_count, s.high_count, s.medium_count, s.low_count, "  \
  "s.unknown_count, s.vex_excluded_count, s.findings_critical, s.findings_high, s.findings_medium, s.findings_low, "  \
  "s.findings_unknown, s.fixable_count, "                                                                             \
  "x.id AS finding_id, x.vuln_id, x.aliases, x.package_name, x.package_version, x.package_type, x.purl, x.severity, " \
  "x.cvss_score::text AS cvss_score, x.fix_state, x.fixed_version, x.title, x.primary_url, x.severity_sources, "      \
  "x.severity_source, x.epss_score, x.epss_percentile, x.epss_date, x.kev_date_added, x.kev_due_date, "             \
  "x.kev_ransomware, " ICAT_VEX_COLUMNS "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "

// A page of the scan's findings, each with its feeds (sql/V0031 finding_feeds) and VEX statement,
// filtered by $3 severities, $4 fix states, $7 known exploited or not and $8 an EPSS score above, then
// ordered by `page` (ICAT_BY_ID or ICAT_BY_RISK). A left join: the scan's row comes back without
// findings.
#define ICAT_FINDINGS_PAGE(page)                                                                                    \
  "LEFT JOIN LATERAL (SELECT x.*, ff.kev_known, ff.risk_epss, " ICAT_FINDING_FEEDS_COLUMNS                         \
  "FROM vulnerabilities x " ICAT_FINDING_FEEDS_JOIN "WHERE x.set_id = s.findings_set_id "                          \
  "AND ($3::text[] IS NULL OR x.severity = ANY($3::text[])) "                                                      \
  "AND ($4::text[] IS NULL OR x.fix_state = ANY($4::text[])) "                                                     \
  "AND ($7::boolean IS NULL OR ff.kev_known = $7::boolean) AND ($8::numeric IS NULL OR ff.epss_score > $8::numeric) " \
  page ") x ON true " ICAT_VEX_OF_PAGE_FINDING

// Stored order (severity first), walked on (set_id, id) from the row after the cursor's ($5; ids start
// at 1). The cursor's bound is a CASE, not a COALESCE: Postgres runs no condition it does not know to be
// leakproof ahead of the row policy (sql/V0024), COALESCE among them, so it could not bound the index
// scan and every finding before the cursor was read.
#define ICAT_BY_ID "AND x.id > CASE WHEN $5::bigint IS NULL THEN 0 ELSE $5::bigint END ORDER BY x.id LIMIT $6"
#define ICAT_BY_ID_OUTER "ORDER BY x.id"
// Risk order (docs/feeds.md): known exploited first, then EPSS score descending (unscored last), then
// stored order, which is severity rank descending with a stable tie-break. The cursor ($5) is the
// number of rows already shown: the order is of computed values, and a scan's findings never change.
#define ICAT_BY_RISK "ORDER BY ff.kev_known DESC, ff.risk_epss DESC, x.id OFFSET COALESCE($5::bigint, 0) LIMIT $6"
#define ICAT_BY_RISK_OUTER "ORDER BY x.kev_known DESC, x.risk_epss DESC, x.id"

// The look-up starts from the current findings of the id (the findings of each version's latest
// findings set, sql/V0021), by its partial index, and of an alias of it, by their ids in
// current_finding_aliases (sql/V0024: `aliases @> ARRAY[$2]` cannot use an index under the row
// policy), so the plan starts from a handful of rows whatever the planner guesses (joined the other
// way round, one look-up took 36 ms to seconds on the bench data set); those rows are the answer's
// packages. Each goes to the one version whose latest set holds it, and to its image, by key (lateral
// joins kept apart by OFFSET 0: joined plainly, the licence policies' costing made the planner hash
// every version and image of the catalogue, bench/README.md "The -miss rows").
#define ICAT_CVE_LOOKUP(version_filter)                                                                             \
  "WITH hits AS MATERIALIZED (SELECT id, set_id, vuln_id, aliases, package_name, package_version, "                 \
  "package_type, purl, severity, fix_state, fixed_version FROM vulnerabilities WHERE current AND (vuln_id = $2 "    \
  "OR id = ANY (ARRAY(SELECT a.finding_id FROM current_finding_aliases a WHERE a.alias = $2)))) "                   \
  "SELECT i.id AS image_id, i.name AS image_name, i.repository, v.id AS version_id, v.tag, v.digest, "              \
  "v.id = i.latest_version_id AS latest, s.id AS scan_id, rfc3339(s.scanned_at) AS scanned_at, x.vuln_id, "         \
  "x.package_name, x.package_version, x.package_type, x.purl, x.severity, "                                         \
  "x.fix_state, x.fixed_version, " ICAT_FINDING_FEEDS_COLUMNS ", " ICAT_VEX_COLUMNS                           \
  "FROM hits x JOIN LATERAL (SELECT * FROM image_versions v WHERE v.latest_findings_set_id = x.set_id OFFSET 0) v " \
  "ON true JOIN LATERAL (SELECT * FROM images i WHERE i.id = v.image_id OFFSET 0) i ON true " version_filter        \
  "JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 JOIN scans s ON s.id = "                               \
  "v.latest_scan_id " ICAT_VEX_OF_FINDING ICAT_FINDING_FEEDS_JOIN "ORDER BY i.name, i.id, v.published_at DESC, v.id, x.id"

// The licensed versions never scanned. image_versions_latest_scan (V0006) holds the NULLs too, so the
// few of them are found without walking the tenant's licences.
#define ICAT_UNSCANNED(version_filter)                                                                 \
  "SELECT i.id AS image_id, i.name AS image_name, i.repository, v.id AS version_id, v.tag, v.digest, " \
  "v.id = i.latest_version_id AS latest "                                                              \
  "FROM image_versions v JOIN images i ON i.id = v.image_id " version_filter                           \
  "JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 WHERE v.latest_scan_id IS NULL "          \
  "ORDER BY i.name, i.id, v.published_at DESC, v.id"

// Each statement reads as SQL, a line per clause.
// clang-format off
// $1 tenant, $2 image id, $3 severities or NULL, $4 fix states or NULL, $5 the cursor's row or NULL,
// $6 limit, $7 kev or NULL, $8 epssAbove or NULL: the image's latest version, that version's latest
// scan and a page of its findings; no row when the image is unknown or unlicensed
#define ICAT_OF_LATEST_VERSION(page, outer)                                                                   \
  "SELECT " ICAT_LISTING_COLUMNS                                                                              \
  "LEFT JOIN image_versions v ON v.id = i.latest_version_id LEFT JOIN scans s ON s.id = v.latest_scan_id " \
  ICAT_FINDINGS_PAGE(page) "WHERE i.id = $2::uuid " outer
// $1 to $8 as above, $9 version id or NULL, $10 tag or NULL (a VersionRef; the portal names versions
// by id only): that version, its latest scan and a page of its findings
#define ICAT_OF_VERSION(page, outer)                                                                 \
  "SELECT " ICAT_LISTING_COLUMNS                                                                     \
  "JOIN image_versions v ON v.image_id = i.id AND v.id = " ICAT_VERSION_OF_REF("$2::uuid", "$9", "$10") " " \
  "LEFT JOIN scans s ON s.id = v.latest_scan_id " ICAT_FINDINGS_PAGE(page) "WHERE i.id = $2::uuid " outer
inline constexpr Statement kFindingsOfLatestVersion{"findings_of_latest_version",
    ICAT_OF_LATEST_VERSION(ICAT_BY_ID, ICAT_BY_ID_OUTER)};
inline constexpr Statement kFindingsOfVersion{"findings_of_version", ICAT_OF_VERSION(ICAT_BY_ID, ICAT_BY_ID_OUTER)};
// The same in risk order (?sort=risk).
inline constexpr Statement kRiskOfLatestVersion{"risk_of_latest_version",
    ICAT_OF_LATEST_VERSION(ICAT_BY_RISK, ICAT_BY_RISK_OUTER)};
inline constexpr Statement kRiskOfVersion{"risk_of_version", ICAT_OF_VERSION(ICAT_BY_RISK, ICAT_BY_RISK_OUTER)};
// $1 tenant, $2 vulnerability id (upper case): the findings of that id (or an alias of it) in the
// latest scan of each licensed image's latest version (_latest) or of each licensed version (_all).
// Two statements rather than a flag, so each keeps one cached plan instead of being planned per call.
inline constexpr Statement kCveLookupLatest{"cve_lookup_latest", ICAT_CVE_LOOKUP("AND v.id = i.latest_version_id ")};
inline constexpr Statement kCveLookupAll{"cve_lookup_all", ICAT_CVE_LOOKUP("")};
// $1 tenant: the licensed images' latest versions (_latest) or all their versions (_all) that
// have no scan, which a look-up cannot answer for.
inline constexpr Statement kUnscannedLatest{"unscanned_latest", ICAT_UNSCANNED("AND v.id = i.latest_version_id ")};
inline constexpr Statement kUnscannedAll{"unscanned_all", ICAT_UNSCANNED("")};

// A compared version: named by id or tag (a VersionRef: id, tag) or by digest, in image i.
#define ICAT_COMPARED_VERSION(id, tag, digest) \
  "COALESCE(" ICAT_VERSION_OF_REF("i.id", id, tag) ", " \
  "(SELECT r.id FROM image_versions r WHERE r.image_id = i.id AND r.digest = " digest " " \
  "ORDER BY r.published_at DESC, r.id LIMIT 1))"
// One side of a comparison: its version and that version's latest scan with its sets (NULLs when absent).
#define ICAT_COMPARE_SIDE(side, version_id)                                                                 \
  "LEFT JOIN LATERAL (SELECT v.id, v.tag, v.digest, s.id AS scan_id, rfc3339(s.scanned_at) AS scanned_at, " \
  "s.package_set_id, s.findings_set_id FROM image_versions v LEFT JOIN scans s ON s.id = v.latest_scan_id " \
  "WHERE v.id = " version_id ") " side " ON true "
// $1 tenant, $2 image id, $3/$4/$5 from: version id, tag, digest (one set), $6/$7/$8 the same for to,
// $9 whether to was given (false: the image's latest version): the image and both sides, one row; none when the image is
// unknown or unlicensed
inline constexpr Statement kCompareVersions{"compare_versions",
    "SELECT i.id AS image_id, i.name AS image_name, "
    "f.id AS from_id, f.tag AS from_tag, f.digest AS from_digest, f.scan_id AS from_scan_id, "
    "f.scanned_at AS from_scanned_at, f.package_set_id AS from_packages, f.findings_set_id AS from_findings, "
    "t.id AS to_id, t.tag AS to_tag, t.digest AS to_digest, t.scan_id AS to_scan_id, "
    "t.scanned_at AS to_scanned_at, t.package_set_id AS to_packages, t.findings_set_id AS to_findings "
    "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    ICAT_COMPARE_SIDE("f", ICAT_COMPARED_VERSION("$3", "$4", "$5"))
    ICAT_COMPARE_SIDE("t", "CASE WHEN $9::boolean THEN " ICAT_COMPARED_VERSION("$6", "$7", "$8") " "
                      "ELSE i.latest_version_id END")
    "WHERE i.id = $2::uuid"};
// $1 package set: its packages by identity, then purl, in byte order (the diff walks both sides so)
inline constexpr Statement kPackagesOfSet{"packages_of_set",
    "SELECT identity, purl, name, type, version FROM packages WHERE set_id = $1::uuid "
    "ORDER BY identity COLLATE \"C\", purl COLLATE \"C\""};
// $1 findings set: its findings (not-affected left out) with their EPSS score and KEV entry, as every
// finding meets the feeds (finding_feeds, sql/V0031)
inline constexpr Statement kFindingsOfSet{"findings_of_set",
    "SELECT x.vuln_id, x.aliases, x.severity, x.fix_state, x.package_name, x.package_version, x.purl, "
    ICAT_FINDING_FEEDS_COLUMNS "FROM vulnerabilities x " ICAT_FINDING_FEEDS_JOIN
    "WHERE x.set_id = $1::uuid AND x.fix_state <> 'not-affected' ORDER BY x.id"};

// The licensed versions whose latest scan's packages match `match` (a condition on p), one row per
// version with its matching packages as a JSON array, by image id then version id from the cursor
// ($3, $4 image and version ids seen last, or NULL), $5 every version or the latest ones only, $6 limit.
#define ICAT_PACKAGE_LOOKUP(match)                                                                              \
  "SELECT i.id AS image_id, i.name AS image_name, i.repository, v.id AS version_id, v.tag, v.digest, "         \
  "v.id = i.latest_version_id AS latest, s.id AS scan_id, rfc3339(s.scanned_at) AS scanned_at, "              \
  "json_agg(json_build_object('name', p.name, 'type', p.type, 'version', p.version, 'purl', p.purl) "          \
  "ORDER BY p.purl)::text AS packages "                                                                         \
  "FROM packages p JOIN scans s ON s.package_set_id = p.set_id JOIN image_versions v ON v.latest_scan_id = s.id " \
  "JOIN images i ON i.id = v.image_id JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "              \
  "WHERE " match " AND ($5::boolean OR v.id = i.latest_version_id) "                                           \
  "AND ($3::uuid IS NULL OR (i.id, v.id) > ($3::uuid, $4::uuid)) "                                              \
  "GROUP BY i.id, v.id, s.id ORDER BY i.id, v.id LIMIT $6"
// $2 a purl: the packages of its identity, of its version too when $7 (it names one)
inline constexpr Statement kPackagesByPurl{"packages_by_purl", ICAT_PACKAGE_LOOKUP(
    "p.identity = (SELECT public.purl_key_any_version($2)) "
    "AND (NOT $7::boolean OR public.purl_key(p.purl) = (SELECT public.purl_key($2)))")};
// $2 a package name, $7 its purl type or NULL for any, $8 the versions of it wanted or NULL for any
inline constexpr Statement kPackagesByName{"packages_by_name", ICAT_PACKAGE_LOOKUP(
    "p.name = $2 AND ($7::text IS NULL OR p.type = lower($7::text)) "
    "AND ($8::text[] IS NULL OR p.version = ANY($8::text[]))")};
// $1 tenant, $2 a package name, $3 its purl type or NULL: the versions of it that the latest scans of
// the tenant's licensed versions list, for a version range to choose from (packages.cpp).
inline constexpr Statement kPackageVersionsByName{"package_versions_by_name",
    "SELECT DISTINCT p.version FROM packages p JOIN scans s ON s.package_set_id = p.set_id "
    "JOIN image_versions v ON v.latest_scan_id = s.id "
    "JOIN licenses l ON l.image_id = v.image_id AND l.tenant_id = $1 "
    "WHERE p.name = $2 AND ($3::text IS NULL OR p.type = lower($3::text)) AND p.version IS NOT NULL"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kFindingsOfLatestVersion, kFindingsOfVersion, kRiskOfLatestVersion, kRiskOfVersion, kCveLookupLatest, kCveLookupAll, kUnscannedLatest,
    kUnscannedAll, kCompareVersions, kPackagesOfSet, kFindingsOfSet, kPackagesByPurl, kPackagesByName,
    kPackageVersionsByName,
};
// clang-format on

#undef ICAT_PACKAGE_LOOKUP
#undef ICAT_COMPARE_SIDE
#undef ICAT_COMPARED_VERSION
#undef ICAT_UNSCANNED
#undef ICAT_CVE_LOOKUP
#undef ICAT_FINDINGS_PAGE
#undef ICAT_OF_LATEST_VERSION
#undef ICAT_OF_VERSION
#undef ICAT_BY_ID
#undef ICAT_BY_ID_OUTER
#undef ICAT_BY_RISK
#undef ICAT_BY_RISK_OUTER
#undef ICAT_LISTING_COLUMNS
#undef ICAT_VEX_COLUMNS
#undef ICAT_VEX_OF_FINDING
#undef ICAT_VEX_OF_PAGE_FINDING

}  // namespace icat::vulns
