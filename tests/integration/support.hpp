// What the integration tests share: the stack's environment, an HTTP client on libcurl, running
// icatctl and tools/stack, direct SQL as the owner role, handler pids, and a fresh-tenant fixture.
#pragma once

#include <boost/test/unit_test.hpp>
#include <curl/curl.h>
#include <libpq-fe.h>
#include <rapidjson/document.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "icat/redis.hpp"

namespace icat::test {

// ------------------------------------------------------------------ environment

// What tests/run-tests hands the binary. Missing required variables throw std::runtime_error.
struct Env {
  std::string base_url;      // ICAT_BASE_URL, http://127.0.0.1:PORT
  std::string https_url;     // ICAT_HTTPS_URL
  std::string stack_dir;     // ICAT_STACK_DIR
  std::string repo;          // ICAT_REPO
  std::string bin_dir;       // ICAT_BUILD_DIR/bin: the executables under test (default ICAT_REPO/build/bin)
  std::string pg_admin_dsn;  // ICAT_PG_ADMIN_DSN (owner role)
  std::string redis_url;     // ICAT_REDIS_URL
  std::string key_prefix;    // ICAT_KEY_PREFIX, default icat
  int rate_limit_per_minute; // ICAT_RATE_LIMIT_PER_MINUTE (run-tests sets 120)
};
const Env& GetEnv();

// n lower-case hex characters from the CSPRNG: unique names for tenants, images, keys.
std::string RandomSuffix(size_t n = 10);

// ------------------------------------------------------------------ HTTP

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Response {
  long status = 0;          // 0: no HTTP response at all; curl_error says why
  std::string curl_error;
  std::map<std::string, std::string> headers;  // lower-case names; repeated headers joined with ", "
  std::string body;
  long http_version = 0;    // CURL_HTTP_VERSION_1_1, CURL_HTTP_VERSION_2_0, ...

  bool Has(std::string_view lower_case_name) const { return headers.count(std::string(lower_case_name)) > 0; }
  std::string Header(std::string_view lower_case_name) const;
  // For failure messages: status, a few headers and the start of the body.
  std::string Summary() const;
};

// One curl easy handle; use one per thread.
class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // url is absolute (http://, https://) or a path appended to ICAT_BASE_URL. A body is sent when
  // given (POST/PUT). configure, when set, may change any option just before the transfer.
  Response Send(std::string_view method, std::string_view url, const Headers& headers = {},
                const std::optional<std::string>& body = std::nullopt,
                const std::function<void(CURL*)>& configure = {});
  Response Get(std::string_view url, const Headers& headers = {}) { return Send("GET", url, headers); }

 private:
  CURL* curl_;
};

// Through a client of the calling thread.
Response Send(std::string_view method, std::string_view url, const Headers& headers = {},
              const std::optional<std::string>& body = std::nullopt);
Response Get(std::string_view url, const Headers& headers = {});

// Within its scope, this thread's requests to a path (not to an absolute URL) go to base_url instead
// of ICAT_BASE_URL, so every helper that sends to a path talks to another node (tools/stack node).
class RequestsTo {
 public:
  explicit RequestsTo(std::string base_url);
  ~RequestsTo();
  RequestsTo(const RequestsTo&) = delete;
  RequestsTo& operator=(const RequestsTo&) = delete;

 private:
  std::string previous_;
};

// The replies log (ICAT_REPLIES_LOG, which tests/run-tests sets): every reply HttpClient receives
// and every webhook delivery the tests' receiver gets, one JSON object a line, which
// tools/openapi-replies.js checks against the OpenAPI documents after the run. `entry` is one
// JSON object; nothing is written when the variable is unset.
void RecordReply(const std::string& entry);

Headers Bearer(std::string_view key);     // Authorization: Bearer <key>
Headers XApiKey(std::string_view key);    // X-API-Key: <key>

// ------------------------------------------------------------------ assertions on responses

// The RateLimit header of a /v1 reply: "limit=L, remaining=N, reset=S"; nullopt when malformed.
struct RateLimitHeader {
  long limit = -1, remaining = -1, reset = -1;
};
std::optional<RateLimitHeader> ParseRateLimit(const std::string& text);

// Parses the body as JSON; a Boost.Test failure (and an empty object) when it is not.
rapidjson::Document JsonOf(const Response& response);

// Asserts an error response: status, JSON content type, X-Request-Id, exactly the members error
// (== error), message (non-empty string) and, when present, details: [{field, issue}] strings.
void ExpectError(const Response& response, int status, std::string_view error);

// Asserts a JSON 200 with X-Request-Id; returns the parsed body.
rapidjson::Document ExpectJson200(const Response& response);

// Fetches the OpenAPI document served at path (public), checks it is OpenAPI 3.0 and that a real
// validator (@apidevtools/swagger-parser, tests/integration/validate-openapi.js) accepts it.
void ExpectValidOpenApi(const std::string& path);

// The fields of a details array of a VALIDATION_ERROR body.
std::vector<std::string> DetailFields(const Response& response);

