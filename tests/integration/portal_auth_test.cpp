// Portal sessions: sign-in, refresh rotation and reuse, sign-out, /api/auth/me, the headers every
// portal request needs, bad tokens, and the login limits (per client IP, per account, Redis down,
// Postgres down).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

rapidjson::Document ExpectSession(const it::Response& r) {
  rapidjson::Document body = it::ExpectJson200(r);
  BOOST_TEST_CONTEXT(r.Summary()) {
    BOOST_TEST(!it::StringMember(body, "accessToken").empty());
    BOOST_TEST(it::StringMember(body, "refreshToken").size() >= 40u);
    BOOST_TEST(it::IntMember(body, "expiresIn") == 900);
    BOOST_TEST(it::StringMember(body, "tokenType") == "Bearer");
    BOOST_TEST(r.Header("cache-control") == "no-store");
  }
  return body;
}

it::Headers PortalHeaders(const std::string& token, const std::string& tenant) {
  return {{"Authorization", "Bearer " + token}, {"X-Tenant", tenant}};
}

double Seconds(const std::function<void()>& run) {
  auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The claims a token carries (its middle part), for checks of what sign-in issued.
rapidjson::Document Claims(const std::string& token) {
  size_t first = token.find('.'), second = token.rfind('.');
  std::optional<std::string> json = icat::Base64UrlDecode(token.substr(first + 1, second - first - 1));
  rapidjson::Document d;
  d.Parse(json.value_or("{}").c_str());
  return d;
}

std::string Part(const std::string& json) { return icat::Base64UrlEncode(json); }

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_sessions)

BOOST_AUTO_TEST_CASE(login_returns_tokens_lifetime_bearer_type_and_user_and_is_audited) {
  it::PortalTenant t;
  it::Response r = it::Login(t.subdomain(), t.viewer.email);
  rapidjson::Document body = ExpectSession(r);
  BOOST_TEST_REQUIRE(body["user"].IsObject());
  BOOST_TEST(it::StringMember(body["user"], "id") == t.viewer.id);
  BOOST_TEST(it::StringMember(body["user"], "email") == t.viewer.email);
  BOOST_TEST(it::StringMember(body["user"], "role") == "viewer");
  rapidjson::Document claims = Claims(it::StringMember(body, "accessToken"));
  BOOST_TEST(it::StringMember(claims, "sub") == t.viewer.id);
  BOOST_TEST(it::StringMember(claims, "tid") == t.id());
  BOOST_TEST(it::StringMember(claims, "role") == "viewer");
  BOOST_TEST(it::IntMember(claims, "exp") - it::IntMember(claims, "iat") == 900);

  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "login.succeeded");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][0] == "user:" + t.viewer.id);
  BOOST_TEST(*audit[0][3] == r.Header("x-request-id"));
}

BOOST_AUTO_TEST_CASE(login_email_is_case_insensitive_and_tenant_header_too) {
  it::PortalTenant t;
  std::string upper = t.admin.email;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  std::string tenant_upper = t.subdomain();
  std::transform(tenant_upper.begin(), tenant_upper.end(), tenant_upper.begin(), ::toupper);
  ExpectSession(it::Login(tenant_upper, upper));
}

BOOST_AUTO_TEST_CASE(wrong_password_unknown_email_and_unknown_tenant_get_the_same_401) {
  it::PortalTenant t;
  it::Response wrong = it::Login(t.subdomain(), t.admin.email, "not the password");
  it::Response unknown_email = it::Login(t.subdomain(), "nobody@nowhere.test");
  it::Response unknown_tenant = it::Login("no-such-" + it::RandomSuffix(8), t.admin.email);
  it::Response other_tenant = it::Login(it::PortalTenant().subdomain(), t.admin.email);
  for (const it::Response* r : {&wrong, &unknown_email, &unknown_tenant, &other_tenant}) {
    it::ExpectError(*r, 401, "UNAUTHENTICATED");
    BOOST_TEST(r->body == wrong.body, r->Summary());
  }
  std::vector<it::PgRow> failed = it::AuditRows(t.id(), "login.failed");
  BOOST_TEST_REQUIRE(failed.size() == 2u);  // the unknown tenant has no log to write to
  BOOST_TEST(failed[0][4]->find("unknown_user") != std::string::npos, *failed[0][4]);
  BOOST_TEST(failed[1][4]->find("wrong_password") != std::string::npos, *failed[1][4]);
}

