// What the tests of build/bin/icat share: running it as a pipeline would, and its result in words.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "receiver.hpp"
#include "scans_support.hpp"

namespace icat::test {

// build/bin/icat with args, the key in a --key-file under dir (never in argv) and the address in
// --url (the runner's environment already holds ICAT_BASE_URL, which an added variable would not
// replace).
ProcessResult RunIcat(const TempDir& dir, const std::string& key, std::vector<std::string> args,
                      const std::string& base_url = GetEnv().base_url);

// "exit N", stdout and stderr: the message of an assertion on a run.
std::string Shown(const ProcessResult& r);

// An HTTP proxy in front of the stack (a Receiver answering for it) that changes signed downloads
// (SBOMs and VEX documents, or kBundles: the attestation bundles) on the way: one byte of the body
// flipped, and (kRestate) the ETag and Repr-Digest restated to match the changed bytes, so only the
// attestation can tell.
class TamperingProxy {
 public:
  enum Mode { kFlipByte, kRestate };
  enum Target { kDocuments, kBundles };
  explicit TamperingProxy(Mode mode, Target target = kDocuments);
  std::string Url() const { return receiver_.BaseUrl(); }
  int tampered() const { return tampered_; }

 private:
  std::string Forward(const ReceivedRequest& request);

  Mode mode_;
  Target target_;
  std::atomic<int> tampered_{0};
  HttpClient upstream_;  // used on the receiver's thread only
  Receiver receiver_;    // last: its thread stops before the members it uses go
};

}  // namespace icat::test
