// tools/demo-images build: the demo images build with the digests tools/demo names (what the demo
// scans, SBOMs and VEX name) whatever the machine's umask and time zone. The push:
// tests/integration/demo_images_test.cpp.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "fixtures.hpp"
#include "icat/crypto.hpp"

namespace {

using icat::test::ReadAll;
using icat::test::RepoDir;
using icat::test::TempDir;

struct Run {
  int status = -1;     // the exit status of bash
  std::string output;  // its stdout
};

// Runs `script` with bash in the repository's top directory; stderr goes to the test's log.
Run Bash(const TempDir& dir, const std::string& script) {
  std::string path = dir.path + "/script.sh";
  std::ofstream(path) << "set -euo pipefail\ncd '" << RepoDir() << "'\n" << script << "\n";
  Run run;
  if (FILE* pipe = popen(("bash " + path).c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return run;
}

// "<image>:<tag> sha256:<hex>" lines -> reference: digest.
std::map<std::string, std::string> Digests(const std::string& lines) {
  std::map<std::string, std::string> digests;
  std::istringstream in(lines);
  std::string reference, digest;
  while (in >> reference >> digest) digests[reference] = digest;
  return digests;
}

// What tools/demo names: each version of tools/demo/versions with its digest file.
std::map<std::string, std::string> ExpectedDigests() {
  std::map<std::string, std::string> expected;
  std::istringstream versions(ReadAll(RepoDir() + "/tools/demo/versions"));
  std::string line;
  while (std::getline(versions, line)) {
    std::istringstream fields(line);
    std::string image, tag;
    if (!(fields >> image >> tag) || image[0] == '#') continue;
    std::string digest = ReadAll(RepoDir() + "/tools/demo/" + image + "/" + tag + "/digest");
    while (!digest.empty() && digest.back() == '\n') digest.pop_back();
    expected[image + ":" + tag] = digest;
  }
  return expected;
}

// Every blob of every layout under `out` is stored under the digest of its bytes.
int CheckBlobNames(const std::string& out) {
  int blobs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(out)) {
    if (!entry.is_regular_file() || entry.path().parent_path().filename() != "sha256") continue;
    BOOST_TEST(icat::Sha256Hex(ReadAll(entry.path())) == entry.path().filename().string(), entry.path());
    blobs++;
  }
  return blobs;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(demo_images)

BOOST_AUTO_TEST_CASE(every_demo_image_builds_with_the_digest_tools_demo_names_under_any_umask_and_time_zone) {
  TempDir first, second;
  Run a = Bash(first, "umask 022; TZ=UTC tools/demo-images build '" + first.path + "/out'");
  Run b = Bash(second, "umask 077; TZ=Pacific/Kiritimati tools/demo-images build '" + second.path + "/out'");
  BOOST_TEST_REQUIRE(a.status == 0);
  BOOST_TEST_REQUIRE(b.status == 0);
  std::map<std::string, std::string> expected = ExpectedDigests();
  BOOST_TEST(expected.size() == 8u);  // tools/demo/versions
  BOOST_TEST(a.output == b.output);
  for (const auto& [reference, digest] : Digests(a.output)) {
    BOOST_TEST(digest == expected[reference], reference << " builds as " << digest << " (tools/demo-images stamp)");
  }
  BOOST_TEST(Digests(a.output).size() == expected.size());
  // A manifest, a config and a layer per version.
  BOOST_TEST(CheckBlobNames(first.path + "/out") == 3 * static_cast<int>(expected.size()));
}

BOOST_AUTO_TEST_SUITE_END()