BOOST_AUTO_TEST_CASE(unknown_email_and_unknown_tenant_cost_the_time_of_a_wrong_password) {
  it::PortalTenant t;
  std::vector<double> wrong, unknown_email, unknown_tenant;
  for (int i = 0; i < 3; i++) {
    wrong.push_back(Seconds([&] { it::Login(t.subdomain(), t.admin.email, "nope"); }));
    unknown_email.push_back(
        Seconds([&] { it::Login(t.subdomain(), "ghost-" + it::RandomSuffix(4) + "@x.test", "nope"); }));
    unknown_tenant.push_back(Seconds([&] { it::Login("ghost-" + it::RandomSuffix(8), t.admin.email, "nope"); }));
  }
  double base = Median(wrong);
  BOOST_TEST_MESSAGE("login 401 medians: wrong password " << base << " s, unknown email " << Median(unknown_email)
                                                          << " s, unknown tenant " << Median(unknown_tenant) << " s");
  BOOST_TEST(base > 0.05, "a wrong password took " << base << " s: is scrypt skipped?");
  // Without the dummy verification an unknown user answers in about a millisecond.
  for (double median : {Median(unknown_email), Median(unknown_tenant)}) {
    BOOST_TEST(median > base * 0.6);
    BOOST_TEST(median < base * 1.6 + 0.1);
  }
}

BOOST_AUTO_TEST_CASE(disabled_user_cannot_sign_in) {
  it::PortalTenant t;
  it::PgQuery("UPDATE users SET disabled_at = now() WHERE id = $1", {t.user.id});
  it::ExpectError(it::Login(t.subdomain(), t.user.email), 401, "UNAUTHENTICATED");
  // A token issued before is refused by /me, which reads the account as it is now.
  it::ExpectError(it::Get("/api/auth/me", PortalHeaders(t.Token(t.user), t.subdomain())), 401, "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_CASE(login_without_x_tenant_or_fields_is_400_with_one_detail_each) {
  it::Response r = it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/login", {{"Content-Type", "application/json"}},
                                R"({"emial": "a@b", "password": 5})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> fields = it::DetailFields(r);
  std::vector<std::string> expected = {"X-Tenant", "email", "password", "emial"};
  BOOST_TEST(fields == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(me_returns_the_user_and_the_tenant) {
  it::PortalTenant t;
  std::string token = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.user.email)), "accessToken");
  rapidjson::Document me = it::ExpectJson200(it::Get("/api/auth/me", PortalHeaders(token, t.subdomain())));
  BOOST_TEST(it::StringMember(me, "id") == t.user.id);
  BOOST_TEST(it::StringMember(me, "role") == "user");
  BOOST_TEST_REQUIRE(me["tenant"].IsObject());
  BOOST_TEST(it::StringMember(me["tenant"], "subdomain") == t.subdomain());
  BOOST_TEST(it::StringMember(me["tenant"], "id") == t.id());
}

BOOST_AUTO_TEST_CASE(refresh_rotates_and_a_reused_token_signs_out_the_whole_family) {
  it::PortalTenant t;
  rapidjson::Document first = ExpectSession(it::Login(t.subdomain(), t.admin.email));
  std::string r1 = it::StringMember(first, "refreshToken");
  rapidjson::Document second = ExpectSession(it::SessionCall("refresh", t.subdomain(), r1));
  std::string r2 = it::StringMember(second, "refreshToken");
  BOOST_TEST(r2 != r1);
  it::ExpectJson200(it::Get("/api/auth/me", PortalHeaders(it::StringMember(second, "accessToken"), t.subdomain())));
  rapidjson::Document third = ExpectSession(it::SessionCall("refresh", t.subdomain(), r2));
  std::string r3 = it::StringMember(third, "refreshToken");

  // r1 again: someone kept a used token. Its family (r3, the legitimate holder's) dies with it.
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r1), 401, "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r3), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::AuditRows(t.id(), "session.reuse_detected").size() == 1u);
  BOOST_TEST(it::AuditRows(t.id(), "session.refreshed").size() == 2u);
  // Another sign-in is another family, untouched.
  ExpectSession(
      it::SessionCall("refresh", t.subdomain(),
                      it::StringMember(ExpectSession(it::Login(t.subdomain(), t.admin.email)), "refreshToken")));
}

BOOST_AUTO_TEST_CASE(refresh_picks_up_a_changed_role) {
  it::PortalTenant t;
  std::string r1 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.viewer.email)), "refreshToken");
  it::PgQuery("UPDATE users SET role = 'admin' WHERE id = $1", {t.viewer.id});
  rapidjson::Document refreshed = ExpectSession(it::SessionCall("refresh", t.subdomain(), r1));
  BOOST_TEST(it::StringMember(refreshed["user"], "role") == "admin");
  BOOST_TEST(it::StringMember(Claims(it::StringMember(refreshed, "accessToken")), "role") == "admin");
}

