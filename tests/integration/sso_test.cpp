// Single sign-on with the tenant's own OpenID Provider (issue 29, docs/sso.md), against a real
// provider (tests/oidc/provider.mjs on npm oidc-provider) on loopback: the configuration API
// (GET/PUT/DELETE /api/sso) that never returns the secret, the flow (start -> the provider's login
// form -> callback) landing a session with the mapped role, just-in-time people and their groups,
// "SSO required", and the API side of every attack, each refused with its error and no session.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>
#include <thread>

#include "icat/crypto.hpp"
#include "icat/http.hpp"
#include "icat/text.hpp"
#include "oidc_support.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

constexpr std::string_view kAccountPassword = "provider password 1";

// A tenant with its admin, user and viewer, a client of its own at a fresh provider, and accounts
// there: alice (group eng: user), root (group icat-admins: admin), bob (no group).
struct SsoFixture {
  it::PortalTenant t;
  std::string client_id = "icat-" + t.subdomain(), client_secret = "secret-" + it::RandomSuffix(16);
  it::OidcProvider provider{{{client_id, client_secret, {it::SsoCallbackUrl()}}}, Accounts()};

  std::vector<it::OidcAccount> Accounts() const {
    return {{"sub-alice", "alice@corp.test", true, std::string(kAccountPassword), {"eng"}, "Alice"},
            {"sub-root", "root@corp.test", true, std::string(kAccountPassword), {"icat-admins", "eng"}, "Root"},
            {"sub-bob", "bob@corp.test", true, std::string(kAccountPassword), {}, "Bob"}};
  }

  // The body of PUT /api/sso for this provider, with members of the caller's added at the end.
  std::string Config(const std::string& more = "", bool with_secret = true) const {
    return "{\"issuer\": " + it::Quote(provider.issuer()) + ", \"clientId\": " + it::Quote(client_id) +
           (with_secret ? ", \"clientSecret\": " + it::Quote(client_secret) : std::string()) +
           R"(, "roleMapping": {"icat-admins": "admin", "eng": "user"})" + more + "}";
  }
  it::Response Put(const std::string& body) { return it::Send("PUT", "/api/sso", t.As(t.admin), body); }
  void Configure(const std::string& more = "") { it::ExpectJson200(Put(Config(more))); }

  // The callback's answer to a browser that signed in at the provider (JSON: no Accept: text/html).
  it::Response SignIn(it::Browser& browser, std::string_view email, std::string_view next = "/") {
    return browser.Go("GET", browser.SignInAtProvider(t.subdomain(), email, kAccountPassword, next));
  }

