// What the harnesses of icatctl ingest's readers share: every refusal names the file it refuses.
#pragma once

#include <string>
#include <string_view>

#include "ingest/session.hpp"
#include "tests/fuzz/fuzz.hpp"

namespace icat::fuzz {

// Runs read(); a refusal (ctl::Failure) it throws must begin "<file>: ", as ingest prints it.
template <typename Read>
void ExpectRefusalNamesFile(std::string_view file, Read read) {
  try {
    read();
  } catch (const ctl::Failure& e) {
    Expect(std::string_view(e.what()).starts_with(std::string(file) + ": "), "a refusal names the file");
  }
}

}  // namespace icat::fuzz
