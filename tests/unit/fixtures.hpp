// What the unit tests share: the real scanner outputs of ../shared/fixtures, the project's demo
// data (tools/demo), the message of an icatctl refusal, and a scratch directory.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ingest/session.hpp"

namespace icat::test {

// The repository's root: ICAT_REPO (tests/run-tests sets it), else the working directory.
inline std::string RepoDir() {
  const char* repo = std::getenv("ICAT_REPO");
  return repo && *repo ? std::string(repo) : std::string(".");
}

// ../shared/fixtures/<relative>; the test fails at once when the fixtures are not beside the clone.
inline std::string FixturePath(const std::string& relative) {
  std::string path = RepoDir() + "/../shared/fixtures/" + relative;
  BOOST_TEST_REQUIRE(std::filesystem::exists(path), "../shared/fixtures is not beside the clone: " << path);
  return path;
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_TEST_REQUIRE(in.good(), "cannot read " << path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// RFC 8032 section 7.1, test 1: the secret key 9d61...7f60 as PKCS#8 PEM (a signer with known answers).
inline const std::string kRfc8032Private =
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
    "-----END PRIVATE KEY-----\n";

// A directory under /tmp for one test, removed with its contents at the end of the scope.
struct TempDir {
  TempDir() {
    char pattern[] = "/tmp/icat-unit-XXXXXX";
    const char* made = mkdtemp(pattern);
    BOOST_TEST_REQUIRE(made != nullptr, "cannot make a directory under /tmp");
    path = made;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path;
};

// The message of the ctl::Failure fn throws (empty when it throws none).
template <typename Fn>
std::string Refusal(Fn fn) {
  try {
    fn();
  } catch (const ctl::Failure& e) {
    return e.what();
  }
  return "";
}

}  // namespace icat::test
