// The integration tests' support layer: see support.hpp.
#include "support.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <libpq-fe.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "icat/config.hpp"
#include "icat/json.hpp"
#include "icat/worker_cache.hpp"

extern char** environ;

namespace icat::test {

// ------------------------------------------------------------------ environment

namespace {

std::string EnvOr(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

std::string EnvRequired(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value)
    throw std::runtime_error(std::string(name) + " is not set: run through tests/run-tests integration");
  return value;
}

std::string TrimRight(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

}  // namespace

const Env& GetEnv() {
  static const Env env = [] {
    Env e;
    e.base_url = TrimRight(EnvRequired("ICAT_BASE_URL"));
    while (!e.base_url.empty() && e.base_url.back() == '/') e.base_url.pop_back();
    e.https_url = EnvOr("ICAT_HTTPS_URL", "");
    while (!e.https_url.empty() && e.https_url.back() == '/') e.https_url.pop_back();
    e.stack_dir = EnvRequired("ICAT_STACK_DIR");
    e.repo = EnvOr("ICAT_REPO", std::filesystem::current_path().string());
    e.bin_dir = EnvOr("ICAT_BUILD_DIR", e.repo + "/build") + "/bin";
    e.pg_admin_dsn = EnvRequired("ICAT_PG_ADMIN_DSN");
    e.redis_url = EnvOr("ICAT_REDIS_URL", "");
    e.key_prefix = EnvOr("ICAT_KEY_PREFIX", "icat");
    e.rate_limit_per_minute = icat::IntSetting("ICAT_RATE_LIMIT_PER_MINUTE");  // as the handlers read it
    return e;
  }();
  return env;
}

std::string RandomSuffix(size_t n) {
  static std::mutex mutex;
  static std::mt19937_64 generator{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < n; i++) text += kHex[generator() % 16];
  return text;
}

// ------------------------------------------------------------------ HTTP

namespace {

void CurlGlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t CollectBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t CollectHeader(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();  // a new response (after 100 Continue or a redirect)
    return size * count;
  }
  size_t colon = line.find(':');
  if (colon == std::string::npos) return size * count;
  std::string name = line.substr(0, colon);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string value = line.substr(colon + 1);
  size_t start = value.find_first_not_of(" \t");
  value = start == std::string::npos ? std::string() : TrimRight(value.substr(start));
  auto [it, inserted] = headers->emplace(name, value);
  if (!inserted) it->second += ", " + value;
  return size * count;
}

}  // namespace

std::string Response::Header(std::string_view lower_case_name) const {
  auto it = headers.find(std::string(lower_case_name));
  return it == headers.end() ? std::string() : it->second;
}

std::string Response::Summary() const {
  std::ostringstream out;
  if (status == 0) {
    out << "no response: " << curl_error;
    return out.str();
  }
  out << "HTTP " << status;
  for (const char* name : {"content-type", "allow", "www-authenticate", "retry-after", "x-request-id"}) {
    if (Has(name)) out << " [" << name << ": " << Header(name) << "]";
  }
  out << " body: " << (body.size() > 400 ? body.substr(0, 400) + "..." : body);
  return out.str();
}

void RecordReply(const std::string& entry) {
  static const std::string path = EnvOr("ICAT_REPLIES_LOG", "");
  if (path.empty()) return;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::ofstream log(path, std::ios::app | std::ios::binary);
  log << entry << '\n';
  if (!log) throw std::runtime_error("cannot append to ICAT_REPLIES_LOG " + path);
}

namespace {

// {"method", "path" (with the query), "status", "contentType", "request" (a request body, when
// sent), "body" (when the reply is JSON)}.
void RecordExchange(std::string_view method, const std::string& url, const std::optional<std::string>& request,
                    const Response& response) {
  if (response.status == 0 || method == "HEAD") return;
  size_t scheme = url.find("://");
  size_t path_start = scheme == std::string::npos ? 0 : url.find('/', scheme + 3);
  std::string content_type = response.Header("content-type");
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "method", method);
  WriteString(w, "path", path_start == std::string::npos ? "/" : url.substr(path_start));
  WriteInt(w, "status", response.status);
  WriteString(w, "contentType", content_type);
  if (request && !request->empty()) WriteString(w, "request", *request);
  if (content_type.find("json") != std::string::npos) WriteString(w, "body", response.body);
  w.EndObject();
  RecordReply(buffer.GetString());
}

thread_local std::string base_url_override;  // RequestsTo's; empty: ICAT_BASE_URL
}  // namespace