BOOST_AUTO_TEST_CASE(refresh_token_of_another_tenant_or_garbage_is_401) {
  it::PortalTenant t, other;
  std::string token = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.admin.email)), "refreshToken");
  it::ExpectError(it::SessionCall("refresh", other.subdomain(), token), 401, "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", "no-such-" + it::RandomSuffix(6), token), 401, "UNAUTHENTICATED");
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), "garbage"), 401, "UNAUTHENTICATED");
  ExpectSession(it::SessionCall("refresh", t.subdomain(), token));  // still good for its own tenant
}

BOOST_AUTO_TEST_CASE(logout_revokes_the_family) {
  it::PortalTenant t;
  std::string r1 = it::StringMember(ExpectSession(it::Login(t.subdomain(), t.admin.email)), "refreshToken");
  std::string r2 = it::StringMember(ExpectSession(it::SessionCall("refresh", t.subdomain(), r1)), "refreshToken");
  it::Response out = it::SessionCall("logout", t.subdomain(), r2);
  BOOST_TEST(out.status == 204, out.Summary());
  BOOST_TEST(out.body.empty());
  it::ExpectError(it::SessionCall("refresh", t.subdomain(), r2), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::SessionCall("logout", t.subdomain(), r2).status == 204);  // again: nothing left to do
  it::ExpectError(it::SessionCall("logout", t.subdomain(), "garbage"), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::AuditRows(t.id(), "session.logout").size() == 1u);
}

