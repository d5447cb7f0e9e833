// E-mail channels end to end (issue 32, docs/notifications.md), through the stack's real SMTP
// server (tools/mail-catcher, aiosmtpd: each message a .eml in $ICAT_STACK_DIR/mail), each mail
// read as MIME by python3's email package (tests/integration/read-mail): a new address gets its
// confirmation mail and nothing else until it is confirmed; then the events' mails, with text and
// HTML parts and RFC 8058 one-click unsubscribe, which works once, without a session, and never
// by GET; a permanent SMTP refusal is not retried.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <regex>
#include <set>
#include <thread>

#include "mail_support.hpp"
#include "portal_support.hpp"
#include "support.hpp"

using namespace icat::test;
using namespace std::chrono_literals;

namespace {

// A fresh address no other test mails.
std::string FreshAddress(const std::string& local = "sec") { return local + "-" + RandomSuffix(8) + "@Example.TEST"; }
std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}
// The address as the portal keeps it: the domain in lower case.
std::string Stored(const std::string& address) {
  size_t at = address.rfind('@');
  return address.substr(0, at) + Lower(address.substr(at));
}

// The path of an https link of the tenant's host (https://<tenant>.localhost:PORT/path): the
// tests reach nginx by ICAT_BASE_URL.
std::string PathOf(const std::string& link) {
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_match(link, m, std::regex(R"(https://[^/]+(/.*))")), link);
  return m[1];
}

// The first link in text that starts with https:// and has `path_part` in it.
std::string LinkIn(const std::string& text, const std::string& path_part) {
  std::smatch m;
  std::regex link("https://[^\\s\"<>]*" + path_part + "[A-Za-z0-9_-]+");
  BOOST_TEST_REQUIRE(std::regex_search(text, m, link), text);
  return m[0];
}

// An outbox event as ingest writes it.
void Emit(const Tenant& tenant, const std::string& type) {
  PgQuery("INSERT INTO events (tenant_id, type, payload) VALUES ($1, $2, $3::jsonb)",
          {tenant.id(), type, EventData(type)});
}

