// Running build/bin/icat in the tests (icat_client_support.hpp).
#include "icat_client_support.hpp"

#include "icat/crypto.hpp"

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

TamperingProxy::TamperingProxy(Mode mode, Target target)
    : mode_(mode),
      target_(target),
      receiver_("127.0.0.1", [this](const ReceivedRequest& request) { return Forward(request); }) {}

std::string TamperingProxy::Forward(const ReceivedRequest& request) {
  Headers forwarded;
  auto auth = request.headers.find("authorization");
  if (auth != request.headers.end()) forwarded.emplace_back("Authorization", auth->second);
  Response r = upstream_.Get(GetEnv().base_url + request.target, forwarded);
  std::string body = r.body;
  std::map<std::string, std::string> headers = r.headers;
  std::string path = request.target.substr(0, request.target.find('?'));
  bool download = target_ == kBundles ? path.find("/attestations/") != std::string::npos
                                      : path.ends_with("/sbom") || path.ends_with("/vex");
  if (download && r.status == 200 && !body.empty()) {
    body[body.size() / 2] ^= 1;
    tampered_++;
    if (mode_ == kRestate) {
      std::string sha = icat::Sha256(body);
      headers["etag"] = "\"sha256:" + icat::HexEncode(sha) + "\"";
      headers["repr-digest"] = "sha-256=:" + icat::Base64Encode(sha) + ":";
    }
  }
  std::string reply = "HTTP/1.1 " + std::to_string(r.status) + " X\r\nConnection: close\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n";
  for (const char* name : {"content-type", "etag", "repr-digest", "x-signature", "x-signature-key-id", "x-request-id"}) {
    if (headers.count(name)) reply += std::string(name) + ": " + headers[name] + "\r\n";
  }
  return reply + "\r\n" + body;
}

}  // namespace icat::test
