// The portal groups' pure reply shapes: sessions, keys, watches, requests, webhooks and their
// delivery log and ping, decisions, the audit log and the portal image detail.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/json.hpp"
#include "../../handlers/account/account.hpp"
#include "../../handlers/auth/sessions.hpp"
#include "../../handlers/catalog/portal_images.hpp"

namespace {

std::string Str(const rapidjson::Value& v, const char* name) {
  BOOST_REQUIRE_MESSAGE(v.HasMember(name) && v[name].IsString(), name);
  return v[name].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_shapes)

BOOST_AUTO_TEST_CASE(session_has_tokens_lifetime_bearer_type_and_user) {
  icat::auth::SessionView s{"a.b.c", "opaque", 900, {"u-1", "a@b.test", "admin"}};
  auto d = icat::ParseJson(icat::auth::SessionJson(s));
  BOOST_TEST(Str(d, "accessToken") == "a.b.c");
  BOOST_TEST(Str(d, "refreshToken") == "opaque");
  BOOST_TEST(d["expiresIn"].GetInt() == 900);
  BOOST_TEST(Str(d, "tokenType") == "Bearer");
  BOOST_TEST(Str(d["user"], "id") == "u-1");
  BOOST_TEST(Str(d["user"], "email") == "a@b.test");
  BOOST_TEST(Str(d["user"], "role") == "admin");
  BOOST_TEST(d["user"].MemberCount() == 3u);
}

BOOST_AUTO_TEST_CASE(me_has_user_and_tenant) {
  icat::auth::MeView me{{"u-1", "a@b.test", "viewer"}, "2026-01-01T00:00:00Z", "t-1", "acme", "Acme \"Ltd\""};
  auto d = icat::ParseJson(icat::auth::MeJson(me));
  BOOST_TEST(Str(d, "role") == "viewer");
  BOOST_TEST(Str(d["tenant"], "subdomain") == "acme");
  BOOST_TEST(Str(d["tenant"], "name") == "Acme \"Ltd\"");
}

BOOST_AUTO_TEST_CASE(detail_json_escapes_values) {
  auto d = icat::ParseJson(icat::StringObjectJson({{"email", "x\"@y"}, {"reason", "wrong_password"}}));
  BOOST_TEST(Str(d, "email") == "x\"@y");
  BOOST_TEST(icat::ParseJson(icat::StringObjectJson({})).ObjectEmpty());
}

BOOST_AUTO_TEST_CASE(api_key_shows_its_secret_only_when_given) {
  icat::account::ApiKeyView k;
  k.id = "k-1";
  k.name = "ci";
  k.prefix = "icat_live_AbCd";
  k.scopes = {"read:catalog"};
  k.created_at = "2026-01-01T00:00:00Z";
  k.state = "active";
  auto listed = icat::ParseJson(icat::account::ApiKeyListJson({k}, std::nullopt));
  BOOST_TEST(listed["nextCursor"].IsNull());
  const rapidjson::Value& item = listed["apiKeys"][0];
  BOOST_TEST(!item.HasMember("secret"));
  for (const char* field : {"expiresAt", "lastUsedAt", "createdBy"}) BOOST_TEST(item[field].IsNull(), field);
  BOOST_TEST(Str(item, "state") == "active");
  k.secret = "icat_live_secret";
  BOOST_TEST(Str(icat::ParseJson(icat::account::ApiKeyJson(k)), "secret") == "icat_live_secret");
}

BOOST_AUTO_TEST_CASE(cve_watch_lists_its_images_with_packages) {
  icat::account::CveWatchView w;
  w.id = "w-1";
  w.cve_id = "CVE-2024-3094";
  w.created_at = "2026-01-01T00:00:00Z";
  w.images = {{"i-1", "nginx", "v-1", "1.27.3", {"xz-utils", "liblzma5"}}};
  auto d = icat::ParseJson(icat::account::CveWatchListJson({w}, std::string("next")));
  BOOST_TEST(Str(d, "nextCursor") == "next");
  const rapidjson::Value& watch = d["cveWatches"][0];
  BOOST_TEST(Str(watch, "cveId") == "CVE-2024-3094");
  BOOST_TEST(watch["note"].IsNull());
  BOOST_TEST(Str(watch["images"][0], "versionId") == "v-1");
  BOOST_TEST(watch["images"][0]["packages"].Size() == 2u);
}

BOOST_AUTO_TEST_CASE(feature_request_names_who_filed_it_or_null) {
  icat::account::FeatureRequestView f;
  f.id = "f-1";
  f.type = "bug";
  f.title = "t";
  f.description = "d";
  f.status = "open";
  f.created_at = f.updated_at = "2026-01-01T00:00:00Z";
  BOOST_TEST(icat::ParseJson(icat::account::FeatureRequestJson(f))["createdBy"].IsNull());
  f.created_by_id = "u-1";
  f.created_by_email = "a@b.test";
  auto d = icat::ParseJson(icat::account::FeatureRequestListJson({f}, std::nullopt));
  BOOST_TEST(Str(d["featureRequests"][0]["createdBy"], "email") == "a@b.test");
  BOOST_TEST(Str(d["featureRequests"][0], "status") == "open");
}

BOOST_AUTO_TEST_CASE(webhook_secret_only_at_creation) {
  icat::account::WebhookView h;
  h.id = "h-1";
  h.url = "https://example.com/h";
  h.events = {"ping"};
  h.created_at = h.updated_at = "2026-01-01T00:00:00Z";
  auto listed = icat::ParseJson(icat::account::WebhookListJson({h}, std::nullopt));
  BOOST_TEST(!listed["webhooks"][0].HasMember("secret"));
  BOOST_TEST(listed["webhooks"][0]["active"].GetBool());
  BOOST_TEST(listed["webhooks"][0]["disabledReason"].IsNull());
  h.secret = "whsec_abc";
  BOOST_TEST(Str(icat::ParseJson(icat::account::WebhookJson(h)), "secret") == "whsec_abc");
}

BOOST_AUTO_TEST_CASE(delivery_log_shows_next_attempt_only_while_pending_and_null_status_without_reply) {
  icat::account::DeliveryView done;
  done.id = "d-1";
  done.event_id = "e-1";
  done.event_type = "scan.completed";
  done.state = "succeeded";
  done.attempts = 3;
  done.last_status = 200;
  done.next_attempt_at = "2026-01-01T00:00:05Z";  // stale: not shown once finished
  done.created_at = "2026-01-01T00:00:00Z";
  done.updated_at = "2026-01-01T00:00:07Z";
  icat::account::DeliveryView waiting = done;
  waiting.id = "d-2";
  waiting.state = "pending";
  waiting.attempts = 1;
  waiting.last_status = std::nullopt;
  waiting.last_error = "not sent: \"10.0.0.8\" is a private address";
  auto d = icat::ParseJson(icat::account::DeliveryListJson({done, waiting}, std::string("next")));
  BOOST_TEST(Str(d, "nextCursor") == "next");
  const rapidjson::Value& first = d["deliveries"][0];
  BOOST_TEST(first.MemberCount() == 10u);
  BOOST_TEST(Str(first, "eventId") == "e-1");
  BOOST_TEST(Str(first, "eventType") == "scan.completed");
  BOOST_TEST(Str(first, "state") == "succeeded");
  BOOST_TEST(first["attempts"].GetInt() == 3);
  BOOST_TEST(first["lastStatus"].GetInt() == 200);
  BOOST_TEST(first["lastError"].IsNull());
  BOOST_TEST(first["nextAttemptAt"].IsNull());
  BOOST_TEST(Str(first, "updatedAt") == "2026-01-01T00:00:07Z");
  const rapidjson::Value& second = d["deliveries"][1];
  BOOST_TEST(second["lastStatus"].IsNull());
  BOOST_TEST(Str(second, "lastError") == "not sent: \"10.0.0.8\" is a private address");
  BOOST_TEST(Str(second, "nextAttemptAt") == "2026-01-01T00:00:05Z");
  BOOST_TEST(icat::ParseJson(icat::account::DeliveryListJson({}, std::nullopt))["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_CASE(ping_data_names_the_webhook_and_the_reply_the_event_and_delivery) {
  auto data = icat::ParseJson(icat::account::PingDataJson("h-1", "https://example.com/a?b=\"c\""));
  BOOST_TEST(data.MemberCount() == 1u);
  BOOST_TEST(Str(data["webhook"], "id") == "h-1");
  BOOST_TEST(Str(data["webhook"], "url") == "https://example.com/a?b=\"c\"");
  BOOST_TEST(data["webhook"].MemberCount() == 2u);
  auto accepted = icat::ParseJson(icat::account::PingAcceptedJson("e-1", "d-1"));
  BOOST_TEST(Str(accepted, "eventId") == "e-1");
  BOOST_TEST(Str(accepted, "deliveryId") == "d-1");
  BOOST_TEST(accepted.MemberCount() == 2u);
}

BOOST_AUTO_TEST_CASE(decisions_and_audit_entries_pass_stored_json_through) {
  icat::account::DecisionView d;
  d.id = "d-1";
  d.created_at = "2026-01-01T00:00:00Z";
  d.request_uid = "uid";
  d.operation = "CREATE";
  d.kind = "Pod";
  d.mode = "enforce";
  d.images_json = R"([{"image": "nginx:1"}])";
  d.reasons_json = R"(["critical CVE-2024-3094"])";
  auto decisions = icat::ParseJson(icat::account::DecisionListJson({d}, std::nullopt));
  BOOST_TEST(Str(decisions["decisions"][0]["images"][0], "image") == "nginx:1");
  BOOST_TEST(decisions["decisions"][0]["namespace"].IsNull());

  icat::account::AuditEntryView e{42,
                                  "2026-01-01T00:00:00Z",
                                  "user:u-1",
                                  std::string("ann@example.test"),
                                  "key.created",
                                  std::string("k-1"),
                                  std::string("192.0.2.1"),
                                  std::nullopt,
                                  R"({"name": "ci"})"};
  auto log = icat::ParseJson(icat::account::AuditLogJson({e}, std::string("c")));
  const rapidjson::Value& entry = log["entries"][0];
  BOOST_TEST(entry["id"].GetInt() == 42);
  BOOST_TEST(Str(entry, "actorEmail") == "ann@example.test");
  BOOST_TEST(Str(entry, "action") == "key.created");
  BOOST_TEST(Str(entry["detail"], "name") == "ci");
  BOOST_TEST(Str(entry, "clientIp") == "192.0.2.1");
  BOOST_TEST(entry["requestId"].IsNull());
}

BOOST_AUTO_TEST_CASE(portal_image_detail_adds_the_latest_versions_hardening_tags) {
  auto with = icat::ParseJson(icat::catalog::PortalImageDetailJson(
      R"({"id": "i", "latestVersion": {"hardeningTags": ["fips", "non-root"]}, "versions": []})"));
  BOOST_TEST_REQUIRE(with["hardeningTags"].IsArray());
  BOOST_TEST(with["hardeningTags"].Size() == 2u);
  BOOST_TEST(Str(with, "id") == "i");
  auto without = icat::ParseJson(icat::catalog::PortalImageDetailJson(R"({"id": "i", "latestVersion": null, "versions": []})"));
  BOOST_TEST(without["hardeningTags"].Size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
