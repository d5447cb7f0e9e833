// Running build/bin/icat in the tests (icat_client_support.hpp).
#include "icat_client_support.hpp"

namespace icat::test {

ProcessResult RunIcat(const TempDir& dir, const std::string& key, std::vector<std::string> args,
                      const std::string& base_url) {
  std::string key_file = dir.Write("key-" + RandomSuffix(6), key + "\n");
  args.insert(args.begin(), GetEnv().bin_dir + "/icat");
  args.insert(args.end(), {"--key-file", key_file, "--url", base_url});
  return RunProcess(args);
}

std::string Shown(const ProcessResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

}  // namespace icat::test
