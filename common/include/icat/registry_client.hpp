// What the service reads from and writes to the Distribution registry itself (ICAT_REGISTRY_UPSTREAM,
// loopback or a cluster Service, no auth of its own): its API version, a repository's tags (icatctl
// registry reconcile), a manifest (reconcile, and the registry pool sizing a pushed image), and the
// blobs and manifests icatctl registry attach pushes (the attestations, docs/registry.md). Every
// request is bounded (timeouts, a body limit) and every answer checked, so a registry that answers
// garbage is an error, never a crash.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

// The registry cannot be reached, or what answers is no registry: nothing can be read from it.
class RegistryUnreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One repository's answer is unusable (not JSON, a digest that does not match, too large, ...).
class RegistryAnswerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A tag's manifest as the registry serves it, checked: the digest is the SHA-256 of the bytes and
// the registry's Docker-Content-Digest; size_bytes is ManifestImageBytes of it.
struct PushedManifest {
  std::string digest;  // sha256:<64 hex>
  long long size_bytes = 0;
  std::string config_media_type;  // of an image manifest's config; "" for an index
};

class RegistryClient {
 public:
  // upstream: http(s)://host:port of the registry (no path); each request ends within timeout_ms.
  explicit RegistryClient(std::string upstream, long timeout_ms = 30000);

  // GET /v2/ answers 200 with Docker-Distribution-API-Version: registry/2.0; RegistryUnreachable otherwise.
  void Probe();

  // Every tag of the repository (a registry name, "hardened/nginx"), page by page (n and last, the
  // Link header); nullopt when the registry has no such repository (404).
  std::optional<std::vector<std::string>> Tags(const std::string& name);

  // A tag's or a digest's manifest.
  PushedManifest Manifest(const std::string& name, const std::string& reference);

  // The digest a tag or digest resolves to (HEAD of the manifest); nullopt when the registry has none.
  std::optional<std::string> ManifestDigest(const std::string& name, const std::string& reference);

  // Uploads a blob (POST, then PUT of the bytes with their digest) unless the repository has it;
  // returns its digest. RegistryAnswerError when the registry refuses it or stores other bytes.
  std::string PushBlob(const std::string& name, std::string_view bytes);

  // PUTs a manifest of that media type under a tag; returns its digest, checked against the registry's.
  std::string PushManifest(const std::string& name, const std::string& tag, std::string_view media_type,
                           std::string_view bytes);

 private:
  struct Reply {
    long status = 0;
    std::string body, content_type, digest, link, api_version, location;  // all but body from headers
  };
  // One request: method GET, HEAD, POST or PUT; body sent as is (POST and PUT).
  Reply Send(const std::string& method, const std::string& path, const std::vector<std::string>& headers,
             size_t max_bytes, std::string_view body = {});

  std::string upstream_;
  long timeout_ms_;
};

// The path and query of a tags/list Link header's next page ("</v2/x/tags/list?last=a&n=100>;
// rel=\"next\""), which must be the same repository's tags/list; nullopt for no next page.
// RegistryAnswerError when the header is there but names anything else.
std::optional<std::string> NextTagsPage(std::string_view link, std::string_view name);

}  // namespace icat
