// The vulns group's named SQL. Every query joins licences: an unlicensed image does not exist.
#pragma once

#include <vector>

#include "icat/db.hpp"

namespace icat::vulns {

// The image, a version and that version's latest scan with its stored counts.
#define ICAT_SCAN_COLUMNS                                                                                 \
  "i.id, i.name, v.id, v.tag, v.digest, s.id, s.scanner_name, s.scanner_version, rfc3339(s.scanned_at), " \
  "rfc3339(s.vulndb_updated_at), s.critical_count, s.high_count, s.medium_count, s.low_count, "           \
  "s.unknown_count, s.findings_critical, s.findings_high, s.findings_medium, s.findings_low, "            \
  "s.findings_unknown, s.fixable_count "                                                                  \
  "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "

inline const std::vector<Statement> kStatements = {
    // $1 tenant, $2 image id: its latest version and that version's latest scan
    {"scan_of_latest_version",
     "SELECT " ICAT_SCAN_COLUMNS
     "LEFT JOIN image_versions v ON v.id = i.latest_version_id LEFT JOIN scans s ON s.id = v.latest_scan_id "
     "WHERE i.id = $2::uuid"},
    // $1 tenant, $2 image id, $3 version id: that version and its latest scan
    {"scan_of_version",
     "SELECT " ICAT_SCAN_COLUMNS
     "JOIN image_versions v ON v.image_id = i.id AND v.id = $3::uuid LEFT JOIN scans s ON s.id = v.latest_scan_id "
     "WHERE i.id = $2::uuid"},
    // $1 tenant, $2 scan id, $3 severities or NULL, $4 fix states or NULL, $5 last id seen or NULL,
    // $6 limit: findings in stored order (severity first), a page at a time
    {"list_findings",
     "SELECT x.id, x.vuln_id, x.aliases, x.package_name, x.package_version, x.package_type, x.purl, x.severity, "
     "x.cvss_score::text, x.fix_state, x.fixed_version, x.title, x.primary_url "
     "FROM vulnerabilities x JOIN scans s ON s.id = x.scan_id JOIN image_versions v ON v.id = s.version_id "
     "JOIN licenses l ON l.image_id = v.image_id AND l.tenant_id = $1 "
     "WHERE x.scan_id = $2::uuid AND ($3::text[] IS NULL OR x.severity = ANY($3::text[])) "
     "AND ($4::text[] IS NULL OR x.fix_state = ANY($4::text[])) AND ($5::bigint IS NULL OR x.id > $5::bigint) "
     "ORDER BY x.id LIMIT $6"},
    // $1 tenant, $2 vulnerability id (upper case), $3 every version (true) or only the latest:
    // the findings of that id (or an alias of it) in the latest scan of each such licensed version
    {"cve_lookup",
     "SELECT i.id, i.name, i.repository, v.id, v.tag, v.digest, v.id = i.latest_version_id, s.id, "
     "rfc3339(s.scanned_at), x.vuln_id, x.package_name, x.package_version, x.package_type, x.purl, x.severity, "
     "x.fix_state, x.fixed_version "
     // The scans holding the id come first, from its indexes, so the plan starts from a handful of
     // rows whatever the planner guesses (joined the other way round, one look-up took 36 ms to
     // seconds on the bench data set).
     "FROM (WITH hit_scans AS MATERIALIZED (SELECT DISTINCT scan_id FROM vulnerabilities "
     "  WHERE vuln_id = $2 OR aliases @> ARRAY[$2::text]) SELECT scan_id FROM hit_scans) h "
     "JOIN image_versions v ON v.latest_scan_id = h.scan_id "
     "JOIN images i ON i.id = v.image_id AND ($3::boolean OR v.id = i.latest_version_id) "
     "JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
     "JOIN scans s ON s.id = h.scan_id "
     "JOIN vulnerabilities x ON x.scan_id = h.scan_id AND (x.vuln_id = $2 OR x.aliases @> ARRAY[$2::text]) "
     "ORDER BY i.name, i.id, v.published_at DESC, v.id, x.id"},
};

#undef ICAT_SCAN_COLUMNS

}  // namespace icat::vulns
