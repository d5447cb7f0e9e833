// Two nodes on one Postgres and Redis behave as one: a change made through node A (the test stack)
// is seen by the very next request on node B (tools/stack node), the per-key rate limit and the
// login limits count over both, and an event outlives the dispatcher of the node that made it.
#include <signal.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <memory>
#include <thread>

#include "admission_support.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "portal_support.hpp"
#include "receiver.hpp"
#include "scans_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// Enough requests for every worker of a pool to have answered (and cached) at least once.
constexpr int kRounds = 12;

// Node B: its own nginx, pools, dispatcher and icat-metrics in a directory of its own, on the test
// stack's Postgres and Redis; stopped, and its directory removed, by the destructor.
class SecondNode {
 public:
  SecondNode() {
    char dir[] = "/tmp/icat-node.XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    dir_ = dir;
    std::filesystem::permissions(dir_, std::filesystem::perms(0755));  // nginx's workers reach its sockets
    const std::string stack = it::GetEnv().repo + "/tools/stack";
    it::ProcessResult ports = it::RunProcess({stack, "free-port", "3"});
    std::istringstream list(ports.out);
    std::string http, https, metrics;
    list >> http >> https >> metrics;
    // The test stack's ports are in this environment; the node's are its own.
    it::ProcessResult started = it::RunProcess({"env", "ICAT_HTTP_PORT=" + http, "ICAT_HTTPS_PORT=" + https,
                                                "ICAT_METRICS_PORT=" + metrics, stack, "node", dir_,
                                                it::GetEnv().stack_dir});
    if (started.exit_code != 0) {
      Stop();
      throw std::runtime_error("tools/stack node failed: " + started.err);
    }
    base_url_ = "http://127.0.0.1:" + http;
  }
  ~SecondNode() { Stop(); }
  SecondNode(const SecondNode&) = delete;
  SecondNode& operator=(const SecondNode&) = delete;

  const std::string& base_url() const { return base_url_; }
  const std::string& dir() const { return dir_; }
  // tests/stack COMMAND on this node's directory (dispatcher-stop, dispatcher-start); never throws,
  // so destructors may call it.
  void Stack(const std::string& command) const {
    it::ProcessResult r = it::RunProcess({it::GetEnv().repo + "/tests/stack", command, dir_});
    BOOST_TEST(r.exit_code == 0, "tests/stack " << command << " " << dir_ << ": " << r.err);
  }

 private:
  void Stop() {
    it::RunProcess({it::GetEnv().repo + "/tools/stack", "stop", dir_});
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string dir_, base_url_;
};

// Node B for the whole suite (it::SuiteServer).
using NodeB = it::SuiteServer<SecondNode>;

SecondNode& B() { return NodeB::Started("node B"); }

// Runs `send` with its requests to a path sent to node B.
template <typename Send>
auto OnB(Send send) {
  it::RequestsTo b(B().base_url());
  return send();
}

// GETs url on node B kRounds times, each answered `status`; returns how many were cache hits.
int RoundsOnB(const std::string& url, const std::string& key, long status) {
  int hits = 0;
  for (int i = 0; i < kRounds; i++) {
    it::Response r = OnB([&] { return it::Get(url, it::Bearer(key)); });
    BOOST_TEST_REQUIRE(r.status == status, "node B, round " << i << ", " << url << ": " << r.Summary());
    hits += r.Header("cache-status") == "icat; hit";
  }
  return hits;
}

bool ListsImage(const rapidjson::Document& list, const std::string& image_id) {
  for (const rapidjson::Value& image : list["images"].GetArray()) {
    if (it::StringMember(image, "id") == image_id) return true;
  }
  return false;
}

// The dispatcher of node A (the test stack) killed with SIGKILL, as when its node dies; started
// again by the destructor.
class KilledDispatcherOfA {
 public:
  KilledDispatcherOfA() : pid_(it::PoolParentPid("dispatcher")) {
    BOOST_TEST(kill(pid_, SIGKILL) == 0);
    // Until the kernel has reaped it, it might still be sending.
    BOOST_TEST(it::WaitFor([&] { return !Alive(); }, 5s), "the dispatcher outlived SIGKILL");
  }
  ~KilledDispatcherOfA() {
    try {
      it::Stack("dispatcher-start");
    } catch (const std::exception& e) {
      BOOST_ERROR("could not start node A's dispatcher again: " << e.what());
    }
  }
  KilledDispatcherOfA(const KilledDispatcherOfA&) = delete;
  KilledDispatcherOfA& operator=(const KilledDispatcherOfA&) = delete;