RequestsTo::RequestsTo(std::string base_url) : previous_(std::move(base_url_override)) {
  base_url_override = std::move(base_url);
}

RequestsTo::~RequestsTo() { base_url_override = std::move(previous_); }

HttpClient::HttpClient() {
  CurlGlobalInit();
  curl_ = curl_easy_init();
  if (!curl_) throw std::runtime_error("curl_easy_init failed");
}

HttpClient::~HttpClient() { curl_easy_cleanup(curl_); }

Response HttpClient::Send(std::string_view method, std::string_view url, const Headers& headers,
                          const std::optional<std::string>& body, const std::function<void(CURL*)>& configure) {
  Response response;
  std::string full_url = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0
                             ? std::string(url)
                             : (base_url_override.empty() ? GetEnv().base_url : base_url_override) + std::string(url);
  std::string method_text(method);
  curl_easy_reset(curl_);
  curl_easy_setopt(curl_, CURLOPT_URL, full_url.c_str());
  curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, 20000L);
  curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, CollectBody);
  curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, CollectHeader);
  curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &response.headers);
  if (body) {
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body->data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
  }
  if (method_text == "GET" && !body) {
    curl_easy_setopt(curl_, CURLOPT_HTTPGET, 1L);
  } else if (method_text == "HEAD") {
    curl_easy_setopt(curl_, CURLOPT_NOBODY, 1L);
  } else if (method_text != "POST" || !body) {
    curl_easy_setopt(curl_, CURLOPT_CUSTOMREQUEST, method_text.c_str());
  }
  struct curl_slist* list = nullptr;
  for (const auto& [name, value] : headers) {
    std::string line = value.empty() ? name + ";" : name + ": " + value;
    list = curl_slist_append(list, line.c_str());
  }
  curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, list);
  if (configure) configure(curl_);
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, error);
  CURLcode code = curl_easy_perform(curl_);
  curl_slist_free_all(list);
  if (code != CURLE_OK) {
    response.status = 0;
    response.curl_error = std::string(curl_easy_strerror(code)) + (error[0] ? std::string(": ") + error : "");
    return response;
  }
  curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &response.status);
  curl_easy_getinfo(curl_, CURLINFO_HTTP_VERSION, &response.http_version);
  RecordExchange(method_text, full_url, body, response);
  return response;
}

namespace {
HttpClient& ThreadClient() {
  thread_local HttpClient client;
  return client;
}
}  // namespace

Response Send(std::string_view method, std::string_view url, const Headers& headers,
              const std::optional<std::string>& body) {
  return ThreadClient().Send(method, url, headers, body);
}

Response Get(std::string_view url, const Headers& headers) { return ThreadClient().Get(url, headers); }

Headers Bearer(std::string_view key) { return {{"Authorization", "Bearer " + std::string(key)}}; }
Headers XApiKey(std::string_view key) { return {{"X-API-Key", std::string(key)}}; }

// ------------------------------------------------------------------ assertions on responses

rapidjson::Document JsonOf(const Response& response) {
  rapidjson::Document document;
  document.Parse(response.body.c_str(), response.body.size());
  if (document.HasParseError()) {
    BOOST_ERROR("body is not JSON: " << response.Summary());
    document.SetObject();
  }
  return document;
}

void ExpectError(const Response& response, int status, std::string_view error) {
  BOOST_TEST_CONTEXT(response.Summary()) {
    BOOST_TEST(response.status == status);
    BOOST_TEST(response.Header("content-type").rfind("application/json", 0) == 0u);
    BOOST_TEST(!response.Header("x-request-id").empty(), "X-Request-Id missing");
    rapidjson::Document body = JsonOf(response);
    BOOST_TEST_REQUIRE(body.IsObject());
    BOOST_TEST_REQUIRE(body.HasMember("error"));
    BOOST_TEST_REQUIRE(body["error"].IsString());
    BOOST_TEST(std::string(body["error"].GetString()) == std::string(error));
    BOOST_TEST_REQUIRE(body.HasMember("message"));
    BOOST_TEST_REQUIRE(body["message"].IsString());
    BOOST_TEST(body["message"].GetStringLength() > 0u);
    for (auto it = body.MemberBegin(); it != body.MemberEnd(); ++it) {
      std::string name = it->name.GetString();
      BOOST_TEST((name == "error" || name == "message" || name == "details"), "unexpected member " << name);
    }
    if (body.HasMember("details")) {
      const rapidjson::Value& details = body["details"];
      BOOST_TEST_REQUIRE(details.IsArray());
      BOOST_TEST(details.Size() > 0u, "details present but empty");
      for (const rapidjson::Value& item : details.GetArray()) {
        BOOST_TEST_REQUIRE(item.IsObject());
        BOOST_TEST((item.HasMember("field") && item["field"].IsString()));
        BOOST_TEST((item.HasMember("issue") && item["issue"].IsString()));
      }
    }
  }
}