  long Sessions() const {
    return std::stol(*it::PgQuery("SELECT count(*) FROM refresh_tokens WHERE tenant_id = $1", {t.id()})[0][0]);
  }
  long Users() const {
    return std::stol(*it::PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1", {t.id()})[0][0]);
  }
};

// POST /api/auth/refresh with a refresh cookie, as the console does on load.
it::Response RefreshWith(const std::string& tenant, const std::string& cookie) {
  return it::Send("POST", "/api/auth/refresh",
                  {{"Content-Type", "application/json"},
                   {"X-Tenant", tenant},
                   {"X-Session-Cookie", "1"},
                   {"Cookie", "icat_refresh=" + cookie}},
                  "{}");
}

// The browser's refresh cookie, refreshed: the session.
rapidjson::Document RefreshWithCookie(const std::string& tenant, it::Browser& browser) {
  std::string cookie = browser.RefreshCookie();
  BOOST_TEST_REQUIRE(!cookie.empty(), "no icat_refresh cookie in the jar");
  return it::ExpectJson200(RefreshWith(tenant, cookie));
}

// The refresh token a reply's Set-Cookie holds.
std::string CookieOf(const it::Response& r) {
  std::string header = r.Header("set-cookie");
  size_t start = header.find("icat_refresh=");
  BOOST_TEST_REQUIRE(start != std::string::npos, r.Summary());
  start += std::string_view("icat_refresh=").size();
  return header.substr(start, header.find(';', start) - start);
}

std::string RoleOf(const rapidjson::Document& session) { return it::StringMember(session["user"], "role"); }

// What the sign-in page learns of a tenant without single sign-on, or of no such tenant: alike.
void ExpectNotConfigured(const std::string& subdomain) {
  rapidjson::Document page = it::ExpectJson200(it::Get("/api/auth/oidc/provider?tenant=" + subdomain));
  BOOST_TEST(page.IsObject());
  BOOST_TEST(page.MemberCount() == 1u);
  BOOST_TEST(page["configured"].IsFalse());
}

// A refusal of the flow: its status and error, and no session or user made by it.
void ExpectRefused(SsoFixture& f, const it::Response& r, int status, std::string_view error, long sessions,
                   long users) {
  it::ExpectError(r, status, error);
  BOOST_TEST(f.Sessions() == sessions, "a refused sign-in made a session");
  BOOST_TEST(f.Users() == users, "a refused sign-in made a user");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sso)

BOOST_AUTO_TEST_CASE(configuration_round_trips_without_the_secret_and_every_change_is_audited) {
  SsoFixture f;
  it::ExpectError(it::Get("/api/sso", f.t.As(f.t.admin)), 404, "SSO_NOT_CONFIGURED");
  ExpectNotConfigured(f.t.subdomain());
  // Refusals name their field: no secret yet, an issuer without a provider, no openid scope,
  // required without a break-glass admin, a role that is none.
  it::Response r = f.Put(f.Config("", false));
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"clientSecret"}));
  r = f.Put(R"({"issuer": "http://127.0.0.1:1", "clientId": "c", "clientSecret": "s"})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"issuer"}));
  r = f.Put(f.Config(R"(, "scopes": ["email"], "required": true, "defaultRole": "owner")"));
  BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"scopes", "defaultRole", "breakGlassEmail"}),
             r.Summary());
  r = f.Put(f.Config(R"(, "required": true, "breakGlassEmail": )" + it::Quote(f.t.viewer.email)));
  BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"breakGlassEmail"}));

  rapidjson::Document saved = it::ExpectJson200(f.Put(f.Config(R"(, "allowedDomains": ["Corp.test"])")));
  BOOST_TEST(it::StringMember(saved, "issuer") == f.provider.issuer());
  BOOST_TEST(saved["clientSecretSet"].GetBool());
  BOOST_TEST(!saved.HasMember("clientSecret"));
  BOOST_TEST(it::StringMember(saved, "displayName") == "127.0.0.1");
  BOOST_TEST(it::StringMember(saved, "defaultRole") == "refuse");
  BOOST_TEST(it::StringMember(saved, "redirectUri") == it::SsoCallbackUrl());
  BOOST_TEST(std::string(saved["allowedDomains"][0].GetString()) == "corp.test", "domains kept in lower case");
  BOOST_TEST(it::StringMember(saved["roleMapping"], "icat-admins") == "admin");
  it::Response got = it::Get("/api/sso", f.t.As(f.t.admin));
  BOOST_TEST((it::ExpectJson200(got) == saved), got.body);
  BOOST_TEST(got.body.find(f.client_secret) == std::string::npos);
  // Only admins read it; the sign-in page learns the name and whether SSO is required.
  it::ExpectError(it::Get("/api/sso", f.t.As(f.t.viewer)), 403, "FORBIDDEN");
  rapidjson::Document page = it::ExpectJson200(it::Get("/api/auth/oidc/provider?tenant=" + f.t.subdomain()));
  BOOST_TEST(page["configured"].IsTrue());
  BOOST_TEST(it::StringMember(page, "displayName") == "127.0.0.1");
  BOOST_TEST(!page["required"].GetBool());

  // A save without the secret keeps the stored one; the secret is stored sealed.
  std::string sealed =
      *it::PgQuery("SELECT encode(client_secret, 'hex') FROM sso_configs WHERE tenant_id = $1", {f.t.id()})[0][0];
  rapidjson::Document renamed = it::ExpectJson200(f.Put(f.Config(R"(, "displayName": "Corp SSO")", false)));
  BOOST_TEST(it::StringMember(renamed, "displayName") == "Corp SSO");
  BOOST_TEST(*it::PgQuery("SELECT encode(client_secret, 'hex') FROM sso_configs WHERE tenant_id = $1",
                          {f.t.id()})[0][0] == sealed);
  BOOST_TEST(sealed.find(icat::HexEncode(f.client_secret)) == std::string::npos);

  BOOST_TEST(it::Send("DELETE", "/api/sso", f.t.As(f.t.admin)).status == 204);
  it::ExpectError(it::Get("/api/sso", f.t.As(f.t.admin)), 404, "SSO_NOT_CONFIGURED");
  it::ExpectError(it::Send("DELETE", "/api/sso", f.t.As(f.t.admin)), 404, "SSO_NOT_CONFIGURED");

  // Each change is in the audit log, by the admin, never with the secret.
  std::vector<it::PgRow> updates = it::AuditRows(f.t.id(), "sso.updated");
  BOOST_TEST_REQUIRE(updates.size() == 2u);
  BOOST_TEST(*updates[0][0] == "user:" + f.t.admin.id);
  BOOST_TEST(updates[0][4]->find("\"clientSecret\": \"kept\"") != std::string::npos, *updates[0][4]);
  BOOST_TEST(updates[1][4]->find("\"clientSecret\": \"replaced\"") != std::string::npos, *updates[1][4]);
  BOOST_TEST(it::AuditRows(f.t.id(), "sso.deleted").size() == 1u);
  std::vector<it::PgRow> all = it::PgQuery("SELECT detail::text FROM audit_log WHERE tenant_id = $1", {f.t.id()});
  for (const it::PgRow& row : all) BOOST_TEST(row[0]->find(f.client_secret) == std::string::npos, *row[0]);
  ExpectNotConfigured("no-such-" + it::RandomSuffix(6));
}

