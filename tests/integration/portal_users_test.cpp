// Tenant users in the portal: admins create, list, change, disable and delete users; a new user sets
// a password once through a set-up link and is signed in; the last active admin stays; a signed-in
// person changes their password and ends their other sessions; the console's refresh-token cookie.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <future>

#include "icat/crypto.hpp"
#include "icat/login_limit.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

constexpr std::string_view kNewPassword = "a brand new passphrase";
// Exactly as the console receives it: refresh lifetime 30 days (ICAT_REFRESH_TOKEN_DAYS default).
constexpr std::string_view kCookieAttributes = "; Max-Age=2592000; Path=/api/auth; HttpOnly; Secure; SameSite=Strict";
constexpr std::string_view kClearedCookie = "icat_refresh=; Max-Age=0; Path=/api/auth; HttpOnly; Secure; SameSite=Strict";

rapidjson::Document ExpectSession(const it::Response& r, bool with_refresh_token = true) {
  rapidjson::Document body = it::ExpectJson200(r);
  BOOST_TEST_CONTEXT(r.Summary()) {
    BOOST_TEST(!it::StringMember(body, "accessToken").empty());
    BOOST_TEST(body.HasMember("refreshToken") == with_refresh_token);
    BOOST_TEST(it::IntMember(body, "expiresIn") == 900);
    BOOST_TEST(r.Header("cache-control") == "no-store");
  }
  return body;
}

it::Headers Portal(const std::string& access_token, const std::string& tenant) {
  return {{"Authorization", "Bearer " + access_token}, {"X-Tenant", tenant}, {"Content-Type", "application/json"}};
}

it::Headers Public(const std::string& tenant) { return {{"X-Tenant", tenant}, {"Content-Type", "application/json"}}; }

// POST /api/users as the tenant's admin: the 201's body.
rapidjson::Document CreateUser(const it::PortalTenant& t, std::string_view role, const std::string& email = "") {
  std::string address = email.empty() ? "new-" + it::RandomSuffix(6) + "@" + t.subdomain() + ".test" : email;
  it::Response r = it::Send("POST", "/api/users", t.As(t.admin),
                            "{\"email\": " + it::Quote(address) + ", \"role\": " + it::Quote(role) + "}");
  BOOST_TEST_REQUIRE(r.status == 201, r.Summary());
  BOOST_TEST(r.Header("cache-control") == "no-store");
  rapidjson::Document body;
  body.Parse(r.body.c_str());
  return body;
}

it::Response Setup(const std::string& tenant, const std::string& token, std::string_view password = kNewPassword,
                   const it::Headers& extra = {}) {
  it::Headers headers = Public(tenant);
  headers.insert(headers.end(), extra.begin(), extra.end());
  return it::Send("POST", "/api/auth/setup", headers,
                  "{\"token\": " + it::Quote(token) + ", \"password\": " + it::Quote(password) + "}");
}

// POST /api/auth/password from an address of its own (it counts against the login limits).
it::Response ChangePassword(const std::string& access_token, const std::string& tenant, std::string_view current,
                            std::string_view replacement, const it::Headers& extra = {}) {
  it::Headers headers = Portal(access_token, tenant);
  headers.insert(headers.end(), extra.begin(), extra.end());
  return it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/password", headers,
                      "{\"currentPassword\": " + it::Quote(current) + ", \"newPassword\": " + it::Quote(replacement) +
                          "}");
}

it::Response Put(const it::PortalTenant& t, const it::PortalUser& as, const std::string& id, const std::string& body) {
  return it::Send("PUT", "/api/users/" + id, t.As(as), body);
}

// The user's entry in GET /api/users (a null value when absent).
rapidjson::Document Listed(const it::PortalTenant& t, const std::string& id) {
  rapidjson::Document list = it::ExpectJson200(it::Get("/api/users?limit=200", t.As(t.admin)));
  rapidjson::Document found;
  for (const rapidjson::Value& u : list["users"].GetArray()) {
    if (it::StringMember(u, "id") == id) found.CopyFrom(u, found.GetAllocator());
  }
  return found;
}

