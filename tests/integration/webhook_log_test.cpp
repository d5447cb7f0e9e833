// The delivery log (GET /api/webhooks/:id/deliveries) and ping (POST /api/webhooks/:id/ping)
// against the running dispatcher and a loopback receiver: retries shown as one delivery, a signed
// ping, roles, tenants, disabled subscriptions, pages and the state filter.
#include <boost/test/unit_test.hpp>
#include <regex>
#include <thread>

#include "icat/crypto.hpp"
#include "portal_support.hpp"
#include "receiver.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

struct Hook {
  std::string id, secret;
};

// A subscription made the way a tenant makes one: POST /api/webhooks as the admin.
Hook Subscribe(const it::PortalTenant& t, const std::string& url, const std::string& events_json, bool active = true) {
  it::Response r = it::Send("POST", "/api/webhooks", t.As(t.admin),
                            R"({"url": )" + it::Quote(url) + R"(, "events": )" + events_json + R"(, "active": )" +
                                (active ? "true" : "false") + "}");
  BOOST_TEST_REQUIRE(r.status == 201, r.Summary());
  rapidjson::Document body = it::JsonOf(r);
  return {it::StringMember(body, "id"), it::StringMember(body, "secret")};
}

// An outbox event as ingest writes it; the dispatcher fans it out. Returns its id.
std::string Emit(const it::PortalTenant& t, const std::string& type) {
  return *it::PgQuery("INSERT INTO events (tenant_id, type, payload) VALUES ($1, $2, $3::jsonb) RETURNING id",
                      {t.id(), type, it::EventData(type)})[0][0];
}

// A finished or not-yet-due delivery written straight into the log (the dispatcher leaves both
// alone), created `minutes_ago`. Returns the delivery id.
std::string AddDelivery(const it::PortalTenant& t, const Hook& hook, const std::string& state, int minutes_ago,
                        std::optional<std::string> last_status = std::nullopt,
                        std::optional<std::string> last_error = std::nullopt) {
  std::string ago = std::to_string(minutes_ago) + " minutes";
  std::string event = *it::PgQuery(
      "INSERT INTO events (tenant_id, type, payload, created_at, fanned_out_at) "
      "VALUES ($1, 'scan.completed', '{}', now() - $2::interval, now()) RETURNING id",
      {t.id(), ago})[0][0];
  return *it::PgQuery(
      "INSERT INTO deliveries (tenant_id, event_id, webhook_id, state, attempts, next_attempt_at, last_status, "
      "last_error, created_at, updated_at) VALUES ($1, $2, $3, $4, CASE WHEN $4 = 'pending' THEN 1 ELSE 2 END, "
      "now() + interval '1 hour', $5::integer, $6, now() - $7::interval, now() - $7::interval) RETURNING id",
      {t.id(), event, hook.id, state, last_status, last_error, ago})[0][0];
}

it::Response Log(const it::PortalTenant& t, const Hook& hook, const std::string& query = "",
                 std::string_view role = "viewer") {
  return it::Get("/api/webhooks/" + hook.id + "/deliveries" + query, t.As(t.ByRole(role)));
}

// The deliveries of every page of the log, following nextCursor.
std::vector<std::string> AllIds(const it::PortalTenant& t, const Hook& hook, const std::string& filter, int limit,
                                int* pages) {
  std::vector<std::string> ids;
  std::string cursor;
  *pages = 0;
  do {
    std::string query = "?limit=" + std::to_string(limit) + filter + (cursor.empty() ? "" : "&cursor=" + cursor);
    rapidjson::Document page = it::ExpectJson200(Log(t, hook, query));
    BOOST_TEST_REQUIRE(page["deliveries"].Size() <= static_cast<unsigned>(limit));
    for (const rapidjson::Value& d : page["deliveries"].GetArray()) ids.push_back(it::StringMember(d, "id"));
    cursor = page["nextCursor"].IsNull() ? "" : page["nextCursor"].GetString();
    ++*pages;
  } while (!cursor.empty() && *pages < 20);
  return ids;
}

