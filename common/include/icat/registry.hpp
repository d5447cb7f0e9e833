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