BOOST_AUTO_TEST_CASE(a_sign_in_lands_a_session_with_the_mapped_role_and_is_audited) {
  SsoFixture f;
  f.Configure(R"(, "maxSessionHours": 8)");
  it::Browser browser;
  it::Response landed = f.SignIn(browser, "alice@corp.test", "/images?page=2");
  BOOST_TEST_REQUIRE(landed.status == 303, landed.Summary());
  BOOST_TEST(landed.Header("location") == "/images?page=2");
  BOOST_TEST(landed.Header("set-cookie").find("icat_refresh=") != std::string::npos);
  BOOST_TEST(landed.Header("set-cookie").find("icat_sso=; Max-Age=0") != std::string::npos, "icat_sso not cleared");
  BOOST_TEST(landed.Header("cache-control") == "no-store");

  // The console's refresh on load: an access token for the new person, with the mapped role.
  rapidjson::Document session = RefreshWithCookie(f.t.subdomain(), browser);
  BOOST_TEST(RoleOf(session) == "user");
  BOOST_TEST(it::StringMember(session["user"], "email") == "alice@corp.test");
  std::string user_id = it::StringMember(session["user"], "id");
  it::Headers as_alice = {{"Authorization", "Bearer " + it::StringMember(session, "accessToken")},
                          {"X-Tenant", f.t.subdomain()}};
  it::ExpectJson200(it::Get("/api/auth/me", as_alice));
  // Created just in time, without a password, known by issuer and subject; its session ends in 8 hours.
  std::vector<it::PgRow> identity = it::PgQuery(
      "SELECT i.issuer, i.subject, u.has_password FROM user_identities i JOIN users u ON u.id = i.user_id "
      "WHERE i.tenant_id = $1",
      {f.t.id()});
  BOOST_TEST_REQUIRE(identity.size() == 1u);
  BOOST_TEST(*identity[0][0] == f.provider.issuer());
  BOOST_TEST(*identity[0][1] == "sub-alice");
  BOOST_TEST(*identity[0][2] == "f");
  std::vector<it::PgRow> ends = it::PgQuery(
      "SELECT bool_and(session_ends_at BETWEEN now() + interval '7 hours 59 minutes' AND now() + interval '8 hours') "
      "FROM refresh_tokens WHERE tenant_id = $1 AND user_id = $2::uuid",
      {f.t.id(), user_id});
  BOOST_TEST(*ends[0][0] == "t", "the SSO session's hard end is not 8 hours from the sign-in");

  std::vector<it::PgRow> audit = it::AuditRows(f.t.id(), "login.sso");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][0] == "user:" + user_id);
  BOOST_TEST(audit[0][4]->find("\"subject\": \"sub-alice\"") != std::string::npos, *audit[0][4]);
  BOOST_TEST(audit[0][4]->find(f.provider.issuer()) != std::string::npos, *audit[0][4]);

  // The users list says who signs in with SSO.
  rapidjson::Document users = it::ExpectJson200(it::Get("/api/users", f.t.As(f.t.admin)));
  for (const rapidjson::Value& u : users["users"].GetArray()) {
    BOOST_TEST(u["sso"].GetBool() == (it::StringMember(u, "id") == user_id), it::StringMember(u, "email"));
  }
}