// The log's only delivery once it is in `state`; a null value when that does not happen in time.
rapidjson::Document WaitForOnlyDelivery(const it::PortalTenant& t, const Hook& hook, const std::string& state,
                                        std::chrono::milliseconds timeout) {
  rapidjson::Document found;
  it::WaitFor(
      [&] {
        rapidjson::Document log = it::JsonOf(Log(t, hook));
        if (!log.IsObject() || !log.HasMember("deliveries") || log["deliveries"].Size() != 1u) return false;
        if (std::string(log["deliveries"][0]["state"].GetString()) != state) return false;
        found.CopyFrom(log["deliveries"][0], found.GetAllocator());
        return true;
      },
      timeout);
  return found;
}

std::string Header(const it::ReceivedRequest& r, const std::string& name) {
  auto found = r.headers.find(name);
  return found == r.headers.end() ? "" : found->second;
}

// The Standard Webhooks check a receiver makes: HMAC-SHA256 of "id.timestamp.body" with the
// secret's bytes, base64, after "v1,".
void ExpectSigned(const it::ReceivedRequest& r, const Hook& hook, const std::string& event_id) {
  BOOST_TEST(Header(r, "webhook-id") == event_id);
  std::string timestamp = Header(r, "webhook-timestamp");
  BOOST_TEST_REQUIRE(!timestamp.empty());
  BOOST_TEST(std::abs(std::stoll(timestamp) - std::time(nullptr)) < 60);
  std::string key = *icat::Base64Decode(hook.secret.substr(6));
  std::string expected = "v1," + icat::Base64Encode(icat::HmacSha256(key, event_id + "." + timestamp + "." + r.body));
  BOOST_TEST(Header(r, "webhook-signature") == expected);
  BOOST_TEST(Header(r, "content-type") == "application/json");
}

it::Response Ping(const it::PortalTenant& t, const std::string& hook_id, std::string_view role = "admin",
                  const std::optional<std::string>& body = std::nullopt) {
  return it::Send("POST", "/api/webhooks/" + hook_id + "/ping", t.As(t.ByRole(role)), body);
}