std::string CreateEmailChannel(const PortalTenant& t, const std::vector<std::string>& addresses) {
  std::string list;
  for (const std::string& a : addresses) list += (list.empty() ? "\"" : ", \"") + a + "\"";
  Response created = Send("POST", "/api/notification-channels", t.As(t.admin),
                          R"({"type": "email", "name": "security mail", "addresses": [)" + list +
                              R"(], "events": ["vulnerability.detected"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  return StringMember(JsonOf(created), "id");
}

// The states of the channel's addresses as the portal lists them, by address.
std::map<std::string, std::string> AddressStates(const PortalTenant& t) {
  std::map<std::string, std::string> states;
  rapidjson::Document list = JsonOf(Get("/api/notification-channels", t.As(t.admin)));
  for (const rapidjson::Value& c : list["channels"].GetArray()) {
    for (const rapidjson::Value& a : c["addresses"].GetArray()) states[StringMember(a, "address")] = StringMember(a, "state");
  }
  return states;
}

// Deliveries of the tenant's events of this type to this address.
std::string DeliveriesTo(const std::string& address, const std::string& type) {
  return *PgQuery("SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id "
                  "JOIN notification_addresses a ON a.id = d.address_id WHERE a.address = $1 AND e.type = $2",
                  {address, type})[0][0];
}

// The confirmation mail of `address`: its one mail, checked; returns the confirm link.
std::string ConfirmationLink(const PortalTenant& t, const std::string& address) {
  std::vector<Mail> mails = WaitForMails(address, 1);
  BOOST_TEST_REQUIRE(mails.size() == 1u);
  const Mail& m = mails[0];
  BOOST_TEST(m.defects == 0);
  BOOST_TEST(m.from.find("@") != std::string::npos);
  if (const char* from = std::getenv("ICAT_SMTP_FROM")) BOOST_TEST(m.from == from);
  BOOST_TEST(m.subject.find("Confirm") != std::string::npos, m.subject);
  BOOST_TEST(m.subject.find("security mail") != std::string::npos, m.subject);
  BOOST_TEST(m.content_type == "multipart/alternative");
  BOOST_TEST(!m.list_unsubscribe.has_value());  // nothing to unsubscribe from yet
  std::string link = LinkIn(m.text, "/notifications/confirm/");
  BOOST_TEST(link.rfind("https://" + t.subdomain() + ".", 0) == 0u, link);
  BOOST_TEST(m.html.find("href=\"" + link + "\"") != std::string::npos, m.html);
  return link;
}

std::string TokenOf(const std::string& link) { return link.substr(link.rfind('/') + 1); }

// A link used once is one audit record: no session, so the actor is anonymous; the target the
// channel, the detail the address and the channel's name.
void ExpectLinkAudited(const PortalTenant& t, std::string_view action, const std::string& channel_id,
                       const std::string& address) {
  std::vector<PgRow> rows = AuditRows(t.id(), action);
  BOOST_TEST_REQUIRE(rows.size() == 1u, action);
  BOOST_TEST(rows[0][0].value_or("") == "anonymous");
  BOOST_TEST(rows[0][1].value_or("") == channel_id);
  rapidjson::Document detail;
  detail.Parse(rows[0][4].value_or("").c_str());
  BOOST_TEST_REQUIRE(detail.IsObject());
  BOOST_TEST(StringMember(detail, "address") == address);
  BOOST_TEST(StringMember(detail, "channel") == "security mail");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(email_channels)

BOOST_AUTO_TEST_CASE(an_address_gets_its_confirmation_only_then_events_then_nothing_after_one_click_unsubscribe) {
  PortalTenant t;
  const std::string address = FreshAddress(), stored = Stored(address);
  const std::string channel_id = CreateEmailChannel(t, {address});
  BOOST_TEST(AddressStates(t)[stored] == "pending");

  // Its one mail is the confirmation; an event before the confirmation sends it nothing.
  std::string confirm = ConfirmationLink(t, stored);
  Emit(t.tenant, "vulnerability.detected");
  std::this_thread::sleep_for(3s);
  BOOST_TEST(MailsTo(stored).size() == 1u);
  BOOST_TEST(DeliveriesTo(stored, "vulnerability.detected") == "0");

  // Confirmed without a session, once.
  Response confirmed = Send("POST", "/api/notification-addresses/confirm/" + TokenOf(confirm), {}, "");
  BOOST_TEST_REQUIRE(confirmed.status == 200, confirmed.Summary());
  rapidjson::Document c = JsonOf(confirmed);
  BOOST_TEST(StringMember(c, "address") == stored);
  BOOST_TEST(StringMember(c, "channel") == "security mail");
  BOOST_TEST(StringMember(c, "state") == "confirmed");
  ExpectError(Send("POST", "/api/notification-addresses/confirm/" + TokenOf(confirm), {}, ""), 404, "NOT_FOUND");
  BOOST_TEST(AddressStates(t)[stored] == "confirmed");
  ExpectLinkAudited(t, "notification_address.confirmed", channel_id, stored);

  // The event's mail: text and HTML, one-click unsubscribe to the tenant's host.
  Emit(t.tenant, "vulnerability.detected");
  std::vector<Mail> mails = WaitForMails(stored, 2);
  BOOST_TEST_REQUIRE(mails.size() == 2u);
  const Mail& event = mails[1];
  BOOST_TEST(event.defects == 0);
  BOOST_TEST(event.subject == "[icat] CVE-2024-3094 (critical) detected in demo:1.0");
  BOOST_TEST(event.text.find("CVE-2024-3094") != std::string::npos, event.text);
  BOOST_TEST(event.html.find("CVE-2024-3094") != std::string::npos, event.html);
  BOOST_TEST_REQUIRE(event.list_unsubscribe.has_value());
  BOOST_TEST(event.list_unsubscribe_post.value_or("") == "List-Unsubscribe=One-Click");
  std::string unsubscribe = LinkIn(*event.list_unsubscribe, "/api/notification-addresses/unsubscribe/");
  BOOST_TEST(*event.list_unsubscribe == "<" + unsubscribe + ">");
  BOOST_TEST(unsubscribe.rfind("https://" + t.subdomain() + ".", 0) == 0u, unsubscribe);
  BOOST_TEST(event.text.find(unsubscribe) != std::string::npos);

  // Opening the link never unsubscribes: it goes to the console's page, whose button posts.
  Response opened = Get(PathOf(unsubscribe));
  BOOST_TEST(opened.status == 303, opened.Summary());
  BOOST_TEST(opened.Header("location") == "/notifications/unsubscribe/" + TokenOf(unsubscribe));
  BOOST_TEST(AddressStates(t)[stored] == "confirmed");

  // The one-click POST (RFC 8058), no session: once.
  Headers form = {{"Content-Type", "application/x-www-form-urlencoded"}};
  Response gone = Send("POST", PathOf(unsubscribe), form, "List-Unsubscribe=One-Click");
  BOOST_TEST_REQUIRE(gone.status == 200, gone.Summary());
  BOOST_TEST(StringMember(JsonOf(gone), "state") == "unsubscribed");
  BOOST_TEST(StringMember(JsonOf(gone), "address") == stored);
  ExpectError(Send("POST", PathOf(unsubscribe), form, "List-Unsubscribe=One-Click"), 404, "NOT_FOUND");
  BOOST_TEST(AddressStates(t)[stored] == "unsubscribed");
  ExpectLinkAudited(t, "notification_address.unsubscribed", channel_id, stored);

  // Nothing more.
  Emit(t.tenant, "vulnerability.detected");
  std::this_thread::sleep_for(3s);
  BOOST_TEST(MailsTo(stored).size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_put_keeps_the_state_of_kept_addresses_and_mails_only_the_new_one) {
  PortalTenant t;
  const std::string first = Stored(FreshAddress()), second = Stored(FreshAddress());
  std::string id = CreateEmailChannel(t, {first});
  std::string confirm = ConfirmationLink(t, first);
  BOOST_TEST_REQUIRE(Send("POST", "/api/notification-addresses/confirm/" + TokenOf(confirm), {}, "").status == 200);
  Response put = Send("PUT", "/api/notification-channels/" + id, t.As(t.admin),
                      R"({"name": "security mail", "addresses": [")" + first + R"(", ")" + second +
                          R"("], "events": ["vulnerability.detected"]})");
  BOOST_TEST_REQUIRE(put.status == 200, put.Summary());
  std::map<std::string, std::string> states = AddressStates(t);
  BOOST_TEST(states[first] == "confirmed");
  BOOST_TEST(states[second] == "pending");
  ConfirmationLink(t, second);
  std::this_thread::sleep_for(1s);
  BOOST_TEST(MailsTo(first).size() == 1u);  // no second confirmation for the kept address
  BOOST_TEST(AuditRows(t.id(), "notification_channel.updated").size() == 1u);

  // The channel's delivery log says which address each delivery went to: one confirmation each.
  rapidjson::Document log = ExpectJson200(Get("/api/notification-channels/" + id + "/deliveries", t.As(t.admin)));
  std::multiset<std::string> confirmed_to;
  for (const rapidjson::Value& d : log["deliveries"].GetArray()) {
    BOOST_TEST(StringMember(d, "eventType") == "notification_address.confirm");
    BOOST_TEST_REQUIRE(d.HasMember("address"));
    confirmed_to.insert(StringMember(d, "address"));
  }
  BOOST_TEST((confirmed_to == std::multiset<std::string>{first, second}));
}