long long ActiveAdmins(const it::PortalTenant& t) {
  return std::stoll(*it::PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1 AND role = 'admin' "
                                 "AND disabled_at IS NULL AND password_hash IS NOT NULL",
                                 {t.id()})
                         .at(0)
                         .at(0));
}

// The refresh token of a Set-Cookie header, after checking its attributes are exactly the console's.
std::string CookieToken(const it::Response& r) {
  std::string cookie = r.Header("set-cookie");
  BOOST_TEST_REQUIRE(cookie.rfind("icat_refresh=", 0) == 0u, r.Summary());
  size_t end = cookie.find(';');
  std::string token = cookie.substr(13, end - 13);
  BOOST_TEST(token.size() == 43u);
  BOOST_TEST(cookie.substr(end) == kCookieAttributes);
  return token;
}

it::Response CookieCall(std::string_view action, const std::string& tenant, const std::string& cookie_token,
                        const std::string& body = "{}") {
  it::Headers headers = Public(tenant);
  headers.emplace_back("X-Session-Cookie", "1");
  if (!cookie_token.empty()) headers.emplace_back("Cookie", "theme=dark; icat_refresh=" + cookie_token);
  return it::Send("POST", "/api/auth/" + std::string(action), headers, body);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_users)

BOOST_AUTO_TEST_CASE(admin_creates_a_user_whose_setup_link_works_once_and_signs_them_in) {
  it::PortalTenant t;
  std::string email = "Ada-" + it::RandomSuffix(6) + "@" + t.subdomain() + ".test";
  rapidjson::Document created = CreateUser(t, "user", email);
  std::string id = it::StringMember(created, "id"), token = it::StringMember(created, "setupToken");
  BOOST_TEST(it::StringMember(created, "email") == email);
  BOOST_TEST(it::StringMember(created, "role") == "user");
  BOOST_TEST(it::StringMember(created, "state") == "pending_setup");
  BOOST_TEST(it::IsNullMember(created, "disabledAt"));
  BOOST_TEST(it::IsNullMember(created, "lastLoginAt"));
  BOOST_TEST(token.size() == 43u);  // 32 random bytes, base64url
  std::optional<long long> expires = it::ParseRfc3339(it::StringMember(created, "setupExpiresAt"));
  BOOST_TEST_REQUIRE(expires.has_value());
  long long hours = (*expires - std::time(nullptr)) / 3600;
  BOOST_TEST((hours == 71 || hours == 72), hours);  // ICAT_SETUP_TOKEN_HOURS, 72 by default
  // Stored as SHA-256 only; the list never shows it again.
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM setup_tokens WHERE user_id = $1 AND token_hash = sha256($2::bytea)",
                          {id, token})
                  .at(0)
                  .at(0) == "1");
  rapidjson::Document listed = Listed(t, id);
  BOOST_TEST_REQUIRE(listed.IsObject());
  BOOST_TEST(!listed.HasMember("setupToken"));
  BOOST_TEST(it::StringMember(listed, "state") == "pending_setup");

  rapidjson::Document session = ExpectSession(Setup(t.subdomain(), token));
  BOOST_TEST(it::StringMember(session["user"], "id") == id);
  BOOST_TEST(it::StringMember(session["user"], "role") == "user");
  it::ExpectJson200(it::Get("/api/auth/me", Portal(it::StringMember(session, "accessToken"), t.subdomain())));
  ExpectSession(it::SessionCall("refresh", t.subdomain(), it::StringMember(session, "refreshToken")));

  it::Response again = Setup(t.subdomain(), token, "yet another passphrase");
  it::ExpectError(again, 401, "UNAUTHENTICATED");
  BOOST_TEST(again.body.find("already used") != std::string::npos, again.body);
  ExpectSession(it::Login(t.subdomain(), email, kNewPassword));
  it::ExpectError(it::Login(t.subdomain(), email, "yet another passphrase"), 401, "UNAUTHENTICATED");
  listed = Listed(t, id);
  BOOST_TEST(it::StringMember(listed, "state") == "active");
  BOOST_TEST(!it::IsNullMember(listed, "lastLoginAt"));

  // Audited, never with the token.
  for (std::string_view action : {"user.created", "user.setup_token_issued", "user.setup_completed"}) {
    std::vector<it::PgRow> rows = it::AuditRows(t.id(), action);
    BOOST_TEST_REQUIRE(rows.size() == 1u, action);
    BOOST_TEST(*rows[0][1] == id);
    BOOST_TEST(rows[0][4]->find(token) == std::string::npos);
  }
  BOOST_TEST(*it::AuditRows(t.id(), "user.created")[0][0] == "user:" + t.admin.id);
  BOOST_TEST(*it::AuditRows(t.id(), "user.setup_completed")[0][0] == "user:" + id);
}