BOOST_AUTO_TEST_CASE(a_group_change_at_the_provider_changes_the_role_at_the_next_sign_in) {
  SsoFixture f;
  f.Configure();
  it::Browser first;
  BOOST_TEST_REQUIRE(f.SignIn(first, "alice@corp.test").status == 303);
  rapidjson::Document before = RefreshWithCookie(f.t.subdomain(), first);
  BOOST_TEST(RoleOf(before) == "user");

  f.provider.SetGroups("alice@corp.test", {"eng", "icat-admins"});
  it::Browser second;
  BOOST_TEST_REQUIRE(f.SignIn(second, "alice@corp.test").status == 303);
  rapidjson::Document after = RefreshWithCookie(f.t.subdomain(), second);
  BOOST_TEST(RoleOf(after) == "admin", "the highest mapped group wins");
  BOOST_TEST(it::StringMember(after["user"], "id") == it::StringMember(before["user"], "id"), "the same person");
  // Out of every mapped group: refused (the default is refuse), and the stored role is unchanged.
  f.provider.SetGroups("alice@corp.test", {"sales"});
  it::Browser third;
  it::ExpectError(f.SignIn(third, "alice@corp.test"), 403, "SSO_ACCESS_REFUSED");
}

BOOST_AUTO_TEST_CASE(the_refuse_default_refuses_a_person_in_no_mapped_group_and_a_default_role_admits) {
  SsoFixture f;
  f.Configure();
  long sessions = f.Sessions(), users = f.Users();
  it::Browser browser;
  ExpectRefused(f, f.SignIn(browser, "bob@corp.test"), 403, "SSO_ACCESS_REFUSED", sessions, users);
  std::vector<it::PgRow> failed = it::AuditRows(f.t.id(), "login.sso_failed");
  BOOST_TEST_REQUIRE(failed.size() == 1u);
  BOOST_TEST(failed[0][4]->find("SSO_ACCESS_REFUSED") != std::string::npos, *failed[0][4]);

  f.Configure(R"(, "defaultRole": "viewer")");
  it::Browser again;
  BOOST_TEST_REQUIRE(f.SignIn(again, "bob@corp.test").status == 303);
  BOOST_TEST(RoleOf(RefreshWithCookie(f.t.subdomain(), again)) == "viewer");
}

BOOST_AUTO_TEST_CASE(sso_required_refuses_password_sign_in_but_not_the_break_glass_admin) {
  SsoFixture f;
  f.Configure(R"(, "required": true, "breakGlassEmail": )" + it::Quote(icat::Upper(f.t.admin.email)));
  BOOST_TEST(it::ExpectJson200(it::Get("/api/auth/oidc/provider?tenant=" + f.t.subdomain()))["required"].GetBool());
  it::ExpectError(it::Login(f.t.subdomain(), f.t.user.email), 403, "SSO_REQUIRED");
  it::ExpectError(it::Login(f.t.subdomain(), f.t.viewer.email, "not even the password"), 403, "SSO_REQUIRED");
  it::ExpectJson200(it::Login(f.t.subdomain(), f.t.admin.email));  // the break-glass admin, any case
  // A refusal judged no password, so it leaves the address its attempts (5 per window): after more
  // refusals than that from one address, the break-glass admin still signs in from it.
  std::string address = it::RandomClientIp();
  for (int i = 0; i < 7; i++)
    it::ExpectError(it::Login(f.t.subdomain(), f.t.user.email, "x", address), 403, "SSO_REQUIRED");
  it::ExpectJson200(it::Login(f.t.subdomain(), f.t.admin.email, it::kPortalPassword, address));
  f.Configure();  // not required any more
  it::ExpectJson200(it::Login(f.t.subdomain(), f.t.user.email));
}

