// Outages: a worker killed, Redis stopped, Postgres stopped or frozen. Each test restores what it
// stopped (StoppedService, FrozenPostgres) and waits for /api/status "ok" before it returns; this
// file links last, so these tests also run after the others.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <future>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <regex>
#include <thread>

#include "admission_support.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

std::string ToString(const std::set<pid_t>& pids) {
  std::string text;
  for (pid_t pid : pids) text += (text.empty() ? "" : " ") + std::to_string(pid);
  return "{" + text + "}";
}

// /api/status body: {"status": ..., "checks": {"postgres": ..., "redis": ...}}.
struct Status {
  long http_status = 0;
  std::string status, postgres, redis, error;
  std::string summary;
};

Status GetStatus() {
  it::Response r = it::Get("/api/status");
  Status s;
  s.http_status = r.status;
  s.summary = r.Summary();
  BOOST_TEST(r.Header("content-type").rfind("application/json", 0) == 0u, s.summary);
  rapidjson::Document body = it::JsonOf(r);
  if (!body.IsObject()) return s;
  if (body.HasMember("status") && body["status"].IsString()) s.status = body["status"].GetString();
  if (body.HasMember("error") && body["error"].IsString()) s.error = body["error"].GetString();
  if (body.HasMember("checks") && body["checks"].IsObject()) {
    const rapidjson::Value& checks = body["checks"];
    if (checks.HasMember("postgres") && checks["postgres"].IsString()) s.postgres = checks["postgres"].GetString();
    if (checks.HasMember("redis") && checks["redis"].IsString()) s.redis = checks["redis"].GetString();
  }
  return s;
}

// Every commit of a session that asks for synchronous replication waits for a standby that never
// comes (synchronous_standby_names names one), as when the synchronous standby is down: the COMMIT
// has taken effect, and is not answered. The destructor names none again, which releases any such
// commit. Sessions of the stack do not wait (tools/stack turns synchronous_commit off for tests).
class CommitsWaitForAStandby {
 public:
  CommitsWaitForAStandby() { Name("'icat_test_missing_standby'", "icat_test_missing_standby"); }
  ~CommitsWaitForAStandby() {
    try {
      Name("DEFAULT", "");
    } catch (const std::exception& e) {
      BOOST_ERROR("cannot name no synchronous standby again: " << e.what());
    }
  }
  CommitsWaitForAStandby(const CommitsWaitForAStandby&) = delete;
  CommitsWaitForAStandby& operator=(const CommitsWaitForAStandby&) = delete;

 private:
  // As the superuser (ALTER SYSTEM) on the stack's socket, which trusts local connections.
  static void Name(const std::string& value, const std::string& shown) {
    it::PgConnection superuser(std::regex_replace(it::GetEnv().pg_admin_dsn, std::regex("user=\\S+"), "user=postgres"));
    superuser.Query("ALTER SYSTEM SET synchronous_standby_names = " + value);
    superuser.Query("SELECT pg_reload_conf()");
    // The postmaster rereads its settings in its own time; a new session shows when it has.
    BOOST_TEST(it::WaitFor([&] { return it::PgQuery("SHOW synchronous_standby_names").at(0).at(0) == shown; },
                           std::chrono::seconds(10)),
               "synchronous_standby_names did not become '" << shown << "'");
  }
};

// Every process of the stack's Postgres stopped by SIGSTOP, as when its host or VM freezes: the
// kernel still accepts connections, nothing answers. Thaw (or the destructor, pass or fail)
// continues them all and waits for /api/status "ok".
class FrozenPostgres {
 public:
  FrozenPostgres() {
    pid_t postmaster = it::PostmasterPid();
    BOOST_TEST_REQUIRE(kill(postmaster, SIGSTOP) == 0);  // first: a stopped postmaster starts no backend
    pids_ = it::ChildPids(postmaster);
    for (pid_t pid : pids_) kill(pid, SIGSTOP);
    pids_.insert(postmaster);
    frozen_ = true;
  }
  ~FrozenPostgres() {
    Thaw();
    BOOST_TEST(it::WaitForStatusOk(), "/api/status not ok 30 s after SIGCONT");
  }
  FrozenPostgres(const FrozenPostgres&) = delete;
  FrozenPostgres& operator=(const FrozenPostgres&) = delete;
  void Thaw() {  // idempotent
    if (!frozen_) return;
    frozen_ = false;
    for (pid_t pid : pids_) kill(pid, SIGCONT);
  }
  size_t processes() const { return pids_.size(); }