rapidjson::Document ExpectJson200(const Response& response) {
  BOOST_TEST_CONTEXT(response.Summary()) {
    BOOST_TEST_REQUIRE(response.status == 200);
    BOOST_TEST(response.Header("content-type").rfind("application/json", 0) == 0u);
    BOOST_TEST(!response.Header("x-request-id").empty(), "X-Request-Id missing");
  }
  return JsonOf(response);
}

std::vector<std::string> DetailFields(const Response& response) {
  std::vector<std::string> fields;
  rapidjson::Document body = JsonOf(response);
  if (!body.IsObject() || !body.HasMember("details") || !body["details"].IsArray()) return fields;
  for (const rapidjson::Value& item : body["details"].GetArray()) {
    if (item.IsObject() && item.HasMember("field") && item["field"].IsString())
      fields.emplace_back(item["field"].GetString());
  }
  return fields;
}

std::string StringMember(const rapidjson::Value& object, const char* name) {
  bool ok = object.IsObject() && object.HasMember(name) && object[name].IsString();
  BOOST_TEST(ok, "member " << name << " missing or not a string");
  return ok ? std::string(object[name].GetString(), object[name].GetStringLength()) : std::string();
}

long long IntMember(const rapidjson::Value& object, const char* name) {
  bool ok = object.IsObject() && object.HasMember(name) && object[name].IsInt64();
  BOOST_TEST(ok, "member " << name << " missing or not an integer");
  return ok ? object[name].GetInt64() : -1;
}

bool IsNullMember(const rapidjson::Value& object, const char* name) {
  bool present = object.IsObject() && object.HasMember(name);
  BOOST_TEST(present, "member " << name << " missing");
  return present && object[name].IsNull();
}

std::optional<RateLimitHeader> ParseRateLimit(const std::string& text) {
  static const std::regex form(R"(^limit=(\d+), remaining=(\d+), reset=(\d+)$)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  return RateLimitHeader{std::stol(m[1]), std::stol(m[2]), std::stol(m[3])};
}

// ------------------------------------------------------------------ time

std::string Rfc3339(std::chrono::system_clock::time_point t) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::optional<long long> ParseRfc3339(std::string_view text) {
  static const std::regex form(
      R"(^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$)");
  std::cmatch m;
  std::string copy(text);
  if (!std::regex_match(copy.c_str(), m, form)) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = std::stoi(m[4]);
  tm.tm_min = std::stoi(m[5]);
  tm.tm_sec = std::stoi(m[6]);
  long long seconds = timegm(&tm);
  if (m[9].matched) {
    long long offset = std::stoi(m[10]) * 3600LL + std::stoi(m[11]) * 60LL;
    seconds += m[9] == "+" ? -offset : offset;
  }
  return seconds;
}

bool WaitFor(const std::function<bool()>& probe, std::chrono::milliseconds timeout,
             std::chrono::milliseconds interval) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (probe()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(interval);
  }
}

// ------------------------------------------------------------------ processes

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

