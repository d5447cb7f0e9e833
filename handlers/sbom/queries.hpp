// The sbom group's named SQL. Every download query joins licences: an unlicensed image does not exist.
#pragma once

#include <vector>

#include "icat/db.hpp"
#include "icat/image_reference.hpp"

namespace icat::sbom {

// What a download needs: the image and version names (the filename), the scan, and one row per SBOM
// of that scan, CycloneDX first (what `format` omitted means); one row of NULLs from the first link
// that is missing (version, scan, SBOM).
#define ICAT_SBOM_COLUMNS                                                                               \
  "i.name AS image_name, v.id AS version_id, v.tag, s.id AS scan_id, b.format, b.sha256, b.signature, " \
  "b.signing_key_id "                                                                                   \
  "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "

// Each statement reads as SQL, a line per clause.
// clang-format off
// $1 tenant, $2 image id: the SBOMs of the latest scan of the image's latest version
inline constexpr Statement kSbomOfLatestVersion{"sbom_of_latest_version",
    "SELECT " ICAT_SBOM_COLUMNS
    "LEFT JOIN image_versions v ON v.id = i.latest_version_id LEFT JOIN scans s ON s.id = v.latest_scan_id "
    "LEFT JOIN sboms b ON b.scan_id = s.id WHERE i.id = $2::uuid ORDER BY b.format <> 'cyclonedx'"};
// $1 tenant, $2 image id, $3 version id or NULL, $4 tag or NULL (a VersionRef; the portal names
// versions by id only): the SBOMs of that version's latest scan
inline constexpr Statement kSbomOfVersion{"sbom_of_version",
    "SELECT " ICAT_SBOM_COLUMNS
    "JOIN image_versions v ON v.image_id = i.id AND v.id = " ICAT_VERSION_OF_REF("$2::uuid", "$3", "$4") " "
    "LEFT JOIN scans s ON s.id = v.latest_scan_id "
    "LEFT JOIN sboms b ON b.scan_id = s.id WHERE i.id = $2::uuid ORDER BY b.format <> 'cyclonedx'"};
// $1 tenant, $2 image id, $3 version id or NULL, $4 tag or NULL (a VersionRef), $5 format: the
// version and its served VEX document of that format (NULLs when it has none); no row for an unknown
// or unlicensed image or version
inline constexpr Statement kVexOfVersion{"vex_of_version",
    "SELECT i.name AS image_name, v.tag, d.sha256, d.signature, d.signing_key_id "
    "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "JOIN image_versions v ON v.image_id = i.id AND v.id = " ICAT_VERSION_OF_REF("$2::uuid", "$3", "$4") " "
    "LEFT JOIN vex_served_documents d ON d.version_id = v.id AND d.format = $5 WHERE i.id = $2::uuid"};
// $1 tenant, $2 image id, $3 version id or NULL, $4 tag or NULL (a VersionRef; the portal names
// versions by id only): the version and one row per attestation it serves now (served_attestations,
// sql/V0028), in no order; one row of NULLs after the version when it serves none; no row for an
// unknown or unlicensed image or version. The list and the download both read it.
inline constexpr Statement kAttestationsOfVersion{"attestations_of_version",
    "SELECT i.name AS image_name, v.id AS version_id, v.tag, a.type, a.predicate_type, a.sha256, a.size_bytes, "
    "a.signing_key_id, a.subject_name, a.subject_digest, a.document_sha256, rfc3339(a.created_at) AS created_at "
    "FROM images i JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 "
    "JOIN image_versions v ON v.image_id = i.id AND v.id = " ICAT_VERSION_OF_REF("$2::uuid", "$3", "$4") " "
    "LEFT JOIN served_attestations a ON a.version_id = v.id WHERE i.id = $2::uuid"};
// Every key that ever signed an SBOM, a VEX document or an attestation, oldest first, retired ones
// too: what they signed stays verifiable (public: no tenant involved).
inline constexpr Statement kListSigningKeys{"list_signing_keys",
    "SELECT id, algorithm, public_key_pem, rfc3339(created_at) AS created_at, rfc3339(retired_at) AS retired_at "
    "FROM signing_keys ORDER BY created_at, id"};
// $1 key id: that key's public PEM (no row: no such key).
inline constexpr Statement kSigningKey{"signing_key",
    "SELECT public_key_pem FROM signing_keys WHERE id = $1"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kSbomOfLatestVersion, kSbomOfVersion, kVexOfVersion, kAttestationsOfVersion, kListSigningKeys, kSigningKey,
};
// clang-format on

#undef ICAT_SBOM_COLUMNS

}  // namespace icat::sbom