 private:
  std::set<pid_t> pids_;
  bool frozen_ = false;
};

// One request and how long its answer took; recorded on the thread that sent it, judged on the
// test's own thread (Boost.Test's assertions are not for other threads).
struct Timed {
  std::string what;
  it::Response response;
  long long ms = 0;
};

Timed Time(std::string what, const std::function<it::Response()>& send) {
  auto started = std::chrono::steady_clock::now();
  it::Response response = send();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  return {std::move(what), std::move(response), ms};
}

long long StatementTimeoutMs() {
  const char* set = std::getenv("ICAT_PG_STATEMENT_TIMEOUT_MS");
  return set ? std::atoll(set) : 5000;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(resilience)

BOOST_AUTO_TEST_CASE(killed_catalog_worker_is_respawned_and_requests_keep_succeeding) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  tenant.AddImage("respawn", {{"1.0"}});
  std::set<pid_t> before = it::WorkerPids("catalog");
  BOOST_TEST_REQUIRE(!before.empty(), "no catalog workers under pid " << it::PoolParentPid("catalog"));
  pid_t victim = *before.begin();
  BOOST_TEST_REQUIRE(kill(victim, SIGKILL) == 0);

  std::set<pid_t> after;
  bool respawned = it::WaitFor(
      [&] {
        after = it::WorkerPids("catalog");
        return after.count(victim) == 0 && after.size() == before.size();
      },
      5s);
  BOOST_TEST_REQUIRE(respawned, "workers before " << ToString(before) << ", 5 s after killing " << victim << ": "
                                                  << ToString(after));
  std::vector<pid_t> fresh;
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(fresh));
  BOOST_TEST(fresh.size() == 1u, "new workers: " << ToString(after));

  for (int i = 0; i < 20; i++) {
    it::Response r = it::Get("/v1/images", it::Bearer(key));
    BOOST_TEST(r.status == 200, "request " << i << ": " << r.Summary());
  }
}

BOOST_AUTO_TEST_CASE(unreachable_handler_pool_is_502_service_unavailable_json) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::HiddenPoolSocket hidden("catalog");
  it::ExpectError(it::Get("/v1/images", it::Bearer(key)), 502, "SERVICE_UNAVAILABLE");
  hidden.PutBack();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
}

BOOST_AUTO_TEST_CASE(redis_down_keeps_reads_working_and_status_degraded) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("redisdown", {{"1.0"}});
  std::string known_key = tenant.CreateKey();
  std::string fresh_key = tenant.CreateKey();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(known_key)));  // cached in Redis now
  {
    it::StoppedService redis("redis");
    Status s = GetStatus();
    BOOST_TEST_CONTEXT(s.summary) {
      BOOST_TEST(s.http_status == 200);
      BOOST_TEST(s.status == "degraded");
      BOOST_TEST(s.redis == "unavailable");
      BOOST_TEST(s.postgres == "ok");
    }
    for (const std::string& key : {known_key, fresh_key}) {
      it::Response list = it::Get("/v1/images", it::Bearer(key));
      rapidjson::Document body = it::ExpectJson200(list);
      BOOST_TEST((body.HasMember("images") && body["images"].IsArray() && body["images"].Size() == 1u), list.Summary());
      // No cache generation without Redis: no worker answers from its cache.
      BOOST_TEST(list.Header("cache-status") == "icat; fwd=bypass", list.Summary());
      it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
    }
    // Refusals still work without Redis.
    it::ExpectError(it::Get("/v1/images", it::Bearer(known_key + "x")), 401, "UNAUTHENTICATED");
    std::string sbom_key = tenant.CreateKey("read:sbom");
    it::ExpectError(it::Get("/v1/images", it::Bearer(sbom_key)), 403, "INSUFFICIENT_SCOPE");

    redis.Restart();
    // Each worker of the pool finds Redis again on its own (at most a second's back-off after a
    // failed connect), so every request is ok again soon, not necessarily the very next one.
    Status back;
    BOOST_TEST(it::WaitFor([&] {
      back = GetStatus();
      return back.status == "ok" && back.redis == "ok" && GetStatus().status == "ok";
    }, std::chrono::seconds(5)), back.summary);
  }
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(known_key)));
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(fresh_key)));
}

