// What the unit tests of ingest share: the real scanner outputs of ../shared/fixtures, the
// project's demo data (tools/demo), and the message of an icatctl refusal.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../../tools/icatctl/session.hpp"

namespace icat::test {

// The repository's root: ICAT_REPO (tools/run-tests sets it), else the working directory.
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
