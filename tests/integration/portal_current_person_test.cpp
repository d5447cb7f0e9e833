// A person deleted, disabled or demoted is refused on their very next request (issue 25): an access
// token lives 15 minutes, but every portal request reads the person as stored now (CurrentPerson
// in common/src/auth.cpp). What they created stays, and the audit log names them by id and email.
#include <boost/test/unit_test.hpp>
#include <regex>

#include "portal_support.hpp"

namespace it = icat::test;

namespace {

// A second admin of the tenant, signed in for real (access and refresh token), so the fixture's
// admin can delete, disable or demote them.
struct SignedIn {
  it::PortalUser user;
  std::string access_token, refresh_token;
  it::Headers headers;
};

SignedIn SignInNewAdmin(it::PortalTenant& t) {
  SignedIn s{t.AddUser("admin")};
  rapidjson::Document session = it::ExpectJson200(it::Login(t.subdomain(), s.user.email));
  s.access_token = it::StringMember(session, "accessToken");
  s.refresh_token = it::StringMember(session, "refreshToken");
  s.headers = {{"Authorization", "Bearer " + s.access_token},
               {"X-Tenant", t.subdomain()},
               {"Content-Type", "application/json"}};
  return s;
}

// The operation's path with each {parameter} filled by a made-up id: the refusal comes before any
// handler looks at it.
std::string Filled(const std::string& pattern) {
  return std::regex_replace(pattern, std::regex("\\{[^}]+\\}"), "0f0e0d0c-0b0a-4908-8706-050403020100");
}

// Every documented portal operation (writes and reads alike) with the person's token answers
// `status` `error`, before any handler: nothing is written.
void ExpectEveryOperationRefused(const it::Headers& headers, long status, std::string_view error,
                                 const std::set<std::string>& methods) {
  for (const std::string& operation : it::DocumentedPortalOperations(methods)) {
    std::string method = operation.substr(0, operation.find(' '));
    std::string path = Filled(operation.substr(operation.find(' ') + 1));
    for (char& c : method) c = static_cast<char>(std::toupper(c));
    BOOST_TEST_CONTEXT(operation) {
      bool has_body = method == "POST" || method == "PUT";
      it::ExpectError(it::Send(method, path, headers, has_body ? std::optional<std::string>("{}") : std::nullopt),
                      static_cast<int>(status), error);
    }
  }
}

long CountRows(const std::string& sql, const std::string& tenant_id) {
  return std::stol(*it::PgQuery(sql, {tenant_id})[0][0]);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_current_person)

BOOST_AUTO_TEST_CASE(a_deleted_admins_token_is_refused_on_every_write_and_read_at_once) {
  it::PortalTenant t;
  SignedIn gone = SignInNewAdmin(t);
  it::ExpectJson200(it::Get("/api/audit-log", gone.headers));  // an admin a moment ago
  BOOST_TEST_REQUIRE(it::Send("DELETE", "/api/users/" + gone.user.id, t.As(t.admin)).status == 204);

  long keys_before = CountRows("SELECT count(*) FROM api_keys WHERE tenant_id = $1", t.id());
  ExpectEveryOperationRefused(gone.headers, 401, "UNAUTHENTICATED", {"get", "post", "put", "delete"});
  // The writes the issue measured, with bodies that would succeed for an admin.
  it::ExpectError(it::Send("POST", "/api/api-keys", gone.headers,
                           R"({"name": "after", "scopes": ["read:catalog", "read:sbom", "read:vulns", "admission"]})"),
                  401, "UNAUTHENTICATED");
  it::ExpectError(it::Send("PUT", "/api/admission-policy", gone.headers, R"({"mode": "warn"})"), 401,
                  "UNAUTHENTICATED");
  BOOST_TEST(CountRows("SELECT count(*) FROM api_keys WHERE tenant_id = $1", t.id()) == keys_before);
  BOOST_TEST(CountRows("SELECT count(*) FROM admission_policies WHERE tenant_id = $1", t.id()) == 0);
  // Their sessions ended with them: the refresh token is refused too.
  BOOST_TEST(it::SessionCall("refresh", t.subdomain(), gone.refresh_token).status == 401);
}

BOOST_AUTO_TEST_CASE(a_disabled_admins_token_and_sessions_are_refused_at_once) {
  it::PortalTenant t;
  SignedIn disabled = SignInNewAdmin(t);
  it::ExpectJson200(it::Send("PUT", "/api/users/" + disabled.user.id, t.As(t.admin), R"({"disabled": true})"));

  ExpectEveryOperationRefused(disabled.headers, 401, "UNAUTHENTICATED", {"get", "post", "put", "delete"});
  it::ExpectError(it::Get("/api/auth/me", disabled.headers), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::SessionCall("refresh", t.subdomain(), disabled.refresh_token).status == 401);
  // Enabled again, the token they held stays refused (disabling ended their sessions, access tokens
  // included); they sign in again.
  it::ExpectJson200(it::Send("PUT", "/api/users/" + disabled.user.id, t.As(t.admin), R"({"disabled": false})"));
  it::ExpectError(it::Get("/api/api-keys", disabled.headers), 401, "UNAUTHENTICATED");
  std::string token = it::StringMember(it::ExpectJson200(it::Login(t.subdomain(), disabled.user.email)), "accessToken");
  it::ExpectJson200(it::Get("/api/api-keys", {{"Authorization", "Bearer " + token}, {"X-Tenant", t.subdomain()}}));
}

BOOST_AUTO_TEST_CASE(signing_out_everywhere_ends_the_access_tokens_issued_before_it) {
  it::PortalTenant t;
  SignedIn person = SignInNewAdmin(t);
  it::Response out = it::Send("POST", "/api/auth/logout", {{"X-Tenant", t.subdomain()}, {"Content-Type", "application/json"}},
                              R"({"refreshToken": )" + it::Quote(person.refresh_token) + R"(, "everywhere": true})");
  BOOST_TEST_REQUIRE(out.status == 204, out.Summary());
  it::ExpectError(it::Get("/api/auth/me", person.headers), 401, "UNAUTHENTICATED");
  it::ExpectError(it::Send("POST", "/api/cve-watches", person.headers, R"({"cveId": "CVE-2021-44228"})"), 401,
                  "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_CASE(a_demoted_admin_keeps_reading_as_a_viewer_and_is_403_on_writes_and_secrets) {
  it::PortalTenant t;
  SignedIn demoted = SignInNewAdmin(t);
  it::ExpectJson200(it::Send("PUT", "/api/users/" + demoted.user.id, t.As(t.admin), R"({"role": "viewer"})"));

  ExpectEveryOperationRefused(demoted.headers, 403, "FORBIDDEN", {"post", "put", "delete"});
  for (const char* secret : {"/api/api-keys", "/api/audit-log", "/api/users"}) {
    BOOST_TEST_CONTEXT(secret) { it::ExpectError(it::Get(secret, demoted.headers), 403, "FORBIDDEN"); }
  }
  it::ExpectJson200(it::Get("/api/admission-policy", demoted.headers));  // every role reads it
  rapidjson::Document me = it::ExpectJson200(it::Get("/api/auth/me", demoted.headers));
  BOOST_TEST(it::StringMember(me, "role") == "viewer");
  // Each refusal is audited as a role denial, against the person as they are now.
  std::vector<it::PgRow> denials = it::AuditRows(t.id(), "role.denied");
  BOOST_TEST_REQUIRE(!denials.empty());
  BOOST_TEST(*denials.front()[0] == "user:" + demoted.user.id);
}

BOOST_AUTO_TEST_CASE(a_viewer_promoted_to_admin_writes_with_the_token_they_hold) {
  it::PortalTenant t;
  it::Headers viewer = t.As(t.viewer);  // a token that says viewer
  it::ExpectError(it::Send("POST", "/api/cve-watches", viewer, R"({"cveId": "CVE-2021-44228"})"), 403, "FORBIDDEN");
  it::ExpectJson200(it::Send("PUT", "/api/users/" + t.viewer.id, t.As(t.admin), R"({"role": "admin"})"));
  it::Response watch = it::Send("POST", "/api/cve-watches", viewer, R"({"cveId": "CVE-2021-44228"})");
  BOOST_TEST(watch.status == 201, watch.Summary());
}

BOOST_AUTO_TEST_CASE(keys_a_deleted_admin_created_keep_working_and_the_audit_log_names_their_creator) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("attributed", {{"1.0"}});
  SignedIn creator = SignInNewAdmin(t);
  rapidjson::Document key = it::JsonOf(
      it::Send("POST", "/api/api-keys", creator.headers, R"({"name": "pipeline", "scopes": ["read:catalog"]})"));
  std::string key_id = it::StringMember(key, "id"), secret = it::StringMember(key, "secret");
  BOOST_TEST_REQUIRE(it::Send("DELETE", "/api/users/" + creator.user.id, t.As(t.admin)).status == 204);

  it::ExpectJson200(it::Get("/v1/images/" + image.id, {{"Authorization", "Bearer " + secret}}));
  rapidjson::Document log = it::ExpectJson200(it::Get("/api/audit-log?action=key.created", t.As(t.admin)));
  const rapidjson::Value& entries = log["entries"];
  BOOST_TEST_REQUIRE(entries.Size() == 1u);
  BOOST_TEST(it::StringMember(entries[0], "actor") == "user:" + creator.user.id);
  BOOST_TEST(it::StringMember(entries[0], "actorEmail") == creator.user.email);
  BOOST_TEST(it::StringMember(entries[0], "target") == key_id);
  // The deletion is logged with the admin who made it, by id and email as well.
  rapidjson::Document deleted = it::ExpectJson200(it::Get("/api/audit-log?action=user.deleted", t.As(t.admin)));
  BOOST_TEST_REQUIRE(deleted["entries"].Size() == 1u);
  BOOST_TEST(it::StringMember(deleted["entries"][0], "actorEmail") == t.admin.email);
}

BOOST_AUTO_TEST_SUITE_END()