BOOST_AUTO_TEST_CASE(connections_redis_closed_are_reopened_on_the_very_next_request) {
  it::Tenant tenant;
  tenant.AddImage("redisclosed", {{"1.0"}});
  std::string key = tenant.CreateKey();
  it::WaitUntilWorkersUseRedis(key);  // the test before stopped Redis
  // Requests from several threads at once, so that every catalog worker holds a Redis connection,
  // and, after Redis dropped them all, so that every worker meets its dead connection.
  auto all_counted = [&] {
    std::vector<std::thread> threads;
    std::atomic<int> uncounted{0};
    for (int t = 0; t < 6; t++) {
      threads.emplace_back([&] {
        it::HttpClient client;
        for (int i = 0; i < 4; i++) {
          it::Response r = client.Get("/v1/images", it::Bearer(key));
          if (r.status != 200 || !r.Has("ratelimit")) uncounted++;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    return uncounted.load();
  };
  BOOST_TEST_REQUIRE(all_counted() == 0);
  auto killed = it::RedisCommand({"CLIENT", "KILL", "TYPE", "normal"});
  BOOST_TEST_REQUIRE(killed.has_value());
  // A rate-limit header on every reply: Redis answered each one, none fell back for lack of it.
  BOOST_TEST(all_counted() == 0);
}

BOOST_AUTO_TEST_CASE(key_revoked_while_redis_is_down_stays_revoked_after_redis_returns) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));  // cached in Redis now
  {
    it::StoppedService redis("redis");
    it::ProcessResult revoke = it::Icatctl({"key", "revoke", "--tenant", tenant.subdomain(), key.substr(0, 14)});
    // Complete once committed; it says that Redis holds no tombstone and that the revoke holds anyway.
    BOOST_TEST(revoke.exit_code == 0, revoke.err);
    BOOST_TEST(revoke.err.find("no tombstone") != std::string::npos, revoke.err);
    rapidjson::Document entry = tenant.KeyEntry(key);
    BOOST_TEST_REQUIRE(entry.IsObject());
    BOOST_TEST(it::StringMember(entry, "state") == "revoked", "exit " << revoke.exit_code << ": " << revoke.err);
    it::ExpectError(it::Get("/v1/images", it::Bearer(key)), 401, "UNAUTHENTICATED");
    redis.Restart();
  }
  it::ExpectError(it::Get("/v1/images", it::Bearer(key)), 401, "UNAUTHENTICATED");
}

// Without Postgres no revoke can complete: the portal's and icatctl's say so, and the key works as
// they said it would once Postgres is back.
BOOST_AUTO_TEST_CASE(a_revoke_without_postgres_says_the_key_still_works_and_it_does) {
  it::PortalTenant t;
  it::PortalKey key = it::CreatePortalKey(t);
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key.secret)));  // cached in Redis now
  const it::Headers admin = t.As(t.admin);  // minting a session writes to Postgres: before it stops
  {
    it::StoppedService pg("pg");
    it::Response revoke = it::Send("DELETE", "/api/api-keys/" + key.id, admin);
    BOOST_TEST(revoke.status == 503, revoke.Summary());
    BOOST_TEST(revoke.Has("retry-after"), revoke.Summary());
    // Refused before the handler (the signed-in person cannot be read: nothing was done) or by it.
    rapidjson::Document body = it::JsonOf(revoke);
    BOOST_TEST((it::StringMember(body, "error") == "DATABASE_UNAVAILABLE" ||
                it::StringMember(body, "message").find("Not revoked: the key still works") == 0u),
               revoke.Summary());
    it::ProcessResult ctl = it::Icatctl({"key", "revoke", "--tenant", t.subdomain(), key.id});
    BOOST_TEST(ctl.exit_code == 1, ctl.err);
    BOOST_TEST(ctl.err.find("not revoked: the key still works") != std::string::npos, ctl.err);
    pg.Restart();
  }
  it::Response after;
  BOOST_TEST(it::WaitFor([&] { return (after = it::Get("/v1/images", it::Bearer(key.secret))).status == 200; }, 10s),
             after.Summary());
  BOOST_TEST(it::StringMember(t.tenant.KeyEntry(key.secret), "state") == "active");
}

