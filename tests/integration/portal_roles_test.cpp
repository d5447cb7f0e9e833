// Roles on the portal API (SPEC.md 4.2 rules 3 and 4): every POST, PUT and DELETE needs admin;
// user and viewer get 403 FORBIDDEN on each, change nothing, and are audited; everyone reads
// (GET and HEAD), except API keys and the audit log, which only admins see.
#include <boost/test/unit_test.hpp>
#include <set>

#include "portal_support.hpp"
#include "receiver.hpp"

namespace it = icat::test;

namespace {

struct Write {
  std::string method, path, body;
  long admin_status;
  std::string pattern;  // the path as the OpenAPI document names it
};

std::string IdOf(const it::Response& r) {
  rapidjson::Document d = it::JsonOf(r);
  BOOST_TEST_REQUIRE(r.status / 100 == 2, r.Summary());
  return it::StringMember(d, "id");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_roles)

BOOST_AUTO_TEST_CASE(every_write_is_403_for_user_and_viewer_and_succeeds_for_admin) {
  it::PortalTenant t;
  it::Headers admin = t.As(t.admin);
  std::string key_id =
      IdOf(it::Send("POST", "/api/api-keys", admin, R"({"name": "roles", "scopes": ["read:catalog"]})"));
  std::string watch_id = IdOf(it::Send("POST", "/api/cve-watches", admin, R"({"cveId": "CVE-2021-44228"})"));
  std::string hook_id =
      IdOf(it::Send("POST", "/api/webhooks", admin, R"({"url": "https://93.184.215.14/roles", "events": ["ping"]})"));
  // The ping goes to a receiver of the test's own, never to an outside address.
  it::Receiver receiver;
  std::string ping_id = IdOf(
      it::Send("POST", "/api/webhooks", admin, R"({"url": )" + it::Quote(receiver.Url()) + R"(, "events": ["ping"]})"));
  std::string pending_id =
      IdOf(it::Send("POST", "/api/users", admin, R"({"email": "roles-pending@roles.test", "role": "viewer"})"));
  const std::string channel_body =
      R"({"type": "slack", "name": "roles", "url": "https://93.184.215.14/roles", "events": ["scan.completed"]})";
  std::string channel_id = IdOf(it::Send("POST", "/api/notification-channels", admin, channel_body));

  const std::vector<Write> writes = {
      {"POST", "/api/api-keys", R"({"name": "ci", "scopes": ["read:catalog"]})", 201, "/api/api-keys"},
      {"DELETE", "/api/api-keys/" + key_id, "", 204, "/api/api-keys/{id}"},
      {"POST", "/api/cve-watches", R"({"cveId": "CVE-2023-44487"})", 201, "/api/cve-watches"},
      {"DELETE", "/api/cve-watches/" + watch_id, "", 204, "/api/cve-watches/{id}"},
      {"POST", "/api/feature-requests", R"({"type": "feature", "title": "t", "description": "d"})", 201,
       "/api/feature-requests"},
      {"POST", "/api/webhooks", R"({"url": "https://93.184.215.14/new", "events": ["ping"]})", 201, "/api/webhooks"},
      {"PUT", "/api/webhooks/" + hook_id, R"({"url": "https://93.184.215.14/moved", "events": ["scan.completed"]})",
       200, "/api/webhooks/{id}"},
      {"DELETE", "/api/webhooks/" + hook_id, "", 204, "/api/webhooks/{id}"},
      {"POST", "/api/webhooks/" + ping_id + "/ping", "", 202, "/api/webhooks/{id}/ping"},
      {"POST", "/api/notification-channels", channel_body, 201, "/api/notification-channels"},
      {"PUT", "/api/notification-channels/" + channel_id, R"({"name": "renamed", "events": ["scan.completed"]})", 200,
       "/api/notification-channels/{id}"},
      {"DELETE", "/api/notification-channels/" + channel_id, "", 204, "/api/notification-channels/{id}"},
      {"PUT", "/api/admission-policy", R"({"mode": "warn"})", 200, "/api/admission-policy"},
      {"POST", "/api/users", R"({"email": "roles-new@roles.test", "role": "viewer"})", 201, "/api/users"},
      {"PUT", "/api/users/" + pending_id, R"({"role": "user"})", 200, "/api/users/{id}"},
      {"POST", "/api/users/" + pending_id + "/setup-token", "", 200, "/api/users/{id}/setup-token"},
      {"DELETE", "/api/users/" + pending_id + "/totp", "", 204, "/api/users/{id}/totp"},
      {"PUT", "/api/sign-in-policy", R"({"totpRequired": false})", 200, "/api/sign-in-policy"},
      {"DELETE", "/api/users/" + pending_id, "", 204, "/api/users/{id}"},
      // The admin passes the role check; no provider answers at that issuer (400), so none is configured (404).
      {"PUT", "/api/sso", R"({"issuer": "http://127.0.0.1:1", "clientId": "c", "clientSecret": "s"})", 400, "/api/sso"},
      {"DELETE", "/api/sso", "", 404, "/api/sso"},
  };
  // The table covers every write the portal publishes.
  std::set<std::string> covered;
  for (const Write& w : writes) {
    std::string method = w.method;
    for (char& c : method) c = static_cast<char>(std::tolower(c));
    covered.insert(method + " " + w.pattern);
  }
  for (const std::string& documented : it::DocumentedPortalOperations({"post", "put", "delete"})) {
    BOOST_TEST(covered.count(documented) == 1u, documented << " is missing from the table");
  }

  for (const char* role : {"viewer", "user"}) {
    for (const Write& w : writes) {
      BOOST_TEST_CONTEXT(role << " " << w.method << " " << w.path) {
        it::Response r = it::Send(w.method, w.path, t.As(t.ByRole(role)),
                                  w.body.empty() ? std::nullopt : std::optional<std::string>(w.body));
        it::ExpectError(r, 403, "FORBIDDEN");
      }
    }
  }
  // Nothing changed: the key is active, the watch and the webhook exist, the policy is the default.
  BOOST_TEST(
      *it::PgQuery("SELECT count(*) FROM api_keys WHERE tenant_id = $1 AND revoked_at IS NULL", {t.id()})[0][0] == "1");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM cve_watches WHERE tenant_id = $1", {t.id()})[0][0] == "1");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM webhooks WHERE tenant_id = $1", {t.id()})[0][0] == "2");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM events WHERE tenant_id = $1", {t.id()})[0][0] == "0");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM feature_requests WHERE tenant_id = $1", {t.id()})[0][0] == "0");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM admission_policies WHERE tenant_id = $1", {t.id()})[0][0] == "0");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1 AND role = 'viewer'", {t.id()})[0][0] ==
             "2");  // the fixture's viewer and the pending one, as made
  // Each denial is a security event in the tenant's log.
  std::vector<it::PgRow> denials = it::AuditRows(t.id(), "role.denied");
  BOOST_TEST(denials.size() == 2 * writes.size());
  BOOST_TEST(*denials.back()[0] == "user:" + t.viewer.id);

  for (const Write& w : writes) {
    BOOST_TEST_CONTEXT("admin " << w.method << " " << w.path) {
      it::Response r =
          it::Send(w.method, w.path, t.As(t.admin), w.body.empty() ? std::nullopt : std::optional<std::string>(w.body));
      BOOST_TEST(r.status == w.admin_status, r.Summary());
    }
  }
  BOOST_TEST(receiver.WaitFor(1, std::chrono::seconds(15)).size() == 1u);  // the admin's ping
}

