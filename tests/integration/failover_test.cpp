// Failover: a stack of its own with one synchronous standby (ICAT_PG_REPLICAS=1,
// ICAT_PG_SYNC_REPLICA=1); its primary crashed and the standby promoted (tests/stack replica-promote,
// as a failover manager would) under a small load of writes and reads. Every answer is 200/201 or a
// 503 with Retry-After, none slower than the statement timeout allows; the pools write again on
// their own; every acknowledged write is on the promoted server; the dispatcher delivers after it.
#include <signal.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

#include "icat/crypto.hpp"
#include "icat/jwt.hpp"
#include "portal_support.hpp"
#include "receiver.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

constexpr int kStatementTimeoutMs = 2000;

// The stack of this suite, started in a directory of its own and stopped, and removed, after it.
class FailoverStack {
 public:
  FailoverStack() {
    char dir[] = "/tmp/icat-failover.XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    dir_ = dir;
    std::filesystem::permissions(dir_, std::filesystem::perms(0755));
    const std::string stack = it::GetEnv().repo + "/tools/stack";
    std::istringstream ports(it::RunProcess({stack, "free-port", "7"}).out);
    std::string http, https, redis, pg, metrics, registry, mail;
    ports >> http >> https >> redis >> pg >> metrics >> registry >> mail;
    // The test stack's secrets (ICAT_JWT_SECRET_FILE, ...) come along, so tokens minted for it work here.
    it::ProcessResult started =
        it::RunProcess({"env", "ICAT_HTTP_PORT=" + http, "ICAT_HTTPS_PORT=" + https, "ICAT_REDIS_PORT=" + redis,
                        "ICAT_PG_PORT=" + pg, "ICAT_METRICS_PORT=" + metrics, "ICAT_REGISTRY_PORT=" + registry,
                        "ICAT_MAIL_PORT=" + mail, "ICAT_PG_REPLICAS=1", "ICAT_PG_SYNC_REPLICA=1",
                        "ICAT_PG_STATEMENT_TIMEOUT_MS=" + std::to_string(kStatementTimeoutMs), stack, "start", dir_});
    if (started.exit_code != 0) {
      Stop();
      throw std::runtime_error("tools/stack start failed: " + started.err);
    }
    base_url = "http://127.0.0.1:" + http;
    primary_dsn = "host=" + dir_ + "/run port=" + pg + " dbname=icat user=postgres";
    standby_dsn = "host=" + dir_ + "/run port=" + std::to_string(std::stoi(pg) + 1) + " dbname=icat user=postgres";
  }
  ~FailoverStack() { Stop(); }
  FailoverStack(const FailoverStack&) = delete;
  FailoverStack& operator=(const FailoverStack&) = delete;

  // tests/stack COMMAND DIR [N]; a failure fails the test.
  void Stack(const std::string& command, const std::string& n = "") const {
    std::vector<std::string> argv = {it::GetEnv().repo + "/tests/stack", command, dir_};
    if (!n.empty()) argv.push_back(n);
    it::ProcessResult r = it::RunProcess(argv);
    BOOST_TEST_REQUIRE(r.exit_code == 0, "tests/stack " << command << ": " << r.err);
  }

  // The primary gone as in a crash: SIGQUIT to its postmaster (pg_ctl's immediate mode), so no
  // WAL it has not sent yet reaches the standby on the way out, as a clean stop would send it.
  void CrashPrimary() const {
    std::string pid_line = it::ReadFileBytes(dir_ + "/pg/postmaster.pid");
    pid_t pid = std::stoi(pid_line.substr(0, pid_line.find('\n')));
    BOOST_TEST_REQUIRE(kill(pid, SIGQUIT) == 0);
    BOOST_TEST_REQUIRE(it::WaitFor([&] { return kill(pid, 0) != 0; }, 10s), "the primary did not stop");
  }

  std::string base_url, primary_dsn, standby_dsn;

