// GET $ICAT_METRICS_URL (icat-metrics) against the real stack: the page is the text format, the
// numbers move with the traffic that causes them, and nginx's public port has no /metrics.
#include <signal.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "admission_support.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

// Every sample of a page, by its series (name and labels as written).
using Samples = std::map<std::string, double>;

std::string MetricsUrl() {
  const char* url = std::getenv("ICAT_METRICS_URL");
  BOOST_TEST_REQUIRE((url && *url), "ICAT_METRICS_URL is not set: the stack writes it into icat.env");
  return url;
}

// Scrapes the page and checks its syntax line by line: HELP and TYPE once per family, before its
// samples; each sample `name{labels} value` of the family last typed.
Samples Scrape() {
  it::Response r = it::Get(MetricsUrl());
  BOOST_TEST_REQUIRE(r.status == 200);
  BOOST_TEST(r.Header("content-type") == "text/plain; version=0.0.4; charset=utf-8");
  static const std::regex kSample(R"(^([a-z_]+)\{([a-z_]+="[^"\\\n]*"(,[a-z_]+="[^"\\\n]*")*)\} (\S+)$)");
  Samples samples;
  std::set<std::string> typed;
  std::string family;
  std::istringstream lines(r.body);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# HELP ", 0) == 0) continue;
    if (line.rfind("# TYPE ", 0) == 0) {
      family = line.substr(7, line.find(' ', 7) - 7);
      BOOST_TEST(typed.insert(family).second, family << " is typed twice");
      continue;
    }
    std::smatch m;
    BOOST_TEST_REQUIRE(std::regex_match(line, m, kSample), "not a sample line: " << line);
    BOOST_TEST(m[1].str().rfind(family, 0) == 0, line << " follows the TYPE of " << family);
    samples[m[1].str() + "{" + m[2].str() + "}"] = std::stod(m[4].str());
  }
  return samples;
}

double Value(const Samples& samples, const std::string& series) {
  auto found = samples.find(series);
  return found == samples.end() ? 0 : found->second;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics)

BOOST_AUTO_TEST_CASE(requests_are_counted_by_route_and_status_with_their_latency) {
  const std::string requests = R"(icat_requests_total{group="catalog",route="GET /v1/images",status="401"})";
  const std::string count = R"(icat_request_duration_seconds_count{group="catalog",route="GET /v1/images"})";
  const std::string infinite = R"(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images",le="+Inf"})";
  const std::string status = R"(icat_requests_total{group="status",route="GET /api/status",status="200"})";
  Samples before = Scrape();
  for (int i = 0; i < 3; i++) it::ExpectError(it::Get("/v1/images"), 401, "UNAUTHENTICATED");
  it::ExpectJson200(it::Get("/api/status"));
  Samples after = Scrape();
  BOOST_TEST(Value(after, requests) - Value(before, requests) == 3);
  BOOST_TEST(Value(after, count) - Value(before, count) >= 3);
  BOOST_TEST(Value(after, infinite) == Value(after, count));
  BOOST_TEST(Value(after, status) - Value(before, status) >= 1);
  // Buckets are cumulative: never fewer below a larger bound.
  double previous = 0;
  for (const char* bound : {"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5",
                            "5", "10", "+Inf"}) {
    double bucket = Value(after, std::string(R"(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images",le=")") +
                                     bound + "\"}");
    BOOST_TEST(bucket >= previous, "le=" << bound);
    previous = bucket;
  }
  // GET /api/status asks Postgres, so the status pool's round trips moved too.
  const std::string trips = R"(icat_postgres_round_trips_total{group="status"})";
  BOOST_TEST(Value(after, trips) > Value(before, trips));
}

BOOST_AUTO_TEST_CASE(every_pool_reports_its_workers_and_a_replaced_worker_is_counted) {
  Samples before = Scrape();
  for (const char* group : {"account", "admission", "auth", "catalog", "registry", "sbom", "status", "vulns"}) {
    std::string labels = std::string("group=\"") + group + "\"";
    double workers = Value(before, "icat_workers{" + labels + ",state=\"busy\"}") +
                     Value(before, "icat_workers{" + labels + ",state=\"idle\"}");
    BOOST_TEST(workers == static_cast<double>(it::WorkerPids(group).size()), group);
  }
  const std::string restarts = R"(icat_worker_restarts_total{group="vulns"})";
  std::set<pid_t> workers = it::WorkerPids("vulns");
  BOOST_TEST_REQUIRE(!workers.empty());
  kill(*workers.begin(), SIGKILL);
  bool replaced = it::WaitFor([&] { return Value(Scrape(), restarts) == Value(before, restarts) + 1; },
                              std::chrono::seconds(10));
  BOOST_TEST(replaced, "the restart of a killed vulns worker was not counted");
  BOOST_TEST(it::WaitFor([&] { return it::WorkerPids("vulns").size() == workers.size(); }, std::chrono::seconds(10)));
}

BOOST_AUTO_TEST_CASE(an_admission_review_refused_for_its_key_counts_as_rejected) {
  const std::string rejected = R"(icat_admission_decisions_total{group="admission",outcome="rejected"})";
  Samples before = Scrape();
  std::string review = it::ReadFileBytes(it::Fixture("admission/connaisseur_02_pod.json"));
  it::ExpectRefusal(it::PostReviewKeyInPath(it::GetEnv().key_prefix + "_live_nosuchkey", review),
                    "0c3331b6-1812-11ea-b3fc-02897404852e", 401, "UNAUTHENTICATED", "");
  BOOST_TEST(Value(Scrape(), rejected) - Value(before, rejected) == 1);
}

BOOST_AUTO_TEST_CASE(the_public_port_has_no_metrics) {
  it::ExpectError(it::Get("/metrics"), 404, "NOT_FOUND");
  for (const char* group : {"catalog", "status", "admission"}) {
    it::ExpectError(it::Get(std::string("/metrics/") + group), 404, "NOT_FOUND");
  }
  BOOST_TEST(MetricsUrl().find(it::GetEnv().base_url) == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