BOOST_AUTO_TEST_CASE(an_sso_session_ends_at_its_hard_end_however_often_it_is_refreshed) {
  SsoFixture f;
  f.Configure();
  it::Browser browser;
  BOOST_TEST_REQUIRE(f.SignIn(browser, "alice@corp.test").status == 303);
  // Refreshed twice; each rotated token keeps the family's end.
  it::Response first = RefreshWith(f.t.subdomain(), browser.RefreshCookie());
  rapidjson::Document session = it::ExpectJson200(first);
  it::Response second = RefreshWith(f.t.subdomain(), CookieOf(first));
  it::ExpectJson200(second);
  BOOST_TEST(*it::PgQuery("SELECT count(*) FILTER (WHERE session_ends_at IS NOT NULL) || '/' || "
                          "count(DISTINCT session_ends_at) FROM refresh_tokens WHERE tenant_id = $1",
                          {f.t.id()})[0][0] == "3/1");
  it::PgQuery("UPDATE refresh_tokens SET session_ends_at = now() - interval '1 second' WHERE tenant_id = $1",
              {f.t.id()});
  // The newest token, unused and unexpired, is refused now: the session is over.
  it::ExpectError(RefreshWith(f.t.subdomain(), CookieOf(second)), 401, "UNAUTHENTICATED");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM refresh_tokens WHERE tenant_id = $1 AND revoked_at IS NOT NULL",
                          {f.t.id()})[0][0] == "0",
             "refused as over, not as reused");
  // Its access token stops with it.
  it::ExpectError(it::Get("/api/auth/me", {{"Authorization", "Bearer " + it::StringMember(session, "accessToken")},
                                           {"X-Tenant", f.t.subdomain()}}),
                  401, "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_CASE(a_tampered_replayed_expired_or_foreign_state_is_refused_without_a_session) {
  SsoFixture f;
  f.Configure();
  long sessions = f.Sessions(), users = f.Users();
  {  // tampered: one character of the state changed
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    std::string state = it::QueryParameter(callback, "state");
    std::string changed = state.substr(0, state.size() - 1) + (state.back() == 'A' ? "B" : "A");
    std::string code = it::QueryParameter(callback, "code");
    ExpectRefused(f, browser.Go("GET", it::SsoCallbackUrl() + "?code=" + code + "&state=" + changed), 400,
                  "SSO_STATE_INVALID", sessions, users);
    // A state naming no tenant, and none at all.
    ExpectRefused(f,
                  browser.Go("GET", it::SsoCallbackUrl() + "?code=" + code + "&state=nosuch" + it::RandomSuffix(4) +
                                        state.substr(state.find('.'))),
                  400, "SSO_STATE_INVALID", sessions, users);
    ExpectRefused(f, browser.Go("GET", it::SsoCallbackUrl() + "?code=" + code), 400, "SSO_STATE_INVALID", sessions,
                  users);
  }
  {  // replayed: the callback of a sign-in that succeeded, once more
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    BOOST_TEST_REQUIRE(browser.Go("GET", callback).status == 303);
    sessions = f.Sessions();
    users = f.Users();
    ExpectRefused(f, browser.Go("GET", callback), 400, "SSO_STATE_INVALID", sessions, users);
  }
  {  // another browser's: the state carried to a browser without the icat_sso cookie, or with another
    it::Browser victim, attacker;
    std::string callback = victim.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    ExpectRefused(f, attacker.Go("GET", callback), 400, "SSO_STATE_INVALID", sessions, users);
    // Used once: the refused try used it up for its own browser too.
    ExpectRefused(f, victim.Go("GET", callback), 400, "SSO_STATE_INVALID", sessions, users);
    it::Browser second_victim, other;
    callback = second_victim.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    BOOST_TEST_REQUIRE(other.Go("GET", "/api/auth/oidc/start?tenant=" + f.t.subdomain()).status == 302);
    ExpectRefused(f, other.Go("GET", callback), 400, "SSO_STATE_INVALID", sessions, users);
  }
  {  // expired: more than ten minutes between start and callback
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    it::PgQuery("UPDATE sso_sign_ins SET expires_at = now() - interval '1 second' WHERE tenant_id = $1", {f.t.id()});
    ExpectRefused(f, browser.Go("GET", callback), 400, "SSO_STATE_INVALID", sessions, users);
  }
  // A browser is sent to the console's sign-in page instead, which explains the error.
  it::Browser browser;
  it::Response page = browser.Go("GET", it::SsoCallbackUrl() + "?code=x&state=" + f.t.subdomain() + ".unknown",
                                 {{"Accept", "text/html,application/xhtml+xml"}});
  BOOST_TEST(page.status == 303);
  BOOST_TEST(page.Header("location") == "/sign-in?ssoError=SSO_STATE_INVALID");
  BOOST_TEST(it::AuditRows(f.t.id(), "login.sso_failed").size() >= 6u);
}