 private:
  // Gone or a zombie (tools/stack's spawn leaves no parent that reaps it at once).
  bool Alive() const {
    std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    size_t paren = line.rfind(')');
    return paren != std::string::npos && line.size() > paren + 2 && line[paren + 2] != 'Z';
  }
  pid_t pid_;
};

// A ping subscription made through node A's portal; returns its id.
std::string SubscribeToPings(const it::PortalTenant& t, const it::Receiver& receiver) {
  it::Response r = it::Send("POST", "/api/webhooks", t.As(t.admin),
                            R"({"url": )" + it::Quote(receiver.Url()) + R"(, "events": ["ping"]})");
  BOOST_TEST_REQUIRE(r.status == 201, r.Summary());
  return it::StringMember(it::JsonOf(r), "id");
}

std::string Ping(const it::PortalTenant& t, const std::string& hook_id) {
  it::Response r = it::Send("POST", "/api/webhooks/" + hook_id + "/ping", t.As(t.admin));
  BOOST_TEST_REQUIRE(r.status == 202, r.Summary());
  return r.body;
}

std::string WebhookId(const it::ReceivedRequest& r) {
  auto found = r.headers.find("webhook-id");
  return found == r.headers.end() ? "" : found->second;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nodes, *boost::unit_test::fixture<NodeB>())

BOOST_AUTO_TEST_CASE(a_key_revoked_on_one_node_is_refused_by_the_next_request_on_the_other) {
  it::PortalTenant t;
  it::PortalKey key = it::CreatePortalKey(t);
  RoundsOnB("/v1/images", key.secret, 200);
  // Only node B has seen the key: the live entry in the shared Redis is its.
  auto entry = it::RedisCommand({"GET", icat::ApiKeyCacheKey(icat::Sha256Hex(key.secret))});
  BOOST_TEST_REQUIRE((entry && entry->type == icat::RedisReply::Type::kString && entry->text.rfind("key|", 0) == 0),
                     "node B left no live entry for the key in Redis");
  it::Response revoke = it::Send("DELETE", "/api/api-keys/" + key.id, t.As(t.admin));
  BOOST_TEST_REQUIRE(revoke.status == 204, revoke.Summary());
  RoundsOnB("/v1/images", key.secret, 401);
}

// The revoke the issue measured, on two nodes: the live entry node B filled stays in a Redis that
// hangs (SIGSTOP) through the revoke. Both nodes refuse the key from the 204 on, during the stall
// and after it, when Redis hands the live entry back: node B heard of the revoke from Postgres.
BOOST_AUTO_TEST_CASE(a_key_revoked_during_a_redis_stall_is_refused_on_both_nodes_and_never_served_again) {
  it::PortalTenant t;
  it::PortalKey key = it::CreatePortalKey(t);
  RoundsOnB("/v1/images", key.secret, 200);
  const std::string cache_key = icat::ApiKeyCacheKey(icat::Sha256Hex(key.secret));
  auto entry = it::RedisCommand({"GET", cache_key});
  BOOST_TEST_REQUIRE((entry && entry->text.rfind("key|", 0) == 0), "node B left no live entry for the key in Redis");
  const std::vector<std::string> both = {it::GetEnv().base_url, B().base_url()};
  {
    it::StalledRedis stalled;
    it::Response revoke = it::Send("DELETE", "/api/api-keys/" + key.id, t.As(t.admin));
    BOOST_TEST(revoke.status == 204, revoke.Summary());
    for (const std::string& reply : it::RepliesNotRefused(key.secret, 3s, both))
      BOOST_ERROR("during the stall " << reply);
    stalled.Resume();
  }
  // Whether or not the tombstone the handler sent ran when Redis woke, the worst case is the live entry.
  BOOST_TEST_REQUIRE(it::RedisCommand({"SET", cache_key, entry->text, "EX", "300"}).has_value());
  for (const std::string& reply : it::RepliesNotRefused(key.secret, 6s, both)) BOOST_ERROR("after the stall " << reply);
}

BOOST_AUTO_TEST_CASE(a_licence_revoke_and_grant_change_the_list_on_the_other_node_at_once) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("nodes-licence", {{"1.0"}});
  std::string key = tenant.CreateKey();
  BOOST_TEST_REQUIRE(RoundsOnB("/v1/images", key, 200) > 0, "node B never answered the list from its cache");
  it::IcatctlOk({"license", "revoke", "--tenant", tenant.subdomain(), "--image", image.name});
  for (int i = 0; i < kRounds; i++) {
    rapidjson::Document list = it::ExpectJson200(OnB([&] { return it::Get("/v1/images", it::Bearer(key)); }));
    BOOST_TEST_REQUIRE(!ListsImage(list, image.id), "round " << i << " on node B still lists the revoked image");
  }
  tenant.License(image);
  for (int i = 0; i < kRounds; i++) {
    rapidjson::Document list = it::ExpectJson200(OnB([&] { return it::Get("/v1/images", it::Bearer(key)); }));
    BOOST_TEST_REQUIRE(ListsImage(list, image.id), "round " << i << " on node B misses the granted image");
  }
}