BOOST_AUTO_TEST_CASE(pending_user_cannot_sign_in_and_gets_the_wrong_password_401_after_a_verification) {
  it::PortalTenant t;
  std::string email = "pending-" + it::RandomSuffix(6) + "@" + t.subdomain() + ".test";
  CreateUser(t, "viewer", email);
  it::Response wrong = it::Login(t.subdomain(), t.viewer.email, "not the password");
  auto started = std::chrono::steady_clock::now();
  it::Response pending = it::Login(t.subdomain(), email, "any password at all");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  it::ExpectError(pending, 401, "UNAUTHENTICATED");
  BOOST_TEST(pending.body == wrong.body);
  BOOST_TEST(seconds > 0.05, "a pending user's sign-in took " << seconds << " s: is scrypt skipped?");
  std::vector<it::PgRow> failed = it::AuditRows(t.id(), "login.failed");
  BOOST_TEST_REQUIRE(failed.size() == 2u);
  BOOST_TEST(failed[0][4]->find("pending_setup") != std::string::npos, *failed[0][4]);
}

BOOST_AUTO_TEST_CASE(expired_setup_link_is_refused_and_a_new_one_replaces_it) {
  it::PortalTenant t;
  rapidjson::Document created = CreateUser(t, "viewer");
  std::string id = it::StringMember(created, "id"), old_token = it::StringMember(created, "setupToken");
  it::PgQuery("UPDATE setup_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1", {id});
  it::Response expired = Setup(t.subdomain(), old_token);
  it::ExpectError(expired, 401, "UNAUTHENTICATED");
  BOOST_TEST(expired.body.find("expired") != std::string::npos, expired.body);

  it::Response reissued = it::Send("POST", "/api/users/" + id + "/setup-token", {{"Authorization", t.As(t.admin)[0].second},
                                                                                  {"X-Tenant", t.subdomain()}});
  BOOST_TEST_REQUIRE(reissued.status == 200, reissued.Summary());
  BOOST_TEST(reissued.Header("cache-control") == "no-store");
  rapidjson::Document body = it::JsonOf(reissued);
  std::string new_token = it::StringMember(body, "setupToken");
  BOOST_TEST(new_token != old_token);
  BOOST_TEST(it::StringMember(body, "id") == id);
  BOOST_TEST(it::StringMember(body, "state") == "pending_setup");
  BOOST_TEST(it::AuditRows(t.id(), "user.setup_token_issued").size() == 2u);
  it::ExpectError(Setup(t.subdomain(), old_token), 401, "UNAUTHENTICATED");  // replaced
  ExpectSession(Setup(t.subdomain(), new_token));
  // Set up now: no more links for this user; unknown and malformed ids are 404.
  it::ExpectError(it::Send("POST", "/api/users/" + id + "/setup-token", t.As(t.admin), "{}"), 409, "CONFLICT");
  it::ExpectError(it::Send("POST", "/api/users/" + icat::RandomUuid() + "/setup-token", t.As(t.admin), "{}"), 404,
                  "NOT_FOUND");
  it::ExpectError(it::Send("POST", "/api/users/nope/setup-token", t.As(t.admin), "{}"), 404, "NOT_FOUND");
  it::ExpectError(it::Send("POST", "/api/users/" + id + "/setup-token", t.As(t.admin), R"({"x": 1})"), 400,
                  "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(setup_refuses_unknown_tokens_short_passwords_and_disabled_users) {
  it::PortalTenant t;
  rapidjson::Document created = CreateUser(t, "viewer");
  std::string id = it::StringMember(created, "id"), token = it::StringMember(created, "setupToken");
  it::ExpectError(Setup(t.subdomain(), "not-a-token-" + it::RandomSuffix(8)), 401, "UNAUTHENTICATED");
  it::ExpectError(Setup("no-such-" + it::RandomSuffix(6), token), 401, "UNAUTHENTICATED");
  // 11 characters (22 bytes) are too few: characters are counted, not bytes.
  it::Response short_one = Setup(t.subdomain(), token, "ééééééééééé");
  it::ExpectError(short_one, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(short_one) == std::vector<std::string>{"password"}, boost::test_tools::per_element());
  it::Response missing = it::Send("POST", "/api/auth/setup", Public(t.subdomain()), R"({"password": 5, "tok": "x"})");
  it::ExpectError(missing, 400, "VALIDATION_ERROR");
  std::vector<std::string> fields = it::DetailFields(missing), expected = {"token", "password", "tok"};
  BOOST_TEST(fields == expected, boost::test_tools::per_element());
  // A disabled pending user cannot set up; enabled again, the same link works.
  BOOST_TEST(Put(t, t.admin, id, R"({"disabled": true})").status == 200);
  it::ExpectError(Setup(t.subdomain(), token), 401, "UNAUTHENTICATED");
  BOOST_TEST(Put(t, t.admin, id, R"({"disabled": false})").status == 200);
  ExpectSession(Setup(t.subdomain(), token, "éééééééééééé"));  // 12 characters
}

BOOST_AUTO_TEST_CASE(icatctl_user_create_keeps_the_same_password_rule) {
  it::PortalTenant t;
  std::string email = "ctl-" + it::RandomSuffix(6) + "@" + t.subdomain() + ".test";
  std::vector<std::string> create = {"user", "create", "--tenant", t.subdomain(), "--email", email, "--role", "viewer"};
  it::ProcessResult short_one = it::Icatctl(create, "ééééééééééé\n");  // 11 characters, 22 bytes
  BOOST_TEST(short_one.exit_code == 2, short_one.err);
  BOOST_TEST(short_one.err.find("must have at least 12 characters") != std::string::npos, short_one.err);
  std::string id = it::IcatctlOk(create, "éééééééééééé\n");
  BOOST_TEST(it::StringMember(Listed(t, id), "state") == "active");
  ExpectSession(it::Login(t.subdomain(), email, "éééééééééééé"));
}

BOOST_AUTO_TEST_CASE(viewer_and_user_get_403_on_every_users_call) {
  it::PortalTenant t;
  for (const it::PortalUser* who : {&t.user, &t.viewer}) {
    BOOST_TEST_CONTEXT(who->role) {
      it::ExpectError(it::Get("/api/users", t.As(*who)), 403, "FORBIDDEN");
      it::ExpectError(it::Send("POST", "/api/users", t.As(*who), R"({"email": "x@y.test", "role": "admin"})"), 403,
                      "FORBIDDEN");
      it::ExpectError(Put(t, *who, who->id, R"({"role": "admin"})"), 403, "FORBIDDEN");
      it::ExpectError(it::Send("DELETE", "/api/users/" + t.admin.id, t.As(*who)), 403, "FORBIDDEN");
      it::ExpectError(it::Send("POST", "/api/users/" + t.admin.id + "/setup-token", t.As(*who), "{}"), 403,
                      "FORBIDDEN");
    }
  }
  BOOST_TEST(*it::PgQuery("SELECT role FROM users WHERE id = $1", {t.user.id}).at(0).at(0) == "user");
  BOOST_TEST(it::AuditRows(t.id(), "role.denied").size() == 10u);
}

BOOST_AUTO_TEST_CASE(an_admin_demoted_or_disabled_meanwhile_cannot_manage_users_with_their_old_token) {
  it::PortalTenant t;
  it::PortalUser second = t.AddUser("admin");
  it::Headers stale = t.As(second);  // minted while second was an admin
  BOOST_TEST(Put(t, t.admin, second.id, R"({"role": "viewer"})").status == 200);
  it::ExpectError(Put(t, second, second.id, R"({"role": "admin"})"), 403, "FORBIDDEN");
  it::ExpectError(it::Get("/api/users", stale), 403, "FORBIDDEN");
  BOOST_TEST(*it::PgQuery("SELECT role FROM users WHERE id = $1", {second.id}).at(0).at(0) == "viewer");
}

BOOST_AUTO_TEST_CASE(last_admin_cannot_be_demoted_disabled_or_deleted) {
  it::PortalTenant t;  // one admin
  for (const std::string& change : {std::string(R"({"role": "user"})"), std::string(R"({"disabled": true})"),
                                    std::string(R"({"role": "viewer", "disabled": false})")}) {
    it::Response r = Put(t, t.admin, t.admin.id, change);
    it::ExpectError(r, 409, "CONFLICT");
    BOOST_TEST(r.body.find("last active admin") != std::string::npos, r.body);
  }
  it::ExpectError(it::Send("DELETE", "/api/users/" + t.admin.id, t.As(t.admin)), 409, "CONFLICT");
  // A pending admin does not count: they cannot sign in yet.
  CreateUser(t, "admin");
  it::ExpectError(Put(t, t.admin, t.admin.id, R"({"role": "user"})"), 409, "CONFLICT");
  BOOST_TEST(ActiveAdmins(t) == 1);
  // Another active admin: then the first may step down, and delete themselves.
  it::PortalUser second = t.AddUser("admin");
  rapidjson::Document demoted = it::JsonOf(Put(t, t.admin, t.admin.id, R"({"role": "user"})"));
  BOOST_TEST(it::StringMember(demoted, "role") == "user");
  it::ExpectError(Put(t, second, second.id, R"({"disabled": true})"), 409, "CONFLICT");
  BOOST_TEST(Put(t, second, t.admin.id, R"({"role": "admin"})").status == 200);
  it::Response gone = it::Send("DELETE", "/api/users/" + t.admin.id, t.As(t.admin));
  BOOST_TEST(gone.status == 204, gone.Summary());
  BOOST_TEST(ActiveAdmins(t) == 1);
}

BOOST_AUTO_TEST_CASE(two_admins_demoting_each_other_at_once_leave_one_admin) {
  for (int round = 0; round < 3; round++) {
    it::PortalTenant t;
    it::PortalUser second = t.AddUser("admin");
    std::future<it::Response> one =
        std::async(std::launch::async, [&] { return Put(t, t.admin, second.id, R"({"role": "viewer"})"); });
    std::future<it::Response> two =
        std::async(std::launch::async, [&] { return Put(t, second, t.admin.id, R"({"disabled": true})"); });
    it::Response a = one.get(), b = two.get();
    // The second is refused with 409 (it saw no other admin once the first committed), 403 (its
    // caller had been demoted when it looked) or 401 (its caller had been disabled).
    BOOST_TEST_CONTEXT(a.Summary() << " / " << b.Summary()) {
      auto refused = [](long status) { return status == 409 || status == 403 || status == 401; };
      BOOST_TEST(((a.status == 200 && refused(b.status)) || (refused(a.status) && b.status == 200)));
      BOOST_TEST(ActiveAdmins(t) == 1);
    }
  }
}

BOOST_AUTO_TEST_CASE(disabling_a_user_ends_their_sessions_and_is_audited_with_what_changed) {
  it::PortalTenant t;
  std::string r1 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.user.email)), "refreshToken");
  std::string r2 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.user.email)), "refreshToken");
  rapidjson::Document changed = it::JsonOf(Put(t, t.admin, t.user.id, R"({"disabled": true, "role": "viewer"})"));
  BOOST_TEST(it::StringMember(changed, "state") == "disabled");
  BOOST_TEST(it::StringMember(changed, "role") == "viewer");
  BOOST_TEST(!it::IsNullMember(changed, "disabledAt"));
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r1), 401, "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r2), 401, "UNAUTHENTICATED");
  it::ExpectError(it::Login(t.subdomain(), t.user.email), 401, "UNAUTHENTICATED");
  std::vector<it::PgRow> updated = it::AuditRows(t.id(), "user.updated");
  BOOST_TEST_REQUIRE(updated.size() == 1u);
  rapidjson::Document detail;
  detail.Parse(updated[0][4]->c_str());
  BOOST_TEST(it::StringMember(detail["role"], "from") == "user");
  BOOST_TEST(it::StringMember(detail["role"], "to") == "viewer");
  BOOST_TEST(detail["disabled"]["to"].GetBool());
  BOOST_TEST(it::IntMember(detail, "sessionsRevoked") == 2);
  // Enabled again: the password still works.
  rapidjson::Document enabled = it::JsonOf(Put(t, t.admin, t.user.id, R"({"disabled": false})"));
  BOOST_TEST(it::StringMember(enabled, "state") == "active");
  BOOST_TEST(it::IsNullMember(enabled, "disabledAt"));
  ExpectSession(it::Login(t.subdomain(), t.user.email));
}