BOOST_AUTO_TEST_CASE(refresh_and_logout_bodies_are_checked) {
  it::Response r = it::Send("POST", "/api/auth/refresh", {{"Content-Type", "application/json"}}, R"({"token": "x"})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> expected = {"X-Tenant", "refreshToken", "token"};
  BOOST_TEST(it::DetailFields(r) == expected, boost::test_tools::per_element());
  it::ExpectError(it::Send("POST", "/api/auth/logout", {{"Content-Type", "text/plain"}, {"X-Tenant", "x"}}, "x"), 415,
                  "UNSUPPORTED_MEDIA_TYPE");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_credentials)

BOOST_AUTO_TEST_CASE(no_bearer_token_is_401_with_the_challenge) {
  it::PortalTenant t;
  const std::vector<it::Headers> without_token = {{{"X-Tenant", t.subdomain()}},
                                                  {},
                                                  {{"X-Tenant", t.subdomain()}, {"Authorization", "Basic abc"}},
                                                  {{"X-Tenant", t.subdomain()}, {"Authorization", "Bearer"}}};
  for (const char* path : {"/api/auth/me", "/api/webhooks"}) {
    for (const it::Headers& headers : without_token) {
      it::Response r = it::Get(path, headers);
      BOOST_TEST_CONTEXT(path << " " << r.Summary()) {
        it::ExpectError(r, 401, "UNAUTHENTICATED");
        BOOST_TEST(r.Header("www-authenticate") == "Bearer");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(token_without_x_tenant_is_400_naming_it) {
  it::PortalTenant t;
  it::Response r = it::Get("/api/webhooks", {{"Authorization", "Bearer " + t.Token(t.admin)}});
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(r) == std::vector<std::string>{"X-Tenant"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(token_of_another_tenant_is_401) {
  it::PortalTenant t, other;
  for (const char* path : {"/api/auth/me", "/api/webhooks", "/api/docker-images"}) {
    it::ExpectError(it::Get(path, PortalHeaders(t.Token(t.admin), other.subdomain())), 401, "UNAUTHENTICATED");
  }
}

BOOST_AUTO_TEST_CASE(expired_tampered_and_foreign_tokens_are_401) {
  it::PortalTenant t;
  icat::AccessClaims claims;
  claims.user_id = t.admin.id;
  claims.tenant_id = t.id();
  claims.tenant = t.subdomain();
  claims.role = "admin";
  claims.issued_at = std::time(nullptr) - 3600;
  claims.expires_at = std::time(nullptr) - 60;
  claims.token_id = icat::RandomUuid();
  std::string expired = it::MintToken(claims);

  std::string good = t.Token(t.viewer);
  size_t first = good.find('.'), second = good.rfind('.');
  std::string payload = good.substr(first + 1, second - first - 1);
  // The viewer's claims with role admin, under the viewer's signature.
  std::string elevated_json = std::string(icat::Base64UrlDecode(payload).value());
  elevated_json.replace(elevated_json.find("\"role\":\"viewer\""), 15, "\"role\":\"admin\"");
  std::string tampered = good.substr(0, first) + "." + Part(elevated_json) + good.substr(second);
  std::string none = Part(R"({"alg":"none","typ":"JWT"})") + "." + payload + ".";
  std::string hs512 =
      Part(R"({"alg":"HS512","typ":"JWT"})") + "." + payload + "." +
      icat::Base64UrlEncode(icat::HmacSha256(it::JwtSecret(), Part(R"({"alg":"HS512","typ":"JWT"})") + "." + payload));
  std::string other_secret = icat::IssueAccessToken(claims, std::string(40, 'x'));
  for (const std::string& token : {expired, tampered, none, hs512, other_secret, std::string("not.a.jwt")}) {
    it::Response r = it::Get("/api/auth/me", PortalHeaders(token, t.subdomain()));
    BOOST_TEST_CONTEXT(token) {
      it::ExpectError(r, 401, "UNAUTHENTICATED");
      BOOST_TEST(r.Header("www-authenticate").rfind("Bearer", 0) == 0u);
    }
  }
  it::ExpectJson200(it::Get("/api/auth/me", PortalHeaders(good, t.subdomain())));
}

BOOST_AUTO_TEST_CASE(non_canonical_and_long_lived_tokens_are_401) {
  it::PortalTenant t;
  std::string good = t.Token(t.viewer);
  // The signature's last character with its lowest bit, unused (32 bytes in 43 characters), set:
  // the same bytes in another spelling.
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string flipped = good;
  flipped.back() = alphabet[alphabet.find(flipped.back()) ^ 1];
  BOOST_TEST_REQUIRE((icat::Base64UrlDecode(flipped.substr(flipped.rfind('.') + 1)) ==
                      icat::Base64UrlDecode(good.substr(good.rfind('.') + 1))));

  icat::AccessClaims claims;
  claims.user_id = t.viewer.id;
  claims.tenant_id = t.id();
  claims.tenant = t.subdomain();
  claims.role = "viewer";
  claims.issued_at = std::time(nullptr);
  claims.expires_at = claims.issued_at + 10LL * 365 * 24 * 3600;  // ten years
  claims.token_id = icat::RandomUuid();
  std::string ten_years = it::MintToken(claims);
  claims.issued_at = std::time(nullptr) + 3600;  // issued an hour from now
  claims.expires_at = claims.issued_at + icat::kAccessTokenSeconds;
  std::string from_the_future = it::MintToken(claims);

  for (const std::string& token : {flipped, good + "=", ten_years, from_the_future}) {
    it::Response r = it::Get("/api/auth/me", PortalHeaders(token, t.subdomain()));
    BOOST_TEST_CONTEXT(token) {
      it::ExpectError(r, 401, "UNAUTHENTICATED");
      BOOST_TEST(r.Header("www-authenticate") == "Bearer");
    }
  }
  it::ExpectJson200(it::Get("/api/auth/me", PortalHeaders(good, t.subdomain())));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(login_limits)

BOOST_AUTO_TEST_CASE(sixth_attempt_from_one_client_ip_is_429_with_retry_after) {
  it::PortalTenant t;
  std::string ip = it::RandomClientIp();
  for (int i = 1; i <= 5; i++) {
    // Successes count too: the limit is on attempts.
    it::Response r = it::Login(t.subdomain(), i == 3 ? t.admin.email : "nobody@x.test", it::kPortalPassword, ip);
    BOOST_TEST(r.status == (i == 3 ? 200 : 401), "attempt " << i << ": " << r.Summary());
  }
  it::Response sixth = it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip);
  it::ExpectError(sixth, 429, "RATE_LIMITED");
  std::string retry = sixth.Header("retry-after");
  BOOST_TEST_REQUIRE(!retry.empty(), sixth.Summary());
  long seconds = std::stol(retry);
  BOOST_TEST((seconds > 800 && seconds <= 900), "Retry-After " << seconds);
  // Another client address is not affected.
  ExpectSession(it::Login(t.subdomain(), t.admin.email));
}

BOOST_AUTO_TEST_CASE(x_forwarded_for_of_a_client_that_is_no_proxy_is_ignored) {
  it::PortalTenant t;
  std::string ip = it::RandomClientIp();
  for (int i = 1; i <= 5; i++) {
    it::Response r =
        it::Login(t.subdomain(), "nobody@x.test", "x", ip, {{"X-Forwarded-For", "203.0.113." + std::to_string(i)}});
    BOOST_TEST(r.status == 401, r.Summary());
  }
  it::ExpectError(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip,
                            {{"X-Forwarded-For", "203.0.113.99"}, {"X-Real-IP", "203.0.113.98"}}),
                  429, "RATE_LIMITED");
  std::vector<it::PgRow> failed = it::AuditRows(t.id(), "login.failed");
  BOOST_TEST_REQUIRE(!failed.empty());
  BOOST_TEST(*failed[0][2] == ip);  // the address nginx saw
}

BOOST_AUTO_TEST_CASE(a_trusted_proxys_forwarded_address_is_the_client_ip) {
  it::PortalTenant t;
  std::string proxy = it::TrustedProxyIp();
  std::string client = "198.51.100." + std::to_string(1 + std::stoi(it::RandomSuffix(2), nullptr, 16) % 250);
  // Each address forwarded through the proxy is a client of its own; the proxy's address is none.
  std::string seen = "10.9." + std::to_string(std::stoi(it::RandomSuffix(2), nullptr, 16)) + ".7";
  for (int i = 1; i <= 5; i++) {
    it::Response r = it::Login(t.subdomain(), "nobody-" + std::to_string(i) + "@x.test", "x", proxy,
                               {{"X-Forwarded-For", seen + ", " + client}});
    BOOST_TEST(r.status == 401, r.Summary());
  }
  it::ExpectError(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, proxy, {{"X-Forwarded-For", client}}),
                  429, "RATE_LIMITED");
  // Another address behind the same proxy is another client.
  ExpectSession(
      it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, proxy, {{"X-Forwarded-For", "198.51.100.251"}}));
  std::vector<it::PgRow> failed = it::AuditRows(t.id(), "login.failed");
  BOOST_TEST_REQUIRE(failed.size() == 5u);
  BOOST_TEST(*failed[0][2] == client);  // the last address not itself a trusted proxy
}

BOOST_AUTO_TEST_CASE(eleventh_attempt_after_ten_failures_of_an_account_is_429_for_that_account_only) {
  it::PortalTenant t;
  for (int i = 1; i <= 10; i++) {
    it::Response r = it::Login(t.subdomain(), t.user.email, "wrong " + std::to_string(i));
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.Summary());
  }
  // Even the right password: the account is locked for the window, from any address.
  it::Response locked = it::Login(t.subdomain(), t.user.email);
  it::ExpectError(locked, 429, "RATE_LIMITED");
  BOOST_TEST(!locked.Header("retry-after").empty());
  ExpectSession(it::Login(t.subdomain(), t.admin.email));  // another account of the tenant
}

BOOST_AUTO_TEST_CASE(with_redis_down_login_is_503_and_everything_else_keeps_working) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("redisdown", {{"1.0"}});
  it::StoppedService redis("redis");
  it::ExpectError(it::LoginOnce(t.subdomain(), t.admin.email), 503, "SERVICE_UNAVAILABLE");
  it::ExpectJson200(it::Get("/api/auth/me", t.As(t.admin)));
  it::ExpectJson200(it::Get("/api/docker-images/" + image.id, t.As(t.viewer)));
  it::ExpectJson200(it::Get("/api/webhooks", t.As(t.user)));
  it::Response watch = it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "CVE-2024-3094"})");
  BOOST_TEST(watch.status == 201, watch.Summary());
  redis.Restart();
  // A worker that failed to connect during the outage tries again after a second's back-off.
  ExpectSession(it::Login(t.subdomain(), t.admin.email));
}

BOOST_AUTO_TEST_CASE(attempts_answered_503_while_postgres_is_down_do_not_count) {
  it::PortalTenant t;
  std::string ip = it::RandomClientIp();
  {
    it::StoppedService pg("pg");
    // As many as the address may make: had they counted, the next one would be 429.
    for (int i = 1; i <= 5; i++) {
      it::Response r = it::LoginOnce(t.subdomain(), t.admin.email, it::kPortalPassword, ip);
      BOOST_TEST_CONTEXT("attempt " << i) { it::ExpectError(r, 503, "DATABASE_UNAVAILABLE"); }
    }
    pg.Restart();
  }
  ExpectSession(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip));
  // Judged attempts still count: four more (five in all) and the next is refused.
  for (int i = 1; i <= 4; i++) {
    it::Response r = it::Login(t.subdomain(), "nobody@x.test", it::kPortalPassword, ip);
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.Summary());
  }
  it::ExpectError(it::Login(t.subdomain(), t.admin.email, it::kPortalPassword, ip), 429, "RATE_LIMITED");
}

BOOST_AUTO_TEST_SUITE_END()
