// Reads on a streaming standby (ICAT_PG_READ_DSN): a client reads its own write even while the
// standby's replay is paused, another client is served by the standby, a lagging or stopped standby
// is skipped without an error. A standby of the test stack's Postgres (tests/stack replica-start)
// serves a node of its own (tools/stack node), so the other suites never read on a standby.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <sstream>
#include <thread>

#include "portal_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// A standby further behind than this is skipped; long enough for a test's steps, short to wait out.
constexpr int kMaxLagMs = 3000;

std::string StandbyDsn() {
  const char* port = std::getenv("ICAT_PG_PORT");
  if (!port) throw std::runtime_error("ICAT_PG_PORT is not set: run through tests/run-tests");
  return "host=" + it::GetEnv().stack_dir + "/run port=" + std::to_string(std::atoi(port) + 1) +
         " dbname=icat user=postgres";
}

// tests/stack COMMAND STACK 1 for standby 1 of the test stack; true when it succeeded.
bool StandbyCommand(const std::string& command, std::string* error = nullptr) {
  it::ProcessResult r = it::RunProcess({it::GetEnv().repo + "/tests/stack", command, it::GetEnv().stack_dir, "1"});
  if (error) *error = r.err;
  return r.exit_code == 0;
}

// Standby 1 of the test stack and a node reading on it, for the whole suite; stopped after it.
class StandbyNode {
 public:
  StandbyNode() {
    std::string error;
    if (!StandbyCommand("replica-start", &error)) throw std::runtime_error("tests/stack replica-start: " + error);
    char dir[] = "/tmp/icat-replica-node.XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    dir_ = dir;
    std::filesystem::permissions(dir_, std::filesystem::perms(0755));  // nginx's workers reach its sockets
    const std::string stack = it::GetEnv().repo + "/tools/stack";
    std::istringstream ports(it::RunProcess({stack, "free-port", "3"}).out);
    std::string http, https, metrics;
    ports >> http >> https >> metrics;
    std::string read_dsn = StandbyDsn();
    read_dsn.replace(read_dsn.find("user=postgres"), 13, "user=icat_app target_session_attrs=standby");
    it::ProcessResult started =
        it::RunProcess({"env", "ICAT_HTTP_PORT=" + http, "ICAT_HTTPS_PORT=" + https, "ICAT_METRICS_PORT=" + metrics,
                        "ICAT_PG_READ_DSN=" + read_dsn, "ICAT_PG_MAX_REPLICA_LAG_MS=" + std::to_string(kMaxLagMs),
                        stack, "node", dir_, it::GetEnv().stack_dir});
    if (started.exit_code != 0) {
      Stop();
      throw std::runtime_error("tools/stack node failed: " + started.err);
    }
    base_url = "http://127.0.0.1:" + http;
    metrics_url = "http://127.0.0.1:" + metrics + "/metrics";
  }
  ~StandbyNode() { Stop(); }
  StandbyNode(const StandbyNode&) = delete;
  StandbyNode& operator=(const StandbyNode&) = delete;

  std::string base_url, metrics_url;

 private:
  void Stop() {
    it::RunProcess({it::GetEnv().repo + "/tools/stack", "stop", dir_});
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    StandbyCommand("replica-stop");
  }
  std::string dir_;
};

using Standby = it::SuiteServer<StandbyNode>;

StandbyNode& Node() { return Standby::Started("the standby or its node"); }

