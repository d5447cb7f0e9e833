// The registry group's SQL, one named statement each.
#pragma once

#include <vector>

#include "icat/db.hpp"

namespace icat::registry {

// clang-format off
// $1 the catalogue repository (host and path): the image, when the tenant holds its licence (the
// catalogue's row policies show a tenant its licensed images only).
inline constexpr Statement kLicensedImage{"registry_licensed_image",
    "SELECT id FROM images WHERE repository = $1"};
// The tenant's licensed repositories, for /v2/_catalog.
inline constexpr Statement kLicensedRepositories{"registry_licensed_repositories",
    "SELECT repository FROM images ORDER BY repository"};
// $1 tenant, $2 image, $3 the tag or digest a manifest GET named: one more pull of the version it
// names, if the catalogue knows it (a platform manifest of an index is not a version).
inline constexpr Statement kCountPull{"registry_count_pull",
    "WITH v AS (SELECT id, tag, digest FROM image_versions WHERE image_id = $2 AND (digest = $3 OR tag = $3) "
    "  ORDER BY digest = $3 DESC, created_at LIMIT 1), "
    "c AS (INSERT INTO version_pulls (tenant_id, version_id, pull_count) SELECT $1, id, 1 FROM v "
    "  ON CONFLICT (tenant_id, version_id) DO UPDATE SET pull_count = version_pulls.pull_count + 1, "
    "  last_pulled_at = now() RETURNING version_id) "
    "SELECT v.id, v.tag, v.digest FROM v JOIN c ON c.version_id = v.id"};
// A push of a catalogue image's tag (sql/V0027): $1 repository, $2 tag, $3 digest, $4 size, $5 traceparent.
inline constexpr Statement kPublishPushed{"registry_publish_pushed",
    "SELECT outcome, image_id, version_id FROM publish_pushed_version($1, $2, $3, $4, $5)"};
// clang-format on

inline const std::vector<Statement> kStatements = {kLicensedImage, kLicensedRepositories, kCountPull, kPublishPushed};

}  // namespace icat::registry