BOOST_AUTO_TEST_CASE(a_scan_ingested_shows_in_the_detail_on_the_other_node_at_once) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("nodes-scan", {{"1.0"}});
  std::string key = tenant.CreateKey();
  const std::string detail = "/v1/images/" + image.id;
  BOOST_TEST_REQUIRE(RoundsOnB(detail, key, 200) > 0, "node B never answered the detail from its cache");
  rapidjson::Document before = it::ExpectJson200(OnB([&] { return it::Get(detail, it::Bearer(key)); }));
  BOOST_TEST_REQUIRE(it::StringMember(before, "scanStatus") == "unscanned");
  // Trivy's fluentd scan (CVE-2019-18224 and CVE-2020-8165) of the version, with its CycloneDX SBOM.
  it::IngestOk({image.name, "1.0", image.versions[0].digest,
                it::Fixture("scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json"),
                std::nullopt,
                it::Fixture("sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json"),
                image.repository, std::nullopt, {}});
  for (int i = 0; i < kRounds; i++) {
    rapidjson::Document after = it::ExpectJson200(OnB([&] { return it::Get(detail, it::Bearer(key)); }));
    BOOST_TEST_REQUIRE(it::StringMember(after, "scanStatus") == "scanned", "round " << i << " on node B");
  }
}

BOOST_AUTO_TEST_CASE(an_admission_policy_saved_on_one_node_decides_the_next_review_on_the_other) {
  it::PortalTenant t;
  std::string key = t.tenant.CreateKey("admission");
  it::Image image = t.tenant.AddImage("nodes-policy", {{"1.0"}});
  it::InsertLatestScan(image.versions[0].id, {});  // scanned clean: requireScan passes
  const std::string reference = image.repository + ":1.0";
  auto review_on_b = [&] {
    std::string uid = "uid-" + it::RandomSuffix(8);
    return it::ExpectAnswer(OnB([&] { return it::PostReview(key, it::PodReview(uid, reference)); }), uid);
  };
  for (int i = 0; i < kRounds; i++) BOOST_TEST_REQUIRE(review_on_b().allowed, "review " << i << " before");
  it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireDigest": true})"));
  for (int i = 0; i < kRounds; i++) BOOST_TEST_REQUIRE(!review_on_b().allowed, "review " << i << " after");
}

