// Tracing and logs against the real stack: a caller's traceparent continues in the log line and the
// audit entry (a new trace begins without one, or with a broken one), a valid X-Request-Id is kept,
// and ICAT_LOG_FORMAT=json writes the same line as one JSON object.
#include <fcntl.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

#include "portal_support.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

struct Sent {
  std::string trace_id = it::RandomSuffix(32);
  std::string parent_id = it::RandomSuffix(16);
  std::string request_id = "it-trace-" + it::RandomSuffix(12);
  std::string Traceparent() const { return "00-" + trace_id + "-" + parent_id + "-01"; }
  it::Headers Headers() const { return {{"traceparent", Traceparent()}, {"X-Request-Id", request_id}}; }
};

// The first line of a log file holding text, waiting for it (a pool writes its line after the reply).
std::string LineWith(const std::string& path, const std::string& text) {
  std::string found;
  it::WaitFor([&] {
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
      if (line.find(text) != std::string::npos) {
        found = line;
        return true;
      }
    }
    return false;
  }, std::chrono::seconds(5));
  return found;
}

std::string Field(const std::string& line, const std::string& key) {
  std::smatch m;
  return std::regex_search(line, m, std::regex(" " + key + "=([^ ]+)")) ? m[1].str() : "";
}

std::string StatusLog() { return it::GetEnv().stack_dir + "/log/status.log"; }

// A group's pool started again by the test with extra settings, in place of the stack's (whose
// socket is hidden meanwhile), writing its log to a file of its own.
class PoolWithSettings {
 public:
  PoolWithSettings(const std::string& group, const std::vector<std::string>& settings)
      : hidden_(group), socket_(it::GetEnv().stack_dir + "/run/" + group + ".sock"),
        log_(it::GetEnv().stack_dir + "/log/" + group + "-" + it::RandomSuffix(6) + ".log") {
    std::string binary = it::GetEnv().bin_dir + "/icat-" + group;
    pid_ = fork();
    if (pid_ == 0) {
      for (const std::string& setting : settings) putenv(const_cast<char*>(setting.c_str()));
      int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      execl(binary.c_str(), binary.c_str(), "--socket", socket_.c_str(), "--workers", "1", nullptr);
      _exit(127);
    }
    // Checked by the test (started()), not here: a constructor that throws leaves no destructor
    // to stop the process.
    started_ = it::WaitFor([&] { return std::filesystem::exists(socket_); }, std::chrono::seconds(10));
  }
  ~PoolWithSettings() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    std::filesystem::remove(socket_);
    hidden_.PutBack();
    std::filesystem::remove(log_);
  }
  const std::string& log() const { return log_; }
  bool started() const { return started_; }

 private:
  it::HiddenPoolSocket hidden_;
  std::string socket_, log_;
  pid_t pid_ = -1;
  bool started_ = false;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(tracing)

BOOST_AUTO_TEST_CASE(a_callers_traceparent_continues_in_the_log_line_with_a_span_of_its_own) {
  Sent sent;
  it::Response r = it::Get("/api/status", sent.Headers());
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.Header("x-request-id") == sent.request_id);
  std::string line = LineWith(StatusLog(), "rid=" + sent.request_id + " ");
  BOOST_TEST_REQUIRE(!line.empty(), "no log line with rid=" << sent.request_id);
  BOOST_TEST(Field(line, "trace") == sent.trace_id);
  std::string span = Field(line, "span");
  BOOST_TEST(std::regex_match(span, std::regex("[0-9a-f]{16}")));
  BOOST_TEST(span != sent.parent_id);
}

