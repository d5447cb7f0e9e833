// What a /v2/ request asks for, read from the method and raw URI nginx hands the pull decision
// (handlers/registry/request.cpp), and an image's size from a manifest (common/src/registry.cpp).
// The input: a method, a space, the URI; the whole input is also read as a manifest.
#include <string>

#include "../../handlers/registry/registry.hpp"
#include "fuzz.hpp"
#include "icat/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using icat::registry::Target;
  std::string_view text = icat::fuzz::Text(data, size);
  size_t space = text.find(' ');
  std::string_view method = text.substr(0, space);
  std::string_view uri = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  icat::registry::RegistryRequest asked = icat::registry::ParseRegistryRequest(method, uri);
  bool named = asked.target != Target::kBase && asked.target != Target::kOther;
  icat::fuzz::Expect(named == !asked.name.empty(), "a name exactly when the target is a repository's");
  if (named) {
    icat::fuzz::Expect(icat::IsRepositoryName(asked.name), "a name is of the registry's grammar");
    std::string repository = icat::CatalogueRepository("localhost:8443/hardened", asked.name);
    icat::fuzz::Expect(icat::RegistryName("localhost:8443/hardened", repository) == asked.name,
                       "a name goes to the catalogue and back unchanged");
    std::string_view path = uri.substr(0, uri.find('?'));
    bool dot_segment = path.find("/../") != std::string_view::npos || path.find("/./") != std::string_view::npos ||
                       path.ends_with("/..") || path.ends_with("/.");
    icat::fuzz::Expect(!dot_segment || asked.target == Target::kUpload, "no name is read from a path with a dot segment");
  }
  icat::fuzz::Expect((asked.target == Target::kManifest) == !asked.reference.empty(), "a reference for manifests only");
  icat::fuzz::Expect(asked.reference.find('/') == std::string::npos, "a reference is one segment");
  if (std::optional<long long> bytes = icat::ManifestImageBytes(text)) {
    icat::fuzz::Expect(*bytes >= 0, "sizes add up from the manifest, never past the largest number");
  }
  return 0;
}
