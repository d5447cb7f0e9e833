#include "registry_support.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "icat/crypto.hpp"

namespace icat::test {

namespace {

std::string EnvOrThrow(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') throw std::runtime_error(std::string(name) + " is not set (run through tests/run-tests)");
  return value;
}

// The layout is written by bash with tar and gzip, as an image builder would: the digests come from
// the bytes on disk, so the test does not restate how they are computed.
constexpr const char* kBuildScript = R"SH(
set -euo pipefail
dir=$1 tag=$2 content=$3
mkdir -p "$dir/blobs/sha256" "$dir/root/etc"
printf '%s\n' "$content" >"$dir/root/etc/it-release"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$dir/layer.tar" -C "$dir/root" .
gzip -n -c "$dir/layer.tar" >"$dir/layer.tgz"
blob() { local d; d=$(sha256sum "$1" | cut -d' ' -f1); cp "$1" "$dir/blobs/sha256/$d"; echo "$d"; }
diff_id=$(sha256sum "$dir/layer.tar" | cut -d' ' -f1)
layer=$(blob "$dir/layer.tgz"); layer_size=$(stat -c %s "$dir/layer.tgz")
printf '{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"config":{}}' \
  "$diff_id" >"$dir/config.json"
config=$(blob "$dir/config.json"); config_size=$(stat -c %s "$dir/config.json")
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:%s","size":%s}]}' \
  "$config" "$config_size" "$layer" "$layer_size" >"$dir/manifest.json"
manifest=$(blob "$dir/manifest.json"); manifest_size=$(stat -c %s "$dir/manifest.json")
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s"}}]}' \
  "$manifest" "$manifest_size" "$tag" >"$dir/index.json"
printf '{"imageLayoutVersion":"1.0.0"}' >"$dir/oci-layout"
echo "sha256:$manifest $((config_size + layer_size))"
)SH";

}  // namespace

OciImage BuildOciImage(const std::string& tag, const std::string& content) {
  OciImage image;
  image.layout = GetEnv().stack_dir + "/it-oci-" + RandomSuffix(8);
  image.tag = tag;
  ProcessResult built = RunProcess({"bash", "-c", kBuildScript, "build", image.layout, tag, content});
  if (built.exit_code != 0) throw std::runtime_error("building an OCI layout failed: " + built.err);
  size_t space = built.out.find(' ');
  image.digest = built.out.substr(0, space);
  image.bytes = std::atoll(built.out.c_str() + space + 1);
  return image;
}

std::string RegistryHost() {
  std::string registry = EnvOrThrow("ICAT_REGISTRY");
  return registry.substr(0, registry.find('/'));
}

RegistryImage CreateRegistryImage(std::string_view label) {
  RegistryImage created;
  created.image.name = "it-" + std::string(label) + "-" + RandomSuffix(8);
  created.name = "hardened/" + created.image.name;
  created.image.repository = RegistryHost() + "/" + created.name;
  created.image.id = IcatctlOk({"image", "create", "--name", created.image.name, "--description", "registry test",
                                "--base-os", "debian-12", "--repository", created.image.repository});
  return created;
}

ProcessResult Skopeo(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"skopeo", "--command-timeout", "60s"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv);
}

ProcessResult SkopeoInspect(const std::string& reference, const std::string& creds) {
  std::vector<std::string> args = {"inspect", "--retry-times", "0", "--cert-dir", GetEnv().stack_dir + "/tls"};
  if (creds.empty()) {
    args.push_back("--no-creds");
  } else {
    args.insert(args.end(), {"--creds", creds});
  }
  args.push_back("docker://" + RegistryHost() + "/" + reference);
  return Skopeo(args);
}

ProcessResult SkopeoPush(const OciImage& image, const std::string& name, const std::string& creds) {
  return Skopeo({"copy", "--retry-times", "0", "--dest-cert-dir", GetEnv().stack_dir + "/tls", "--dest-creds", creds,
                 "oci:" + image.layout + ":" + image.tag, "docker://" + RegistryHost() + "/" + name + ":" + image.tag});
}

std::string PublisherCreds() { return EnvOrThrow("ICAT_PUBLISHER_USER") + ":" + EnvOrThrow("ICAT_PUBLISHER_PASSWORD"); }

ScratchRegistry::ScratchRegistry(bool tls) : dir_(scratch_.path()), tls_(tls) {
  if (tls_) {
    TestCertificates certificates(dir_);
    std::filesystem::create_directories(CertDir());
    std::filesystem::copy_file(CaFile(), CertDir() + "/ca.crt");
  }
  // A port free a moment ago may be taken before the registry binds it: then another one.
  for (int attempt = 1; attempt <= 3 && pid_ <= 0; attempt++) {
    port_ = FreePort();
    TryStart();
  }
  BOOST_TEST_REQUIRE(pid_ > 0, "docker-registry did not start on three ports; its log: " << LogTail());
}

std::string ScratchRegistry::Host() const {
  return (tls_ ? "localhost:" : "127.0.0.1:") + std::to_string(port_);
}

std::string ScratchRegistry::Url() const { return (tls_ ? "https://" : "http://") + Host(); }

void ScratchRegistry::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

// Spawns the registry (through sh, for its log) and waits until GET /v2/ answers 200, over verified
// TLS when it has it (pid_ set), or it has exited, as when the port was taken (pid_ -1); 30 s at most.
void ScratchRegistry::TryStart() {
  std::string config = "version: 0.1\nlog: {level: warn}\nstorage: {filesystem: {rootdirectory: " + dir_ +
                       "/data}}\nhttp:\n  addr: 127.0.0.1:" + std::to_string(port_) + "\n";
  if (tls_) config += "  tls: {certificate: " + dir_ + "/server.pem, key: " + dir_ + "/server.key}\n";
  WriteFileBytes(dir_ + "/config.yml", config);
  pid_ = SpawnQuiet({"/bin/sh", "-c", "exec /usr/bin/docker-registry serve \"$0\" >>\"$1\" 2>&1", dir_ + "/config.yml",
                     dir_ + "/registry.log"});
  std::vector<std::string> probe = {"curl", "-sf", "-o", "/dev/null", Url() + "/v2/"};
  if (tls_) probe.insert(probe.begin() + 2, {"--cacert", CaFile()});
  bool exited = false;
  bool answers = WaitFor([&] {
    exited = waitpid(pid_, nullptr, WNOHANG) == pid_;
    return exited || RunProcess(probe).exit_code == 0;
  }, std::chrono::seconds(30));
  if (exited) {
    pid_ = -1;  // reaped already
  } else if (!answers) {
    Stop();
  }
}

std::string ScratchRegistry::LogTail() const {
  std::ifstream file(dir_ + "/registry.log");
  std::string log((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return log.substr(log.size() > 2000 ? log.size() - 2000 : 0);
}

void PushToScratch(const OciImage& image, const ScratchRegistry& registry, const std::string& name,
                   const std::string& tag) {
  ProcessResult copy = RunProcess({"skopeo", "--insecure-policy", "copy", "--quiet", "--preserve-digests",
                                   "--dest-tls-verify=false", "oci:" + image.layout + ":" + image.tag,
                                   "docker://" + registry.Host() + "/" + name + ":" + tag});
  BOOST_TEST_REQUIRE(copy.exit_code == 0, "skopeo copy: " << copy.err);
}

Headers Basic(std::string_view user, std::string_view password) {
  return {{"Authorization", "Basic " + icat::Base64Encode(std::string(user) + ":" + std::string(password))}};
}

}  // namespace icat::test