 private:
  void Stop() {
    it::RunProcess({it::GetEnv().repo + "/tools/stack", "stop", dir_});
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string dir_;
};

// A tenant and an admin of it, written straight into the stack's primary; the admin's token is
// signed with the shared secret.
struct Admin {
  std::string tenant_id, subdomain;
  it::Headers headers;
};

Admin MakeAdmin(const std::string& primary_dsn) {
  it::PgConnection primary(primary_dsn);
  Admin a;
  a.subdomain = "it-" + it::RandomSuffix(12);
  a.tenant_id =
      *primary.Query("INSERT INTO tenants (subdomain, name) VALUES ($1, $1) RETURNING id", {a.subdomain}).at(0).at(0);
  std::string user_id = *primary
                             .Query(
                                 "INSERT INTO users (tenant_id, email, password_hash, role) "
                                 "VALUES ($1, $2, 'unused', 'admin') RETURNING id",
                                 {a.tenant_id, "admin@" + a.subdomain + ".test"})
                             .at(0)
                             .at(0);
  std::string session = *primary
                             .Query(
                                 "INSERT INTO refresh_tokens (tenant_id, user_id, family_id, token_hash, expires_at) "
                                 "VALUES ($1, $2, gen_random_uuid(), $3::bytea, now() + interval '1 day') "
                                 "RETURNING family_id",
                                 {a.tenant_id, user_id, "\\x" + it::RandomSuffix(64)})
                             .at(0)
                             .at(0);
  icat::AccessClaims claims;
  claims.user_id = user_id;
  claims.tenant_id = a.tenant_id;
  claims.tenant = a.subdomain;
  claims.role = "admin";
  claims.session_id = session;
  claims.issued_at = std::time(nullptr);
  claims.expires_at = claims.issued_at + icat::kAccessTokenSeconds;
  claims.token_id = icat::RandomUuid();
  a.headers = {{"Authorization", "Bearer " + it::MintToken(claims)},
               {"X-Tenant", a.subdomain},
               {"Content-Type", "application/json"}};
  return a;
}

// What the load saw: replies by status, the ids of the acknowledged writes, what broke the rules.
struct Seen {
  std::mutex mutex;
  std::map<long, int> statuses;
  std::vector<std::string> acknowledged;
  std::vector<std::string> faults;
  std::chrono::steady_clock::time_point last_failure{};
  std::chrono::steady_clock::time_point promoted = std::chrono::steady_clock::time_point::max();
  int written_after_promotion = 0;
};

// One client's loop: a write (a CVE watch) then a read, until stop.
void Load(const std::string& base_url, const it::Headers& as, std::atomic<bool>& stop, Seen& seen) {
  it::HttpClient client;
  for (int i = 0; !stop; i++) {
    for (bool write : {true, false}) {
      auto started = std::chrono::steady_clock::now();
      std::string body = R"({"cveId": "CVE-2031-)" + std::to_string(100000 + std::rand() % 899999) + R"("})";
      it::Response r = write ? client.Send("POST", base_url + "/api/cve-watches", as, body)
                             : client.Send("GET", base_url + "/api/cve-watches?limit=5", as);
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
      std::lock_guard lock(seen.mutex);
      seen.statuses[r.status]++;
      bool fine = r.status == 200 || r.status == 201 || r.status == 409 || (r.status == 503 && r.Has("retry-after"));
      if (!fine) seen.faults.push_back(r.Summary());
      if (ms.count() > kStatementTimeoutMs + 1500) seen.faults.push_back("took " + std::to_string(ms.count()) + " ms");
      if (r.status == 201) seen.acknowledged.push_back(it::StringMember(it::JsonOf(r), "id"));
      if (r.status == 201 && started > seen.promoted) seen.written_after_promotion++;
      if (r.status == 503) seen.last_failure = std::chrono::steady_clock::now();
    }
    std::this_thread::sleep_for(20ms);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(failover)

BOOST_AUTO_TEST_CASE(promoted_standby_takes_over_without_500s_or_lost_writes_and_the_dispatcher_delivers) {
  FailoverStack f;
  Admin admin = MakeAdmin(f.primary_dsn);
  Seen seen;
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int i = 0; i < 3; i++) clients.emplace_back(Load, f.base_url, admin.headers, std::ref(stop), std::ref(seen));

  std::this_thread::sleep_for(1s);
  f.CrashPrimary();
  std::this_thread::sleep_for(1s);
  f.Stack("replica-promote", "1");
  const auto promoted = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(seen.mutex);
    seen.promoted = promoted;
  }
  // Back to writing: a second after the promotion without a 503.
  bool recovered = it::WaitFor(
      [&] {
        std::lock_guard lock(seen.mutex);
        return std::chrono::steady_clock::now() - std::max(seen.last_failure, promoted) > 1s;
      },
      20s);
  stop = true;
  for (std::thread& t : clients) t.join();

  std::ostringstream statuses;
  for (auto [status, count] : seen.statuses) statuses << status << ": " << count << "  ";
  BOOST_TEST_MESSAGE("failover replies " << statuses.str()
                                         << " writes after the promotion: " << seen.written_after_promotion);
  BOOST_TEST(recovered, "the pools did not write again within 20 s of the promotion: " << statuses.str());
  BOOST_TEST(seen.faults.empty(), seen.faults.size() << " faults, the first: " << seen.faults.front());
  BOOST_TEST(seen.statuses[503] > 0, "no 503 while no server took writes: " << statuses.str());
  BOOST_TEST(seen.written_after_promotion > 0, "no write acknowledged after the promotion");

  // Synchronous replication: every acknowledged write is on the promoted server.
  it::PgConnection promoted_server(f.standby_dsn);
  std::string ids = "{";
  for (const std::string& id : seen.acknowledged) ids += (ids.size() > 1 ? "," : "") + id;
  ids += "}";
  std::string found =
      *promoted_server.Query("SELECT count(*) FROM cve_watches WHERE id = ANY($1::uuid[])", {ids}).at(0).at(0);
  BOOST_TEST(std::stoul(found) == seen.acknowledged.size(),
             found << " of " << seen.acknowledged.size() << " acknowledged writes on the promoted server");

  // The dispatcher reconnected to the promoted server too: an event is delivered.
  it::Receiver receiver;
  promoted_server.Query("INSERT INTO webhooks (tenant_id, url, events, secret) VALUES ($1, $2, '{ping}', $3)",
                        {admin.tenant_id, receiver.Url(), "whsec_" + icat::Base64Encode(icat::RandomBytes(32))});
  promoted_server.Query("INSERT INTO events (tenant_id, type, payload) VALUES ($1, 'ping', $2::jsonb)",
                        {admin.tenant_id, it::EventData("ping")});
  BOOST_TEST(receiver.WaitFor(1, 20s).size() == 1u, "no webhook delivered after the failover");
}

BOOST_AUTO_TEST_SUITE_END()
