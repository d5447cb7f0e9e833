// What the tests of build/bin/icat share: running it as a pipeline would, and its result in words.
#pragma once

#include <string>
#include <vector>

#include "scans_support.hpp"

namespace icat::test {

// build/bin/icat with args, the key in a --key-file under dir (never in argv) and the address in
// --url (the runner's environment already holds ICAT_BASE_URL, which an added variable would not
// replace).
ProcessResult RunIcat(const TempDir& dir, const std::string& key, std::vector<std::string> args,
                      const std::string& base_url = GetEnv().base_url);

// "exit N", stdout and stderr: the message of an assertion on a run.
std::string Shown(const ProcessResult& r);

}  // namespace icat::test
