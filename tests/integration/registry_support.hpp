// What the registry tests share (docs/registry.md): small real OCI images built on disk, skopeo as
// the client, and the stack's registry settings.
#pragma once

#include <string>
#include <vector>

#include "scans_support.hpp"
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

// docker-registry of a test's own on 127.0.0.1 (a free port, storage in a scratch directory, no auth:
// as tools/stack runs it, minus nginx), over TLS with a server certificate for "localhost" signed by
// the test's CA when asked. Stopped (SIGTERM, then waited for) by the destructor, pass or fail.
class ScratchRegistry {
 public:
  explicit ScratchRegistry(bool tls = false);
  ~ScratchRegistry() { Stop(); }
  ScratchRegistry(const ScratchRegistry&) = delete;
  ScratchRegistry& operator=(const ScratchRegistry&) = delete;

  std::string Host() const;  // localhost:<port> over TLS (the certificate's name), else 127.0.0.1:<port>
  std::string Url() const;   // https:// or http://, then Host()
  // TLS only: the CA, an unrelated CA, and a directory of the CA as skopeo reads it (--cert-dir: *.crt).
  std::string CaFile() const { return dir_ + "/ca.pem"; }
  std::string OtherCaFile() const { return dir_ + "/other-ca.pem"; }
  std::string CertDir() const { return dir_ + "/trust"; }
  void Stop();  // idempotent

 private:
  void TryStart();
  std::string LogTail() const;

  TempDir scratch_;
  std::string dir_;
  bool tls_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// Pushes a BuildOciImage to a ScratchRegistry over plain http as name:tag, its digests kept.
void PushToScratch(const OciImage& image, const ScratchRegistry& registry, const std::string& name,
                   const std::string& tag);

// "Authorization: Basic base64(user:password)".
Headers Basic(std::string_view user, std::string_view password);

}  // namespace icat::test
