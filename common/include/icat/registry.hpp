// What the registry's parts share (docs/registry.md): repository names as the registry and the
// catalogue write them, and an image's size from its manifest.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace icat {

// The manifest media types a registry client asks for (Accept) and the service publishes: OCI and
// Docker, single images and indexes (multi-platform).
inline constexpr std::array<std::string_view, 4> kManifestMediaTypes = {
    "application/vnd.oci.image.manifest.v1+json", "application/vnd.oci.image.index.v1+json",
    "application/vnd.docker.distribution.manifest.v2+json",
    "application/vnd.docker.distribution.manifest.list.v2+json"};

// Whether a manifest's config media type is an artifact's (a Helm chart, an OCI 1.1 artifact), not a
// runnable image's (OCI or Docker image config): an artifact is never a catalogue version. "" (an
// index, which has no config) is no artifact.
bool IsArtifactConfig(std::string_view config_media_type);

// cosign's tags of what it attaches to an image manifest: sha256-<64 hex>.att (attestations), .sig
// (signatures), .sbom (SBOMs). They name no version of the image: publishing skips them.
bool IsAttachmentTag(std::string_view tag);
// The .att tag of an image manifest digest ("sha256:<hex>" -> "sha256-<hex>.att"), where cosign
// looks for the image's attestations.
std::string AttestationTag(std::string_view manifest_digest);

// The host (and port) of ICAT_REGISTRY ("localhost:8443/hardened" -> "localhost:8443").
std::string_view RegistryHost(std::string_view registry_setting);

// A repository name of the Distribution grammar: path components of lower-case letters and digits
// joined by '.', '_', '__' or dashes, separated by '/', 255 characters at most ("hardened/nginx").
bool IsRepositoryName(std::string_view name);

// The catalogue's repository (host and path, images.repository) of a registry repository name, and
// back: nullopt when the repository is not on this registry's host or its path is no name.
std::string CatalogueRepository(std::string_view registry_setting, std::string_view name);
std::optional<std::string> RegistryName(std::string_view registry_setting, std::string_view repository);

// The bytes a pull of the image transfers, as its manifest lists them: the config and the layers of
// an image manifest, the platform manifests' own sizes for an index (their layers are not listed
// there). nullopt when the text is no manifest of kManifestMediaTypes' shape.
std::optional<long long> ManifestImageBytes(std::string_view manifest_json);

}  // namespace icat