BOOST_AUTO_TEST_CASE(delete_is_204_audited_and_ends_the_users_sessions) {
  it::PortalTenant t;
  std::string refresh = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.viewer.email)), "refreshToken");
  it::Response r = it::Send("DELETE", "/api/users/" + t.viewer.id, t.As(t.admin));
  BOOST_TEST(r.status == 204, r.Summary());
  BOOST_TEST(r.body.empty());
  BOOST_TEST(Listed(t, t.viewer.id).IsNull());
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), refresh), 401, "UNAUTHENTICATED");
  it::ExpectError(it::Send("DELETE", "/api/users/" + t.viewer.id, t.As(t.admin)), 404, "NOT_FOUND");
  std::vector<it::PgRow> deleted = it::AuditRows(t.id(), "user.deleted");
  BOOST_TEST_REQUIRE(deleted.size() == 1u);
  BOOST_TEST(deleted[0][4]->find(t.viewer.email) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(create_refuses_a_taken_email_and_bad_fields) {
  it::PortalTenant t;
  std::string upper = t.user.email;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  it::ExpectError(it::Send("POST", "/api/users", t.As(t.admin), "{\"email\": " + it::Quote(upper) + ", \"role\": \"user\"}"),
                  409, "CONFLICT");
  it::Response bad = it::Send("POST", "/api/users", t.As(t.admin), R"({"email": "no-at-sign", "role": "owner", "x": 1})");
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  std::vector<std::string> fields = it::DetailFields(bad), expected = {"email", "role", "x"};
  BOOST_TEST(fields == expected, boost::test_tools::per_element());
  it::Response empty = Put(t, t.admin, t.user.id, "{}");
  it::ExpectError(empty, 400, "VALIDATION_ERROR");
  it::ExpectError(Put(t, t.admin, t.user.id, R"({"disabled": "yes"})"), 400, "VALIDATION_ERROR");
  it::ExpectError(Put(t, t.admin, icat::RandomUuid(), R"({"role": "user"})"), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(another_tenants_admin_sees_and_touches_none_of_these_users) {
  it::PortalTenant a, b;
  rapidjson::Document list = it::ExpectJson200(it::Get("/api/users?limit=200", b.As(b.admin)));
  BOOST_TEST(list["users"].Size() == 3u);
  for (const rapidjson::Value& u : list["users"].GetArray()) {
    BOOST_TEST(it::StringMember(u, "email").find(b.subdomain()) != std::string::npos);
  }
  it::ExpectError(Put(b, b.admin, a.user.id, R"({"role": "admin"})"), 404, "NOT_FOUND");
  it::ExpectError(Put(b, b.admin, a.admin.id, R"({"disabled": true})"), 404, "NOT_FOUND");
  it::ExpectError(it::Send("DELETE", "/api/users/" + a.viewer.id, b.As(b.admin)), 404, "NOT_FOUND");
  it::ExpectError(it::Send("POST", "/api/users/" + a.viewer.id + "/setup-token", b.As(b.admin), "{}"), 404,
                  "NOT_FOUND");
  // A's set-up link is no good on B.
  std::string token = it::StringMember(CreateUser(a, "viewer"), "setupToken");
  it::ExpectError(Setup(b.subdomain(), token), 401, "UNAUTHENTICATED");
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1 AND disabled_at IS NULL AND "
                          "role = CASE WHEN id = $2 THEN 'user' ELSE role END",
                          {a.id(), a.user.id})
                  .at(0)
                  .at(0) == "4");
  BOOST_TEST(it::AuditRows(b.id(), "user.updated").empty());
}

BOOST_AUTO_TEST_CASE(password_change_ends_every_other_session_and_the_new_one_works) {
  it::PortalTenant t;
  rapidjson::Document first = ExpectSession(it::Login(t.subdomain(), t.viewer.email));
  std::string other_refresh =
      it::StringMember(ExpectSession(it::Login(t.subdomain(), t.viewer.email)), "refreshToken");
  std::string bystander = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.user.email)), "refreshToken");
  it::Response r = ChangePassword(it::StringMember(first, "accessToken"), t.subdomain(), it::kPortalPassword, kNewPassword);
  rapidjson::Document fresh = ExpectSession(r);
  BOOST_TEST(it::StringMember(fresh["user"], "id") == t.viewer.id);
  BOOST_TEST(it::StringMember(fresh["user"], "role") == "viewer");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), it::StringMember(first, "refreshToken")), 401,
                  "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), other_refresh), 401, "UNAUTHENTICATED");
  ExpectSession(it::SessionCall("refresh", t.subdomain(), it::StringMember(fresh, "refreshToken")));
  ExpectSession(it::SessionCall("refresh", t.subdomain(), bystander));  // another user's session stays
  it::ExpectJson200(it::Get("/api/auth/me", Portal(it::StringMember(fresh, "accessToken"), t.subdomain())));
  ExpectSession(it::Login(t.subdomain(), t.viewer.email, kNewPassword));
  it::ExpectError(it::Login(t.subdomain(), t.viewer.email), 401, "UNAUTHENTICATED");
  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "password.changed");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][0] == "user:" + t.viewer.id);
  rapidjson::Document detail;
  detail.Parse(audit[0][4]->c_str());
  BOOST_TEST(it::IntMember(detail, "sessionsRevoked") == 2);
  BOOST_TEST(audit[0][4]->find(std::string(kNewPassword)) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(wrong_current_password_is_401_without_a_challenge_and_counts_against_the_account) {
  it::PortalTenant t;
  std::string access = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.user.email)), "accessToken");
  it::Response r = ChangePassword(access, t.subdomain(), "not my password", kNewPassword);
  it::ExpectError(r, 401, "UNAUTHENTICATED");
  BOOST_TEST(!r.Has("www-authenticate"), "the session is fine: no cue to sign in again");
  std::optional<icat::RedisReply> failures = it::RedisCommand({"GET", icat::LoginAccountKey(t.subdomain(), t.user.email)});
  BOOST_TEST_REQUIRE(failures.has_value());
  BOOST_TEST(failures->text == "1");
  BOOST_TEST(it::AuditRows(t.id(), "password.change_failed").size() == 1u);
  BOOST_TEST(it::AuditRows(t.id(), "password.changed").empty());
  ExpectSession(it::Login(t.subdomain(), t.user.email));  // unchanged
}

