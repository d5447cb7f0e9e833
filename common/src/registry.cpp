#include "icat/registry.hpp"

#include <limits>

#include "icat/json.hpp"

namespace icat {

namespace {

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*
bool IsPathComponent(std::string_view part) {
  if (part.empty() || !IsAlnum(part.front()) || !IsAlnum(part.back())) return false;
  for (size_t i = 0; i < part.size(); i++) {
    if (IsAlnum(part[i])) continue;
    size_t run = i;
    while (run < part.size() && !IsAlnum(part[run])) run++;
    std::string_view separator = part.substr(i, run - i);
    bool dashes = separator.find_first_not_of('-') == std::string_view::npos;
    if (!(separator == "." || separator == "_" || separator == "__" || dashes)) return false;
    i = run - 1;
  }
  return true;
}

long long SizeOf(const rapidjson::Value& descriptor) {
  if (!descriptor.IsObject() || !descriptor.HasMember("size") || !descriptor["size"].IsInt64()) return -1;
  return descriptor["size"].GetInt64();
}

}  // namespace

std::string_view RegistryHost(std::string_view registry_setting) {
  return registry_setting.substr(0, registry_setting.find('/'));
}

bool IsRepositoryName(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  size_t start = 0;
  while (true) {
    size_t slash = name.find('/', start);
    if (!IsPathComponent(name.substr(start, slash == std::string_view::npos ? slash : slash - start))) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

std::string CatalogueRepository(std::string_view registry_setting, std::string_view name) {
  return std::string(RegistryHost(registry_setting)) + "/" + std::string(name);
}

std::optional<std::string> RegistryName(std::string_view registry_setting, std::string_view repository) {
  std::string_view host = RegistryHost(registry_setting);
  if (repository.size() <= host.size() + 1 || repository.substr(0, host.size()) != host ||
      repository[host.size()] != '/') {
    return std::nullopt;
  }
  std::string_view name = repository.substr(host.size() + 1);
  if (!IsRepositoryName(name)) return std::nullopt;
  return std::string(name);
}

bool IsArtifactConfig(std::string_view config_media_type) {
  return !config_media_type.empty() && config_media_type != "application/vnd.oci.image.config.v1+json" &&
         config_media_type != "application/vnd.docker.container.image.v1+json";
}

bool IsAttachmentTag(std::string_view tag) {
  constexpr std::string_view kPrefix = "sha256-";
  constexpr size_t kHex = 64;
  if (!tag.starts_with(kPrefix) || tag.size() < kPrefix.size() + kHex + 1) return false;
  std::string_view hex = tag.substr(kPrefix.size(), kHex);
  if (hex.find_first_not_of("0123456789abcdef") != std::string_view::npos) return false;
  std::string_view suffix = tag.substr(kPrefix.size() + kHex);
  return suffix == ".att" || suffix == ".sig" || suffix == ".sbom";
}

std::string AttestationTag(std::string_view manifest_digest) {
  return "sha256-" + std::string(manifest_digest.substr(manifest_digest.find(':') + 1)) + ".att";
}

std::optional<long long> ManifestImageBytes(std::string_view manifest_json) {
  JsonRead read = ReadJson(manifest_json, kMaxBodyDepth);  // bounded: the text is the registry's, not ours
  const rapidjson::Value& doc = read.document;
  if (!read.error.empty() || !doc.IsObject()) return std::nullopt;
  long long total = 0;
  auto add = [&total](const rapidjson::Value& descriptor) {
    long long size = SizeOf(descriptor);
    if (size < 0 || size > std::numeric_limits<long long>::max() - total) return false;
    total += size;
    return true;
  };
  if (doc.HasMember("layers") && doc["layers"].IsArray() && doc.HasMember("config")) {
    if (!add(doc["config"])) return std::nullopt;
    for (const rapidjson::Value& layer : doc["layers"].GetArray()) {
      if (!add(layer)) return std::nullopt;
    }
    return total;
  }
  if (doc.HasMember("manifests") && doc["manifests"].IsArray()) {
    for (const rapidjson::Value& manifest : doc["manifests"].GetArray()) {
      if (!add(manifest)) return std::nullopt;
    }
    return total;
  }
  return std::nullopt;
}

}  // namespace icat