BOOST_AUTO_TEST_CASE(without_a_valid_traceparent_a_new_trace_begins) {
  for (const std::string& traceparent :
       {std::string(), "00-" + std::string(32, '0') + "-" + it::RandomSuffix(16) + "-01",
        "01-" + it::RandomSuffix(32) + "-" + it::RandomSuffix(16) + "-01", std::string("garbage")}) {
    BOOST_TEST_CONTEXT("traceparent \"" << traceparent << "\"") {
      std::string request_id = "it-trace-" + it::RandomSuffix(12);
      it::Headers headers = {{"X-Request-Id", request_id}};
      if (!traceparent.empty()) headers.push_back({"traceparent", traceparent});
      BOOST_TEST(it::Get("/api/status", headers).status == 200);
      std::string line = LineWith(StatusLog(), "rid=" + request_id + " ");
      std::string trace = Field(line, "trace");
      BOOST_TEST(std::regex_match(trace, std::regex("[0-9a-f]{32}")));
      BOOST_TEST(trace != std::string(32, '0'));
      BOOST_TEST(traceparent.find(trace) == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_request_id_that_is_not_one_is_replaced_by_nginxs_own) {
  for (const std::string& bad : {std::string("two words"), std::string(129, 'a'), std::string("-leading-dash")}) {
    it::Response r = it::Get("/api/status", {{"X-Request-Id", bad}});
    BOOST_TEST(r.Header("x-request-id") != bad);
    BOOST_TEST(std::regex_match(r.Header("x-request-id"), std::regex("[0-9a-f]{32}")));
  }
}

BOOST_AUTO_TEST_CASE(an_audit_entry_carries_the_trace_of_its_request) {
  it::PortalTenant t;
  Sent sent;
  it::Headers headers = t.As(t.admin);
  for (const auto& header : sent.Headers()) headers.push_back(header);
  it::Response r = it::Send("POST", "/api/cve-watches", headers, R"({"cveId": "CVE-2024-3094"})");
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  std::vector<it::PgRow> rows =
      it::PgQuery("SELECT trace_id, request_id FROM audit_log WHERE tenant_id = $1 AND request_id = $2",
                  {t.id(), sent.request_id});
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0][0].value_or("") == sent.trace_id);
  // The portal's audit log shows it too.
  it::Response log = it::Get("/api/audit-log", t.As(t.admin));
  BOOST_TEST(log.body.find("\"traceId\":\"" + sent.trace_id + "\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_ingest_passes_its_pipelines_trace_on_to_the_events_it_writes) {
  const std::string report = it::Fixture("scans/trivy-integration-v0.50.0/alpine-310.trivy-image-scan.json");
  it::Tenant tenant;
  it::Image image = tenant.AddImage("trace");  // licensed to the tenant, no version yet
  Sent sent;
  it::TempDir dir;
  std::string sbom = dir.Write("scan.cdx.json", it::MinimalCycloneDx(report, "2021-08-25T12:20:30Z"));
  it::IngestArgs args{image.name, "1.0", it::ReportDigest(report), report, std::nullopt, sbom,
                      std::nullopt, std::nullopt, {}};
  it::ProcessResult run = it::Ingest(args, {"TRACEPARENT=" + sent.Traceparent()});
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  std::vector<it::PgRow> events = it::PgQuery(
      "SELECT traceparent FROM events WHERE tenant_id = $1 AND type = 'scan.completed'", {tenant.id()});
  BOOST_TEST_REQUIRE(events.size() == 1u);
  std::string traceparent = events[0][0].value_or("");
  BOOST_TEST(traceparent.substr(0, 36) == "00-" + sent.trace_id + "-", traceparent);
  BOOST_TEST(traceparent.find(sent.parent_id) == std::string::npos, "the ingest's own span, not the caller's");
}

BOOST_AUTO_TEST_CASE(json_logs_write_the_same_fields_as_one_object_per_line) {
  PoolWithSettings pool("status", {"ICAT_LOG_FORMAT=json"});
  BOOST_TEST_REQUIRE(pool.started(), "the status pool with ICAT_LOG_FORMAT=json did not start (log: " << pool.log() << ")");
  Sent sent;
  BOOST_TEST(it::Get("/api/status", sent.Headers()).status == 200);
  std::string line = LineWith(pool.log(), "\"rid\":\"" + sent.request_id + "\"");
  BOOST_TEST_REQUIRE(!line.empty(), "no JSON line for the request in " << pool.log());
  rapidjson::Document json;
  json.Parse(line.c_str());
  BOOST_TEST_REQUIRE(!json.HasParseError(), line);
  BOOST_TEST(std::string(json["level"].GetString()) == "info");
  BOOST_TEST(std::string(json["program"].GetString()) == "icat-status");
  BOOST_TEST(std::string(json["trace"].GetString()) == sent.trace_id);
  BOOST_TEST(std::string(json["group"].GetString()) == "status");
  BOOST_TEST(std::string(json["route"].GetString()) == "GET /api/status");
  BOOST_TEST(json["status"].GetInt() == 200);
  BOOST_TEST(json["tenant"].IsNull());
  BOOST_TEST(json["error"].IsNull());
  BOOST_TEST(!json.HasMember("msg"));
  // Every line of the file is one object, the start-up lines too.
  std::ifstream file(pool.log());
  for (std::string each; std::getline(file, each);) {
    rapidjson::Document d;
    d.Parse(each.c_str());
    BOOST_TEST((!d.HasParseError() && d.IsObject()), each);
  }
}

BOOST_AUTO_TEST_SUITE_END()
