// Tenant isolation on the portal API (SPEC.md section 1 rule 1): walking every endpoint as one
// tenant's admin with the ids of a second tenant never returns or changes the second tenant's data.
#include <boost/test/unit_test.hpp>

#include "portal_support.hpp"

namespace it = icat::test;

namespace {

std::string Created(const it::Response& r) {
  BOOST_TEST_REQUIRE(r.status == 201, r.Summary());
  return it::StringMember(it::JsonOf(r), "id");
}

// Counts of the tenant's rows, to compare before and after.
std::string Fingerprint(const std::string& tenant_id) {
  return *it::PgQuery(
      "SELECT concat_ws(',', (SELECT count(*) FROM api_keys WHERE tenant_id = $1 AND revoked_at IS NULL), "
      "(SELECT count(*) FROM cve_watches WHERE tenant_id = $1), "
      "(SELECT count(*) FROM feature_requests WHERE tenant_id = $1), "
      "(SELECT string_agg(url || ':' || array_to_string(events, '+') || ':' || active, ';' ORDER BY url) "
      " FROM webhooks WHERE tenant_id = $1), "
      "(SELECT policy::text FROM admission_policies WHERE tenant_id = $1))",
      {tenant_id})[0][0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_isolation)

BOOST_AUTO_TEST_CASE(ids_of_another_tenant_are_404_and_nothing_of_it_shows_or_changes) {
  it::PortalTenant mine, theirs;
  it::Image their_image = theirs.tenant.AddImage("theirs", {{"1.0"}});
  it::Image my_image = mine.tenant.AddImage("mine", {{"1.0"}});
  it::Headers them = theirs.As(theirs.admin);
  std::string key =
      Created(it::Send("POST", "/api/api-keys", them, R"({"name": "theirs", "scopes": ["read:catalog"]})"));
  std::string watch = Created(it::Send("POST", "/api/cve-watches", them, R"({"cveId": "CVE-2024-3094"})"));
  std::string request = Created(
      it::Send("POST", "/api/feature-requests", them, R"({"type": "bug", "title": "theirs", "description": "d"})"));
  std::string hook = Created(
      it::Send("POST", "/api/webhooks", them, R"({"url": "https://93.184.215.14/theirs", "events": ["ping"]})"));
  BOOST_TEST(it::Send("PUT", "/api/admission-policy", them, R"({"mode": "audit"})").status == 200);
  it::PgQuery(
      "INSERT INTO admission_decisions (tenant_id, request_uid, operation, kind, images, allowed, mode) "
      "VALUES ($1, 'their-uid', 'CREATE', 'Pod', '[]', false, 'enforce')",
      {theirs.id()});
  std::string before = Fingerprint(theirs.id());

  it::Headers me = mine.As(mine.admin);
  // Their ids in my paths: 404, exactly as an unknown id.
  it::ExpectError(it::Get("/api/docker-images/" + their_image.id, me), 404, "NOT_FOUND");
  it::ExpectError(it::Send("DELETE", "/api/api-keys/" + key, me), 404, "NOT_FOUND");
  it::ExpectError(it::Send("DELETE", "/api/cve-watches/" + watch, me), 404, "NOT_FOUND");
  it::ExpectError(
      it::Send("PUT", "/api/webhooks/" + hook, me, R"({"url": "https://93.184.215.14/mine", "events": ["ping"]})"), 404,
      "NOT_FOUND");
  it::ExpectError(it::Send("DELETE", "/api/webhooks/" + hook, me), 404, "NOT_FOUND");
  it::ExpectError(it::Send("POST", "/api/webhooks/" + hook + "/ping", me), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/api/webhooks/" + hook + "/deliveries", me), 404, "NOT_FOUND");
  // Their ids in my bodies: refused as not mine.
  it::Response fr =
      it::Send("POST", "/api/feature-requests", me,
               R"({"type": "bug", "title": "t", "description": "d", "imageId": ")" + their_image.id + "\"}");
  BOOST_TEST(it::DetailFields(fr) == std::vector<std::string>{"imageId"}, boost::test_tools::per_element());
  it::Response policy = it::Send("PUT", "/api/admission-policy", me, R"({"exceptions": [{"cveId": "CVE-2024-3094",
      "imageId": ")" + their_image.id + R"(", "justification": "j", "expiresAt": "2027-01-01T00:00:00Z"}]})");
  BOOST_TEST(it::DetailFields(policy) == std::vector<std::string>{"exceptions[0].imageId"},
             boost::test_tools::per_element());
  // The same URL is a subscription of my own, not an upsert of theirs.
  BOOST_TEST(Created(it::Send("POST", "/api/webhooks", me,
                              R"({"url": "https://93.184.215.14/theirs", "events": ["scan.completed"]})")) != hook);

  // My lists hold nothing of theirs.
  auto ids_in = [&](const std::string& path, const char* member) {
    rapidjson::Document d = it::ExpectJson200(it::Get(path, me));
    std::vector<std::string> ids;
    for (const rapidjson::Value& item : d[member].GetArray()) ids.push_back(it::StringMember(item, "id"));
    return ids;
  };
  BOOST_TEST(ids_in("/api/docker-images", "images") == std::vector<std::string>{my_image.id},
             boost::test_tools::per_element());
  BOOST_TEST(ids_in("/api/api-keys", "apiKeys").empty());
  BOOST_TEST(ids_in("/api/cve-watches", "cveWatches").empty());
  BOOST_TEST(ids_in("/api/feature-requests", "featureRequests").empty());
  BOOST_TEST(ids_in("/api/admission-decisions", "decisions").empty());
  std::vector<std::string> hooks = ids_in("/api/webhooks", "webhooks");
  BOOST_TEST((hooks.size() == 1u && hooks[0] != hook));
  BOOST_TEST(it::StringMember(it::ExpectJson200(it::Get("/api/admission-policy", me)), "mode") == "enforce");
  rapidjson::Document log = it::ExpectJson200(it::Get("/api/audit-log", me));
  for (const rapidjson::Value& entry : log["entries"].GetArray()) {
    std::string target = entry["target"].IsString() ? entry["target"].GetString() : "";
    BOOST_TEST((target != key && target != watch && target != request && target != hook), target);
  }
  rapidjson::Document me_body = it::ExpectJson200(it::Get("/api/auth/me", me));
  BOOST_TEST(it::StringMember(me_body["tenant"], "id") == mine.id());

  BOOST_TEST(Fingerprint(theirs.id()) == before);
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM events WHERE tenant_id = $1", {theirs.id()})[0][0] == "0");
  // And their admin still sees all of it.
  BOOST_TEST(it::ExpectJson200(it::Get("/api/webhooks", them))["webhooks"].Size() == 1u);
  BOOST_TEST(it::ExpectJson200(it::Get("/api/api-keys", them))["apiKeys"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(my_token_with_their_tenant_header_is_401_on_every_endpoint) {
  it::PortalTenant mine, theirs;
  it::Headers crossed = {{"Authorization", "Bearer " + mine.Token(mine.admin)},
                         {"X-Tenant", theirs.subdomain()},
                         {"Content-Type", "application/json"}};
  const std::pair<const char*, const char*> endpoints[] = {
      {"GET", "/api/auth/me"},
      {"GET", "/api/docker-images"},
      {"GET", "/api/api-keys"},
      {"POST", "/api/api-keys"},
      {"GET", "/api/cve-watches"},
      {"POST", "/api/cve-watches"},
      {"GET", "/api/feature-requests"},
      {"POST", "/api/feature-requests"},
      {"GET", "/api/webhooks"},
      {"POST", "/api/webhooks"},
      {"GET", "/api/admission-policy"},
      {"PUT", "/api/admission-policy"},
      {"GET", "/api/admission-decisions"},
      {"GET", "/api/audit-log"},
  };
  for (const auto& [method, path] : endpoints) {
    bool has_body = std::string(method) != "GET";
    BOOST_TEST_CONTEXT(method << " " << path) {
      it::ExpectError(it::Send(method, path, crossed, has_body ? std::optional<std::string>("{}") : std::nullopt), 401,
                      "UNAUTHENTICATED");
    }
  }
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM audit_log WHERE tenant_id = $1", {theirs.id()})[0][0] == "0");
}

BOOST_AUTO_TEST_SUITE_END()
