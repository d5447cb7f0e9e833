// Container image references, and how /v1 names one version of an image: the admission webhook
// and the catalogue's look-ups read them with the same functions and resolve them with the same SQL.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace icat {

// A container image reference after Docker's normalisation (distribution/reference,
// ParseNormalizedNamed): "nginx" is docker.io/library/nginx with the implicit tag latest.
struct ImageReference {
  // Registry host[:port], lower case ("docker.io" for Docker Hub); a host known only by its
  // capitals ("MYHOST") keeps them, so that the normalised text still reads as that host.
  std::string domain;
  std::string path;                   // repository path, e.g. "library/nginx", "hardened/nginx"
  std::optional<std::string> tag;     // as written; none when absent
  std::optional<std::string> digest;  // "sha256:<hex>"; none when absent

  std::string Repository() const;  // domain/path: what images.repository and allowedRegistries hold
  // The tag a digest-less reference pulls: the tag, or "latest" when none was written.
  std::string EffectiveTag() const;
  // domain/path[:tag][@digest], with ":latest" only when neither a tag nor a digest was written.
  std::string Normalised() const;
};

// Parses a reference per the Docker reference grammar: [host[:port]/]path[:tag][@digest], where the
// first component is a host when it contains '.' or ':', is "localhost", or has upper case letters;
// "index.docker.io" is docker.io; a one-component Docker Hub path gains "library/". Digests are
// sha256, sha384 or sha512 in lower-case hex of their length. nullopt when the text is not one.
// A normalised reference parses again to itself.
std::optional<ImageReference> ParseImageReference(std::string_view text);

// A tag of the grammar: [A-Za-z0-9_][A-Za-z0-9_.-]{0,127} (image_versions.tag holds no other).
bool IsImageTag(std::string_view tag);
// A digest of an algorithm the registry protocol knows (sha256, sha384, sha512), in lower-case hex
// of that algorithm's length.
bool IsImageDigest(std::string_view digest);

// ------------------------------------------------------------------ one version of an image

// {versionId} of /v1/images/{id}/versions/{versionId}/...: the version's id or its tag. A text of
// UUID form is looked up as an id first and then as a tag (tags may have that form too).
struct VersionRef {
  std::optional<std::string> id;   // the text, when it has the form of a UUID
  std::optional<std::string> tag;  // the text; nullopt: by id only (the portal's routes)
};
// nullopt when the text can name no version (neither a UUID nor a tag): answered 404 at once, as
// an unknown version is.
std::optional<VersionRef> ParseVersionRef(std::string_view text);

// SQL: the id of the version of the image `image` that the parameters `id` (uuid text or NULL) and
// `tag` name, by id first, then by tag; NULL when neither names one. Every statement that takes a
// VersionRef resolves it with this, so catalog, sbom and vulns read {versionId} alike. The id
// arrives as text cast in the subquery, never by a CASE on the tag: Postgres may fold a constant
// cast of a tag to uuid ahead of a CASE and fail.
// clang-format off
#define ICAT_VERSION_OF_REF(image, id, tag)                                                           \
  "COALESCE((SELECT r.id FROM image_versions r WHERE r.image_id = " image " AND r.id = " id "::uuid), " \
  "(SELECT r.id FROM image_versions r WHERE r.image_id = " image " AND r.tag = " tag "))"
// clang-format on

// ------------------------------------------------------------------ resolving references

// SQL: the catalogue versions image references resolve to, as the admission webhook judges them and
// GET /v1/images?reference= answers. $1 tenant, $2 digests ('' for none), $3 repositories, $4 tags
// (EffectiveTag); arrays of equal length. One row per reference that resolved: its 1-based position
// n, version_id, image_id, image_name, tag, digest (the version's) and scanned (it has a scan).
// A reference with a digest resolves by that digest only (the runtime pulls those bytes, whatever
// the tag says), preferring a version of the same repository, then the newest published; one
// without, by repository and tag. Only licensed images resolve.
// clang-format off
#define ICAT_RESOLVE_IMAGE_REFERENCES \
  "SELECT r.n, m.version_id, m.image_id, m.image_name, m.tag, m.digest, m.scanned " \
  "FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS r(digest, repository, tag, n) " \
  "CROSS JOIN LATERAL (" \
  "  SELECT v.id AS version_id, i.id AS image_id, i.name AS image_name, v.tag, v.digest, " \
  "         v.latest_scan_id IS NOT NULL AS scanned, i.repository = r.repository AS same_repository, " \
  "         v.published_at " \
  "  FROM image_versions v JOIN images i ON i.id = v.image_id " \
  "  JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 " \
  "  WHERE r.digest <> '' AND v.digest = r.digest " \
  "  UNION ALL " \
  "  SELECT v.id, i.id, i.name, v.tag, v.digest, v.latest_scan_id IS NOT NULL, true, v.published_at " \
  "  FROM images i JOIN image_versions v ON v.image_id = i.id AND v.tag = r.tag " \
  "  JOIN licenses l ON l.image_id = i.id AND l.tenant_id = $1 " \
  "  WHERE r.digest = '' AND i.repository = r.repository " \
  "  ORDER BY same_repository DESC, published_at DESC LIMIT 1" \
  ") m"
// clang-format on

}  // namespace icat