std::string CountOf(const std::string& sql, const std::string& tenant_id) {
  return *it::PgQuery(sql, {tenant_id})[0][0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(webhook_log)

BOOST_AUTO_TEST_CASE(receiver_failing_twice_is_one_delivery_with_three_attempts_succeeded_200) {
  it::PortalTenant t;
  it::Receiver receiver;
  receiver.Script({500, 503});
  Hook hook = Subscribe(t, receiver.Url(), R"(["scan.completed"])");
  std::string event_id = Emit(t, "scan.completed");
  BOOST_TEST_REQUIRE(receiver.WaitFor(3, 30s).size() == 3u);
  rapidjson::Document d = WaitForOnlyDelivery(t, hook, "succeeded", 10s);
  BOOST_TEST_REQUIRE(d.IsObject(), Log(t, hook).body);
  BOOST_TEST(it::StringMember(d, "eventId") == event_id);
  BOOST_TEST(it::StringMember(d, "eventType") == "scan.completed");
  BOOST_TEST(it::IntMember(d, "attempts") == 3);
  BOOST_TEST(it::IntMember(d, "lastStatus") == 200);
  BOOST_TEST(it::IsNullMember(d, "lastError"));
  BOOST_TEST(it::IsNullMember(d, "nextAttemptAt"));
  BOOST_TEST(it::ParseRfc3339(it::StringMember(d, "createdAt")).has_value());
  BOOST_TEST(*it::ParseRfc3339(it::StringMember(d, "updatedAt")) >=
             *it::ParseRfc3339(it::StringMember(d, "createdAt")));
  BOOST_TEST(d.MemberCount() == 10u);
}

// The dispatcher's count of delivered attempts, from ICAT_METRICS_URL.
double DeliveredCount() {
  const char* url = std::getenv("ICAT_METRICS_URL");
  BOOST_TEST_REQUIRE((url && *url));
  std::string page = it::Get(url).body;
  std::smatch m;
  static const std::regex kLine(R"x(icat_webhook_deliveries_total\{group="dispatcher",result="delivered"\} (\d+))x");
  return std::regex_search(page, m, kLine) ? std::stod(m[1].str()) : -1;
}

BOOST_AUTO_TEST_CASE(a_ping_passes_the_trace_of_its_request_on_to_the_receiver_in_a_span_of_its_own) {
  it::PortalTenant t;
  it::Receiver receiver;
  Hook hook = Subscribe(t, receiver.Url(), R"(["scan.completed"])");
  double delivered = DeliveredCount();
  BOOST_TEST_REQUIRE(delivered >= 0, "the dispatcher reports no icat_webhook_deliveries_total");
  std::string trace_id = it::RandomSuffix(32), parent_id = it::RandomSuffix(16);
  it::Headers headers = t.As(t.admin);
  headers.push_back({"traceparent", "00-" + trace_id + "-" + parent_id + "-01"});
  it::Response r = it::Send("POST", "/api/webhooks/" + hook.id + "/ping", headers);
  BOOST_TEST_REQUIRE(r.status == 202, r.Summary());
  auto got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  std::string sent = Header(got[0], "traceparent");
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_match(sent, m, std::regex("00-([0-9a-f]{32})-([0-9a-f]{16})-01")), sent);
  BOOST_TEST(m[1].str() == trace_id);
  BOOST_TEST(m[2].str() != parent_id);
  BOOST_TEST(it::WaitFor([&] { return DeliveredCount() >= delivered + 1; }, 5s));
}

BOOST_AUTO_TEST_CASE(ping_reaches_the_receiver_signed_with_type_ping_and_shows_in_the_log) {
  it::PortalTenant t;
  it::Receiver receiver;
  // The subscription did not choose `ping`: an explicit ping goes to it all the same.
  Hook hook = Subscribe(t, receiver.Url(), R"(["scan.completed"])");
  // No body and no Content-Type, as `curl -X POST` sends it.
  it::Response r = it::Send("POST", "/api/webhooks/" + hook.id + "/ping",
                            {{"Authorization", "Bearer " + t.Token(t.admin)}, {"X-Tenant", t.subdomain()}});
  BOOST_TEST_REQUIRE(r.status == 202, r.Summary());
  rapidjson::Document accepted = it::JsonOf(r);
  std::string event_id = it::StringMember(accepted, "eventId");
  std::string delivery_id = it::StringMember(accepted, "deliveryId");

  auto got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  ExpectSigned(got[0], hook, event_id);
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST_REQUIRE(body.IsObject());
  BOOST_TEST(it::StringMember(body, "id") == event_id);
  BOOST_TEST(it::StringMember(body, "type") == "ping");
  BOOST_TEST(it::ParseRfc3339(it::StringMember(body, "createdAt")).has_value());
  BOOST_TEST(it::StringMember(body["data"]["webhook"], "id") == hook.id);
  BOOST_TEST(it::StringMember(body["data"]["webhook"], "url") == receiver.Url());

  rapidjson::Document d = WaitForOnlyDelivery(t, hook, "succeeded", 10s);
  BOOST_TEST_REQUIRE(d.IsObject(), Log(t, hook).body);
  BOOST_TEST(it::StringMember(d, "id") == delivery_id);
  BOOST_TEST(it::StringMember(d, "eventType") == "ping");
  BOOST_TEST(it::IntMember(d, "attempts") == 1);
  BOOST_TEST(it::IntMember(d, "lastStatus") == 200);
  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "webhook.pinged");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][0] == "user:" + t.admin.id);
  BOOST_TEST(*audit[0][1] == hook.id);

  // `{}` is accepted too; any other body is refused and sends nothing.
  BOOST_TEST(Ping(t, hook.id, "admin", "{}").status == 202);
  BOOST_TEST(receiver.WaitFor(2, 15s).size() == 2u);
  it::Response extra = Ping(t, hook.id, "admin", R"({"message": "hi"})");
  it::ExpectError(extra, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(extra) == std::vector<std::string>{"message"}, boost::test_tools::per_element());
  it::ExpectError(Ping(t, hook.id, "admin", "{"), 400, "MALFORMED_JSON");
  it::ExpectError(Ping(t, hook.id, "admin", "[]"), 400, "VALIDATION_ERROR");
  BOOST_TEST(CountOf("SELECT count(*) FROM events WHERE tenant_id = $1 AND type = 'ping'", t.id()) == "2");
}