// A revoke whose COMMIT is sent and never answered (the connection cut while the commit waits for
// a synchronous standby) says that its outcome is unknown. This one had taken effect: the key is
// refused within a second without a tombstone, and running the command again says it is revoked.
BOOST_AUTO_TEST_CASE(an_icatctl_revoke_cut_off_at_its_commit_says_unknown_and_the_repeat_exits_0) {
  it::PortalTenant t;
  it::PortalKey key = it::CreatePortalKey(t);
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key.secret)));  // a live entry in Redis
  // Another key served from Redis: its requests make every worker poll for revokes while the COMMIT
  // waits, so the revoke commits after polls that could not see it.
  it::PortalKey other = it::CreatePortalKey(t);
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(other.secret)));
  const std::vector<std::string> revoke_command = {
      it::GetEnv().bin_dir + "/icatctl", "key", "revoke", "--tenant", t.subdomain(), key.id};
  std::future<it::ProcessResult> revoke;  // declared first: waited for after the standby is named no more
  {
    CommitsWaitForAStandby waiting;
    revoke = std::async(std::launch::async,
                        [&] { return it::RunProcess(revoke_command, "", {"PGOPTIONS=-c synchronous_commit=on"}); });
    std::vector<it::PgRow> waiter;
    BOOST_TEST_REQUIRE(it::WaitFor([&] {
      waiter = it::PgQuery("SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'SyncRep'");
      return !waiter.empty();
    }, 10s), "icatctl's COMMIT never waited for the standby");
    for (int i = 0; i < 25; i++) {
      it::ExpectJson200(it::Get("/v1/images", it::Bearer(other.secret)));
      std::this_thread::sleep_for(100ms);
    }
    it::PgQuery("SELECT pg_terminate_backend($1::int)", {waiter.at(0).at(0)});
  }
  it::ProcessResult cut = revoke.get();
  BOOST_TEST(cut.exit_code == 1, cut.err);
  BOOST_TEST(cut.err.find("unknown whether key " + key.id + " is revoked") != std::string::npos, cut.err);
  BOOST_TEST(cut.err.find("run this command again") != std::string::npos, cut.err);
  BOOST_TEST(it::StringMember(t.tenant.KeyEntry(key.secret), "state") == "revoked");
  std::this_thread::sleep_for(1100ms);
  for (const std::string& reply : it::RepliesNotRefused(key.secret, 2s)) BOOST_ERROR(reply);
  it::ProcessResult again = it::Icatctl({"key", "revoke", "--tenant", t.subdomain(), key.id});
  BOOST_TEST(again.exit_code == 0, again.err);
  BOOST_TEST(again.out == "already revoked " + key.id + "\n");
}

