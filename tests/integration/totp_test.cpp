// The second factor (TOTP): enrolment, sign-in with a code the test computes from the enrolment's
// secret (RFC 6238), each step once, wrong codes counted against the login limits, recovery codes
// used once, the tenant's policy that requires a factor, an admin's reset, and the secret shown
// only in the enrolment's reply.
#include "icat/totp.hpp"

#include <boost/test/unit_test.hpp>
#include <ctime>

#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

it::Headers Public(const std::string& tenant) { return {{"X-Tenant", tenant}, {"Content-Type", "application/json"}}; }

// POST /api/auth/totp/enrolment from an address of its own.
it::Response Enrol(const it::PortalTenant& t, const it::PortalUser& who,
                   std::string_view password = it::kPortalPassword) {
  return it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/totp/enrolment", Public(t.subdomain()),
                      "{\"email\": " + it::Quote(who.email) + ", \"password\": " + it::Quote(password) + "}");
}

// The base32 secret of a successful enrolment.
std::string EnrolledSecret(const it::PortalTenant& t, const it::PortalUser& who) {
  it::Response r = Enrol(t, who);
  rapidjson::Document body = it::ExpectJson200(r);
  return it::StringMember(body, "secret");
}

// The code an authenticator app shows `offset` seconds from now.
std::string CodeOf(const std::string& secret, long long offset = 0) {
  return icat::Totp(icat::Base32Decode(secret).value_or(""), std::time(nullptr) + offset);
}

// POST /api/auth/login with the password and one more member (`"code": ...`), from `ip`.
it::Response LoginWith(const it::PortalTenant& t, const it::PortalUser& who, const std::string& member,
                       const std::string& ip = it::RandomClientIp()) {
  return it::SendFrom(ip, "POST", "/api/auth/login", Public(t.subdomain()),
                      "{\"email\": " + it::Quote(who.email) + ", \"password\": " + it::Quote(it::kPortalPassword) +
                          (member.empty() ? "" : ", " + member) + "}");
}

std::string Code(const std::string& code) { return "\"code\": " + it::Quote(code); }
std::string Recovery(const std::string& code) { return "\"recoveryCode\": " + it::Quote(code); }

// Enrols and confirms with the current code: the secret and the recovery codes the sign-in returned.
std::pair<std::string, std::vector<std::string>> Confirmed(const it::PortalTenant& t, const it::PortalUser& who) {
  std::string secret = EnrolledSecret(t, who);
  it::Response r = LoginWith(t, who, Code(CodeOf(secret)));
  rapidjson::Document body = it::ExpectJson200(r);
  std::vector<std::string> codes;
  if (body.HasMember("recoveryCodes") && body["recoveryCodes"].IsArray()) {
    for (const auto& code : body["recoveryCodes"].GetArray()) codes.push_back(code.GetString());
  }
  BOOST_TEST_REQUIRE(codes.size() == 10u, r.Summary());
  return {secret, codes};
}

// The "totp" member of the user in GET /api/users (as the tenant's admin).
bool ListedWithTotp(const it::PortalTenant& t, const it::PortalUser& who) {
  rapidjson::Document body = it::ExpectJson200(it::Get("/api/users", t.As(t.admin)));
  for (const auto& user : body["users"].GetArray()) {
    if (it::StringMember(user, "id") == who.id) return user["totp"].GetBool();
  }
  BOOST_FAIL("the user is not listed");
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totp)