BOOST_AUTO_TEST_CASE(a_wrong_pkce_verifier_a_provider_error_and_another_tenants_code_are_refused) {
  SsoFixture f;
  f.Configure();
  long sessions = f.Sessions(), users = f.Users();
  {  // the verifier stored at start changed before the callback: the provider refuses the code
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    it::PgQuery("UPDATE sso_sign_ins SET code_verifier = $2 WHERE tenant_id = $1", {f.t.id(), std::string(43, 'v')});
    ExpectRefused(f, browser.Go("GET", callback), 401, "SSO_PROVIDER_ERROR", sessions, users);
  }
  {  // the provider's own refusal
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    std::string state = it::QueryParameter(callback, "state");
    ExpectRefused(f,
                  browser.Go("GET", it::SsoCallbackUrl() + "?error=access_denied&error_description=no&state=" + state),
                  401, "SSO_PROVIDER_ERROR", sessions, users);
  }
  {  // a code the provider issued to another tenant's client, brought to this tenant's sign-in
    it::PortalTenant other;
    std::string other_client = "icat-" + other.subdomain(), other_secret = "secret-" + it::RandomSuffix(16);
    it::OidcProvider shared{
        {{f.client_id, f.client_secret, {it::SsoCallbackUrl()}}, {other_client, other_secret, {it::SsoCallbackUrl()}}},
        f.Accounts()};
    auto config = [&](const std::string& client, const std::string& secret) {
      return R"({"issuer": )" + it::Quote(shared.issuer()) + R"(, "clientId": )" + it::Quote(client) +
             R"(, "clientSecret": )" + it::Quote(secret) + R"(, "roleMapping": {"eng": "user"}})";
    };
    it::ExpectJson200(f.Put(config(f.client_id, f.client_secret)));
    it::ExpectJson200(it::Send("PUT", "/api/sso", other.As(other.admin), config(other_client, other_secret)));
    it::Browser theirs;
    std::string their_code =
        it::QueryParameter(theirs.SignInAtProvider(other.subdomain(), "alice@corp.test", kAccountPassword), "code");
    it::Browser browser;
    std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
    std::string state = it::QueryParameter(callback, "state");
    // Counted again here: each PortalTenant::As above made a session of its own (a test token's).
    sessions = f.Sessions();
    users = f.Users();
    ExpectRefused(f,
                  browser.Go("GET", it::SsoCallbackUrl() + "?code=" + icat::UrlEncode(their_code) + "&state=" + state),
                  401, "SSO_PROVIDER_ERROR", sessions, users);
  }
}

