// icat's side of the /v1 API: where the service is, the key, and GET requests over libcurl whose
// failures carry the API's error, message and request id.
#pragma once

#include <rapidjson/document.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "icat/http.hpp"
#include "icat/cli_args.hpp"

namespace icat::client {

// Exit statuses (docs/client.md): 0 done, 1 icat check found what --fail-on names or icat verify
// found an attestation that does not verify (or none), 2 any error, 3 icat vex found no VEX document
// to download (the vendor has made no statement about the version).
inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitNotVerified = 1;  // the same answer as a failed check: judged, and no
inline constexpr int kExitError = 2;
inline constexpr int kExitNoVex = 3;

// Anything that stops a command: printed as "icat: <message>", exit 2.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An answer of the API other than the one expected: its status, `error`, `message` and X-Request-Id.
class ApiFailure : public Failure {
 public:
  ApiFailure(std::string what, long status, std::string error, std::string message, std::string request_id)
      : Failure(std::move(what)),
        status(status),
        error(std::move(error)),
        message(std::move(message)),
        request_id(std::move(request_id)) {}
  long status;
  std::string error;  // empty when the body was not an error body
  std::string message;
  std::string request_id;
};

// Where and as whom: --url or ICAT_BASE_URL, --key-file (its first line) or ICAT_API_KEY, --cacert
// or ICAT_CA_FILE. The key is never an argument: argv is visible to every user of the machine.
struct Connection {
  std::string base_url;  // without a trailing '/'
  std::string api_key;
  std::string ca_file;   // empty: the system's CAs
};

using GetEnvFn = std::function<const char*(const char*)>;

// The flags every command takes (--url, --key-file, --cacert), for its CommandSpec.
const std::vector<FlagSpec>& ConnectionFlags();

// Throws Failure naming what is missing or wrong: no URL, a URL that is not http(s), plain http to a
// host other than a loopback one (the key would cross the network in clear), no key, an unreadable
// or empty key file. needs_key false: commands that call only public endpoints.
Connection ResolveConnection(const Args& args, const GetEnvFn& getenv, bool needs_key = true);

struct HttpReply {
  long status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string Header(std::string_view lower_case_name) const;
};

// The text after "icat: " for an API reply that is not what was asked for:
// "GET /v1/images: 401 UNAUTHENTICATED: Invalid API key. (request id 3f2a...)".
std::string DescribeApiFailure(std::string_view what, long status, std::string_view body, std::string_view request_id);

class Api {
 public:
  explicit Api(Connection connection);
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  // GET base_url + path ("/v1/..."), with the key unless anonymous. Any answer is returned; only a
  // transport failure (DNS, refused, TLS, timeout) throws Failure. progress_label, when set and
  // stderr is a terminal, shows a progress line for a body over kProgressBytes.
  HttpReply Get(const std::string& path, bool anonymous = false, const std::string& progress_label = {});

  // GET expecting 200 with a JSON body; ApiFailure otherwise.
  rapidjson::Document GetJson(const std::string& path, bool anonymous = false);

  static constexpr long kProgressBytes = 4L << 20;
  // A body is kept in memory until verified; a bigger one is refused (SBOMs are at most
  // ICAT_INGEST_MAX_BYTES, 64 MiB by default).
  static constexpr long kMaxBodyBytes = 1L << 30;

 private:
  Connection connection_;
  void* curl_;  // CURL*, one handle so connections are reused
};

// Throws ApiFailure for a reply other than 200 (what: "GET /v1/...").
void ExpectOk(const HttpReply& reply, std::string_view what);

}  // namespace icat::client