BOOST_AUTO_TEST_CASE(a_permanent_smtp_refusal_is_not_retried_and_counts_against_the_channel) {
  PortalTenant t;
  const std::string refused = "refused@example.test";  // the catcher answers 550 to this one
  std::string id = CreateEmailChannel(t, {refused});
  std::optional<PgRow> row;
  for (int i = 0; i < 100; i++) {
    auto rows = PgQuery("SELECT d.state, d.attempts, d.last_status, c.refusals FROM deliveries d "
                        "JOIN notification_channels c ON c.id = d.channel_id WHERE d.channel_id = $1",
                        {id});
    if (!rows.empty() && rows[0][0] != "pending") {
      row = rows[0];
      break;
    }
    std::this_thread::sleep_for(200ms);
  }
  BOOST_TEST_REQUIRE(row.has_value());
  BOOST_TEST(*(*row)[0] == "failed");
  BOOST_TEST(*(*row)[1] == "1");
  BOOST_TEST(*(*row)[2] == "550");
  BOOST_TEST(*(*row)[3] == "1");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_email_channels)

BOOST_AUTO_TEST_CASE(an_email_channel_lists_its_addresses_and_bad_ones_are_refused_naming_the_field) {
  PortalTenant t;
  const std::pair<std::string, std::string> cases[] = {
      {R"({"type": "email", "name": "n", "url": "https://93.184.215.14/h", "addresses": ["a@example.test"], "events": ["scan.completed"]})",
       "url"},
      {R"({"type": "email", "name": "n", "events": ["scan.completed"]})", "addresses"},
      {R"({"type": "email", "name": "n", "addresses": [], "events": ["scan.completed"]})", "addresses"},
      {R"({"type": "email", "name": "n", "addresses": ["Ada <ada@example.test>"], "events": ["scan.completed"]})",
       "addresses"},
      {R"({"type": "email", "name": "n", "addresses": ["no-at-sign"], "events": ["scan.completed"]})", "addresses"},
      {R"({"type": "email", "name": "n", "addresses": ["a@localhost"], "events": ["scan.completed"]})", "addresses"},
      {R"({"type": "email", "name": "n", "addresses": ["a@example.test"], "events": ["scan.completed"], "digest": "hourly"})",
       "digest"},
      {R"({"type": "email", "name": "n", "addresses": ["a@example.test"], "events": []})", "events"},
      {R"({"type": "slack", "name": "n", "url": "https://93.184.215.14/h", "addresses": ["a@example.test"], "events": ["scan.completed"]})",
       "addresses"},
      {R"({"type": "teams", "name": "n", "url": "https://93.184.215.14/h", "digest": "daily", "events": ["scan.completed"]})",
       "digest"},
  };
  for (const auto& [body, field] : cases) {
    Response r = Send("POST", "/api/notification-channels", t.As(t.admin), body);
    BOOST_TEST_CONTEXT(body) {
      ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST(DetailFields(r) == std::vector<std::string>{field}, boost::test_tools::per_element());
    }
  }
  std::string many;
  for (int i = 0; i < 21; i++) many += (i ? ", \"a" : "\"a") + std::to_string(i) + "@example.test\"";
  ExpectError(Send("POST", "/api/notification-channels", t.As(t.admin),
                   R"({"type": "email", "name": "n", "addresses": [)" + many + R"(], "events": ["scan.completed"]})"),
              400, "VALIDATION_ERROR");
  BOOST_TEST(*PgQuery("SELECT count(*) FROM notification_channels WHERE tenant_id = $1", {t.id()})[0][0] == "0");

  // A digest channel: no events needed (stored none), minimum severity high unless sent; the
  // same address twice (its domain in another case) is one.
  Response digest = Send("POST", "/api/notification-channels", t.As(t.admin),
                         R"({"type": "email", "name": "daily", "addresses": ["Ops@Example.TEST", "Ops@example.test"], "digest": "daily"})");
  BOOST_TEST_REQUIRE(digest.status == 201, digest.Summary());
  rapidjson::Document d = JsonOf(digest);
  BOOST_TEST(StringMember(d, "digest") == "daily");
  BOOST_TEST(StringMember(d, "minSeverity") == "high");
  BOOST_TEST(d["urlHost"].IsNull());
  BOOST_TEST(d["events"].Size() == 0u);
  BOOST_TEST_REQUIRE(d["addresses"].Size() == 1u);
  BOOST_TEST(StringMember(d["addresses"][0], "address") == "Ops@example.test");
  BOOST_TEST(StringMember(d["addresses"][0], "state") == "pending");
  BOOST_TEST(AuditRows(t.id(), "notification_channel.created").size() == 1u);

  // Slack and Teams channels say they have no addresses and no digest.
  Response slack = Send("POST", "/api/notification-channels", t.As(t.admin),
                        R"({"type": "slack", "name": "s", "url": "https://93.184.215.14/h", "events": ["scan.completed"]})");
  BOOST_TEST_REQUIRE(slack.status == 201, slack.Summary());
  BOOST_TEST(JsonOf(slack)["addresses"].Size() == 0u);
  BOOST_TEST(JsonOf(slack)["digest"].IsNull());
}

BOOST_AUTO_TEST_CASE(another_tenant_neither_sees_nor_changes_nor_confirms_the_addresses) {
  PortalTenant a, b;
  const std::string address = Stored(FreshAddress());
  std::string id = CreateEmailChannel(a, {address});
  std::string confirm = ConfirmationLink(a, address);
  Response listed = Get("/api/notification-channels", b.As(b.admin));
  BOOST_TEST(listed.body.find(address) == std::string::npos);
  ExpectError(Send("PUT", "/api/notification-channels/" + id, b.As(b.admin),
                   R"({"name": "n", "addresses": ["x@example.test"], "events": ["scan.completed"]})"),
              404, "NOT_FOUND");
  // As tenant B the app role reads none of A's addresses (forced row-level security).
  const char* app_dsn = std::getenv("ICAT_PG_DSN");
  BOOST_TEST_REQUIRE(app_dsn != nullptr);
  PgConnection app(app_dsn);
  app.Query("BEGIN", {});
  app.Query("SELECT set_config('app.tenant_id', $1, true)", {b.id()});
  BOOST_TEST(*app.Query("SELECT count(*) FROM notification_addresses", {})[0][0] == "0");
  app.Query("ROLLBACK", {});
  // A token that is not one, or one changed by a character, confirms nothing.
  std::string token = TokenOf(confirm);
  std::string other = token;
  other[0] = other[0] == 'A' ? 'B' : 'A';
  ExpectError(Send("POST", "/api/notification-addresses/confirm/" + other, {}, ""), 404, "NOT_FOUND");
  ExpectError(Send("POST", "/api/notification-addresses/confirm/not-a-token", {}, ""), 404, "NOT_FOUND");
  BOOST_TEST(AddressStates(a)[address] == "pending");
}

BOOST_AUTO_TEST_SUITE_END()