BOOST_AUTO_TEST_CASE(enrolment_then_a_computed_code_confirms_signs_in_and_returns_recovery_codes_once) {
  it::PortalTenant t;
  it::Response enrolled = Enrol(t, t.user);
  rapidjson::Document body = it::ExpectJson200(enrolled);
  std::string secret = it::StringMember(body, "secret");
  BOOST_TEST(icat::Base32Decode(secret).value_or("").size() == icat::kTotpSecretBytes);
  BOOST_TEST(it::StringMember(body, "otpauthUri").rfind("otpauth://totp/icat%20%28" + t.subdomain() + "%29:", 0) == 0u,
             enrolled.Summary());
  BOOST_TEST(it::StringMember(body, "otpauthUri").find("secret=" + secret + "&") != std::string::npos);
  BOOST_TEST(enrolled.Header("cache-control") == "no-store");
  // Unconfirmed, the factor asks nothing yet: the password alone still signs in.
  BOOST_TEST(it::ExpectJson200(LoginWith(t, t.user, "")).HasMember("recoveryCodes") == false);
  BOOST_TEST(!ListedWithTotp(t, t.user));

  std::string code = CodeOf(secret);
  it::Response confirmed = LoginWith(t, t.user, Code(code));
  rapidjson::Document session = it::ExpectJson200(confirmed);
  BOOST_TEST_REQUIRE(session.HasMember("recoveryCodes"), confirmed.Summary());
  BOOST_TEST(session["recoveryCodes"].Size() == 10u);
  BOOST_TEST(!it::StringMember(session, "accessToken").empty());
  BOOST_TEST(ListedWithTotp(t, t.user));
  BOOST_TEST(it::AuditRows(t.id(), "totp.enrolment_started").size() == 1u);
  BOOST_TEST(it::AuditRows(t.id(), "totp.confirmed").size() == 1u);

  // From now on the code is asked for, each step's code works once, and recovery codes come once.
  it::ExpectError(LoginWith(t, t.user, ""), 401, "SECOND_FACTOR_REQUIRED");
  it::ExpectError(LoginWith(t, t.user, Code(code)), 401, "UNAUTHENTICATED");
  it::Response next = LoginWith(t, t.user, Code(CodeOf(secret, icat::kTotpStepSeconds)));
  BOOST_TEST(!it::ExpectJson200(next).HasMember("recoveryCodes"), next.Summary());
  it::ExpectError(LoginWith(t, t.user, Code(CodeOf(secret, 10 * icat::kTotpStepSeconds))), 401, "UNAUTHENTICATED");
  it::ExpectError(Enrol(t, t.user), 409, "CONFLICT");
}