BOOST_AUTO_TEST_CASE(requests_split_over_both_nodes_count_against_one_per_key_limit) {
  it::Tenant tenant;
  const long limit = it::GetEnv().rate_limit_per_minute;
  std::string key = tenant.CreateKey();
  it::WaitUntilWorkersUseRedis(tenant.CreateKey());  // a worker that met a Redis outage counts nothing
  // Start early in a window, so the whole burst falls into one.
  std::optional<it::RateLimitHeader> probe = it::ParseRateLimit(it::Get("/v1/images", it::Bearer(key)).Header("ratelimit"));
  BOOST_TEST_REQUIRE(probe.has_value());
  if (probe->reset < 20) std::this_thread::sleep_for(std::chrono::seconds(probe->reset + 1));
  key = tenant.CreateKey();
  for (long i = 1; i <= limit; i++) {
    it::Response r = i % 2 ? it::Get("/v1/images", it::Bearer(key)) : OnB([&] { return it::Get("/v1/images", it::Bearer(key)); });
    BOOST_TEST_REQUIRE(r.status == 200, "request " << i << " of " << limit << " (node " << (i % 2 ? "A" : "B") << "): " << r.Summary());
    std::optional<it::RateLimitHeader> header = it::ParseRateLimit(r.Header("ratelimit"));
    BOOST_TEST_REQUIRE(header.has_value(), "request " << i << ": " << r.Summary());
    BOOST_TEST_REQUIRE(header->remaining == limit - i, "request " << i << " (node " << (i % 2 ? "A" : "B") << ")");
  }
  it::ExpectError(it::Get("/v1/images", it::Bearer(key)), 429, "RATE_LIMITED");
  it::ExpectError(OnB([&] { return it::Get("/v1/images", it::Bearer(key)); }), 429, "RATE_LIMITED");
}

BOOST_AUTO_TEST_CASE(login_attempts_from_one_address_over_both_nodes_count_against_one_limit) {
  it::PortalTenant t;
  const std::string ip = it::RandomClientIp();
  for (int i = 1; i <= 5; i++) {  // ICAT_LOGIN_LIMIT_IP_ATTEMPTS, the default
    auto attempt = [&] { return it::Login(t.subdomain(), "nobody@x.test", "wrong", ip); };
    it::Response r = i % 2 ? attempt() : OnB(attempt);
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.Summary());
  }
  it::ExpectError(OnB([&] { return it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip); }), 429,
                  "RATE_LIMITED");
  it::ExpectError(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip), 429, "RATE_LIMITED");
}

BOOST_AUTO_TEST_CASE(failed_logins_of_an_account_over_both_nodes_count_against_one_limit) {
  it::PortalTenant t;
  for (int i = 1; i <= 10; i++) {  // ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES, the default; each from its own address
    auto attempt = [&] { return it::Login(t.subdomain(), t.user.email, "wrong " + std::to_string(i)); };
    it::Response r = i % 2 ? attempt() : OnB(attempt);
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.Summary());
  }
  it::ExpectError(OnB([&] { return it::Login(t.subdomain(), t.user.email); }), 429, "RATE_LIMITED");
  it::ExpectError(it::Login(t.subdomain(), t.user.email), 429, "RATE_LIMITED");
}

BOOST_AUTO_TEST_CASE(an_event_made_while_one_nodes_dispatcher_is_dead_is_delivered_by_the_other) {
  it::PortalTenant t;
  it::Receiver receiver;
  std::string hook = SubscribeToPings(t, receiver);
  KilledDispatcherOfA dead;
  Ping(t, hook);  // through node A: the event is in Postgres' outbox, whichever dispatcher is alive
  std::vector<it::ReceivedRequest> got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u, "node B's dispatcher did not deliver the event");
  BOOST_TEST(!WebhookId(got[0]).empty());
}

BOOST_AUTO_TEST_CASE(a_delivery_in_flight_on_a_node_that_dies_is_sent_again_by_the_other) {
  it::PortalTenant t;
  it::Receiver receiver;
  receiver.DelayNext(1500ms);  // node A's delivery is in flight long enough to kill its sender
  std::string hook = SubscribeToPings(t, receiver);
  B().Stack("dispatcher-stop");  // so node A's dispatcher is the one that claims it
  struct StartAgain {
    ~StartAgain() { B().Stack("dispatcher-start"); }
  } start_b_again;
  Ping(t, hook);
  BOOST_TEST_REQUIRE(receiver.WaitFor(1, 15s).size() == 1u);
  {
    KilledDispatcherOfA dead;
    B().Stack("dispatcher-start");
    std::vector<it::ReceivedRequest> got = receiver.WaitFor(2, 30s);  // after the claim's lease runs out
    BOOST_TEST_REQUIRE(got.size() >= 2u, "node B's dispatcher did not send the event again");
    BOOST_TEST(WebhookId(got[1]) == WebhookId(got[0]));
  }
}

BOOST_AUTO_TEST_SUITE_END()
