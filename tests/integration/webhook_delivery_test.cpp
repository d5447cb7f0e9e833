// icat-dispatcher against real receivers: signed, chosen, isolated, retried, disabled on 410,
// kept away from refused addresses, at least once across a SIGKILL; and fair: a held receiver
// delays neither another tenant nor another subscription, and a subscription at its limit waits.
#include <boost/test/unit_test.hpp>
#include <signal.h>
#include <sys/wait.h>

#include <thread>

#include "icat/crypto.hpp"
#include "receiver.hpp"
#include "scans_support.hpp"
#include "support.hpp"

using namespace icat::test;
using namespace std::chrono_literals;

namespace {

struct Webhook {
  std::string id, secret;
};

// A subscription written straight into the table: these tests are about delivery, and the
// refused-address case needs a URL the portal would not accept.
Webhook Subscribe(const Tenant& tenant, const std::string& url, const std::string& events) {
  std::string secret = "whsec_" + icat::Base64Encode(icat::RandomBytes(32));
  auto rows = PgQuery("INSERT INTO webhooks (tenant_id, url, events, secret) VALUES ($1, $2, $3::text[], $4) RETURNING id",
                      {tenant.id(), url, "{" + events + "}", secret});
  return {*rows.at(0).at(0), secret};
}

// An outbox event as ingest writes it; returns its id.
std::string Emit(const Tenant& tenant, const std::string& type) {
  auto rows = PgQuery("INSERT INTO events (tenant_id, type, payload) VALUES ($1, $2, $3::jsonb) RETURNING id",
                      {tenant.id(), type, EventData(type)});
  return *rows.at(0).at(0);
}

struct DeliveryRow {
  std::string state;
  int attempts = 0;
  std::optional<std::string> last_status, last_error;
};

std::optional<DeliveryRow> DeliveryOf(const Webhook& webhook) {
  auto rows = PgQuery("SELECT state, attempts, last_status, last_error FROM deliveries WHERE webhook_id = $1",
                      {webhook.id});
  if (rows.empty()) return std::nullopt;
  return DeliveryRow{*rows[0][0], std::stoi(*rows[0][1]), rows[0][2], rows[0][3]};
}

bool WaitForState(const Webhook& webhook, const std::string& state, std::chrono::milliseconds timeout) {
  return WaitFor([&] { auto d = DeliveryOf(webhook); return d && d->state == state; }, timeout);
}

std::string Header(const ReceivedRequest& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
}

// Checks the Standard Webhooks signature the way a receiver would.
void ExpectSigned(const ReceivedRequest& r, const Webhook& webhook, const std::string& event_id) {
  BOOST_TEST(Header(r, "webhook-id") == event_id);
  std::string timestamp = Header(r, "webhook-timestamp");
  BOOST_TEST_REQUIRE(!timestamp.empty());
  BOOST_TEST(std::abs(std::stoll(timestamp) - std::time(nullptr)) < 60);
  std::string key = *icat::Base64Decode(webhook.secret.substr(6));
  std::string expected = "v1," + icat::Base64Encode(icat::HmacSha256(key, event_id + "." + timestamp + "." + r.body));
  BOOST_TEST(Header(r, "webhook-signature") == expected);
  BOOST_TEST(Header(r, "content-type") == "application/json");
}

pid_t DispatcherPid() { return PoolParentPid("dispatcher"); }

// A catalogue image licensed to the tenant, then a real scan of it ingested: Trivy's fluentd
// image scan with its CycloneDX SBOM (findings CVE-2019-18224 and CVE-2020-8165).
void IngestLicensedScan(Tenant& tenant) {
  Image image = CreateImage("hook");
  tenant.License(image);
  IngestOk({image.name, "1.0", RandomDigest(),
            Fixture("scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json"), std::nullopt,
            Fixture("sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json"),
            image.repository, std::nullopt, {}});
}

std::vector<std::string> TypesOf(const std::vector<ReceivedRequest>& requests) {
  std::vector<std::string> types;
  for (const auto& r : requests) {
    rapidjson::Document body;
    body.Parse(r.body.c_str());
    types.push_back(body.IsObject() && body.HasMember("type") ? body["type"].GetString() : "?");
  }
  return types;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(webhook_delivery)

BOOST_AUTO_TEST_CASE(event_reaches_its_subscription_once_signed_with_the_documented_body) {
  Tenant tenant;
  Receiver receiver;
  Webhook webhook = Subscribe(tenant, receiver.Url(), "scan.completed");
  std::string event_id = Emit(tenant, "scan.completed");
  auto got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  ExpectSigned(got[0], webhook, event_id);
  BOOST_TEST(got[0].method == "POST");
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST_REQUIRE(body.IsObject());
  BOOST_TEST(StringMember(body, "id") == event_id);
  BOOST_TEST(StringMember(body, "type") == "scan.completed");
  BOOST_TEST(ParseRfc3339(StringMember(body, "createdAt")).has_value());
  BOOST_TEST(StringMember(body["data"]["version"], "tag") == "1.0");
  BOOST_TEST(WaitForState(webhook, "succeeded", 5s));
  std::this_thread::sleep_for(2s);
  BOOST_TEST(receiver.Received().size() == 1u);  // exactly once
}

BOOST_AUTO_TEST_CASE(events_a_subscription_did_not_choose_are_not_sent) {
  Tenant tenant;
  Receiver chose_it, did_not;
  Subscribe(tenant, chose_it.Url(), "scan.completed");
  Subscribe(tenant, did_not.Url(), "vulnerability.fixed,cve_watch.matched");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(chose_it.WaitFor(1, 15s).size() == 1u);
  std::this_thread::sleep_for(2s);
  BOOST_TEST(did_not.Received().empty());
}

BOOST_AUTO_TEST_CASE(other_tenants_subscriptions_get_nothing) {
  Tenant a, b;
  Receiver for_a, for_b;
  Subscribe(a, for_a.Url(), "scan.completed");
  Subscribe(b, for_b.Url(), "scan.completed");
  Emit(a, "scan.completed");
  BOOST_TEST_REQUIRE(for_a.WaitFor(1, 15s).size() == 1u);
  std::this_thread::sleep_for(2s);
  BOOST_TEST(for_b.Received().empty());
}

BOOST_AUTO_TEST_CASE(receiver_failing_twice_gets_the_event_on_the_third_attempt) {
  Tenant tenant;
  Receiver receiver;
  receiver.Script({500, 503});
  Webhook webhook = Subscribe(tenant, receiver.Url(), "scan.completed");
  std::string event_id = Emit(tenant, "scan.completed");
  auto got = receiver.WaitFor(3, 30s);
  BOOST_TEST_REQUIRE(got.size() == 3u);
  for (const auto& r : got) BOOST_TEST(Header(r, "webhook-id") == event_id);  // stable across retries
  BOOST_TEST(got[0].body == got[2].body);
  ExpectSigned(got[2], webhook, event_id);
  BOOST_TEST_REQUIRE(WaitForState(webhook, "succeeded", 5s));
  BOOST_TEST(DeliveryOf(webhook)->attempts == 3);
  BOOST_TEST(DeliveryOf(webhook)->last_status.value_or("none") == "200");
}

BOOST_AUTO_TEST_CASE(delivery_fails_when_the_schedule_is_spent) {
  Tenant tenant;
  Receiver receiver;
  receiver.Script({500, 500, 500, 500});
  Webhook webhook = Subscribe(tenant, receiver.Url(), "scan.completed");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(WaitForState(webhook, "failed", 30s));
  auto row = DeliveryOf(webhook);
  BOOST_TEST(row->attempts == 3);  // the first and one per entry of the test schedule "1,1"
  BOOST_TEST(row->last_status.value_or("none") == "500");
  BOOST_TEST(receiver.Received().size() == 3u);
}

BOOST_AUTO_TEST_CASE(gone_410_disables_the_subscription) {
  Tenant tenant;
  Receiver receiver;
  receiver.Script({410});
  Webhook webhook = Subscribe(tenant, receiver.Url(), "scan.completed,vulnerability.fixed");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(WaitForState(webhook, "failed", 15s));
  auto active = PgQuery("SELECT active, disabled_reason FROM webhooks WHERE id = $1", {webhook.id});
  BOOST_TEST(*active[0][0] == "f");
  BOOST_TEST(active[0][1].has_value());
  Emit(tenant, "vulnerability.fixed");  // a disabled subscription gets nothing more
  std::this_thread::sleep_for(2s);
  BOOST_TEST(receiver.Received().size() == 1u);
}

BOOST_AUTO_TEST_CASE(url_resolving_to_a_refused_address_is_not_contacted) {
  Tenant tenant;
  Receiver refused("127.0.0.2");  // loopback outside the test's allow-list (127.0.0.1/32)
  Webhook webhook = Subscribe(tenant, refused.Url(), "scan.completed");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(WaitFor([&] { auto d = DeliveryOf(webhook); return d && d->attempts >= 1; }, 15s));
  auto row = DeliveryOf(webhook);
  BOOST_TEST_REQUIRE(row->last_error.has_value());
  BOOST_TEST(row->last_error->find("not sent") != std::string::npos, *row->last_error);
  BOOST_TEST(!row->last_status.has_value());
  std::this_thread::sleep_for(3s);  // the retries are refused too
  BOOST_TEST(refused.Received().empty());
}

BOOST_AUTO_TEST_CASE(delivery_in_flight_when_the_dispatcher_is_killed_is_sent_again_after_restart) {
  Tenant tenant;
  Receiver receiver;
  receiver.DelayNext(1500ms);  // the first delivery is in flight long enough to kill the sender
  Webhook webhook = Subscribe(tenant, receiver.Url(), "scan.completed");
  std::string event_id = Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(receiver.WaitFor(1, 15s).size() == 1u);
  pid_t pid = DispatcherPid();
  BOOST_TEST_REQUIRE(pid > 0);
  BOOST_TEST_REQUIRE(kill(pid, SIGKILL) == 0);
  Stack("dispatcher-start");
  auto got = receiver.WaitFor(2, 30s);  // after the claim's lease (2 * timeout + 5 s) runs out
  BOOST_TEST_REQUIRE(got.size() >= 2u);
  BOOST_TEST(Header(got[1], "webhook-id") == event_id);
  BOOST_TEST(WaitForState(webhook, "succeeded", 10s));
  BOOST_TEST(DispatcherPid() != pid);
}

BOOST_AUTO_TEST_CASE(ingested_scan_gives_each_subscription_exactly_one_signed_scan_completed) {
  Tenant tenant;
  Receiver first, second;
  Webhook hook1 = Subscribe(tenant, first.Url(), "scan.completed");
  Webhook hook2 = Subscribe(tenant, second.Url(), "scan.completed,ping");
  IngestLicensedScan(tenant);
  auto got1 = first.WaitFor(1, 15s);
  auto got2 = second.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got1.size() == 1u);
  BOOST_TEST_REQUIRE(got2.size() == 1u);
  BOOST_TEST(TypesOf(got1) == std::vector<std::string>{"scan.completed"});
  std::string event_id = Header(got1[0], "webhook-id");
  ExpectSigned(got1[0], hook1, event_id);
  ExpectSigned(got2[0], hook2, event_id);  // one event, one delivery per subscription
  std::this_thread::sleep_for(2s);
  BOOST_TEST(first.Received().size() == 1u);
  BOOST_TEST(second.Received().size() == 1u);
}

BOOST_AUTO_TEST_CASE(watched_cve_appearing_on_a_licensed_image_gives_cve_watch_matched) {
  Tenant tenant;
  Receiver receiver;
  Webhook webhook = Subscribe(tenant, receiver.Url(), "cve_watch.matched");
  PgQuery("INSERT INTO cve_watches (tenant_id, cve_id) VALUES ($1, 'CVE-2019-18224')", {tenant.id()});
  IngestLicensedScan(tenant);
  auto got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST_REQUIRE(body.IsObject());
  BOOST_TEST(StringMember(body, "type") == "cve_watch.matched");
  BOOST_TEST(StringMember(body["data"], "cveId") == "CVE-2019-18224");
  ExpectSigned(got[0], webhook, StringMember(body, "id"));
  std::this_thread::sleep_for(2s);
  BOOST_TEST(receiver.Received().size() == 1u);  // the other finding is not watched
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// The stack's dispatcher stopped and the test's own running in its place: its receiver timeout is
// far beyond every wait of these tests, so a held receiver holds its delivery for exactly as long
// as the test wants, and `settings` (NAME=value) are added to the stack's. The stack's dispatcher
// comes back at the end. Declare it before the receivers: they release their holds first.
class OwnDispatcher {
 public:
  explicit OwnDispatcher(const std::vector<std::string>& settings = {}) {
    Stack("dispatcher-stop");
    std::vector<std::string> argv = {"/usr/bin/env", "ICAT_WEBHOOK_TIMEOUT_SECONDS=60"};
    argv.insert(argv.end(), settings.begin(), settings.end());
    argv.push_back(GetEnv().bin_dir + "/icat-dispatcher");
    pid_ = SpawnQuiet(argv);
  }
  ~OwnDispatcher() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    try {
      Stack("dispatcher-start");
    } catch (const std::exception& e) {
      BOOST_ERROR(e.what());
    }
  }
  OwnDispatcher(const OwnDispatcher&) = delete;
  OwnDispatcher& operator=(const OwnDispatcher&) = delete;

 private:
  pid_t pid_ = 0;
};

// Whether the dispatcher has claimed the event's delivery (a claim moves next_attempt_at past now).
bool Claimed(const std::string& event_id) {
  auto rows = PgQuery("SELECT next_attempt_at > now() FROM deliveries WHERE event_id = $1", {event_id});
  return !rows.empty() && *rows[0][0] == "t";
}

// Two events of another tenant, the second written after the first arrived: the claim of the
// second began after a whole round of claims, which saw every delivery due before this call.
void RoundsPassed(const Tenant& other_tenant, Receiver& its_receiver) {
  size_t before = its_receiver.Received().size();
  Emit(other_tenant, "scan.completed");
  BOOST_TEST_REQUIRE(its_receiver.WaitFor(before + 1, 15s).size() == before + 1);
  Emit(other_tenant, "scan.completed");
  BOOST_TEST_REQUIRE(its_receiver.WaitFor(before + 2, 15s).size() == before + 2);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(webhook_fairness)

BOOST_AUTO_TEST_CASE(held_receiver_of_one_tenant_does_not_delay_another_tenants_delivery) {
  OwnDispatcher dispatcher;
  Tenant slow_tenant, other_tenant;
  Receiver slow, fast;
  slow.HoldNext();
  Webhook held = Subscribe(slow_tenant, slow.Url(), "scan.completed");
  Subscribe(other_tenant, fast.Url(), "scan.completed");
  Emit(slow_tenant, "scan.completed");
  BOOST_TEST_REQUIRE(slow.WaitFor(1, 15s).size() == 1u);  // in flight, and held there
  Emit(other_tenant, "scan.completed");
  BOOST_TEST(fast.WaitFor(1, 15s).size() == 1u);
  BOOST_TEST(DeliveryOf(held)->attempts == 0);  // still unanswered when the other tenant's arrived
  slow.Release();
  BOOST_TEST(WaitForState(held, "succeeded", 10s));
}

BOOST_AUTO_TEST_CASE(held_receiver_does_not_delay_another_subscription_of_the_same_tenant) {
  OwnDispatcher dispatcher;
  Tenant tenant;
  Receiver slow, fast;
  slow.HoldNext();
  Webhook held = Subscribe(tenant, slow.Url(), "scan.completed");
  Webhook other = Subscribe(tenant, fast.Url(), "vulnerability.fixed");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(slow.WaitFor(1, 15s).size() == 1u);
  Emit(tenant, "vulnerability.fixed");
  BOOST_TEST(fast.WaitFor(1, 15s).size() == 1u);
  BOOST_TEST(DeliveryOf(held)->attempts == 0);
  BOOST_TEST(WaitForState(other, "succeeded", 10s));
  slow.Release();
  BOOST_TEST(WaitForState(held, "succeeded", 10s));
}

BOOST_AUTO_TEST_CASE(tenant_at_its_limit_gets_its_next_delivery_only_after_the_held_one) {
  OwnDispatcher dispatcher({"ICAT_WEBHOOK_CONCURRENCY_PER_TENANT=1"});
  Tenant tenant, other_tenant;
  Receiver slow, second_hook, fast;
  slow.HoldNext();
  Webhook held = Subscribe(tenant, slow.Url(), "scan.completed");
  Webhook waiting = Subscribe(tenant, second_hook.Url(), "vulnerability.fixed");
  Subscribe(other_tenant, fast.Url(), "scan.completed");
  Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(slow.WaitFor(1, 15s).size() == 1u);
  std::string second = Emit(tenant, "vulnerability.fixed");
  BOOST_TEST_REQUIRE(WaitFor([&] { return DeliveryOf(waiting).has_value(); }, 15s));
  RoundsPassed(other_tenant, fast);
  BOOST_TEST(!Claimed(second));
  BOOST_TEST(second_hook.Received().empty());
  slow.Release();
  BOOST_TEST(second_hook.WaitFor(1, 15s).size() == 1u);
  BOOST_TEST(WaitForState(held, "succeeded", 10s));
}

BOOST_AUTO_TEST_CASE(subscription_at_its_limit_gets_its_next_delivery_only_after_the_held_one) {
  OwnDispatcher dispatcher({"ICAT_WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION=1"});
  Tenant tenant, other_tenant;
  Receiver slow, fast;
  slow.HoldNext();
  Webhook held = Subscribe(tenant, slow.Url(), "scan.completed");
  Subscribe(other_tenant, fast.Url(), "scan.completed");
  std::string first = Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(slow.WaitFor(1, 15s).size() == 1u);
  std::string second = Emit(tenant, "scan.completed");
  BOOST_TEST_REQUIRE(WaitFor([&] { return !PgQuery("SELECT 1 FROM deliveries WHERE event_id = $1", {second}).empty(); }, 15s));
  RoundsPassed(other_tenant, fast);
  BOOST_TEST(!Claimed(second));
  slow.Release();
  auto got = slow.WaitFor(2, 15s);
  BOOST_TEST_REQUIRE(got.size() == 2u);
  BOOST_TEST(Header(got[0], "webhook-id") == first);
  BOOST_TEST(Header(got[1], "webhook-id") == second);
}

BOOST_AUTO_TEST_SUITE_END()
