// icat-dispatcher and notification channels (issue 32): fed by the webhooks' outbox, a Slack channel
// gets Block Kit with a text fallback, a Teams channel an Adaptive Card, both linking to the
// tenant's console; a channel gets only the events of its images and severity; a service that
// refuses for good disables the channel after three refusals in a row.
#include <boost/test/unit_test.hpp>
#include <thread>

#include "icat/vocabulary.hpp"
#include "portal_support.hpp"
#include "receiver.hpp"
#include "support.hpp"

using namespace icat::test;
using namespace std::chrono_literals;

namespace {

const std::string kImageId = "00000000-0000-4000-8000-000000000001";  // EventData's image

// A channel written straight into the table: these tests are about delivery. Its URL names the
// service, so the receiver records each message for tools/channel-messages.js to check.
std::string AddChannel(const Tenant& tenant, const std::string& type, const Receiver& receiver,
                       const std::string& events, std::optional<std::string> min_severity = std::nullopt,
                       const std::string& image_ids = "{}") {
  auto rows = PgQuery(
      "INSERT INTO notification_channels (tenant_id, type, name, url, events, min_severity, image_ids) "
      "VALUES ($1, $2, 'security', $3, $4::text[], $5, $6::uuid[]) RETURNING id",
      {tenant.id(), type, receiver.ChannelUrl(type), "{" + events + "}", min_severity, image_ids});
  return *rows.at(0).at(0);
}

// An outbox event as ingest writes it: `data` or the tests' usual data of its type.
void Emit(const Tenant& tenant, const std::string& type, const std::string& data = "") {
  PgQuery("INSERT INTO events (tenant_id, type, payload) VALUES ($1, $2, $3::jsonb)",
          {tenant.id(), type, data.empty() ? EventData(type) : data});
}

// EventData of vulnerability.detected with one finding of this severity.
std::string DetectedWith(const std::string& severity) {
  std::string data = EventData("vulnerability.detected");
  std::string from = R"("severity":"critical")";
  return data.replace(data.find(from), from.size(), R"("severity":")" + severity + "\"");
}

// EventData of vulnerability.detected with `count` findings of every severity and fix state.
std::string DetectedMany(int count) {
  const char* severities[] = {"critical", "high", "medium", "low"};
  const char* fix_states[] = {"fixed", "not-fixed", "wont-fix"};
  std::string findings;
  for (int i = 0; i < count; i++) {
    findings += std::string(i ? "," : "") + R"({"id":"CVE-2024-)" + std::to_string(1000 + i) + R"(","severity":")" +
                severities[i % 4] + R"(","package":"lib)" + std::to_string(i) + R"(","fixState":")" +
                fix_states[i % 3] + R"(","epss":null,"kev":null})";
  }
  std::string data = EventData("vulnerability.detected");
  size_t from = data.find(R"("vulnerabilities":[)") + 19;
  return data.replace(from, data.find(']', from) - from, findings);
}

rapidjson::Document Body(const ReceivedRequest& r) {
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  BOOST_TEST_REQUIRE(d.IsObject(), r.body);
  return d;
}

std::string Text(const rapidjson::Value& v) {
  BOOST_TEST_REQUIRE(v.IsString());
  return std::string(v.GetString(), v.GetStringLength());
}

