// The admission group's named SQL: a handful of statements per review, every image of a review in
// one query, every vulnerability aggregate in one more. Every query filters by tenant ($1) and joins
// licences: an unlicensed image is not a catalogue image for the tenant.
#pragma once

#include <vector>

#include "icat/db.hpp"
#include "icat/image_reference.hpp"

namespace icat::admission {

// Each statement reads as SQL, a line per clause.
// clang-format off
// $1 tenant: the stored policy (NULL: the defaults) and the CVE watch list.
inline constexpr Statement kTenantRules{"admission_tenant_rules",
    "SELECT (SELECT policy::text FROM admission_policies WHERE tenant_id = $1) AS policy, "
    "ARRAY(SELECT cve_id FROM cve_watches WHERE tenant_id = $1 ORDER BY cve_id) AS watched"};
// Switches the transaction to asynchronous commit: a review waits for no WAL flush; a crash of
// Postgres itself may lose the last fraction of a second of decision records (docs/admission.md).
inline constexpr Statement kAsyncCommit{"admission_async_commit",
    "SELECT set_config('synchronous_commit', 'off', true)"};
// $1 tenant, $2 digests ('' for none), $3 repositories, $4 tags: the versions the references resolve
// to (icat/image_reference.hpp, shared with GET /v1/images?reference=).
inline constexpr Statement kResolveImages{"admission_resolve_images", ICAT_RESOLVE_IMAGE_REFERENCES};
// $1 version ids, $2 severity rank threshold (99: rule off), $3 watched ids ('{}': rule off),
// $4 denyKnownExploited, $5 maxEpss (NULL: rule off).
// The package findings of each version's latest scan that a rule can count: at or above the
// threshold, carrying a watched id or alias, known exploited, or above the EPSS maximum. Findings
// the scanner marks not-affected never count (FixStateCounts, icat/vulnerability_rules.hpp);
// vendor_not_affected says the vendor's VEX statement for the finding is not_affected (the policy's
// trustVendorVex decides). A finding meets the feeds by its CVE, finding_cve (sql/V0031), as
// everywhere findings show them. Columns: version id, vulnerability id, aliases, severity, fix state,
// first seen (epoch s or NULL), vendor_not_affected, kev ("<CVE id> <dateAdded>" or NULL), epss (the
// score or NULL). The feed look-ups of the
// WHERE clause run only when their rule is on (AND stops at a false $4 or a NULL $5), and those of
// the select list only for the rows kept: a review stays one statement and cheap.
inline constexpr Statement kFindings{"admission_findings",
    "SELECT v.id AS version_id, f.vuln_id, f.aliases, f.severity, f.fix_state, "
    "extract(epoch FROM s.first_seen_at)::bigint AS first_seen, "
    "COALESCE(vx.status = 'not_affected', false) AS vendor_not_affected, "
    "(SELECT k.cve_id || ' ' || k.date_added::text FROM kev_entries k "
    "  WHERE k.cve_id = finding_cve(f.vuln_id, f.aliases)) AS kev, "
    "(SELECT e.score::float8 FROM epss_scores e WHERE e.cve_id = finding_cve(f.vuln_id, f.aliases)) AS epss "
    "FROM image_versions v JOIN vulnerabilities f ON f.set_id = v.latest_findings_set_id "
    "LEFT JOIN vulnerability_first_seen s ON s.version_id = v.id AND s.vuln_id = f.vuln_id "
    "LEFT JOIN LATERAL vex_statement_for(v.image_id, v.id, f.vuln_id, f.aliases, f.purl) vx ON true "
    "WHERE v.id = ANY ($1::uuid[]) AND f.fix_state <> 'not-affected' "
    "AND (CASE f.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 "
    "     ELSE 0 END >= $2::int OR f.vuln_id = ANY ($3::text[]) OR f.aliases && $3::text[] "
    "     OR ($4::bool AND EXISTS (SELECT 1 FROM kev_entries k WHERE k.cve_id = finding_cve(f.vuln_id, f.aliases))) "
    "     OR ($5::float8 IS NOT NULL AND EXISTS (SELECT 1 FROM epss_scores e "
    "                              WHERE e.cve_id = finding_cve(f.vuln_id, f.aliases) AND e.score > $5::float8)))"};
// $1 tenant, $2 request uid, $3 operation, $4 kind, $5 namespace, $6 name, $7 images (JSON),
// $8 allowed, $9 mode, $10 dry run, $11 reasons (JSON)
inline constexpr Statement kRecordDecision{"admission_record_decision",
    "INSERT INTO admission_decisions (tenant_id, request_uid, operation, kind, namespace, name, images, allowed, "
    "mode, dry_run, reasons, key_prefix) VALUES ($1, $2, $3, $4, NULLIF($5, ''), NULLIF($6, ''), $7::jsonb, $8, $9, "
    "$10, $11::jsonb, NULLIF($12, ''))"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kTenantRules, kAsyncCommit, kResolveImages, kFindings, kRecordDecision,
};
// clang-format on

}  // namespace icat::admission