BOOST_AUTO_TEST_CASE(an_id_token_failing_any_check_is_refused_with_its_reason_and_no_session) {
  SsoFixture f;
  f.Configure();
  long sessions = f.Sessions(), users = f.Users();
  // Each way the provider's answer is spoiled, and the reason words its refusal may give.
  const std::vector<std::pair<std::string, std::vector<std::string>>> modes = {
      {"wrong-nonce", {"nonce"}}, {"other-key", {"kid", "signature"}},
      {"none", {"alg"}},          {"hs256-public", {"alg"}},
      {"wrong-aud", {"aud"}},     {"expired", {"exp"}},
      {"wrong-iss", {"iss"}},
  };
  for (const auto& [mode, reasons] : modes) {
    BOOST_TEST_CONTEXT(mode) {
      f.provider.Tamper(mode);
      it::Browser browser;
      it::Response r = f.SignIn(browser, "alice@corp.test");
      ExpectRefused(f, r, 401, "SSO_TOKEN_INVALID", sessions, users);
      rapidjson::Document body = it::JsonOf(r);
      BOOST_TEST_REQUIRE(body.HasMember("details"));
      BOOST_TEST(it::StringMember(body["details"][0], "field") == "id_token");
      std::string issue = it::StringMember(body["details"][0], "issue");
      bool named = false;
      for (const std::string& reason : reasons) named = named || issue.rfind(reason + ":", 0) == 0;
      BOOST_TEST(named, issue);
    }
  }
  f.provider.Tamper("off");
  it::Browser browser;
  BOOST_TEST(f.SignIn(browser, "alice@corp.test").status == 303);  // the same flow, unspoiled, signs in
}

BOOST_AUTO_TEST_CASE(a_local_users_email_is_linked_only_when_the_provider_verified_it) {
  SsoFixture f;
  // The provider's alice has the email of the tenant's user; first unverified, then verified.
  it::PgQuery("UPDATE users SET email = 'alice@corp.test' WHERE id = $1::uuid", {f.t.user.id});
  f.Configure();
  it::OidcProvider unverified{{{f.client_id, f.client_secret, {it::SsoCallbackUrl()}}},
                              {{"sub-alice", "alice@corp.test", false, std::string(kAccountPassword), {"eng"}, ""}}};
  it::ExpectJson200(f.Put(R"({"issuer": )" + it::Quote(unverified.issuer()) + R"(, "clientId": )" +
                          it::Quote(f.client_id) + R"(, "clientSecret": )" + it::Quote(f.client_secret) +
                          R"(, "roleMapping": {"eng": "user"}})"));
  long sessions = f.Sessions(), users = f.Users();
  it::Browser browser;
  ExpectRefused(f, f.SignIn(browser, "alice@corp.test"), 403, "SSO_ACCESS_REFUSED", sessions, users);

  f.Configure();  // the first provider, whose alice is verified
  it::Browser verified;
  BOOST_TEST_REQUIRE(f.SignIn(verified, "alice@corp.test").status == 303);
  BOOST_TEST(it::StringMember(RefreshWithCookie(f.t.subdomain(), verified)["user"], "id") == f.t.user.id);
  BOOST_TEST(f.Users() == users, "linked, not created");
  // Disabled in the portal: refused whatever the provider says.
  it::ExpectJson200(it::Send("PUT", "/api/users/" + f.t.user.id, f.t.As(f.t.admin), R"({"disabled": true})"));
  it::Browser later;
  it::ExpectError(f.SignIn(later, "alice@corp.test"), 403, "SSO_ACCESS_REFUSED");
}