size_t Chars(const std::string& utf8) {
  return static_cast<size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// The parts of Slack's Block Kit a message uses, with Slack's limits (api.slack.com/reference/block-kit).
void ExpectBlockKit(const rapidjson::Document& message) {
  BOOST_TEST_REQUIRE(message["text"].IsString());  // the fallback notifications show
  const rapidjson::Value& blocks = message["blocks"];
  BOOST_TEST_REQUIRE(blocks.IsArray());
  BOOST_TEST(blocks.Size() <= 50u);
  for (const rapidjson::Value& block : blocks.GetArray()) {
    std::string type = Text(block["type"]);
    if (type == "header") {
      BOOST_TEST(Text(block["text"]["type"]) == "plain_text");
      BOOST_TEST(Chars(Text(block["text"]["text"])) <= 150u);
    } else if (type == "section") {
      if (block.HasMember("text")) BOOST_TEST(Chars(Text(block["text"]["text"])) <= 3000u);
      if (block.HasMember("fields")) {
        BOOST_TEST(block["fields"].Size() <= 10u);
        for (const rapidjson::Value& f : block["fields"].GetArray()) BOOST_TEST(Chars(Text(f["text"])) <= 2000u);
      }
    } else if (type == "context") {
      BOOST_TEST(block["elements"].Size() <= 10u);
    } else if (type == "actions") {
      for (const rapidjson::Value& e : block["elements"].GetArray()) {
        BOOST_TEST(Text(e["type"]) == "button");
        BOOST_TEST(Chars(Text(e["text"]["text"])) <= 75u);
        BOOST_TEST(Text(e["url"]).rfind("https://", 0) == 0u);
      }
    } else {
      BOOST_ERROR("a block of a type the message should not use: " << type);
    }
  }
}

std::optional<PgRow> ChannelRow(const std::string& id) {
  auto rows = PgQuery("SELECT active, disabled_reason, refusals FROM notification_channels WHERE id = $1", {id});
  if (rows.empty()) return std::nullopt;
  return rows[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(notification_channels)

BOOST_AUTO_TEST_CASE(a_slack_channel_gets_block_kit_with_a_text_fallback_and_a_link_to_the_console) {
  Tenant tenant;
  Receiver slack;
  AddChannel(tenant, "slack", slack, "vulnerability.detected");
  Emit(tenant, "vulnerability.detected");
  auto got = slack.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].method == "POST");
  BOOST_TEST(got[0].headers.count("webhook-id") == 0u);  // a message for people, not a signed event
  BOOST_TEST(got[0].headers["content-type"] == "application/json");
  rapidjson::Document message = Body(got[0]);
  ExpectBlockKit(message);
  BOOST_TEST(Text(message["text"]) == "CVE-2024-3094 (critical) detected in demo:1.0");
  const rapidjson::Value& blocks = message["blocks"];
  std::string link = Text(blocks[blocks.Size() - 1]["elements"][0]["url"]);
  BOOST_TEST(link.rfind("https://" + tenant.subdomain() + ".", 0) == 0u, link);
  BOOST_TEST(link.size() > kImageId.size());
  BOOST_TEST(link.substr(link.size() - kImageId.size() - 8) == "/images/" + kImageId);
}

BOOST_AUTO_TEST_CASE(a_teams_channel_gets_one_adaptive_card) {
  Tenant tenant;
  Receiver teams;
  AddChannel(tenant, "teams", teams, "cve_watch.matched");
  Emit(tenant, "cve_watch.matched");
  auto got = teams.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  rapidjson::Document message = Body(got[0]);
  BOOST_TEST(Text(message["type"]) == "message");
  BOOST_TEST_REQUIRE(message["attachments"].Size() == 1u);
  const rapidjson::Value& attachment = message["attachments"][0];
  BOOST_TEST(Text(attachment["contentType"]) == "application/vnd.microsoft.card.adaptive");
  const rapidjson::Value& card = attachment["content"];
  BOOST_TEST(Text(card["type"]) == "AdaptiveCard");
  BOOST_TEST(Text(card["body"][0]["text"]) == "Watched CVE-2024-3094 found in demo:1.0");
  BOOST_TEST(Text(card["actions"][0]["type"]) == "Action.OpenUrl");
}

BOOST_AUTO_TEST_CASE(a_channel_gets_only_its_events_images_and_severities) {
  Tenant tenant;
  Receiver critical_only, other_image, everything;
  AddChannel(tenant, "slack", critical_only, "vulnerability.detected,scan.completed", "critical");
  AddChannel(tenant, "slack", other_image, "vulnerability.detected", std::nullopt,
             "{00000000-0000-4000-8000-00000000000f}");
  AddChannel(tenant, "slack", everything, "vulnerability.detected");
  Emit(tenant, "vulnerability.detected", DetectedWith("low"));
  Emit(tenant, "vulnerability.detected", DetectedWith("critical"));
  Emit(tenant, "scan.completed");  // carries no vulnerabilities: the severity does not filter it
  BOOST_TEST_REQUIRE(everything.WaitFor(2, 15s).size() == 2u);
  auto got = critical_only.WaitFor(2, 15s);
  std::this_thread::sleep_for(1s);  // anything more would have come by now
  got = critical_only.Received();
  BOOST_TEST_REQUIRE(got.size() == 2u);
  std::vector<std::string> texts = {Text(Body(got[0])["text"]), Text(Body(got[1])["text"])};
  std::sort(texts.begin(), texts.end());
  BOOST_TEST(texts[0] == "CVE-2024-3094 (critical) detected in demo:1.0");
  BOOST_TEST(texts[1] == "demo:1.0 was scanned by trivy 0.50.0");
  BOOST_TEST(other_image.Received().empty());
  BOOST_TEST(everything.Received().size() == 2u);
}

// Every event type a channel may choose, to a Slack and a Teams channel: the receivers record each
// message, which tools/channel-messages.js holds to the services' rules after the run, and the
// docs' screenshots render (tests/browser/messages.test.mjs). One event carries more
// vulnerabilities than a message lists.
BOOST_AUTO_TEST_CASE(every_event_type_makes_a_message_for_each_service) {
  Tenant tenant;
  Receiver slack, teams;
  std::string events;
  for (std::string_view type : icat::kEventTypes) {
    if (type != "ping") events += (events.empty() ? "" : ",") + std::string(type);
  }
  AddChannel(tenant, "slack", slack, events);
  AddChannel(tenant, "teams", teams, events);
  size_t sent = 0;
  for (std::string_view type : icat::kEventTypes) {
    if (type == "ping") continue;
    Emit(tenant, std::string(type));
    sent++;
  }
  Emit(tenant, "vulnerability.detected", DetectedMany(12));
  sent++;
  BOOST_TEST(slack.WaitFor(sent, 20s).size() == sent);
  BOOST_TEST(teams.WaitFor(sent, 20s).size() == sent);
  for (const ReceivedRequest& r : slack.Received()) ExpectBlockKit(Body(r));
}

BOOST_AUTO_TEST_CASE(three_refusals_in_a_row_disable_the_channel_and_say_why) {
  Tenant tenant;
  Receiver gone;
  gone.Script({404, 404, 404});
  std::string id = AddChannel(tenant, "slack", gone, "vulnerability.detected");
  for (int i = 0; i < 3; i++) Emit(tenant, "vulnerability.detected");
  BOOST_TEST_REQUIRE(WaitFor([&] { return *ChannelRow(id)->at(0) == "f"; }, 20s));
  std::optional<PgRow> row = ChannelRow(id);
  BOOST_TEST(row->at(1).value_or("").find("refused 3 messages in a row (last: HTTP 404)") != std::string::npos,
             row->at(1).value_or(""));
  // Refused for good: each delivery failed at its first attempt, none retried.
  auto deliveries = PgQuery("SELECT state, attempts FROM deliveries WHERE channel_id = $1", {id});
  BOOST_TEST(deliveries.size() == 3u);
  for (const PgRow& d : deliveries) {
    BOOST_TEST(*d[0] == "failed");
    BOOST_TEST(*d[1] == "1");
  }
  Emit(tenant, "vulnerability.detected");  // a disabled channel gets nothing more
  std::this_thread::sleep_for(2s);
  BOOST_TEST(gone.Received().size() == 3u);
}

BOOST_AUTO_TEST_CASE(a_delivered_message_forgives_earlier_refusals_and_a_busy_service_is_retried) {
  Tenant tenant;
  Receiver flaky;
  flaky.Script({404, 429, 200});
  std::string id = AddChannel(tenant, "teams", flaky, "vulnerability.detected");
  Emit(tenant, "vulnerability.detected");
  BOOST_TEST_REQUIRE(WaitFor([&] { return *ChannelRow(id)->at(2) == "1"; }, 15s));
  Emit(tenant, "vulnerability.detected");  // 429, then 200 on the retry
  BOOST_TEST_REQUIRE(flaky.WaitFor(3, 20s).size() == 3u);
  BOOST_TEST_REQUIRE(WaitFor([&] { return *ChannelRow(id)->at(2) == "0"; }, 10s));
  BOOST_TEST(*ChannelRow(id)->at(0) == "t");
}

// A service that hangs holds only its own channel's delivery: another tenant's message arrives while
// it is still in flight (the webhooks' fairness, docs/webhooks.md, shared by channels).
BOOST_AUTO_TEST_CASE(a_hanging_service_does_not_delay_another_tenants_channel) {
  Tenant slow_tenant, other_tenant;
  Receiver slow, fast;
  slow.HoldNext();
  std::string held = AddChannel(slow_tenant, "slack", slow, "vulnerability.detected");
  AddChannel(other_tenant, "teams", fast, "vulnerability.detected");
  Emit(slow_tenant, "vulnerability.detected");
  BOOST_TEST_REQUIRE(slow.WaitFor(1, 15s).size() == 1u);  // in flight, and held there
  Emit(other_tenant, "vulnerability.detected");
  BOOST_TEST(fast.WaitFor(1, 15s).size() == 1u);
  auto delivery = [&] { return PgQuery("SELECT state, attempts FROM deliveries WHERE channel_id = $1", {held}).at(0); };
  BOOST_TEST(*delivery().at(1) == "0");  // still unanswered when the other tenant's arrived
  slow.Release();
  BOOST_TEST(WaitFor([&] { return *delivery().at(0) == "succeeded"; }, 15s));
}

BOOST_AUTO_TEST_CASE(another_tenants_channel_gets_nothing) {
  Tenant a, b;
  Receiver for_a, for_b;
  AddChannel(a, "slack", for_a, "vulnerability.detected");
  AddChannel(b, "slack", for_b, "vulnerability.detected");
  Emit(a, "vulnerability.detected");
  BOOST_TEST_REQUIRE(for_a.WaitFor(1, 15s).size() == 1u);
  std::this_thread::sleep_for(1s);
  BOOST_TEST(for_b.Received().empty());
}

BOOST_AUTO_TEST_SUITE_END()

// The portal's API of channels: admin only, audited, the URL checked and never shown again.
BOOST_AUTO_TEST_SUITE(portal_notification_channels)

BOOST_AUTO_TEST_CASE(an_admin_creates_lists_updates_and_deletes_a_channel_whose_url_is_never_shown) {
  PortalTenant t;
  Image image = t.tenant.AddImage("channel");
  const std::string url = "https://93.184.215.14/services/T000/B000/secretpart";
  Response created = Send("POST", "/api/notification-channels", t.As(t.admin),
                          R"({"type": "slack", "name": "#security", "url": ")" + url +
                              R"(", "events": ["vulnerability.detected"], "minSeverity": "high", "imageIds": [")" +
                              image.id + R"("]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  BOOST_TEST(created.body.find("secretpart") == std::string::npos);
  rapidjson::Document channel = JsonOf(created);
  std::string id = StringMember(channel, "id");
  BOOST_TEST(StringMember(channel, "urlHost") == "93.184.215.14");
  BOOST_TEST(StringMember(channel, "minSeverity") == "high");
  BOOST_TEST_REQUIRE(channel["imageIds"].Size() == 1u);
  BOOST_TEST(channel["imageIds"][0].GetString() == image.id);
  BOOST_TEST(channel["active"].GetBool());
  BOOST_TEST(*PgQuery("SELECT url FROM notification_channels WHERE id = $1", {id})[0][0] == url);

  Response list = Get("/api/notification-channels", t.As(t.admin));
  BOOST_TEST(list.body.find("secretpart") == std::string::npos);
  BOOST_TEST_REQUIRE(JsonOf(list)["channels"].Size() == 1u);
  ExpectError(Get("/api/notification-channels", t.As(t.user)), 403, "FORBIDDEN");

  // Disabled by the dispatcher, enabled again by a PUT that keeps the URL it does not send.
  PgQuery("UPDATE notification_channels SET active = false, refusals = 3, disabled_reason = 'refused' WHERE id = $1",
          {id});
  Response put = Send("PUT", "/api/notification-channels/" + id, t.As(t.admin),
                      R"({"name": "#sec", "events": ["cve_watch.matched"], "active": true})");
  rapidjson::Document updated = ExpectJson200(put);
  BOOST_TEST(IsNullMember(updated, "disabledReason"));
  BOOST_TEST(IsNullMember(updated, "minSeverity"));
  BOOST_TEST(updated["imageIds"].Size() == 0u);
  auto row = PgQuery("SELECT url, refusals, active FROM notification_channels WHERE id = $1", {id});
  BOOST_TEST(*row[0][0] == url);
  BOOST_TEST(*row[0][1] == "0");
  BOOST_TEST(*row[0][2] == "t");
  ExpectError(Send("PUT", "/api/notification-channels/" + id, t.As(t.admin),
                   R"({"type": "teams", "name": "x", "events": ["scan.completed"]})"),
              400, "VALIDATION_ERROR");

  BOOST_TEST(Send("DELETE", "/api/notification-channels/" + id, t.As(t.admin), "").status == 204);
  ExpectError(Send("DELETE", "/api/notification-channels/" + id, t.As(t.admin), ""), 404, "NOT_FOUND");
  for (const char* action :
       {"notification_channel.created", "notification_channel.updated", "notification_channel.deleted"}) {
    std::vector<PgRow> audit = AuditRows(t.id(), action);
    BOOST_TEST(audit.size() == 1u, action);
  }
  std::vector<PgRow> all = PgQuery("SELECT detail::text FROM audit_log WHERE tenant_id = $1", {t.id()});
  for (const PgRow& r : all) BOOST_TEST(r[0].value_or("").find("secretpart") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_channels_delivery_log_says_what_the_dispatcher_did_to_admins_of_its_tenant) {
  PortalTenant t;
  Receiver service;
  service.Script({404});  // the first message refused for good, the second taken
  std::string id = AddChannel(t.tenant, "slack", service, "vulnerability.detected");
  Emit(t.tenant, "vulnerability.detected");
  Emit(t.tenant, "vulnerability.detected");
  BOOST_TEST_REQUIRE(WaitFor(
      [&] {
        return PgQuery("SELECT 1 FROM deliveries WHERE channel_id = $1 AND state <> 'pending'", {id}).size() == 2u;
      },
      20s));
  const std::string log = "/api/notification-channels/" + id + "/deliveries";
  rapidjson::Document all = ExpectJson200(Get(log, t.As(t.admin)));
  BOOST_TEST_REQUIRE(all["deliveries"].Size() == 2u);
  for (const rapidjson::Value& d : all["deliveries"].GetArray()) {
    BOOST_TEST(StringMember(d, "eventType") == "vulnerability.detected");
    BOOST_TEST(d["attempts"].GetInt() == 1);
    BOOST_TEST(IsNullMember(d, "nextAttemptAt"));
    BOOST_TEST(IsNullMember(d, "address"));  // a Slack channel's: no e-mail address
  }
  rapidjson::Document failed = ExpectJson200(Get(log + "?state=failed", t.As(t.admin)));
  BOOST_TEST_REQUIRE(failed["deliveries"].Size() == 1u);
  BOOST_TEST(failed["deliveries"][0]["lastStatus"].GetInt() == 404);
  rapidjson::Document succeeded = ExpectJson200(Get(log + "?state=succeeded&limit=1", t.As(t.admin)));
  BOOST_TEST_REQUIRE(succeeded["deliveries"].Size() == 1u);
  BOOST_TEST(succeeded["deliveries"][0]["lastStatus"].GetInt() == 200);

  ExpectError(Get(log + "?state=lost", t.As(t.admin)), 400, "VALIDATION_ERROR");
  ExpectError(Get(log, t.As(t.user)), 403, "FORBIDDEN");
  PortalTenant other;
  ExpectError(Get(log, other.As(other.admin)), 404, "NOT_FOUND");
  ExpectError(Get("/api/notification-channels/not-an-id/deliveries", t.As(t.admin)), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(bad_channels_are_refused_with_one_detail_each_and_nothing_is_written) {
  PortalTenant t;
  Image unlicensed = CreateImage("not-licensed");
  const std::pair<std::string, std::string> cases[] = {
      {R"({"type": "sms", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"]})", "type"},
      {R"({"type": "slack", "name": "n", "url": "https://10.0.0.8/h", "events": ["scan.completed"]})", "url"},
      {R"({"type": "slack", "name": "n", "url": "https://127.0.0.2/h", "events": ["scan.completed"]})", "url"},
      {R"({"type": "slack", "name": "n", "url": "https://93.184.215.14/h", "events": ["ping"]})", "events[0]"},
      {R"({"type": "slack", "name": "n", "url": "https://93.184.215.14/h", "events": []})", "events"},
      {R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"], "minSeverity": "severe"})",
       "minSeverity"},
      {R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"], "imageIds": ["x"]})",
       "imageIds"},
      {R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"], "imageIds": [")" +
           unlicensed.id + R"("]})",
       "imageIds"},
      {R"({"type": "teams", "name": "", "url": "https://93.184.215.14/h", "events": ["scan.completed"]})", "name"},
      {R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"], "secret": 1})",
       "secret"},
  };
  for (const auto& [body, field] : cases) {
    Response r = Send("POST", "/api/notification-channels", t.As(t.admin), body);
    BOOST_TEST_CONTEXT(body) {
      ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST(DetailFields(r) == std::vector<std::string>{field}, boost::test_tools::per_element());
    }
  }
  ExpectError(Send("POST", "/api/notification-channels", t.As(t.user),
                   R"({"type": "slack", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"]})"),
              403, "FORBIDDEN");
  BOOST_TEST(*PgQuery("SELECT count(*) FROM notification_channels WHERE tenant_id = $1", {t.id()})[0][0] == "0");
}

BOOST_AUTO_TEST_CASE(another_tenants_channel_is_not_found) {
  PortalTenant a, b;
  std::string id = StringMember(
      JsonOf(Send("POST", "/api/notification-channels", a.As(a.admin),
                  R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "events": ["scan.completed"]})")),
      "id");
  ExpectError(
      Send("PUT", "/api/notification-channels/" + id, b.As(b.admin), R"({"name": "n", "events": ["scan.completed"]})"),
      404, "NOT_FOUND");
  ExpectError(Send("DELETE", "/api/notification-channels/" + id, b.As(b.admin), ""), 404, "NOT_FOUND");
  BOOST_TEST(JsonOf(Get("/api/notification-channels", b.As(b.admin)))["channels"].Size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
