// Sign-in under load (docs/security.md, "Sign-in under load"), against the real stack: a flood of
// failed sign-ins from many addresses leaves another tenant's sign-in working within seconds; the
// password-hash gate answers a tenant at its share (429) and a full node (503) at once, counts every
// name that is no tenant as one, and gets back the place of a worker killed mid-hash; nginx limits
// the auth paths per client address (429 with Retry-After) before the pool sees them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <latch>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "portal_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view kWrongPassword = "not the password of anyone";

struct Timed {
  it::Response response;
  double seconds = 0;
};

Timed TimeOf(const std::function<it::Response()>& send) {
  auto start = std::chrono::steady_clock::now();
  it::Response r = send();
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

Timed TimedLogin(std::string_view tenant, std::string_view email, std::string_view password, const std::string& ip) {
  return TimeOf([&] { return it::LoginOnce(tenant, email, password, ip); });
}

// A setting of the stack: tests/run-tests' value, else the settings table's default.
int Setting(const char* name, int default_value) {
  const char* value = std::getenv(name);
  return value && *value ? std::atoi(value) : default_value;
}

// The auth pool's password hashes in progress, as its metrics show them.
int HashesInProgress() {
  const char* url = std::getenv("ICAT_METRICS_URL");
  BOOST_TEST_REQUIRE((url && *url), "ICAT_METRICS_URL is not set: the stack writes it into icat.env");
  it::Response page = it::Get(url);
  const std::string series = "icat_password_hashes_in_progress{group=\"auth\"} ";
  size_t at = page.body.find(series);
  BOOST_TEST_REQUIRE(at != std::string::npos, "no " << series << "on the metrics page");
  return std::atoi(page.body.c_str() + at + series.size());
}

char ProcessState(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(file, stat);
  size_t paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() ? '?' : stat[paren + 2];
}

// Sign-ins whose workers are stopped (SIGSTOP) while they hash, each holding its place in the
// gate. Whatever the test does, the destructor kills those workers (the pool's parent replaces
// them and gives their places back) and waits until the pool has all its workers again.
class HeldHashes {
 public:
  HeldHashes() : workers_(it::WorkerPids("auth").size()) {}
  ~HeldHashes() {
    KillAll();
    for (auto& login : logins_) login.wait();
  }
  HeldHashes(const HeldHashes&) = delete;
  HeldHashes& operator=(const HeldHashes&) = delete;

  // Starts a sign-in of tenant and stops the worker that hashes it once it holds its place.
  void Hold(const std::string& tenant, const std::string& email) {
    for (int attempt = 1; attempt <= 5; attempt++) {
      int before = HashesInProgress();
      logins_.push_back(std::async(std::launch::async, [tenant, email] {
        return it::LoginOnce(tenant, email, kWrongPassword, it::RandomClientIp());
      }));
      // The place is taken inside the gate's lock: a moment later the worker is hashing.
      if (!it::WaitFor([&] { return HashesInProgress() > before; }, 10s, 5ms)) continue;
      std::this_thread::sleep_for(20ms);
      std::vector<pid_t> hashing;
      for (pid_t pid : it::WorkerPids("auth")) {
        if (!stopped_.count(pid) && ProcessState(pid) == 'R') hashing.push_back(pid);
      }
      if (hashing.size() != 1) continue;  // it finished already, or something else runs: again
      kill(hashing[0], SIGSTOP);
      stopped_.insert(hashing[0]);
      it::WaitFor([&] { return ProcessState(hashing[0]) == 'T'; }, 2s, 5ms);
      if (HashesInProgress() > before) return;  // stopped while it holds its place
      kill(hashing[0], SIGCONT);                // stopped too late: its hash was over
      stopped_.erase(hashing[0]);
    }
    BOOST_FAIL("could not stop a worker while it hashed a sign-in of " << tenant);
  }

  // SIGKILL, as when a worker dies mid-hash; then the pool is whole again.
  void KillAll() {
    for (pid_t pid : stopped_) kill(pid, SIGKILL);
    // Gone first (their parent has reaped them), so the count below is of their replacements.
    BOOST_TEST(it::WaitFor(
        [&] {
          std::set<pid_t> workers = it::WorkerPids("auth");
          return std::none_of(stopped_.begin(), stopped_.end(), [&](pid_t pid) { return workers.count(pid) > 0; });
        },
        15s));
    stopped_.clear();
    BOOST_TEST(it::WaitFor([&] { return it::WorkerPids("auth").size() == workers_; }, 15s),
               "the auth pool has " << it::WorkerPids("auth").size() << " workers, not " << workers_
                                    << ", 15 s after its killed ones");
  }

 private:
  size_t workers_;
  std::set<pid_t> stopped_;
  std::vector<std::future<it::Response>> logins_;
};

// How many hashes the test stack's auth pool runs at once (hash_gate.hpp HashCapacity).
int Capacity() {
  int workers = static_cast<int>(it::WorkerPids("auth").size());
  return std::max(1, std::min(Setting("ICAT_PASSWORD_HASH_CONCURRENCY", 2), workers - 1));
}

// A refusal of the gate: at once, with its error and Retry-After: 1.
void ExpectGateRefusal(const Timed& answer, int status, std::string_view error) {
  BOOST_TEST_CONTEXT(answer.response.Summary()) {
    it::ExpectError(answer.response, status, error);
    BOOST_TEST(answer.response.Header("retry-after") == "1");
    BOOST_TEST(answer.seconds < 3.0, "answered after " << answer.seconds << " s, not at once");
  }
}

// A connection from address to nginx's plain HTTP port that has sent a login's headers and no body:
// nginx holds it as a request in progress until it closes.
class RequestInProgress {
 public:
  explicit RequestInProgress(const std::string& from) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    BOOST_TEST_REQUIRE(fd_ >= 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    inet_pton(AF_INET, from.c_str(), &local.sin_addr);
    BOOST_TEST_REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0, "bind: " << errno);
    const std::string& base = it::GetEnv().base_url;
    sockaddr_in nginx{};
    nginx.sin_family = AF_INET;
    nginx.sin_port = htons(static_cast<uint16_t>(std::stoi(base.substr(base.rfind(':') + 1))));
    nginx.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_TEST_REQUIRE(connect(fd_, reinterpret_cast<sockaddr*>(&nginx), sizeof nginx) == 0, "connect: " << errno);
    const std::string head =
        "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        "X-Tenant: nobody\r\nContent-Length: 100\r\n\r\n";
    BOOST_TEST_REQUIRE(send(fd_, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size()));
  }
  ~RequestInProgress() { close(fd_); }
  RequestInProgress(const RequestInProgress&) = delete;
  RequestInProgress& operator=(const RequestInProgress&) = delete;

 private:
  int fd_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(signin_load)

// The flood of issue 25: 80 failed sign-ins at once of one tenant, each from its own address (so
// the per-address limits never stop it) and for its own email (nor the per-account one). Without a
// gate every one of them was hashed, the other tenant's sign-in waited behind them and answered 504.
BOOST_AUTO_TEST_CASE(a_flood_from_80_addresses_leaves_another_tenants_sign_in_within_5_s) {
  it::PortalTenant flooded, other;
  std::latch start(1);
  std::vector<std::future<it::Response>> flood;
  for (int i = 0; i < 80; i++) {
    flood.push_back(std::async(std::launch::async, [&, i] {
      start.wait();
      return it::LoginOnce(flooded.subdomain(), "flood-" + std::to_string(i) + "@" + flooded.subdomain() + ".test",
                           kWrongPassword, "127.0.0." + std::to_string(2 + i));
    }));
  }
  start.count_down();
  std::this_thread::sleep_for(300ms);  // the flood is in the pool's queue first
  Timed valid = TimedLogin(other.subdomain(), other.user.email, it::kPortalPassword, "127.0.1.1");
  BOOST_TEST(valid.response.status == 200, valid.response.Summary());
  BOOST_TEST(valid.seconds < 5.0, "the valid sign-in took " << valid.seconds << " s");

  std::map<long, int> statuses;
  for (auto& answer : flood) {
    it::Response r = answer.get();
    statuses[r.status]++;
    BOOST_TEST_CONTEXT(r.Summary()) {
      BOOST_TEST((r.status == 401 || r.status == 429 || r.status == 503));
      if (r.status == 429 || r.status == 503) BOOST_TEST(r.Header("retry-after") == "1");
    }
  }
  std::ostringstream seen;
  for (const auto& [status, count] : statuses) seen << " " << count << " x " << status;
  BOOST_TEST_MESSAGE("valid sign-in: " << valid.seconds << " s; the flood:" << seen.str());
  BOOST_TEST(statuses[429] > 0, "the gate refused none of the flood:" << seen.str());
}

BOOST_AUTO_TEST_CASE(a_tenant_at_its_share_gets_429_and_a_full_node_503_at_once) {
  const int capacity = Capacity(), share = Setting("ICAT_PASSWORD_HASH_CONCURRENCY_PER_TENANT", 1);
  BOOST_TEST_REQUIRE(share < capacity, "the test needs a share below the node's capacity");
  std::vector<std::unique_ptr<it::PortalTenant>> tenants;
  for (int i = 0; i <= capacity; i++) tenants.push_back(std::make_unique<it::PortalTenant>());
  HeldHashes held;
  for (int i = 0; i < share; i++) held.Hold(tenants[0]->subdomain(), tenants[0]->user.email);
  ExpectGateRefusal(
      TimedLogin(tenants[0]->subdomain(), tenants[0]->admin.email, it::kPortalPassword, it::RandomClientIp()), 429,
      "RATE_LIMITED");
  // The node's other places, one tenant each: then a tenant with nothing running is refused too.
  for (int i = share; i < capacity; i++) held.Hold(tenants[i]->subdomain(), tenants[i]->user.email);
  const it::PortalTenant& last = *tenants[capacity];
  ExpectGateRefusal(TimedLogin(last.subdomain(), last.admin.email, it::kPortalPassword, it::RandomClientIp()), 503,
                    "SERVICE_UNAVAILABLE");
  // Set-up and password change pass the same gate.
  ExpectGateRefusal(TimeOf([&] {
                      return it::Send("POST", "/api/auth/password", last.As(last.viewer),
                                      R"({"currentPassword": "correct horse battery staple",)"
                                      R"( "newPassword": "a new one of the test"})");
                    }),
                    503, "SERVICE_UNAVAILABLE");
}

BOOST_AUTO_TEST_CASE(a_worker_killed_while_it_hashes_gives_its_place_back) {
  it::PortalTenant t;
  HeldHashes held;
  held.Hold(t.subdomain(), t.user.email);
  ExpectGateRefusal(TimedLogin(t.subdomain(), t.admin.email, it::kPortalPassword, it::RandomClientIp()), 429,
                    "RATE_LIMITED");
  held.KillAll();  // the pool's parent empties the dead worker's place
  BOOST_TEST(HashesInProgress() == 0);
  it::Response again = it::LoginOnce(t.subdomain(), t.admin.email, it::kPortalPassword, it::RandomClientIp());
  BOOST_TEST(again.status == 200, again.Summary());
}

// Made-up tenant names cannot each take a place of the node: they all count as one tenant.
BOOST_AUTO_TEST_CASE(names_that_are_no_tenant_share_one_share) {
  HeldHashes held;
  held.Hold("no-such-" + it::RandomSuffix(8), "someone@example.test");
  ExpectGateRefusal(
      TimedLogin("no-such-" + it::RandomSuffix(8), "someone@example.test", kWrongPassword, it::RandomClientIp()), 429,
      "RATE_LIMITED");
  it::PortalTenant real;  // a real tenant still has its place
  BOOST_TEST(it::LoginOnce(real.subdomain(), real.user.email).status == 200);
}

BOOST_AUTO_TEST_CASE(an_address_over_the_auth_rate_gets_nginx_429_with_retry_after) {
  const int limit = Setting("ICAT_AUTH_LIMIT_PER_MINUTE", 60);
  const std::string address = "127.0.3.1", other = "127.0.3.2";
  // limit_req lets `limit` through at once, then one every 60/limit s: 8 senders at once outrun it.
  std::vector<std::future<std::optional<it::Response>>> senders;
  for (int s = 0; s < 8; s++) {
    senders.push_back(std::async(std::launch::async, [&]() -> std::optional<it::Response> {
      for (int i = 0; i < (limit + 200) / 8; i++) {
        it::Response r = it::SendFrom(address, "GET", "/api/auth/me", {{"X-Tenant", "nobody"}});
        if (r.status == 429) return r;
      }
      return std::nullopt;
    }));
  }
  std::optional<it::Response> refused;
  for (auto& sender : senders) {
    std::optional<it::Response> r = sender.get();
    if (r) refused = r;
  }
  BOOST_TEST_REQUIRE(refused.has_value(), "no request over " << limit << " a minute was refused");
  it::ExpectError(*refused, 429, "RATE_LIMITED");
  BOOST_TEST(refused->Header("retry-after") == "1");
  BOOST_TEST(refused->body.find("from this address") != std::string::npos, refused->Summary());  // nginx's page
  // Another address is counted on its own.
  it::Response elsewhere = it::SendFrom(other, "GET", "/api/auth/me", {{"X-Tenant", "nobody"}});
  BOOST_TEST(elsewhere.status == 401, elsewhere.Summary());
}

BOOST_AUTO_TEST_CASE(an_address_with_too_many_requests_in_progress_gets_nginx_429) {
  const int in_flight = Setting("ICAT_AUTH_LIMIT_IN_FLIGHT", 10);
  const std::string address = "127.0.3.3";
  {
    std::vector<std::unique_ptr<RequestInProgress>> held;
    for (int i = 0; i < in_flight; i++) held.push_back(std::make_unique<RequestInProgress>(address));
    std::this_thread::sleep_for(200ms);  // nginx has read every request's headers
    it::Response refused = it::SendFrom(address, "GET", "/api/auth/me", {{"X-Tenant", "nobody"}});
    it::ExpectError(refused, 429, "RATE_LIMITED");
    BOOST_TEST(refused.Header("retry-after") == "1");
  }
  // Closed: the address has its places back.
  BOOST_TEST(it::WaitFor(
      [&] {
        return it::SendFrom(address, "GET", "/api/auth/me", {{"X-Tenant", "nobody"}}).status == 401;
      },
      5s));
}

BOOST_AUTO_TEST_SUITE_END()