pid_t SpawnQuiet(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int failed = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  BOOST_TEST_REQUIRE(failed == 0, "cannot start " << argv[0] << ": " << std::strerror(failed));
  return pid;
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& stdin_text,
                         const std::vector<std::string>& extra_env) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; e++) env_strings.emplace_back(*e);
  for (const std::string& extra : extra_env) env_strings.push_back(extra);
  std::vector<char*> env;
  for (std::string& e : env_strings) env.push_back(e.data());
  env.push_back(nullptr);

  pid_t pid = 0;
  int spawn_error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (spawn_error != 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(spawn_error));
  }

  ProcessResult result;
  size_t written = 0;
  int stdin_fd = in[1];
  if (stdin_text.empty()) {
    close(stdin_fd);
    stdin_fd = -1;
  } else {
    fcntl(stdin_fd, F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  while (out_open || err_open || stdin_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (err_open) fds[n++] = {err[0], POLLIN, 0};
    if (stdin_fd >= 0) fds[n++] = {stdin_fd, POLLOUT, 0};
    if (poll(fds, n, 60000) <= 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; i++) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == stdin_fd) {
        ssize_t w = write(stdin_fd, stdin_text.data() + written, stdin_text.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = stdin_text.size();  // reader gone
        if (written >= stdin_text.size()) {
          close(stdin_fd);
          stdin_fd = -1;
        }
        continue;
      }
      char buffer[8192];
      ssize_t r = read(fds[i].fd, buffer, sizeof buffer);
      if (r > 0) {
        (fds[i].fd == out[0] ? result.out : result.err).append(buffer, static_cast<size_t>(r));
      } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
        (fds[i].fd == out[0] ? out_open : err_open) = false;
      }
    }
  }
  if (stdin_fd >= 0) close(stdin_fd);
  close(out[0]);
  close(err[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

ProcessResult Icatctl(const std::vector<std::string>& args, const std::string& stdin_text) {
  std::vector<std::string> argv = {GetEnv().bin_dir + "/icatctl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, stdin_text);
}

std::string IcatctlOk(const std::vector<std::string>& args, const std::string& stdin_text) {
  ProcessResult result = Icatctl(args, stdin_text);
  if (result.exit_code != 0) {
    std::string command = "icatctl";
    for (const std::string& a : args) command += " " + a;
    throw std::runtime_error(command + " exited " + std::to_string(result.exit_code) + ": " + TrimRight(result.err));
  }
  std::string out = result.out;
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

void Stack(std::string_view command) {
  ProcessResult result = RunProcess({GetEnv().repo + "/tests/stack", std::string(command), GetEnv().stack_dir});
  if (result.exit_code != 0) {
    throw std::runtime_error("tests/stack " + std::string(command) + " exited " + std::to_string(result.exit_code) +
                             ": " + TrimRight(result.err));
  }
}

bool WaitForStatusOk(std::chrono::seconds timeout) {
  HttpClient client;
  return WaitFor(
      [&] {
        Response r = client.Get("/api/status");
        if (r.status != 200) return false;
        rapidjson::Document body;
        body.Parse(r.body.c_str());
        return !body.HasParseError() && body.IsObject() && body.HasMember("status") && body["status"].IsString() &&
               std::string(body["status"].GetString()) == "ok";
      },
      timeout, std::chrono::milliseconds(200));
}

StoppedService::StoppedService(std::string service) : service_(std::move(service)) {
  Stack(service_ + "-stop");
  stopped_ = true;
}

StoppedService::~StoppedService() {
  try {
    Restart();
  } catch (const std::exception& e) {
    BOOST_ERROR("could not restart " << service_ << ": " << e.what());
  }
}

void StoppedService::Restart() {
  if (!stopped_) return;
  stopped_ = false;
  Stack(service_ + "-start");
  if (!WaitForStatusOk()) {
    throw std::runtime_error("/api/status did not return to ok within 30 s after " + service_ + "-start");
  }
}

StalledRedis::StalledRedis() : pid_(PoolParentPid("redis")) {
  BOOST_TEST_REQUIRE(pid_ > 0, "no Redis pid in " << GetEnv().stack_dir << "/run/redis.pid");
  BOOST_TEST_REQUIRE(kill(pid_, SIGSTOP) == 0, "cannot stop Redis (pid " << pid_ << ")");
  stalled_ = true;
}

StalledRedis::~StalledRedis() { Resume(); }

void StalledRedis::Resume() {
  if (!stalled_) return;
  stalled_ = false;
  if (kill(pid_, SIGCONT) != 0) {
    BOOST_ERROR("cannot resume Redis (pid " << pid_ << ")");
    return;
  }
  if (!WaitFor([] { return RedisCommand({"PING"}).has_value(); }, std::chrono::seconds(10))) {
    BOOST_ERROR("Redis did not answer within 10 s of SIGCONT");
  }
}

// ------------------------------------------------------------------ Postgres, directly

PgConnection::PgConnection(const std::string& dsn) : conn_(PQconnectdb(dsn.c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string error = PQerrorMessage(conn_);
    PQfinish(conn_);
    throw std::runtime_error("cannot connect with " + dsn + ": " + error);
  }
}

PgConnection::~PgConnection() { PQfinish(conn_); }

std::vector<PgRow> PgConnection::Query(const std::string& sql, const std::vector<std::optional<std::string>>& params) {
  std::vector<const char*> values;
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  std::unique_ptr<PGresult, decltype(&PQclear)> result(
      PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
      PQclear);
  ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    throw std::runtime_error("SQL failed: " + std::string(PQresultErrorMessage(result.get())) + " in: " + sql);
  }
  std::vector<PgRow> rows;
  for (int r = 0; r < PQntuples(result.get()); r++) {
    PgRow row;
    for (int c = 0; c < PQnfields(result.get()); c++) {
      if (PQgetisnull(result.get(), r, c)) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<PgRow> PgQuery(const std::string& sql, const std::vector<std::optional<std::string>>& params) {
  PgConnection connection;
  std::vector<PgRow> rows = connection.Query(sql, params);
  // A test writing catalogue rows stands in for icatctl, so it tells the handlers' reply caches
  // as icatctl does (any write: cheaper than telling catalogue tables apart).
  if (strncasecmp(sql.c_str(), "SELECT", 6) != 0) {
    auto ignored = RedisCommand({"SET", std::string(icat::kCacheGenerationKey), RandomSuffix(32)});
  }
  return rows;
}

std::string NewPortalSession(const std::string& tenant_id, const std::string& user_id) {
  return *PgQuery("INSERT INTO refresh_tokens (tenant_id, user_id, family_id, token_hash, expires_at) "
                  "VALUES ($1, $2, gen_random_uuid(), $3::bytea, now() + interval '1 day') RETURNING family_id",
                  {tenant_id, user_id, "\\x" + RandomSuffix(64)})
              .at(0)
              .at(0);
}

// ------------------------------------------------------------------ Redis, directly

std::optional<icat::RedisReply> RedisCommand(const std::vector<std::string>& args) {
  thread_local std::unique_ptr<icat::Redis> redis;
  if (!redis) {
    icat::Config config = icat::Config::FromEnvironment();  // parses ICAT_REDIS_URL as the handlers do
    redis = std::make_unique<icat::Redis>(config.redis, 1000);
  }
  return redis->Command(args);
}

// ------------------------------------------------------------------ handler processes

void WaitUntilWorkersUseRedis(const std::string& key) {
  BOOST_TEST_REQUIRE(WaitFor(
                         [&] {
                           for (int i = 0; i < 20; i++) {
                             if (!Get("/v1/images", Bearer(key)).Has("ratelimit")) return false;
                           }
                           return true;
                         },
                         std::chrono::seconds(10), std::chrono::milliseconds(200)),
                     "the workers do not answer through Redis");
}

HiddenPoolSocket::HiddenPoolSocket(std::string_view group)
    : socket_(GetEnv().stack_dir + "/run/" + std::string(group) + ".sock"), moved_(socket_ + ".moved") {
  BOOST_TEST_REQUIRE(std::rename(socket_.c_str(), moved_.c_str()) == 0, "cannot move " << socket_);
  hidden_ = true;
}

void HiddenPoolSocket::PutBack() {
  if (hidden_ && std::rename(moved_.c_str(), socket_.c_str()) == 0) hidden_ = false;
}

pid_t PoolParentPid(std::string_view group) {
  std::string path = GetEnv().stack_dir + "/run/" + std::string(group) + ".pid";
  std::ifstream file(path);
  long pid = 0;
  if (!(file >> pid) || pid <= 0) throw std::runtime_error("no pid in " + path);
  return static_cast<pid_t>(pid);
}

std::set<pid_t> WorkerPids(std::string_view group) { return ChildPids(PoolParentPid(group)); }

pid_t PostmasterPid() {
  std::string path = GetEnv().stack_dir + "/pg/postmaster.pid";
  std::ifstream file(path);
  long pid = 0;
  if (!(file >> pid) || pid <= 0) throw std::runtime_error("no pid in " + path);
  return static_cast<pid_t>(pid);
}

std::set<pid_t> ChildPids(pid_t parent) {
  std::set<pid_t> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream file(entry.path() / "stat");
    std::string stat;
    if (!std::getline(file, stat)) continue;
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream fields(stat.substr(paren + 1));
    char state = 0;
    long ppid = 0;
    if (!(fields >> state >> ppid)) continue;
    if (ppid == parent && state != 'Z' && state != 'X') pids.insert(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

// ------------------------------------------------------------------ catalogue and tenants

std::string RandomDigest() { return "sha256:" + RandomSuffix(64); }

Image CreateImage(std::string_view label, std::optional<std::string> base_os) {
  Image image;
  image.name = "it-" + std::string(label) + "-" + RandomSuffix(8);
  image.description = "Integration test image " + std::string(label);
  image.repository = "registry.example.test/it/" + image.name;
  image.base_os = base_os;
  std::vector<std::string> args = {"image",         "create",          "--name",       image.name,
                                   "--description", image.description, "--repository", image.repository};
  if (base_os) {
    args.push_back("--base-os");
    args.push_back(*base_os);
  }
  image.id = IcatctlOk(args);
  return image;
}

Version AddVersion(Image& image, const VersionSpec& spec) {
  Version version;
  version.tag = spec.tag;
  version.digest = RandomDigest();
  version.size_bytes = spec.size_bytes;
  version.published = spec.published;
  version.hardening_tags = spec.hardening_tags;
  std::vector<std::string> args = {"version", "add",    "--image",  image.name,
                                   "--tag",   spec.tag, "--digest", version.digest};
  if (spec.size_bytes) {
    args.push_back("--size");
    args.push_back(std::to_string(*spec.size_bytes));
  }
  if (spec.base_os) {
    args.push_back("--base-os");
    args.push_back(*spec.base_os);
  }
  if (spec.published) {
    args.push_back("--published");
    args.push_back(*spec.published);
  }
  for (const std::string& tag : spec.hardening_tags) {
    args.push_back("--hardening-tag");
    args.push_back(tag);
  }
  version.id = IcatctlOk(args);
  image.versions.push_back(version);
  return version;
}

std::string InsertLatestScan(const std::string& version_id, const Counts& counts) {
  std::vector<PgRow> rows = PgQuery(
      "WITH fs AS (INSERT INTO findings_sets (version_id, sha256) VALUES ($1, $2) RETURNING id) "
      "INSERT INTO scans (id, version_id, scanner_name, scanner_version, scanned_at, input_sha256, critical_count, "
      "high_count, medium_count, low_count, unknown_count, findings_set_id) "
      "SELECT fs.id, $1, 'trivy', '0.50.0', now(), $2, $3, $4, $5, $6, $7, fs.id FROM fs RETURNING id",
      {version_id, RandomSuffix(64), std::to_string(counts.critical), std::to_string(counts.high),
       std::to_string(counts.medium), std::to_string(counts.low), std::to_string(counts.unknown)});
  std::string scan_id = *rows.at(0).at(0);
  PgQuery("UPDATE image_versions SET latest_scan_id = $1 WHERE id = $2", {scan_id, version_id});
  return scan_id;
}

Tenant::Tenant() : subdomain_("it-" + RandomSuffix(12)) {
  id_ = IcatctlOk({"tenant", "create", subdomain_, "--name", "Integration " + subdomain_});
}

void Tenant::License(const Image& image) {
  IcatctlOk({"license", "grant", "--tenant", subdomain_, "--image", image.name});
}

Image Tenant::AddImage(std::string_view label, const std::vector<VersionSpec>& versions) {
  Image image = CreateImage(label);
  for (const VersionSpec& spec : versions) AddVersion(image, spec);
  License(image);
  return image;
}

std::string Tenant::CreateKey(std::string_view scopes, std::optional<std::string> expires) {
  std::vector<std::string> args = {
      "key", "create", "--tenant", subdomain_, "--name", "key-" + RandomSuffix(6), "--scopes", std::string(scopes)};
  if (expires) {
    args.push_back("--expires");
    args.push_back(*expires);
  }
  std::string key = IcatctlOk(args);
  if (key.find('\n') != std::string::npos || key.empty()) {
    throw std::runtime_error("icatctl key create printed more than the key: " + key);
  }
  return key;
}

rapidjson::Document Tenant::ListKeys() {
  std::string out = IcatctlOk({"key", "list", "--tenant", subdomain_, "--json"});
  rapidjson::Document document;
  document.Parse(out.c_str());
  if (document.HasParseError() || !document.IsArray()) {
    throw std::runtime_error("icatctl key list --json did not print a JSON array: " + out);
  }
  return document;
}

rapidjson::Document Tenant::KeyEntry(std::string_view key) {
  rapidjson::Document list = ListKeys();
  rapidjson::Document entry;
  std::string prefix(key.substr(0, 14));
  for (rapidjson::Value& item : list.GetArray()) {
    if (item.IsObject() && item.HasMember("prefix") && item["prefix"].IsString() &&
        item["prefix"].GetString() == prefix) {
      entry.CopyFrom(item, entry.GetAllocator());
      return entry;
    }
  }
  entry.SetNull();
  return entry;
}

void Tenant::RevokeKey(std::string_view key) {
  IcatctlOk({"key", "revoke", "--tenant", subdomain_, std::string(key.substr(0, 14))});
}

std::string EventData(std::string_view type) {
  if (type == "ping")
    return R"({"webhook":{"id":"00000000-0000-4000-8000-000000000003","url":"https://hooks.example.test/icat"}})";
  std::string data = R"({"image":{"id":"00000000-0000-4000-8000-000000000001","name":"demo"},)"
                     R"("version":{"id":"00000000-0000-4000-8000-000000000002","tag":"1.0","digest":"sha256:)" +
                     std::string(64, 'a') +
                     R"("},"scan":{"id":"00000000-0000-4000-8000-000000000004","scanner":"trivy 0.50.0",)"
                     R"("scannedAt":"2026-01-01T00:00:00Z"})";
  if (type == "cve_watch.matched") data += R"(,"cveId":"CVE-2024-3094")";
  if (type != "scan.completed") {
    data +=
        R"(,"vulnerabilities":[{"id":"CVE-2024-3094","severity":"critical","package":"xz-utils","fixState":"fixed",)"
        R"("epss":null,"kev":null}])";
  }
  return data + "}";
}

void ExpectValidOpenApi(const std::string& path) {
  Response r = Get(path);
  rapidjson::Document doc = ExpectJson200(r);
  BOOST_TEST(StringMember(doc, "openapi").rfind("3.0", 0) == 0u);
  char file[] = "/tmp/icat-openapi-XXXXXX.json";
  int fd = mkstemps(file, 5);
  BOOST_TEST_REQUIRE(fd >= 0);
  BOOST_TEST_REQUIRE(write(fd, r.body.data(), r.body.size()) == static_cast<ssize_t>(r.body.size()));
  close(fd);
  const std::string& repo = GetEnv().repo;
  ProcessResult check = RunProcess({"node", repo + "/tests/integration/validate-openapi.js", file}, {},
                                   {"NODE_PATH=" + repo + "/build/node/node_modules"});
  std::remove(file);
  BOOST_TEST(check.exit_code == 0, path << ": validate-openapi.js: " << check.out << check.err);
}

namespace {
void Openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = RunProcess(argv);
  BOOST_TEST_REQUIRE(r.exit_code == 0, "openssl " << args[0] << ": " << r.err);
}

}  // namespace

TestCertificates::TestCertificates(const std::string& at) : dir(at) {
  for (std::string ca : {"ca", "other-ca"}) {
    Openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj",
             "/CN=icat test " + ca, "-keyout", dir + "/" + ca + ".key", "-out", dir + "/" + ca + ".pem"});
  }
  Openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost", "-keyout",
           dir + "/server.key", "-out", dir + "/server.csr"});
  WriteFileBytes(dir + "/san.ext", "subjectAltName=DNS:localhost\n");
  Openssl({"x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key",
           "-CAcreateserial", "-days", "1", "-extfile", dir + "/san.ext", "-out", dir + "/server.pem"});
}

int FreePort() {
  ProcessResult r = RunProcess({GetEnv().repo + "/tools/stack", "free-port"});
  if (r.exit_code != 0) throw std::runtime_error("tools/stack free-port: " + r.err);
  return std::stoi(r.out);
}

namespace {
// A TCP socket and 127.0.0.1:port, for the probes below; the socket is closed after `probe`.
bool ProbeLoopback(int port, const std::function<bool(int, const sockaddr*, socklen_t)>& probe) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool result = probe(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  close(fd);
  return result;
}
}  // namespace

bool PortFree(int port) {
  return ProbeLoopback(port, [](int fd, const sockaddr* address, socklen_t length) {
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    return bind(fd, address, length) == 0;
  });
}

bool Listens(int port) {
  return ProbeLoopback(port, [](int fd, const sockaddr* address, socklen_t length) {
    return connect(fd, address, length) == 0;
  });
}

}  // namespace icat::test