BOOST_AUTO_TEST_CASE(ping_of_another_tenants_or_an_unknown_webhook_is_404) {
  it::PortalTenant mine, theirs;
  it::Receiver receiver;
  Hook their_hook = Subscribe(theirs, receiver.Url(), R"(["ping"])");
  it::ExpectError(Ping(mine, their_hook.id), 404, "NOT_FOUND");
  it::ExpectError(Ping(mine, "00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND");
  it::ExpectError(Ping(mine, "not-a-uuid"), 404, "NOT_FOUND");
  BOOST_TEST(CountOf("SELECT count(*) FROM events WHERE tenant_id = $1", theirs.id()) == "0");
  BOOST_TEST(CountOf("SELECT count(*) FROM events WHERE tenant_id = $1", mine.id()) == "0");
  std::this_thread::sleep_for(1s);
  BOOST_TEST(receiver.Received().empty());
}

BOOST_AUTO_TEST_CASE(ping_by_a_viewer_or_user_is_403_and_sends_nothing) {
  it::PortalTenant t;
  it::Receiver receiver;
  Hook hook = Subscribe(t, receiver.Url(), R"(["ping"])");
  it::ExpectError(Ping(t, hook.id, "viewer"), 403, "FORBIDDEN");
  it::ExpectError(Ping(t, hook.id, "user", "{}"), 403, "FORBIDDEN");
  BOOST_TEST(CountOf("SELECT count(*) FROM events WHERE tenant_id = $1", t.id()) == "0");
  BOOST_TEST(it::AuditRows(t.id(), "role.denied").size() == 2u);
  std::this_thread::sleep_for(1s);
  BOOST_TEST(receiver.Received().empty());
}

BOOST_AUTO_TEST_CASE(ping_of_a_disabled_subscription_is_409_naming_why) {
  it::PortalTenant t;
  it::Receiver receiver;
  Hook off = Subscribe(t, receiver.Url() + "?off", R"(["ping"])", false);
  it::Response r = Ping(t, off.id);
  it::ExpectError(r, 409, "CONFLICT");
  BOOST_TEST(it::StringMember(it::JsonOf(r), "message").find("disabled") != std::string::npos, r.body);
  // Disabled by the dispatcher after a 410: the message gives its reason.
  Hook gone = Subscribe(t, receiver.Url() + "?gone", R"(["ping"])");
  it::PgQuery("UPDATE webhooks SET active = false, disabled_reason = 'The receiver answered 410 Gone.' WHERE id = $1",
              {gone.id});
  it::Response r410 = Ping(t, gone.id);
  it::ExpectError(r410, 409, "CONFLICT");
  BOOST_TEST(it::StringMember(it::JsonOf(r410), "message").find("410 Gone") != std::string::npos, r410.body);
  BOOST_TEST(CountOf("SELECT count(*) FROM events WHERE tenant_id = $1", t.id()) == "0");
  BOOST_TEST(it::AuditRows(t.id(), "webhook.pinged").empty());
  std::this_thread::sleep_for(1s);
  BOOST_TEST(receiver.Received().empty());
}

BOOST_AUTO_TEST_CASE(log_of_another_tenants_or_an_unknown_webhook_is_404) {
  it::PortalTenant mine, theirs;
  it::Receiver receiver;
  Hook their_hook = Subscribe(theirs, receiver.Url(), R"(["scan.completed"])");
  AddDelivery(theirs, their_hook, "succeeded", 1, "200");
  it::ExpectJson200(Log(theirs, their_hook));
  for (const char* role : {"admin", "viewer"}) {
    it::ExpectError(Log(mine, their_hook, "", role), 404, "NOT_FOUND");
  }
  it::ExpectError(it::Get("/api/webhooks/00000000-0000-4000-8000-000000000000/deliveries", mine.As(mine.admin)), 404,
                  "NOT_FOUND");
  it::ExpectError(it::Get("/api/webhooks/nope/deliveries", mine.As(mine.admin)), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(log_is_newest_first_paginated_and_filtered_by_state) {
  it::PortalTenant t;
  it::Receiver receiver;  // nothing reaches it: the rows below are finished or not due
  Hook hook = Subscribe(t, receiver.Url(), R"(["scan.completed"])");
  Hook other = Subscribe(t, receiver.Url() + "?other", R"(["scan.completed"])");
  // Newest first: 1, 2, 3, 4, 5 minutes old.
  std::vector<std::string> expected = {
      AddDelivery(t, hook, "pending", 1, "503", "HTTP 503"),
      AddDelivery(t, hook, "succeeded", 2, "204"),
      AddDelivery(t, hook, "failed", 3, std::nullopt, "not sent: 10.0.0.8 is a private address"),
      AddDelivery(t, hook, "succeeded", 4, "200"),
      AddDelivery(t, hook, "pending", 5),
  };
  AddDelivery(t, other, "succeeded", 1, "200");  // another subscription's log

  int pages = 0;
  BOOST_TEST(AllIds(t, hook, "", 2, &pages) == expected, boost::test_tools::per_element());
  BOOST_TEST(pages == 3);
  BOOST_TEST(AllIds(t, hook, "", 5, &pages).size() == 5u);
  BOOST_TEST(pages == 1);  // exactly one page: nextCursor null

  rapidjson::Document all = it::ExpectJson200(Log(t, hook));
  const rapidjson::Value& pending = all["deliveries"][0];
  BOOST_TEST(it::StringMember(pending, "state") == "pending");
  BOOST_TEST(it::IntMember(pending, "lastStatus") == 503);
  BOOST_TEST(it::StringMember(pending, "lastError") == "HTTP 503");
  BOOST_TEST(*it::ParseRfc3339(it::StringMember(pending, "nextAttemptAt")) > std::time(nullptr));
  const rapidjson::Value& failed = all["deliveries"][2];
  BOOST_TEST(it::StringMember(failed, "state") == "failed");
  BOOST_TEST(it::IsNullMember(failed, "lastStatus"));
  BOOST_TEST(it::IsNullMember(failed, "nextAttemptAt"));
  BOOST_TEST(it::IsNullMember(all["deliveries"][1], "nextAttemptAt"));

  BOOST_TEST(AllIds(t, hook, "&state=pending", 1, &pages) == (std::vector<std::string>{expected[0], expected[4]}),
             boost::test_tools::per_element());
  BOOST_TEST(pages == 2);
  BOOST_TEST(AllIds(t, hook, "&state=succeeded", 50, &pages) == (std::vector<std::string>{expected[1], expected[3]}),
             boost::test_tools::per_element());
  BOOST_TEST(AllIds(t, hook, "&state=failed", 50, &pages) == std::vector<std::string>{expected[2]},
             boost::test_tools::per_element());

  for (const char* bad : {"?state=done", "?state=", "?state=PENDING"}) {
    it::Response r = Log(t, hook, bad);
    it::ExpectError(r, 400, "VALIDATION_ERROR");
    BOOST_TEST(it::DetailFields(r) == std::vector<std::string>{"state"}, boost::test_tools::per_element());
  }
  it::Response forged = Log(t, hook, "?cursor=bm9wZQ");
  it::ExpectError(forged, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(forged) == std::vector<std::string>{"cursor"}, boost::test_tools::per_element());
  it::ExpectError(Log(t, hook, "?limit=0"), 400, "VALIDATION_ERROR");
  // Every role reads it.
  for (const char* role : {"viewer", "user", "admin"}) {
    BOOST_TEST(it::ExpectJson200(Log(t, hook, "", role))["deliveries"].Size() == 5u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
