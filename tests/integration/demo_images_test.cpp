// tools/demo-images push: the demo images reach a real registry (Debian's docker-registry, TLS with
// a certificate made for the test) with their digests kept, so that a pull by the digests tools/demo
// names (what the demo scans, SBOMs and VEX name) finds them; a registry whose certificate the push
// cannot verify gets nothing.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <map>
#include <sstream>

#include "scans_support.hpp"
#include "registry_support.hpp"
#include "support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// tools/demo/versions' versions, "<image>:<tag>", with the digest of tools/demo/<image>/<tag>/digest.
std::map<std::string, std::string> DemoDigests() {
  std::string demo = it::GetEnv().repo + "/tools/demo/";
  std::map<std::string, std::string> digests;
  std::istringstream versions(it::ReadFileBytes(demo + "versions"));
  std::string line;
  while (std::getline(versions, line)) {
    std::istringstream fields(line);
    std::string image, tag;
    if (!(fields >> image >> tag) || image[0] == '#') continue;
    std::string digest = it::ReadFileBytes(demo + image + "/" + tag + "/digest");
    digests[image + ":" + tag] = digest.substr(0, digest.find('\n'));
  }
  return digests;
}

// tools/demo-images push of a fresh build to `registry` (its path prefix "hardened"), trusting ca_file.
it::ProcessResult Push(const it::ScratchRegistry& registry, const std::string& ca_file) {
  it::TempDir out;
  std::string script = it::GetEnv().repo + "/tools/demo-images";
  it::ProcessResult build = it::RunProcess({script, "build", out.path()});
  BOOST_TEST_REQUIRE(build.exit_code == 0, build.err);
  // Any credential: this registry asks for none (the stack's asks for the publisher's).
  return it::RunProcess({script, "push", out.path()}, {},
                        {"ICAT_REGISTRY=" + registry.Host() + "/hardened", "ICAT_PUBLISHER_USER=icat-publisher",
                         "ICAT_PUBLISHER_PASSWORD=not-asked-for", "ICAT_TLS_CERT=" + ca_file});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(demo_images)

BOOST_AUTO_TEST_CASE(the_pushed_demo_images_are_pulled_by_the_digests_tools_demo_names) {
  it::ScratchRegistry registry(true);
  it::ProcessResult push = Push(registry, registry.CaFile());
  BOOST_TEST_REQUIRE(push.exit_code == 0, push.err);
  std::map<std::string, std::string> digests = DemoDigests();
  BOOST_TEST(digests.size() == 8u);
  for (const auto& [reference, digest] : digests) {
    std::string repository = "docker://" + registry.Host() + "/hardened/" + reference.substr(0, reference.find(':'));
    // By tag: the digest the registry computes of the manifest it stored.
    it::ProcessResult by_tag = it::RunProcess({"skopeo", "inspect", "--cert-dir", registry.CertDir(), "--format",
                                               "{{.Digest}}", repository + reference.substr(reference.find(':'))});
    BOOST_TEST(by_tag.exit_code == 0, reference << ": " << by_tag.err);
    BOOST_TEST(by_tag.out == digest + "\n", reference);
    // By digest, as the console's pull command names it: the image's config is there too.
    it::ProcessResult by_digest = it::RunProcess({"skopeo", "inspect", "--cert-dir", registry.CertDir(), "--format",
                                                  "{{.Architecture}} {{.Os}}", repository + "@" + digest});
    BOOST_TEST(by_digest.exit_code == 0, reference << ": " << by_digest.err);
    BOOST_TEST(by_digest.out == "amd64 linux\n", reference);
  }
}

BOOST_AUTO_TEST_CASE(a_registry_whose_certificate_the_push_cannot_verify_gets_nothing) {
  it::ScratchRegistry registry(true);
  it::ProcessResult push = Push(registry, registry.OtherCaFile());
  BOOST_TEST(push.exit_code != 0);
  BOOST_TEST(push.err.find("pushing nginx:1.27.2 to " + registry.Host() + "/hardened failed") != std::string::npos, push.err);
  it::ProcessResult tags = it::RunProcess({"skopeo", "list-tags", "--cert-dir", registry.CertDir(),
                                           "docker://" + registry.Host() + "/hardened/nginx"});
  BOOST_TEST(tags.exit_code != 0, "the registry has hardened/nginx: " << tags.out);
}

BOOST_AUTO_TEST_SUITE_END()
