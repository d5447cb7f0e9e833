// What the registry tests share (docs/registry.md): small real OCI images built on disk, skopeo as
// the client, and the stack's registry settings.
#pragma once

#include <string>
#include <vector>

#include "support.hpp"

namespace icat::test {

// An OCI image layout in a directory: one gzip layer holding a file with `content`, tagged `tag`.
struct OciImage {
  std::string layout;   // the directory, for skopeo's oci:<dir>:<tag>
  std::string tag;
  std::string digest;   // of its manifest
  long long bytes = 0;  // config and layer, as the manifest lists them
};
OciImage BuildOciImage(const std::string& tag, const std::string& content);

// The catalogue repository (ICAT_REGISTRY's host, then the path) and the registry's name of a new
// image "hardened/it-<label>-<random>", created licensed to nobody.
struct RegistryImage {
  Image image;
  std::string name;  // hardened/it-...
};
RegistryImage CreateRegistryImage(std::string_view label);

// The host clients pull from: ICAT_REGISTRY's (localhost:<https port>).
std::string RegistryHost();

// skopeo with the stack's certificate trusted; `creds` "user:password" or "" for none.
ProcessResult Skopeo(const std::vector<std::string>& args);
ProcessResult SkopeoInspect(const std::string& reference, const std::string& creds);
ProcessResult SkopeoPush(const OciImage& image, const std::string& name, const std::string& creds);
std::string PublisherCreds();  // ICAT_PUBLISHER_USER:ICAT_PUBLISHER_PASSWORD of the stack

// "Authorization: Basic base64(user:password)".
Headers Basic(std::string_view user, std::string_view password);

}  // namespace icat::test
