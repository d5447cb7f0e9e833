// The catalog group's named SQL. Every query joins licences: an unlicensed image does not exist.
#pragma once

#include <vector>

#include "icat/db.hpp"

namespace icat::catalog {

// Columns shared by the list and the detail: the image, then its latest version and that version's counts.
#define ICAT_IMAGE_COLUMNS                                                                                 \
  "i.id, i.name, i.description, i.repository, COALESCE(v.base_os, i.base_os), "                           \
  "v.id, v.tag, v.digest, v.size_bytes, rfc3339(v.published_at), v.hardening_tags, "                      \
  "s.critical_count, s.high_count, s.medium_count, s.low_count, s.unknown_count "                         \
  "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "                              \
  "LEFT JOIN image_versions v ON v.id = i.latest_version_id LEFT JOIN scans s ON s.id = v.latest_scan_id "

inline const std::vector<Statement> kStatements = {
    // $1 tenant, $2 name filter (LIKE-escaped) or NULL, $3/$4 cursor (name, id) or NULL, $5 limit
    {"list_images",
     "SELECT " ICAT_IMAGE_COLUMNS
     "WHERE ($2::text IS NULL OR i.name ILIKE '%' || $2 || '%') "
     "AND ($3::text IS NULL OR (i.name, i.id) > ($3, $4::uuid)) "
     "ORDER BY i.name, i.id LIMIT $5"},
    // $1 tenant, $2 image id
    {"get_image", "SELECT " ICAT_IMAGE_COLUMNS "WHERE i.id = $2::uuid"},
    // $1 image id: every version, newest published first
    {"list_versions",
     "SELECT v.id, v.tag, v.digest, v.size_bytes, rfc3339(v.published_at), v.hardening_tags, "
     "s.critical_count, s.high_count, s.medium_count, s.low_count, s.unknown_count "
     "FROM image_versions v LEFT JOIN scans s ON s.id = v.latest_scan_id "
     "WHERE v.image_id = $1::uuid ORDER BY v.published_at DESC, v.tag DESC"},
};

#undef ICAT_IMAGE_COLUMNS

}  // namespace icat::catalog
