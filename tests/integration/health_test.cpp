// GET /api/status against the real stack: each pool nginx routes to and the dispatcher's heartbeat,
// each named when it is down; a hung pool cannot hang the probe.
#include <boost/test/unit_test.hpp>
#include <signal.h>

#include "support.hpp"

using namespace icat::test;
using namespace std::chrono_literals;

namespace {

// The status reply, which stays 200 while Postgres is up.
rapidjson::Document Status() {
  Response r = Get("/api/status");
  BOOST_TEST(r.status == 200, r.Summary());
  return JsonOf(r);
}

std::string PoolState(const rapidjson::Document& status, const char* group) {
  return StringMember(status["checks"]["pools"], group);
}

bool StatusShows(const std::function<bool(const rapidjson::Document&)>& wanted) {
  return WaitFor([&] { return wanted(Status()); }, 15s, 200ms);
}

// Whatever the test did to a pool's processes (SIGSTOP, SIGKILL), the pool runs again afterwards.
class PoolGuard {
 public:
  explicit PoolGuard(std::string group) : group_(std::move(group)), pgid_(PoolParentPid(group_)) {}
  ~PoolGuard() {
    kill(-pgid_, SIGCONT);
    ProcessResult started = RunProcess({GetEnv().repo + "/tests/stack", "pool-start", GetEnv().stack_dir, group_});
    BOOST_TEST(started.exit_code == 0, started.err);
    BOOST_TEST(WaitForStatusOk());
  }
  pid_t pgid() const { return pgid_; }  // tools/stack starts each pool in a session of its own

 private:
  std::string group_;
  pid_t pgid_;
};

// The stack's dispatcher runs again after the test, whatever it did to it.
struct DispatcherGuard {
  ~DispatcherGuard() {
    try {
      Stack("dispatcher-start");
    } catch (const std::exception& e) {
      BOOST_ERROR(e.what());
    }
    BOOST_TEST(WaitForStatusOk());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(health)

BOOST_AUTO_TEST_CASE(healthy_stack_reports_every_pool_and_the_dispatcher_ok) {
  rapidjson::Document status = Status();
  BOOST_TEST(StringMember(status, "status") == "ok");
  BOOST_TEST(StringMember(status["checks"], "postgres") == "ok");
  BOOST_TEST(StringMember(status["checks"], "redis") == "ok");
  BOOST_TEST(StringMember(status["checks"], "dispatcher") == "ok");
  for (const char* group : {"account", "admission", "auth", "catalog", "registry", "sbom", "status", "vulns"}) {
    BOOST_TEST(PoolState(status, group) == "ok", group);
  }
}

BOOST_AUTO_TEST_CASE(killed_pool_is_named_down_and_the_status_is_degraded) {
  PoolGuard sbom("sbom");
  BOOST_TEST_REQUIRE(kill(-sbom.pgid(), SIGKILL) == 0);  // the parent and its workers
  BOOST_TEST_REQUIRE(StatusShows([](const auto& s) { return PoolState(s, "sbom") == "down"; }));
  rapidjson::Document status = Status();
  BOOST_TEST(StringMember(status, "status") == "degraded");
  BOOST_TEST(PoolState(status, "catalog") == "ok");
  BOOST_TEST(Get("/v1/signing-keys").status == 502);  // nginx agrees: the sbom group's routes fail
}

BOOST_AUTO_TEST_CASE(hung_pool_is_named_down_within_the_probe_timeout) {
  PoolGuard vulns("vulns");
  BOOST_TEST_REQUIRE(kill(-vulns.pgid(), SIGSTOP) == 0);  // accepts connections (backlog), answers none
  auto started = std::chrono::steady_clock::now();
  rapidjson::Document status = Status();
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  BOOST_TEST(took.count() < 3000, "the probe took " << took.count() << " ms");
  BOOST_TEST(PoolState(status, "vulns") == "down");
  BOOST_TEST(StringMember(status, "status") == "degraded");
}

BOOST_AUTO_TEST_CASE(stopped_dispatcher_is_down_and_a_killed_one_goes_stale) {
  DispatcherGuard restart;
  Stack("dispatcher-stop");  // a clean stop takes its heartbeat away
  rapidjson::Document stopped = Status();
  BOOST_TEST(StringMember(stopped["checks"], "dispatcher") == "down");
  BOOST_TEST(StringMember(stopped, "status") == "degraded");
  Stack("dispatcher-start");
  BOOST_TEST_REQUIRE(StatusShows([](const auto& s) { return StringMember(s["checks"], "dispatcher") == "ok"; }));
  BOOST_TEST_REQUIRE(kill(PoolParentPid("dispatcher"), SIGKILL) == 0);  // its heartbeat row stays behind
  BOOST_TEST(StatusShows([](const auto& s) { return StringMember(s["checks"], "dispatcher") == "stale"; }));
  BOOST_TEST(StringMember(Status(), "status") == "degraded");
}

BOOST_AUTO_TEST_SUITE_END()