// Reading members; a Boost.Test failure when absent or of another type.
std::string StringMember(const rapidjson::Value& object, const char* name);
long long IntMember(const rapidjson::Value& object, const char* name);
bool IsNullMember(const rapidjson::Value& object, const char* name);

// ------------------------------------------------------------------ time

std::string Rfc3339(std::chrono::system_clock::time_point t);  // UTC, seconds, "Z"
// Seconds since the epoch of an RFC 3339 time with any offset and optional fractions.
std::optional<long long> ParseRfc3339(std::string_view text);

// A server a suite starts once, before its first test, and stops after its last, pass or fail:
// BOOST_AUTO_TEST_SUITE(name, *boost::unit_test::fixture<SuiteServer<Server>>()). A failed start
// fails each test that asks for the server (Started), not the run: Boost 1.74 aborts the run when
// a suite fixture's constructor throws.
template <typename Server>
struct SuiteServer {
  SuiteServer() {
    try {
      server = std::make_unique<Server>();
    } catch (const std::exception& e) {
      start_error = e.what();
    }
  }
  ~SuiteServer() { server.reset(); }
  static Server& Started(std::string_view what) {
    BOOST_TEST_REQUIRE(server != nullptr, what << " did not start: " << start_error);
    return *server;
  }
  static inline std::unique_ptr<Server> server;
  static inline std::string start_error;
};

// Calls probe every interval until it returns true or timeout passes; returns the last result.
bool WaitFor(const std::function<bool()>& probe, std::chrono::milliseconds timeout,
             std::chrono::milliseconds interval = std::chrono::milliseconds(100));

// ------------------------------------------------------------------ files

// A file's bytes; std::runtime_error naming it when it cannot be read.
std::string ReadFileBytes(const std::string& path);
void WriteFileBytes(const std::string& path, const std::string& bytes);

// ------------------------------------------------------------------ processes

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
};

// Runs argv[0] (searched in PATH) with stdin_text on its standard input, extra_env added to ours.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& stdin_text = {},
                         const std::vector<std::string>& extra_env = {});

// Starts argv[0] (a path) with stdout and stderr to /dev/null and returns at once: for tests that
// kill a process mid-way. The caller waits for it (waitpid).
pid_t SpawnQuiet(const std::vector<std::string>& argv);

// icatctl of the build under test (Env::bin_dir).
ProcessResult Icatctl(const std::vector<std::string>& args, const std::string& stdin_text = {});
// Same, but a failure throws std::runtime_error with stderr; returns stdout without the final newline.
std::string IcatctlOk(const std::vector<std::string>& args, const std::string& stdin_text = {});

// tests/stack COMMAND $ICAT_STACK_DIR (pg-stop, pg-start, redis-stop, redis-start); throws on failure.
void Stack(std::string_view command);

// Polls GET /api/status until 200 with status "ok"; false when timeout passes first.
bool WaitForStatusOk(std::chrono::seconds timeout = std::chrono::seconds(30));

// Waits (up to 10 s) until the catalog workers answer through Redis again, seen as 20 replies in a
// row to GET /v1/images with `key` carrying a rate-limit header: a worker that met a Redis failure
// (a test stopped or paused Redis) leaves Redis alone for a second. Fails the test otherwise.
void WaitUntilWorkersUseRedis(const std::string& key);

// Moves a handler group's socket name away ("catalog"), so nginx's connect fails while the pool
// keeps running; the destructor (or PutBack) moves it back.
class HiddenPoolSocket {
 public:
  explicit HiddenPoolSocket(std::string_view group);
  ~HiddenPoolSocket() { PutBack(); }
  HiddenPoolSocket(const HiddenPoolSocket&) = delete;
  HiddenPoolSocket& operator=(const HiddenPoolSocket&) = delete;
  void PutBack();  // idempotent

 private:
  std::string socket_, moved_;
  bool hidden_ = false;
};

// Stops Postgres ("pg") or Redis ("redis") now; the destructor starts it again (if Restart did not)
// and waits until /api/status is "ok" again, so one failing test cannot break the others.
class StoppedService {
 public:
  explicit StoppedService(std::string service);
  ~StoppedService();
  StoppedService(const StoppedService&) = delete;
  StoppedService& operator=(const StoppedService&) = delete;
  void Restart();  // start it again now (and wait for status ok); idempotent

 private:
  std::string service_;
  bool stopped_ = false;
};

// Redis stalled: SIGSTOP now, so it keeps its data and accepts connections but answers nothing,
// as a server that hangs. The destructor (or Resume) sends SIGCONT and waits until it answers
// again, so one failing test cannot leave it stopped for the others.
class StalledRedis {
 public:
  StalledRedis();
  ~StalledRedis();
  StalledRedis(const StalledRedis&) = delete;
  StalledRedis& operator=(const StalledRedis&) = delete;
  void Resume();  // SIGCONT now (and wait for an answer); idempotent

 private:
  pid_t pid_;
  bool stalled_ = false;
};

// ------------------------------------------------------------------ Postgres, directly