BOOST_AUTO_TEST_CASE(start_refuses_an_unknown_tenant_and_a_next_that_leaves_the_console) {
  SsoFixture f;
  it::ExpectError(it::Get("/api/auth/oidc/start?tenant=" + f.t.subdomain()), 404, "SSO_NOT_CONFIGURED");
  f.Configure();
  it::ExpectError(it::Get("/api/auth/oidc/start?tenant=no-such-" + it::RandomSuffix(6)), 404, "SSO_NOT_CONFIGURED");
  for (const char* next : {"//evil.test/", "https://evil.test/", "/\\evil.test", "images"}) {
    BOOST_TEST_CONTEXT(next) {
      it::Response r = it::Get("/api/auth/oidc/start?tenant=" + f.t.subdomain() + "&next=" + icat::UrlEncode(next));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"next"}));
    }
  }
  it::Response r = it::Get("/api/auth/oidc/start?tenant=" + f.t.subdomain());
  BOOST_TEST_REQUIRE(r.status == 302, r.Summary());
  std::string location = r.Header("location");
  BOOST_TEST(location.rfind(f.provider.issuer(), 0) == 0u, location);
  BOOST_TEST(it::QueryParameter(location, "code_challenge_method") == "S256");
  BOOST_TEST(it::QueryParameter(location, "client_id") == f.client_id);
  BOOST_TEST(it::QueryParameter(location, "redirect_uri") == it::SsoCallbackUrl());
  BOOST_TEST(it::QueryParameter(location, "state").rfind(f.t.subdomain() + ".", 0) == 0u);
  BOOST_TEST(r.Header("set-cookie").find("icat_sso=") == 0u, r.Header("set-cookie"));
  BOOST_TEST(r.Header("set-cookie").find("SameSite=Lax") != std::string::npos);
}

// The race of two first sign-ins of one email, made certain: a transaction of the test's holds a new
// user of that email, uncommitted, while the callback's insert waits for it; it commits, the
// callback's insert finds the email taken: 409 and nothing half made. Signing in again links.
BOOST_AUTO_TEST_CASE(a_first_sign_in_racing_another_of_the_same_email_is_a_409_then_links) {
  SsoFixture f;
  f.Configure();
  long sessions = f.Sessions();
  it::Browser browser;
  std::string callback = browser.SignInAtProvider(f.t.subdomain(), "alice@corp.test", kAccountPassword);
  it::PgConnection other;
  other.Query("BEGIN");
  other.Query("INSERT INTO users (tenant_id, email, role) VALUES ($1, 'alice@corp.test', 'viewer')", {f.t.id()});
  std::future<it::Response> answer = std::async(std::launch::async, [&] { return browser.Go("GET", callback); });
  auto waiting = [] {
    return !it::PgQuery("SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted").empty();
  };
  for (int i = 0; i < 200 && !waiting(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  BOOST_TEST_REQUIRE(waiting(), "the callback's insert never waited for the other transaction");
  other.Query("COMMIT");
  ExpectRefused(f, answer.get(), 409, "CONFLICT", sessions, f.Users());
  BOOST_TEST(it::PgQuery("SELECT 1 FROM user_identities WHERE tenant_id = $1", {f.t.id()}).empty());

  it::Browser again;
  it::Response landed = f.SignIn(again, "alice@corp.test");
  BOOST_TEST_REQUIRE(landed.status == 303, landed.Summary());
  BOOST_TEST(it::PgQuery("SELECT 1 FROM user_identities WHERE tenant_id = $1", {f.t.id()}).size() == 1u);
}

BOOST_AUTO_TEST_CASE(start_answers_401_when_the_provider_cannot_be_reached) {
  it::PortalTenant t;
  std::string client_id = "icat-" + t.subdomain(), client_secret = "secret-" + it::RandomSuffix(16);
  {  // saved while the provider answers (the save fetches its discovery), then the provider stops
    it::OidcProvider gone{{{client_id, client_secret, {it::SsoCallbackUrl()}}}, {}};
    it::ExpectJson200(it::Send("PUT", "/api/sso", t.As(t.admin),
                               R"({"issuer": )" + it::Quote(gone.issuer()) + R"(, "clientId": )" +
                                   it::Quote(client_id) + R"(, "clientSecret": )" + it::Quote(client_secret) + "}"));
  }
  // No auth worker has fetched this issuer before (a port of its own), so none has it cached.
  it::Response r = it::Get("/api/auth/oidc/start?tenant=" + t.subdomain());
  it::ExpectError(r, 401, "SSO_PROVIDER_ERROR");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM sso_sign_ins WHERE tenant_id = $1", {t.id()})[0][0] == "0",
             "a sign-in was begun with a provider that cannot be reached");
}

BOOST_AUTO_TEST_SUITE_END()