BOOST_AUTO_TEST_CASE(a_licence_revoked_while_redis_is_down_hides_the_image_at_once_and_after_redis_returns) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("revoked-redis-down", {{"1.0"}});
  std::string key = tenant.CreateKey();
  const std::string url = "/v1/images/" + image.id;
  for (int i = 0; i < 12; i++) it::ExpectJson200(it::Get(url, it::Bearer(key)));  // cached by every worker
  {
    it::StoppedService redis("redis");
    it::ProcessResult revoke =
        it::Icatctl({"license", "revoke", "--tenant", tenant.subdomain(), "--image", image.name});
    BOOST_TEST(revoke.exit_code == 0, revoke.err);
    BOOST_TEST(revoke.err.find("Redis unreachable") != std::string::npos, "no warning: " << revoke.err);
    // Without Redis there is no catalogue generation: no worker answers from its cache.
    for (int i = 0; i < 12; i++) it::ExpectError(it::Get(url, it::Bearer(key)), 404, "NOT_FOUND");
    redis.Restart();
  }
  for (int i = 0; i < 12; i++) it::ExpectError(it::Get(url, it::Bearer(key)), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(after_a_postgres_restart_the_first_review_of_every_admission_worker_is_answered) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("pgrestart", {{"1.0"}});
  std::string key = tenant.CreateKey("admission");
  const std::string review =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"restart",)"
      R"("kind":{"group":"","version":"v1","kind":"Pod"},"namespace":"web","operation":"CREATE",)"
      R"("object":{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":")" +
      image.repository + R"(:1.0"}]}}}})";
  auto post = [&] { return it::PostReview(key, review); };
  // Every worker holds the tenant's policy and the image in its cache: a review is then a single
  // round trip that ends in COMMIT, which must not be sent again blindly on a dead connection.
  for (int i = 0; i < 12; i++) it::ExpectJson200(post());
  {
    it::StoppedService pg("pg");
    pg.Restart();
  }
  for (int i = 0; i < 12; i++) {
    it::Response r = post();
    BOOST_TEST_REQUIRE(r.status == 200, "review " << i << " after the restart: " << r.Summary());
  }
}

BOOST_AUTO_TEST_CASE(postgres_down_is_503_and_the_same_workers_recover_after_restart) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("pgdown", {{"1.0"}});
  std::string known_key = tenant.CreateKey();
  std::string fresh_key = tenant.CreateKey();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(known_key)));  // cached in Redis now
  const std::set<pid_t> catalog_before = it::WorkerPids("catalog");
  const std::set<pid_t> status_before = it::WorkerPids("status");
  BOOST_TEST_REQUIRE(!catalog_before.empty());
  BOOST_TEST_REQUIRE(!status_before.empty());
  {
    it::StoppedService pg("pg");
    // URLs no worker has cached: a reply cached before the outage may still be served (nothing
    // can change the catalogue while Postgres is down), anything else needs Postgres.
    it::ExpectError(it::Get("/v1/images?limit=3", it::Bearer(known_key)), 503, "DATABASE_UNAVAILABLE");
    it::ExpectError(it::Get("/v1/images/" + image.id, it::Bearer(known_key)), 503, "DATABASE_UNAVAILABLE");
    // A valid key that cannot be checked is not an invalid key.
    it::ExpectError(it::Get("/v1/images", it::Bearer(fresh_key)), 503, "DATABASE_UNAVAILABLE");

    Status s = GetStatus();
    BOOST_TEST_CONTEXT(s.summary) {
      BOOST_TEST(s.http_status == 503);
      BOOST_TEST(s.status == "unavailable");
      BOOST_TEST(s.error == "DATABASE_UNAVAILABLE");
      BOOST_TEST(s.postgres == "unavailable");
      BOOST_TEST(s.redis == "ok");
    }

    // A key with a bad checksum is refused offline: 401, not 503.
    std::string bad = known_key;
    bad.back() = bad.back() == 'a' ? 'b' : 'a';
    it::Response refused = it::Get("/v1/images", it::Bearer(bad));
    it::ExpectError(refused, 401, "UNAUTHENTICATED");
    BOOST_TEST(refused.Header("www-authenticate").rfind("Bearer", 0) == 0u);

    pg.Restart();
  }
  it::Response first_ok;
  bool recovered = it::WaitFor(
      [&] {
        first_ok = it::Get("/v1/images", it::Bearer(known_key));
        return first_ok.status == 200;
      },
      10s, 250ms);
  BOOST_TEST_REQUIRE(recovered, "10 s after pg-start: " << first_ok.Summary());
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(fresh_key)));
  it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(fresh_key)));
  BOOST_TEST(ToString(it::WorkerPids("catalog")) == ToString(catalog_before), "catalog workers were replaced");
  BOOST_TEST(ToString(it::WorkerPids("status")) == ToString(status_before), "status workers were replaced");
}