BOOST_AUTO_TEST_CASE(the_secret_is_never_in_a_reply_after_enrolment_nor_stored_in_the_clear) {
  it::PortalTenant t;
  std::string secret = EnrolledSecret(t, t.admin);
  std::string raw = icat::Base32Decode(secret).value_or("");
  std::vector<it::Response> replies = {LoginWith(t, t.admin, Code(CodeOf(secret))),
                                       it::Get("/api/users", t.As(t.admin)), it::Get("/api/auth/me", t.As(t.admin)),
                                       it::Get("/api/audit-log", t.As(t.admin)),
                                       it::Get("/api/sign-in-policy", t.As(t.admin))};
  for (const it::Response& r : replies) {
    BOOST_TEST(r.status == 200, r.Summary());
    BOOST_TEST(r.body.find(secret) == std::string::npos, r.Summary());
  }
  std::vector<it::PgRow> stored =
      it::PgQuery("SELECT encode(secret, 'hex') FROM totp_factors WHERE user_id = $1", {t.admin.id});
  BOOST_TEST_REQUIRE(stored.size() == 1u);
  BOOST_TEST(stored[0][0]->find(icat::HexEncode(raw)) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(wrong_codes_count_against_the_account_until_429_and_a_missing_code_does_not) {
  it::PortalTenant t;
  std::string secret = Confirmed(t, t.user).first;
  for (int i = 1; i <= 3; i++) it::ExpectError(LoginWith(t, t.user, ""), 401, "SECOND_FACTOR_REQUIRED");
  std::string wrong = CodeOf(secret, 100 * icat::kTotpStepSeconds);
  for (int i = 1; i <= 10; i++) {  // ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES, the default; each from its own address
    it::Response r = LoginWith(t, t.user, Code(wrong));
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.Summary());
  }
  it::Response locked = LoginWith(t, t.user, Code(CodeOf(secret, icat::kTotpStepSeconds)));
  it::ExpectError(locked, 429, "RATE_LIMITED");
  BOOST_TEST(!locked.Header("retry-after").empty());
  std::vector<it::PgRow> failed = it::AuditRows(t.id(), "login.failed");
  BOOST_TEST_REQUIRE(failed.size() == 10u);
  BOOST_TEST(failed[0][4]->find("wrong_code") != std::string::npos, *failed[0][4]);
}

BOOST_AUTO_TEST_CASE(a_recovery_code_signs_in_once_whatever_its_case_and_dashes) {
  it::PortalTenant t;
  std::vector<std::string> codes = Confirmed(t, t.viewer).second;
  std::string typed = codes[0];
  for (char& c : typed) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  it::ExpectJson200(LoginWith(t, t.viewer, Recovery(typed)));
  it::ExpectError(LoginWith(t, t.viewer, Recovery(codes[0])), 401, "UNAUTHENTICATED");
  it::ExpectError(LoginWith(t, t.viewer, Recovery("abcd-efgh-ijkl-mnop")), 401, "UNAUTHENTICATED");
  it::ExpectJson200(LoginWith(t, t.viewer, Recovery(codes[1])));
  BOOST_TEST(it::AuditRows(t.id(), "login.recovery_code_used").size() == 2u);
}

BOOST_AUTO_TEST_CASE(required_for_the_tenant_refuses_a_password_only_sign_in_until_the_person_enrols) {
  it::PortalTenant t;
  it::ExpectError(it::Send("PUT", "/api/sign-in-policy", t.As(t.user), R"({"totpRequired": true})"), 403, "FORBIDDEN");
  BOOST_TEST(!it::ExpectJson200(it::Get("/api/sign-in-policy", t.As(t.admin)))["totpRequired"].GetBool());
  it::Response put = it::Send("PUT", "/api/sign-in-policy", t.As(t.admin), R"({"totpRequired": true})");
  BOOST_TEST(it::ExpectJson200(put)["totpRequired"].GetBool());
  BOOST_TEST(it::ExpectJson200(it::Get("/api/sign-in-policy", t.As(t.admin)))["totpRequired"].GetBool());
  BOOST_TEST(it::AuditRows(t.id(), "sign_in_policy.updated").size() == 1u);

  it::ExpectError(LoginWith(t, t.user, ""), 403, "SECOND_FACTOR_ENROLMENT_REQUIRED");
  std::string secret = EnrolledSecret(t, t.user);
  it::ExpectError(LoginWith(t, t.user, ""), 403, "SECOND_FACTOR_ENROLMENT_REQUIRED");  // not yet confirmed
  BOOST_TEST(it::ExpectJson200(LoginWith(t, t.user, Code(CodeOf(secret)))).HasMember("recoveryCodes"));
  // Nobody removes their own factor while it is required.
  it::ExpectError(it::Send("DELETE", "/api/auth/totp", t.As(t.user)), 409, "CONFLICT");

  it::ExpectJson200(it::Send("PUT", "/api/sign-in-policy", t.As(t.admin), R"({"totpRequired": false})"));
  it::Response removed = it::Send("DELETE", "/api/auth/totp", t.As(t.user));
  BOOST_TEST(removed.status == 204, removed.Summary());
  BOOST_TEST(it::AuditRows(t.id(), "totp.removed").size() == 1u);
  it::ExpectJson200(LoginWith(t, t.user, ""));
}

BOOST_AUTO_TEST_CASE(an_admin_resets_a_lost_factor_and_the_person_signs_in_with_the_password) {
  it::PortalTenant t, other;
  Confirmed(t, t.user);
  it::ExpectError(it::Send("DELETE", "/api/users/" + t.user.id + "/totp", t.As(t.viewer)), 403, "FORBIDDEN");
  it::ExpectError(it::Send("DELETE", "/api/users/" + t.user.id + "/totp", other.As(other.admin)), 404, "NOT_FOUND");
  it::ExpectError(LoginWith(t, t.user, ""), 401, "SECOND_FACTOR_REQUIRED");
  it::Response reset = it::Send("DELETE", "/api/users/" + t.user.id + "/totp", t.As(t.admin));
  BOOST_TEST(reset.status == 204, reset.Summary());
  BOOST_TEST(!ListedWithTotp(t, t.user));
  it::ExpectJson200(LoginWith(t, t.user, ""));
  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "totp.reset");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][1] == t.user.id);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM recovery_codes WHERE user_id = $1", {t.user.id}).empty());
}

BOOST_AUTO_TEST_CASE(enrolment_and_codes_refuse_bad_input_and_wrong_passwords_as_sign_in_does) {
  it::PortalTenant t;
  it::ExpectError(Enrol(t, t.user, "not the password"), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::AuditRows(t.id(), "login.failed").size() == 1u);
  it::Response extra =
      it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/totp/enrolment", Public(t.subdomain()),
                   "{\"email\": " + it::Quote(t.user.email) + ", \"password\": \"x\", \"code\": \"1\"}");
  it::ExpectError(extra, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(extra) == std::vector<std::string>{"code"});
  it::Response short_code = LoginWith(t, t.user, Code("12345"));
  it::ExpectError(short_code, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(short_code) == std::vector<std::string>{"code"});
  it::Response both = LoginWith(t, t.user, Code("123456") + ", " + Recovery("abcd"));
  it::ExpectError(both, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(both) == std::vector<std::string>{"recoveryCode"});
  // A code from someone without a factor is a wrong code, not a way around the password.
  it::ExpectError(LoginWith(t, t.user, Code("123456")), 401, "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_SUITE_END()