BOOST_AUTO_TEST_CASE(every_read_is_200_for_each_role_but_keys_users_and_audit_log_are_admin_only) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("roles", {{"1.0"}});
  std::string hook_id = IdOf(it::Send("POST", "/api/webhooks", t.As(t.admin),
                                      R"({"url": "https://93.184.215.14/reads", "events": ["ping"]})"));
  const std::vector<std::string> reads = {"/api/auth/me",
                                          "/api/docker-images",
                                          "/api/docker-images/" + image.id,
                                          "/api/cve-watches",
                                          "/api/feature-requests",
                                          "/api/webhooks",
                                          "/api/webhooks/" + hook_id + "/deliveries",
                                          "/api/admission-policy",
                                          "/api/admission-decisions"};
  for (const char* role : {"viewer", "user", "admin"}) {
    for (const std::string& path : reads) {
      BOOST_TEST_CONTEXT(role << " GET " << path) { it::ExpectJson200(it::Get(path, t.As(t.ByRole(role)))); }
    }
    for (const char* path : {"/api/api-keys", "/api/audit-log", "/api/users", "/api/sign-in-policy"}) {
      BOOST_TEST_CONTEXT(role << " GET " << path) {
        it::Response r = it::Get(path, t.As(t.ByRole(role)));
        if (std::string(role) == "admin") {
          it::ExpectJson200(r);
        } else {
          it::ExpectError(r, 403, "FORBIDDEN");
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(head_is_a_read_for_every_role_and_is_never_a_denial) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("head", {{"1.0"}});
  for (const char* role : {"viewer", "user", "admin"}) {
    for (std::string path :
         {std::string("/api/auth/me"), std::string("/api/docker-images"), "/api/docker-images/" + image.id,
          std::string("/api/webhooks"), std::string("/api/admission-policy")}) {
      it::Response r = it::Send("HEAD", path, t.As(t.ByRole(role)));
      BOOST_TEST_CONTEXT(role << " HEAD " << path << ": " << r.Summary()) {
        BOOST_TEST(r.status == 200);
        BOOST_TEST(r.body.empty());
        BOOST_TEST(r.Header("content-type").rfind("application/json", 0) == 0u);
      }
    }
  }
  BOOST_TEST(it::AuditRows(t.id(), "role.denied").empty());
}

BOOST_AUTO_TEST_CASE(roles_of_signed_in_users_are_enforced) {
  it::PortalTenant t;
  for (const char* role : {"viewer", "user", "admin"}) {
    it::Response login = it::Login(t.subdomain(), t.ByRole(role).email);
    std::string token = it::StringMember(it::ExpectJson200(login), "accessToken");
    it::Headers headers = {
        {"Authorization", "Bearer " + token}, {"X-Tenant", t.subdomain()}, {"Content-Type", "application/json"}};
    it::Response r =
        it::Send("POST", "/api/feature-requests", headers,
                 R"({"type": "bug", "title": "signed in", "description": "as )" + std::string(role) + "\"}");
    BOOST_TEST_CONTEXT(role) {
      if (std::string(role) == "admin") {
        BOOST_TEST(r.status == 201, r.Summary());
      } else {
        it::ExpectError(r, 403, "FORBIDDEN");
      }
      it::ExpectJson200(it::Get("/api/feature-requests", headers));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