using PgRow = std::vector<std::optional<std::string>>;

// A connection as the owner role (ICAT_PG_ADMIN_DSN), for a test that queries in a tight loop, or
// as whom another libpq connection string names.
class PgConnection {
 public:
  // Throws std::runtime_error when Postgres cannot be reached.
  explicit PgConnection(const std::string& dsn = GetEnv().pg_admin_dsn);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;
  // Runs one statement; throws std::runtime_error on failure.
  std::vector<PgRow> Query(const std::string& sql, const std::vector<std::optional<std::string>>& params = {});

 private:
  PGconn* conn_;
};

// One statement on a connection of its own.
std::vector<PgRow> PgQuery(const std::string& sql, const std::vector<std::optional<std::string>>& params = {});

// A portal session of the user as sign-in starts one (a refresh-token family, valid for a day): the
// sid of an access token a test mints, which the portal accepts only while that session lives.
std::string NewPortalSession(const std::string& tenant_id, const std::string& user_id);

// ------------------------------------------------------------------ Redis, directly

// One command on the stack's Redis (ICAT_REDIS_URL), through a connection of the calling thread;
// nullopt when Redis cannot be reached.
std::optional<icat::RedisReply> RedisCommand(const std::vector<std::string>& args);

// ------------------------------------------------------------------ handler processes

// The pool parent of a handler group ($ICAT_STACK_DIR/run/<group>.pid).
pid_t PoolParentPid(std::string_view group);
// Its live children, the workers.
std::set<pid_t> WorkerPids(std::string_view group);
// The stack's Postgres server ($ICAT_STACK_DIR/pg/postmaster.pid); its children are the backends
// and Postgres' own processes.
pid_t PostmasterPid();
// The live children of a process.
std::set<pid_t> ChildPids(pid_t parent);

// ------------------------------------------------------------------ catalogue and tenants

struct VersionSpec {
  std::string tag;
  std::optional<long long> size_bytes;
  std::optional<std::string> base_os;
  std::optional<std::string> published;  // RFC 3339
  std::vector<std::string> hardening_tags;
};

struct Version {
  std::string id;
  std::string tag;
  std::string digest;
  std::optional<long long> size_bytes;
  std::optional<std::string> published;
  std::vector<std::string> hardening_tags;
};

struct Image {
  std::string id;
  std::string name;
  std::string description;
  std::string repository;
  std::optional<std::string> base_os;
  std::vector<Version> versions;  // in the order added
};

// A catalogue image (global, licensed to nobody yet). The name is "it-<label>-<random>".
Image CreateImage(std::string_view label, std::optional<std::string> base_os = "debian-12");
Version AddVersion(Image& image, const VersionSpec& spec);
std::string RandomDigest();  // sha256:<64 hex>

// A scan of a version with these distinct-vulnerability counts, made the version's latest scan,
// with an empty findings set of its own that has the scan's id (so a test adds findings to the
// scan with INSERT INTO vulnerabilities (set_id, ...) VALUES (<scan id>, ...)).
struct Counts {
  int critical = 0, high = 0, medium = 0, low = 0, unknown = 0;
};
std::string InsertLatestScan(const std::string& version_id, const Counts& counts);

// An outbox event's data as ingest (or a ping) writes it, for a test that writes events straight
// into the outbox: the shape docs/webhooks.md and the portal's OpenAPI document describe, which
// the deliveries the test receiver records are checked against.
std::string EventData(std::string_view type);

// A fresh tenant ("it-<random>") for one test.
class Tenant {
 public:
  Tenant();
  const std::string& subdomain() const { return subdomain_; }
  const std::string& id() const { return id_; }

  void License(const Image& image);
  // A new image licensed to this tenant, optionally with versions.
  Image AddImage(std::string_view label, const std::vector<VersionSpec>& versions = {});

  // Creates a key; returns the full secret.
  std::string CreateKey(std::string_view scopes = "read:catalog", std::optional<std::string> expires = std::nullopt);
  // icatctl key list --json, parsed (an array).
  rapidjson::Document ListKeys();
  // The list entry of a key (matched by its 14-character prefix); a null value when absent.
  rapidjson::Document KeyEntry(std::string_view key);
  void RevokeKey(std::string_view key);  // by prefix

 private:
  std::string subdomain_;
  std::string id_;
};

// In dir: a CA (ca.pem, ca.key), a server certificate it signed for the name "localhost" only
// (server.pem, server.key), and an unrelated CA (other-ca.pem): for TLS servers the tests start.
// A loopback TCP port nothing listens on (tools/stack free-port).
int FreePort();
// Whether nothing holds the port on 127.0.0.1: it can be bound (with SO_REUSEADDR, as servers bind
// it, so connections of an earlier run waiting out TIME_WAIT do not count).
bool PortFree(int port);
// Whether something accepts connections on 127.0.0.1:port.
bool Listens(int port);

struct TestCertificates {
  std::string dir;
  explicit TestCertificates(const std::string& at);
};

}  // namespace icat::test
