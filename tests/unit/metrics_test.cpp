// The metrics table (metrics.def) and the shared region: counts from forked processes add up, and the
// page is the Prometheus text format (families once, histograms cumulative, workers by state).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "icat/errors.hpp"
#include "icat/metrics.hpp"

namespace {

namespace metrics = icat::metrics;

struct Row {
  std::string family, labels, type, programs, help;
};

const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = {
#define ICAT_METRIC(id, family, labels, type, programs, help) {family, labels, type, programs, help},
#include "icat/metrics.def"
#undef ICAT_METRIC
  };
  return rows;
}

// A scratch directory, removed with the region's file when the test ends.
struct Scratch {
  std::string dir;
  Scratch() {
    char pattern[] = "/tmp/icat-metrics-test.XXXXXX";
    dir = mkdtemp(pattern);
  }
  ~Scratch() {
    metrics::Close();
    std::filesystem::remove_all(dir);
  }
};

bool Has(const std::string& page, const std::string& line) {
  return page.find("\n" + line + "\n") != std::string::npos || page.rfind(line + "\n", 0) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics_table)

BOOST_AUTO_TEST_CASE(every_status_of_errors_def_is_counted_by_itself) {
  for (const icat::ErrorInfo& info : icat::AllErrors()) {
    BOOST_TEST(std::count(std::begin(metrics::kStatuses), std::end(metrics::kStatuses), info.status) == 1,
               info.name << " answers " << info.status << ", which metrics.hpp kStatuses lacks");
  }
}

BOOST_AUTO_TEST_CASE(a_family_is_one_run_of_rows_with_its_help_and_type_on_the_first) {
  std::set<std::string> finished;
  std::string current;
  for (const Row& row : Rows()) {
    BOOST_TEST_CONTEXT(row.family << "{" << row.labels << "}") {
      BOOST_TEST(row.family.rfind("icat_", 0) == 0);
      BOOST_TEST((row.type == "counter" || row.type == "gauge"));
      BOOST_TEST((row.type == "counter") == row.family.ends_with("_total"));
      if (row.family != current) {
        BOOST_TEST(!finished.count(row.family), "its rows are not together");
        BOOST_TEST(!row.help.empty(), "the first row of a family carries its help");
        if (!current.empty()) finished.insert(current);
        current = row.family;
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(metrics_region)

BOOST_AUTO_TEST_CASE(counts_of_forked_workers_add_up_on_one_page) {
  Scratch scratch;
  metrics::Open(scratch.dir, "catalog", {"GET /v1/images", "GET /v1/images/{id}"});
  for (size_t slot = 0; slot < 2; slot++) {
    pid_t pid = fork();
    if (pid == 0) {
      metrics::SetWorkerSlot(slot);
      metrics::CountRequest(0, 200, 0.002);
      metrics::CountRequest(1, 404, 0.2);
      metrics::Add(metrics::Metric::kPostgresRoundTrips, 3);
      if (slot == 1) metrics::SetBusy(true);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
  }
  metrics::CountRequest(metrics::kUnrouted, 418, 20);
  std::string page = metrics::RenderDirectory(scratch.dir);
  BOOST_TEST_INFO(page);
  BOOST_TEST(Has(page, R"x(icat_requests_total{group="catalog",route="GET /v1/images",status="200"} 2)x"));
  BOOST_TEST(Has(page, R"x(icat_requests_total{group="catalog",route="GET /v1/images/{id}",status="404"} 2)x"));
  BOOST_TEST(Has(page, R"x(icat_requests_total{group="catalog",route="(unrouted)",status="other"} 1)x"));
  // Cumulative buckets: 2 ms is in every bucket from 2.5 ms up, 0.2 s from 0.25 s up.
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images",le="0.001"} 0)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images",le="0.0025"} 2)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images/{id}",le="0.1"} 0)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="GET /v1/images/{id}",le="0.25"} 2)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="(unrouted)",le="10"} 0)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_bucket{group="catalog",route="(unrouted)",le="+Inf"} 1)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_sum{group="catalog",route="GET /v1/images/{id}"} 0.4)x"));
  BOOST_TEST(Has(page, R"x(icat_request_duration_seconds_count{group="catalog",route="GET /v1/images"} 2)x"));
  BOOST_TEST(Has(page, R"x(icat_postgres_round_trips_total{group="catalog"} 6)x"));
  BOOST_TEST(Has(page, R"x(icat_workers{group="catalog",state="busy"} 1)x"));
  BOOST_TEST(Has(page, R"x(icat_workers{group="catalog",state="idle"} 1)x"));
  // The admission pool's and the dispatcher's metrics are not the catalog's.
  BOOST_TEST(page.find("icat_admission_decisions_total") == std::string::npos);
  BOOST_TEST(page.find("icat_webhook_backlog") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(each_family_is_described_once_before_its_samples) {
  Scratch scratch;
  metrics::Open(scratch.dir, "admission", {"POST /v1/admission"});
  metrics::CountRequest(0, 200, 0.01);
  metrics::Add(metrics::Metric::kAdmissionDenied);
  std::string page = metrics::RenderDirectory(scratch.dir);
  BOOST_TEST_INFO(page);
  std::set<std::string> typed;
  std::string last_typed;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# TYPE ", 0) == 0) {
      std::string family = line.substr(7, line.find(' ', 7) - 7);
      BOOST_TEST(typed.insert(family).second, family << " is described twice");
      last_typed = family;
    } else if (line.rfind("# HELP ", 0) != 0) {
      BOOST_TEST(line.rfind(last_typed, 0) == 0, line << " is not a sample of " << last_typed);
    }
  }
  BOOST_TEST(Has(page, R"x(icat_admission_decisions_total{group="admission",outcome="denied"} 1)x"));
  BOOST_TEST(Has(page, R"x(icat_admission_decisions_total{group="admission",outcome="allowed"} 0)x"));
  BOOST_TEST(Has(page, "# TYPE icat_request_duration_seconds histogram"));
}

BOOST_AUTO_TEST_CASE(a_closed_program_and_foreign_files_show_nothing) {
  Scratch scratch;
  std::ofstream(scratch.dir + "/stray.metrics") << "not a metrics file";
  metrics::Open(scratch.dir, "status", {"GET /api/status"});
  metrics::CountRequest(0, 200, 0.001);
  BOOST_TEST(metrics::RenderDirectory(scratch.dir).find("group=\"status\"") != std::string::npos);
  metrics::Close();
  BOOST_TEST(!std::filesystem::exists(scratch.dir + "/status.metrics"));
  BOOST_TEST(metrics::RenderDirectory(scratch.dir) == "");
  metrics::CountRequest(0, 200, 0.001);  // closed: nothing to count into, and no crash
}

BOOST_AUTO_TEST_SUITE_END()