// Issue 25, "fail fast": with Postgres frozen for 15 s, whatever needs Postgres answers 503
// DATABASE_UNAVAILABLE with Retry-After within the statement timeout plus a second, the admission
// webhook within the API server's timeout, /api/status within a second, and a read the caches can
// answer (an API key in Redis, a reply in the worker's cache) answers 200, even with the key's
// last-used mark due. The pools are asked side by side, one thread each, as clients would.
BOOST_AUTO_TEST_CASE(a_frozen_postgres_is_503_database_unavailable_in_time_and_cached_reads_still_answer) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("frozen", {{"1.0"}});
  const std::string catalog_key = t.tenant.CreateKey("read:catalog");
  const std::string vulns_key = t.tenant.CreateKey("read:vulns");
  const std::string admission_key = t.tenant.CreateKey("admission");
  const std::string cached_url = "/v1/images/" + image.id;
  const std::string review = it::PodReview("frozen", image.repository + ":1.0");
  // Minting a portal session writes to Postgres (which would also make the reply caches start
  // again): before the warm-up, and the freeze.
  const it::Headers as_viewer = t.As(t.viewer), as_admin = t.As(t.admin), as_user = t.As(t.user);
  // Keys in Redis, the image's reply in every catalog worker's cache, the policy in every
  // admission worker's: before the freeze, as in a running service. (The /v1 reads are all cached
  // routes: during the freeze an "uncached" read is a URL no worker has answered yet.)
  for (int i = 0; i < 20; i++) it::ExpectJson200(it::Get(cached_url, it::Bearer(catalog_key)));
  for (int i = 0; i < 12; i++) it::ExpectJson200(it::PostReview(admission_key, review));
  it::ExpectJson200(it::Get("/v1/cve/CVE-2024-3094", it::Bearer(vulns_key)));
  std::map<std::string, std::set<pid_t>> workers;
  for (const char* group : {"account", "admission", "catalog", "status", "vulns"}) workers[group] = it::WorkerPids(group);
  const pid_t dispatcher = it::PoolParentPid("dispatcher");
  // The key's last-used mark is due again: a read that waited for it would wait for Postgres.
  auto forgotten = it::RedisCommand({"DEL", "icat:lastused:" + icat::Sha256Hex(catalog_key)});
  BOOST_TEST_REQUIRE(forgotten.has_value());

  const long long database_bound_ms = StatementTimeoutMs() + 1000;
  const auto freeze = std::chrono::seconds(15);
  std::vector<Timed> cached, database, admission, status;
  {
    FrozenPostgres pg;
    BOOST_TEST_MESSAGE("froze " << pg.processes() << " Postgres processes");
    auto until = std::chrono::steady_clock::now() + freeze;
    std::vector<std::thread> clients;
    clients.emplace_back([&] {  // catalog: cached reads first, while a worker is free for them
      for (int i = 0; i < 2; i++) cached.push_back(Time("GET " + cached_url, [&] { return it::Get(cached_url, it::Bearer(catalog_key)); }));
      database.push_back(Time("GET /v1/images?limit=3", [&] { return it::Get("/v1/images?limit=3", it::Bearer(catalog_key)); }));
      database.push_back(Time("GET /api/docker-images", [&] { return it::Get("/api/docker-images", as_viewer); }));
    });
    std::vector<Timed> vulns, account;
    clients.emplace_back([&] {
      // Another CVE than the warm-up's: no worker has its reply.
      vulns.push_back(Time("GET /v1/cve/CVE-2021-44228", [&] { return it::Get("/v1/cve/CVE-2021-44228", it::Bearer(vulns_key)); }));
    });
    clients.emplace_back([&] {
      account.push_back(Time("POST /api/cve-watches", [&] {
        return it::Send("POST", "/api/cve-watches", as_admin, R"({"cveId": "CVE-2024-3094"})");
      }));
      account.push_back(Time("GET /api/webhooks", [&] { return it::Get("/api/webhooks", as_user); }));
    });
    clients.emplace_back([&] {  // as the API server calls it, with timeoutSeconds: 3
      admission.push_back(Time("POST /v1/admission?timeout=3s", [&] {
        return it::Send("POST", "/v1/admission?timeout=3s",
                        {{"Authorization", "Bearer " + admission_key}, {"Content-Type", "application/json"}}, review);
      }));
    });
    clients.emplace_back([&] {  // a monitor asking twice a second, for the whole freeze
      while (std::chrono::steady_clock::now() < until) {
        status.push_back(Time("GET /api/status", [] { return it::Get("/api/status"); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
      }
    });
    std::this_thread::sleep_until(until);
    pg.Thaw();  // before the joins: without deadlines the requests would wait for exactly this
    for (std::thread& c : clients) c.join();
    database.insert(database.end(), vulns.begin(), vulns.end());
    database.insert(database.end(), account.begin(), account.end());
  }

  // Each answer's status and time first, so that every late or wrong one is named; then the body
  // of those with the right status.
  auto expect = [](const Timed& r, long status, const char* error, long long bound_ms) {
    BOOST_TEST_MESSAGE(r.what << ": " << r.response.status << " in " << r.ms << " ms");
    BOOST_TEST_CONTEXT(r.what << " " << r.ms << " ms: " << r.response.Summary()) {
      BOOST_TEST(r.response.status == status);
      BOOST_TEST(r.ms < bound_ms);
      if (r.response.status != status) return;
      if (status == 200) {
        it::ExpectJson200(r.response);
        BOOST_TEST(r.response.Header("cache-status") == "icat; hit");
      } else {
        it::ExpectError(r.response, status, error);
        BOOST_TEST(r.response.Header("retry-after") == "1");
      }
    }
  };
  BOOST_TEST(status.size() >= 10u);
  for (const Timed& r : status) {
    BOOST_TEST_CONTEXT(r.what << " " << r.ms << " ms: " << r.response.Summary()) {
      BOOST_TEST(r.response.status == 503);
      BOOST_TEST(r.ms < 1000);
      BOOST_TEST(r.response.Header("retry-after") == "1");
      rapidjson::Document body = it::JsonOf(r.response);
      if (!body.IsObject() || !body.HasMember("checks")) continue;
      BOOST_TEST(it::StringMember(body, "status") == "unavailable");
      BOOST_TEST(it::StringMember(body, "error") == "DATABASE_UNAVAILABLE");
      BOOST_TEST(it::StringMember(body["checks"], "postgres") == "unavailable");
      BOOST_TEST(it::StringMember(body["checks"], "redis") == "ok");  // what it knows of the rest
    }
  }
  for (const Timed& r : cached) expect(r, 200, "", 1000);
  for (const Timed& r : database) expect(r, 503, "DATABASE_UNAVAILABLE", database_bound_ms);
  // Not a review: the API server applies the webhook's failurePolicy (docs/admission.md).
  for (const Timed& r : admission) expect(r, 503, "DATABASE_UNAVAILABLE", 3000);

  // Thawed (and status ok): the same workers answer again, each after at most its second of
  // "unavailable" (kUnavailableFor).
  it::Response first;
  BOOST_TEST(it::WaitFor([&] { return (first = it::Get("/v1/images?limit=3", it::Bearer(catalog_key))).status == 200; },
                         std::chrono::seconds(10), std::chrono::milliseconds(250)),
             first.Summary());
  auto answers_again = [](const std::function<it::Response()>& send, long expected) {
    it::Response r;
    bool ok = it::WaitFor([&] { return (r = send()).status == expected; }, std::chrono::seconds(5), std::chrono::milliseconds(250));
    BOOST_TEST(ok, r.Summary());
  };
  answers_again([&] { return it::Get("/api/docker-images", t.As(t.viewer)); }, 200);
  answers_again([&] { return it::Get("/v1/cve/CVE-2021-44228", it::Bearer(vulns_key)); }, 200);
  answers_again([&] { return it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "CVE-2021-44228"})"); }, 201);
  answers_again([&] { return it::PostReview(admission_key, review); }, 200);
  it::ExpectJson200(it::Get(cached_url, it::Bearer(catalog_key)));
  for (const auto& [group, before] : workers) {
    BOOST_TEST(ToString(it::WorkerPids(group)) == ToString(before), group << " workers were replaced");
  }
  // The dispatcher waited with deadlines too, and beats again (status "ok" above): the same process.
  BOOST_TEST(it::PoolParentPid("dispatcher") == dispatcher);
  BOOST_TEST(kill(dispatcher, 0) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