// Waits until the standby has replayed everything the primary has written so far.
void WaitUntilStandbyCaughtUp() {
  std::string primary = *it::PgQuery("SELECT pg_current_wal_insert_lsn()::text").at(0).at(0);
  it::PgConnection standby(StandbyDsn());
  bool caught_up = it::WaitFor(
      [&] { return standby.Query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", {primary}).at(0).at(0) == "t"; }, 10s,
      20ms);
  BOOST_TEST_REQUIRE(caught_up, "the standby did not replay " << primary << " within 10 s");
}

// The standby's replay paused (SELECT pg_wal_replay_pause()) for the scope: it still receives WAL.
class PausedReplay {
 public:
  PausedReplay() : standby_(StandbyDsn()) { standby_.Query("SELECT pg_wal_replay_pause()"); }
  ~PausedReplay() {
    try {
      standby_.Query("SELECT pg_wal_replay_resume()");
    } catch (const std::exception& e) {
      BOOST_ERROR("could not resume the standby's replay: " << e.what());
    }
  }
  PausedReplay(const PausedReplay&) = delete;
  PausedReplay& operator=(const PausedReplay&) = delete;

 private:
  it::PgConnection standby_;
};

// The node's count of account reads at a place and for a reason (icat_postgres_reads_total).
long long Reads(const std::string& place, const std::string& reason) {
  it::Response page = it::Get(Node().metrics_url);
  BOOST_TEST_REQUIRE(page.status == 200, page.Summary());
  std::string series =
      "icat_postgres_reads_total{group=\"account\",place=\"" + place + "\",reason=\"" + reason + "\"} ";
  size_t at = page.body.find(series);
  BOOST_TEST_REQUIRE(at != std::string::npos, "no series " << series << " on the node's metrics page");
  return std::atoll(page.body.c_str() + at + series.size());
}

// GET /api/api-keys on the node from a client address; whether the list holds the key `id`.
bool ListsKey(const std::string& client_ip, const it::Headers& as, const std::string& id) {
  it::Response r = it::SendFrom(client_ip, "GET", Node().base_url + "/api/api-keys", as);
  BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
  return r.body.find("\"" + id + "\"") != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(replicas, *boost::unit_test::fixture<Standby>())

BOOST_AUTO_TEST_CASE(writer_reads_its_write_while_the_standby_is_paused_and_others_read_on_the_standby) {
  it::PortalTenant t;
  it::PortalUser other_admin = t.AddUser("admin");
  const it::Headers writer = t.As(t.admin), other = t.As(other_admin);  // sessions written now, not later
  const std::string writer_ip = it::RandomClientIp(), other_ip = it::RandomClientIp();
  WaitUntilStandbyCaughtUp();
  BOOST_TEST(!ListsKey(other_ip, other, "none"));  // the person is on the standby: a first read there
  PausedReplay paused;

  it::Response created = it::SendFrom(writer_ip, "POST", Node().base_url + "/api/api-keys", writer,
                                      R"({"name": "written while paused", "scopes": ["read:catalog"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  const std::string id = it::StringMember(it::JsonOf(created), "id");

  long long behind = Reads("primary", "behind"), on_standby = Reads("standby", "fresh");
  BOOST_TEST(ListsKey(writer_ip, writer, id), "the writer's next read did not show its write");
  BOOST_TEST(Reads("primary", "behind") == behind + 1);
  BOOST_TEST(!ListsKey(other_ip, other, id), "another client's read was not served by the paused standby");
  BOOST_TEST(Reads("standby", "fresh") == on_standby + 1);

  // Paused, the standby falls behind the primary by the age of its last replayed commit.
  std::this_thread::sleep_for(std::chrono::milliseconds(kMaxLagMs + 500));
  long long lagging = Reads("primary", "lag");
  BOOST_TEST(ListsKey(other_ip, other, id), "a standby lagging past ICAT_PG_MAX_REPLICA_LAG_MS still served");
  BOOST_TEST(Reads("primary", "lag") == lagging + 1);
}

BOOST_AUTO_TEST_CASE(stopped_standby_is_skipped_and_reads_answer_200_from_the_primary) {
  it::PortalTenant t;
  const it::Headers admin = t.As(t.admin);
  const std::string ip = it::RandomClientIp();
  it::Response created = it::SendFrom(ip, "POST", Node().base_url + "/api/api-keys", admin,
                                      R"({"name": "k", "scopes": ["read:catalog"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  const std::string id = it::StringMember(it::JsonOf(created), "id");
  WaitUntilStandbyCaughtUp();

  BOOST_TEST_REQUIRE(StandbyCommand("replica-stop"));
  long long down = Reads("primary", "down");
  for (int i = 0; i < 8; i++) BOOST_TEST(ListsKey(it::RandomClientIp(), admin, id));
  BOOST_TEST(Reads("primary", "down") >= down + 8);
  BOOST_TEST_REQUIRE(StandbyCommand("replica-start"));
}

BOOST_AUTO_TEST_SUITE_END()
