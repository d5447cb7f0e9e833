// A /v2/ request's target, from the raw URI the client sent.
#include "icat/registry.hpp"
#include "registry.hpp"

namespace icat::registry {

namespace {

constexpr std::string_view kPrefix = "/v2/";

// A tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}) or a digest (algorithm:hex): what follows /manifests/.
bool IsReference(std::string_view reference) {
  if (reference.empty() || reference.size() > 200) return false;
  for (char c : reference) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-' || c == ':' || c == '+';
    if (!ok) return false;
  }
  return reference.front() != '.' && reference.front() != '-';
}

// The name before `suffix_at` in the path after /v2/, when it is one of the registry's grammar.
bool TakeName(std::string_view rest, size_t suffix_at, RegistryRequest& asked) {
  std::string_view name = rest.substr(0, suffix_at);
  if (!IsRepositoryName(name)) return false;
  asked.name = std::string(name);
  return true;
}

}  // namespace

RegistryRequest ParseRegistryRequest(std::string_view method, std::string_view uri) {
  RegistryRequest asked{std::string(method)};
  std::string_view path = uri.substr(0, uri.find('?'));
  if (path == kPrefix || path == "/v2") {
    asked.target = Target::kBase;
    return asked;
  }
  if (!path.starts_with(kPrefix)) return asked;
  std::string_view rest = path.substr(kPrefix.size());
  // Uploads first: their paths end in a segment that could pass for a blob's.
  if (size_t at = rest.rfind("/blobs/uploads/"); at != std::string_view::npos) {
    if (TakeName(rest, at, asked)) asked.target = Target::kUpload;
    return asked;
  }
  if (rest.ends_with("/tags/list")) {
    if (TakeName(rest, rest.size() - 10, asked)) asked.target = Target::kTags;
    return asked;
  }
  size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos) return asked;
  std::string_view last = rest.substr(slash + 1);
  std::string_view before = rest.substr(0, slash);
  if (before.ends_with("/manifests") && IsReference(last)) {
    if (TakeName(before, before.size() - 10, asked)) {
      asked.target = Target::kManifest;
      asked.reference = std::string(last);
    }
  } else if (before.ends_with("/blobs") && IsReference(last)) {
    if (TakeName(before, before.size() - 6, asked)) asked.target = Target::kBlob;
  }
  return asked;
}

}  // namespace icat::registry
