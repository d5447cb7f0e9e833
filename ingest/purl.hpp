// Package URLs (github.com/package-url/purl-spec) where icatctl reads them for what they say of a
// container image: a pkg:oci purl names one by digest, and by repository and tag in its qualifiers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace icat::ctl {

// The parts of pkg:oci/NAME[@VERSION][?QUALIFIERS][#SUBPATH], percent-decoded.
struct OciPurl {
  std::string name;                           // the image's last path component, e.g. "nginx"
  std::optional<std::string> version;         // an OCI purl's version is the digest, e.g. "sha256:<hex>"
  std::optional<std::string> repository_url;  // where the image lives, e.g. "registry.example.test/hardened/nginx"
  std::optional<std::string> tag;
};

// nullopt unless purl is a pkg:oci purl with a name (the scheme and type in any case).
std::optional<OciPurl> ParseOciPurl(std::string_view purl);

// The purl of an image version as Trivy and Grype compute it for an image they scan:
// pkg:oci/<last path segment>@sha256%3A<hex>?repository_url=<repository, percent-encoded>, for a
// repository such as "registry.example.test/hardened/nginx" and a digest "sha256:<hex>".
std::string ImagePurl(std::string_view repository, std::string_view digest);

// A package purl as a VEX subcomponent is compared with a package (sql/V0017's purl_key and
// purl_key_any_version, the same rule): without qualifiers and subpath, and without its version too.
std::string PurlKey(std::string_view purl);
std::string PurlKeyAnyVersion(std::string_view purl);

}  // namespace icat::ctl