BOOST_AUTO_TEST_CASE(too_short_or_unchanged_new_password_is_400_naming_newPassword) {
  it::PortalTenant t;
  std::string access = t.Token(t.user);
  for (std::string_view replacement : {std::string_view("short"), it::kPortalPassword}) {
    it::Response r = ChangePassword(access, t.subdomain(), it::kPortalPassword, replacement);
    it::ExpectError(r, 400, "VALIDATION_ERROR");
    BOOST_TEST(it::DetailFields(r) == std::vector<std::string>{"newPassword"}, boost::test_tools::per_element());
  }
  // Without a Bearer token it is the usual 401 with the challenge.
  it::Response anonymous = it::Send("POST", "/api/auth/password", Public(t.subdomain()),
                                    R"({"currentPassword": "x", "newPassword": "a long enough one"})");
  it::ExpectError(anonymous, 401, "UNAUTHENTICATED");
  BOOST_TEST(anonymous.Header("www-authenticate") == "Bearer");
}

BOOST_AUTO_TEST_CASE(cookie_mode_keeps_the_refresh_token_out_of_the_body_and_rotates_the_cookie) {
  it::PortalTenant t;
  it::Response login = it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, it::RandomClientIp(),
                                 {{"X-Session-Cookie", "1"}});
  ExpectSession(login, false);
  std::string first = CookieToken(login);
  it::Response refreshed = CookieCall("refresh", t.subdomain(), first);
  ExpectSession(refreshed, false);
  std::string second = CookieToken(refreshed);
  BOOST_TEST(second != first);
  // A cookie refresh without the opt-in header still answers in cookie mode (else the browser would
  // keep a used token).
  it::Response plain = it::Send("POST", "/api/auth/refresh",
                                {{"X-Tenant", t.subdomain()}, {"Content-Type", "application/json"},
                                 {"Cookie", "icat_refresh=" + second}},
                                "{}");
  ExpectSession(plain, false);
  std::string third = CookieToken(plain);
  // The body form is untouched for API clients, beside a cookie.
  it::Response body_form = it::SessionCall("refresh", t.subdomain(), third);
  ExpectSession(body_form, true);
  BOOST_TEST(!body_form.Has("set-cookie"));
  std::string fourth = it::StringMember(it::JsonOf(body_form), "refreshToken");
  // Cookie mode without a cookie: no session. Logout clears the cookie.
  it::Response none = CookieCall("refresh", t.subdomain(), "");
  it::ExpectError(none, 401, "UNAUTHENTICATED");
  it::Response out = CookieCall("logout", t.subdomain(), fourth);
  BOOST_TEST(out.status == 204, out.Summary());
  BOOST_TEST(out.Header("set-cookie") == kClearedCookie);
  it::Response after = CookieCall("refresh", t.subdomain(), fourth);
  it::ExpectError(after, 401, "UNAUTHENTICATED");
  BOOST_TEST(after.Header("set-cookie") == kClearedCookie);  // a refused cookie is cleared
  // Set-up and password change answer in cookie mode too.
  std::string token = it::StringMember(CreateUser(t, "user"), "setupToken");
  it::Response setup = Setup(t.subdomain(), token, kNewPassword, {{"X-Session-Cookie", "1"}});
  ExpectSession(setup, false);
  CookieToken(setup);
  it::Response changed = ChangePassword(it::StringMember(it::JsonOf(setup), "accessToken"), t.subdomain(), kNewPassword,
                                        "the third passphrase", {{"X-Session-Cookie", "1"}});
  ExpectSession(changed, false);
  CookieToken(changed);
  it::ExpectError(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, it::RandomClientIp(),
                            {{"X-Session-Cookie", "yes"}}),
                  400, "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(logout_everywhere_revokes_every_session_of_the_user) {
  it::PortalTenant t;
  std::string r1 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.viewer.email)), "refreshToken");
  std::string r2 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.viewer.email)), "refreshToken");
  std::string bystander = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.admin.email)), "refreshToken");
  it::Response out = it::Send("POST", "/api/auth/logout", Public(t.subdomain()),
                              "{\"refreshToken\": " + it::Quote(r1) + ", \"everywhere\": true}");
  BOOST_TEST(out.status == 204, out.Summary());
  BOOST_TEST(!out.Has("set-cookie"));
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r1), 401, "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r2), 401, "UNAUTHENTICATED");
  ExpectSession(it::SessionCall("refresh", t.subdomain(), bystander));
  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "sessions.revoked_everywhere");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][1] == t.viewer.id);
  rapidjson::Document detail;
  detail.Parse(audit[0][4]->c_str());
  BOOST_TEST(it::IntMember(detail, "sessionsRevoked") == 2);
  it::ExpectError(it::Send("POST", "/api/auth/refresh", Public(t.subdomain()),
                           "{\"refreshToken\": " + it::Quote(bystander) + ", \"everywhere\": true}"),
                  400, "VALIDATION_ERROR");  // only logout takes it
}

BOOST_AUTO_TEST_SUITE_END()
