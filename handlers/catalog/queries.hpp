// The catalog group's named SQL. Every query joins licences: an unlicensed image does not exist.
#pragma once

#include <vector>

#include "icat/db.hpp"
#include "icat/image_reference.hpp"

namespace icat::catalog {

// The latest version of image i and that version's latest scan, read by key for each image row (a
// lateral join kept apart by OFFSET 0). Joined plainly, the licence policy on image_versions
// (sql/V0019), costed by the planner as if it were evaluated again for every probe, made a page
// of 50 images hash-join every version of the catalogue (bench/README.md, "The -miss rows").
#define ICAT_LATEST_VERSION_OF_IMAGE                                                                \
  "LEFT JOIN LATERAL (SELECT * FROM image_versions v WHERE v.id = i.latest_version_id OFFSET 0) v " \
  "ON true LEFT JOIN scans s ON s.id = v.latest_scan_id "

// Columns shared by the list and the detail: the image, then its latest version and that version's counts.
#define ICAT_IMAGE_FIELDS                                                                            \
  "i.id, i.name, i.description, i.repository, COALESCE(v.base_os, i.base_os) AS base_os, "           \
  "v.id AS version_id, v.tag, v.digest, v.size_bytes, rfc3339(v.published_at) AS published_at, "     \
  "v.hardening_tags, s.critical_count, s.high_count, s.medium_count, s.low_count, s.unknown_count, " \
  "s.vex_excluded_count, rfc3339(s.scanned_at) AS scanned_at "
#define ICAT_IMAGE_COLUMNS \
  ICAT_IMAGE_FIELDS        \
  "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 " ICAT_LATEST_VERSION_OF_IMAGE

// A version's columns in list_versions, page_versions and get_version (v a version, s its latest
// scan, p the tenant's pulls of it): the figures of what its SBOMs hold of rule 3 by format, and
// how often and when last the tenant pulled it, as well.
#define ICAT_VERSION_COLUMNS                                                                         \
  "v.id AS version_id, v.tag, v.digest, v.size_bytes, rfc3339(v.published_at) AS published_at, "     \
  "v.hardening_tags, s.critical_count, s.high_count, s.medium_count, s.low_count, s.unknown_count, " \
  "s.vex_excluded_count, rfc3339(s.scanned_at) AS scanned_at, "                                      \
  "(SELECT json_object_agg(b.format, b.completeness ORDER BY b.format) "                             \
  "FROM sboms b WHERE b.scan_id = s.id AND b.completeness IS NOT NULL) AS sbom_completeness, "       \
  "COALESCE(p.pull_count, 0) AS pull_count, rfc3339(p.last_pulled_at) AS last_pulled_at, " ICAT_KNOWN_EXPLOITED
// How many distinct vulnerability ids of the latest scan's findings CISA's catalogue lists, as its
// findings set keeps it (sql/V0037; counted here only for a set not counted yet), NULL when never scanned.
#define ICAT_KNOWN_EXPLOITED                                                                            \
  "CASE WHEN s.id IS NOT NULL THEN (SELECT COALESCE(fs.known_exploited, count_known_exploited(fs.id)) " \
  "FROM findings_sets fs WHERE fs.id = s.findings_set_id) END AS known_exploited "
// The pulls of version v by tenant $1, read by key: the row-level policy would hide another
// tenant's anyway (sql/V0027), the tenant here makes it one index probe.
#define ICAT_PULLS_OF_VERSION "LEFT JOIN version_pulls p ON p.tenant_id = $1 AND p.version_id = v.id "

// Each statement reads as SQL, a line per clause.
// clang-format off
// $1 tenant, $2 name filter (LIKE-escaped) or NULL, $3/$4 cursor (name, id) or NULL, $5 limit: the
// columns of get_image. The page of images is cut first, then each is joined to its latest version
// and formatted. The filters are written so that the cached generic plan (used after five calls)
// does not take them for selective and sort every licensed image instead: a CASE rather than
// `$2 IS NULL OR ...`, and a cursor that, absent, starts below every name ('' and the nil UUID;
// names are never empty), so it always bounds the index scan.
inline constexpr Statement kListImages{"list_images",
    "SELECT " ICAT_IMAGE_FIELDS
    "FROM (SELECT i.* FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "WHERE (i.name, i.id) > (COALESCE($3::text, ''), COALESCE($4::uuid, '00000000-0000-0000-0000-000000000000')) "
    "AND CASE WHEN $2::text IS NULL THEN true ELSE i.name ILIKE '%' || $2 || '%' END "
    "ORDER BY i.name, i.id LIMIT $5) i " ICAT_LATEST_VERSION_OF_IMAGE "ORDER BY i.name, i.id"};
// $1 tenant, $2 image id
inline constexpr Statement kGetImage{"get_image", "SELECT " ICAT_IMAGE_COLUMNS "WHERE i.id = $2::uuid"};
// $1 tenant, $2 image id: every version, newest published first, with the completeness figures
// of its latest scan's SBOMs by format
inline constexpr Statement kListVersions{"list_versions",
    "SELECT " ICAT_VERSION_COLUMNS
    "FROM image_versions v JOIN licenses l ON l.image_id = v.image_id AND l.tenant_id = $1 "
    "LEFT JOIN scans s ON s.id = v.latest_scan_id " ICAT_PULLS_OF_VERSION
    "WHERE v.image_id = $2::uuid ORDER BY v.published_at DESC, v.tag DESC"};
// $1 tenant, $2 image id, $3/$4 cursor (published time in epoch microseconds, tag) or NULL, $5 limit:
// a page of the image's versions as list_versions orders them, each row with the image's id; one
// row of NULL version columns for a licensed image without versions (past its last one), none for
// an unknown or unlicensed image. The page is cut inside the lateral join, before the figures.
inline constexpr Statement kPageVersions{"page_versions",
    "SELECT i.id AS image_id, p.* FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "LEFT JOIN LATERAL (SELECT " ICAT_VERSION_COLUMNS ", "
    "(extract(epoch FROM v.published_at) * 1000000)::bigint AS published_us "
    "FROM image_versions v LEFT JOIN scans s ON s.id = v.latest_scan_id " ICAT_PULLS_OF_VERSION
    "WHERE v.image_id = i.id "
    "AND ($3::bigint IS NULL OR (v.published_at, v.tag) < "
    "(to_timestamp(0) + $3::bigint * interval '1 microsecond', $4::text)) "
    "ORDER BY v.published_at DESC, v.tag DESC LIMIT $5) p ON true "
    "WHERE i.id = $2::uuid ORDER BY p.published_us DESC, p.tag DESC"};
// $1 tenant, $2 image id, $3 version id or NULL, $4 tag (a VersionRef): that version, as
// list_versions shows it; no row when the image or the version is unknown or unlicensed
inline constexpr Statement kGetVersion{"get_version",
    "SELECT " ICAT_VERSION_COLUMNS
    "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "JOIN image_versions v ON v.image_id = i.id AND v.id = " ICAT_VERSION_OF_REF("$2::uuid", "$3", "$4") " "
    "LEFT JOIN scans s ON s.id = v.latest_scan_id " ICAT_PULLS_OF_VERSION "WHERE i.id = $2::uuid"};
// $1 tenant, $2 digest: the licensed images having a version of that digest, by name, each with
// get_image's columns and the matched version (matched_*: of several with that digest, the newest
// published). It starts from the digest's index: a handful of versions, whatever the licences.
inline constexpr Statement kImagesByDigest{"images_by_digest",
    "SELECT m.id AS matched_id, m.tag AS matched_tag, m.digest AS matched_digest, " ICAT_IMAGE_COLUMNS
    "JOIN (SELECT DISTINCT ON (x.image_id) x.image_id, x.id, x.tag, x.digest FROM image_versions x "
    "WHERE x.digest = $2 ORDER BY x.image_id, x.published_at DESC, x.tag DESC) m ON m.image_id = i.id "
    "ORDER BY i.name, i.id"};
// $1 tenant, $2 digests, $3 repositories, $4 tags (one each): the image the reference resolves to, as
// the admission webhook resolves it (icat/image_reference.hpp), with get_image's columns and the
// matched version; no row when it resolves to none. The version is found first (a scalar subquery),
// so the image is read by its key even under a generic plan, not by a scan of the images.
inline constexpr Statement kImageByReference{"image_by_reference",
    "SELECT m.id AS matched_id, m.tag AS matched_tag, m.digest AS matched_digest, " ICAT_IMAGE_COLUMNS
    "JOIN image_versions m ON m.image_id = i.id "
    "AND m.id = (SELECT r.version_id FROM (" ICAT_RESOLVE_IMAGE_REFERENCES ") r)"};
// $1 tenant, $2 image id, $3 version id: the version, when its image is licensed
inline constexpr Statement kScanHistoryVersion{"scan_history_version",
    "SELECT i.id AS image_id, i.name AS image_name, v.id AS version_id, v.tag "
    "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "JOIN image_versions v ON v.image_id = i.id AND v.id = $3::uuid WHERE i.id = $2::uuid"};
// $1 tenant, $2 version id, $3 from or NULL, $4 to or NULL, $5/$6/$7 cursor (scan time and
// ingest time in epoch microseconds, id) or NULL, $8 limit: the version's scans oldest first
inline constexpr Statement kScanHistory{"scan_history",
    "SELECT s.id, rfc3339(s.scanned_at) AS scanned_at, s.scanner_name, s.scanner_version, "
    "rfc3339(s.vulndb_updated_at) AS vulndb_updated_at, "
    "s.critical_count, s.high_count, s.medium_count, s.low_count, s.unknown_count, s.vex_excluded_count, "
    "s.fixable_count, (extract(epoch FROM s.scanned_at) * 1000000)::bigint AS scanned_us, "
    "(extract(epoch FROM s.created_at) * 1000000)::bigint AS created_us "
    "FROM scans s JOIN image_versions v ON v.id = s.version_id "
    "JOIN licenses l ON l.image_id = v.image_id AND l.tenant_id = $1 "
    "WHERE s.version_id = $2::uuid AND ($3::timestamptz IS NULL OR s.scanned_at >= $3::timestamptz) "
    "AND ($4::timestamptz IS NULL OR s.scanned_at < $4::timestamptz) "
    "AND ($5::bigint IS NULL OR (s.scanned_at, s.created_at, s.id) > "
    "(to_timestamp(0) + $5::bigint * interval '1 microsecond', to_timestamp(0) + $6::bigint * interval '1 microsecond', "
    "$7::uuid)) "
    "ORDER BY s.scanned_at, s.created_at, s.id LIMIT $8"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kListImages, kGetImage, kListVersions, kPageVersions, kGetVersion, kImagesByDigest, kImageByReference,
    kScanHistoryVersion, kScanHistory,
};
// clang-format on

#undef ICAT_PULLS_OF_VERSION
#undef ICAT_KNOWN_EXPLOITED
#undef ICAT_VERSION_COLUMNS
#undef ICAT_IMAGE_COLUMNS
#undef ICAT_IMAGE_FIELDS
#undef ICAT_LATEST_VERSION_OF_IMAGE

}  // namespace icat::catalog
