// Tenant users and the session cookie: the reply shapes of /api/users, the audit detail of a
// change, the email form, the password rule every way of setting one shares, and the cookie.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "../../handlers/account/account.hpp"
#include "../../handlers/auth/sessions.hpp"
#include "icat/json.hpp"
#include "icat/validate.hpp"

namespace {

std::string Str(const rapidjson::Value& v, const char* name) {
  BOOST_REQUIRE_MESSAGE(v.HasMember(name) && v[name].IsString(), name);
  return v[name].GetString();
}

icat::account::UserView Pending() {
  icat::account::UserView u;
  u.id = "u-1";
  u.email = "ada@acme.test";
  u.role = "user";
  u.state = "pending_setup";
  u.created_at = "2026-01-01T00:00:00Z";
  return u;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_users)

BOOST_AUTO_TEST_CASE(user_json_has_every_field_and_the_setup_token_only_when_issued) {
  auto listed = icat::ParseJson(icat::account::UserJson(Pending()));
  BOOST_TEST(Str(listed, "id") == "u-1");
  BOOST_TEST(Str(listed, "email") == "ada@acme.test");
  BOOST_TEST(Str(listed, "role") == "user");
  BOOST_TEST(Str(listed, "state") == "pending_setup");
  BOOST_TEST(Str(listed, "createdAt") == "2026-01-01T00:00:00Z");
  BOOST_TEST(listed["disabledAt"].IsNull());
  BOOST_TEST(listed["lastLoginAt"].IsNull());
  BOOST_TEST(listed["totp"].IsFalse());
  BOOST_TEST(listed["sso"].IsFalse());
  BOOST_TEST(listed.MemberCount() == 9u);
  icat::account::UserView issued = Pending();
  issued.setup_token = "tok";
  issued.setup_expires_at = "2026-01-04T00:00:00Z";
  issued.disabled_at = "2026-01-02T00:00:00Z";
  auto created = icat::ParseJson(icat::account::UserJson(issued));
  BOOST_TEST(Str(created, "setupToken") == "tok");
  BOOST_TEST(Str(created, "setupExpiresAt") == "2026-01-04T00:00:00Z");
  BOOST_TEST(Str(created, "disabledAt") == "2026-01-02T00:00:00Z");
  auto list = icat::ParseJson(icat::account::UserListJson({Pending(), Pending()}, std::nullopt));
  BOOST_TEST(list["users"].Size() == 2u);
  BOOST_TEST(list["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_CASE(user_change_detail_names_only_what_changed) {
  icat::account::UserChange same{"a@b.test", "admin", "admin", false, false, std::nullopt};
  BOOST_TEST(icat::account::UserChangeJson(same) == R"({"email":"a@b.test"})");
  icat::account::UserChange both{"a@b.test", "admin", "viewer", false, true, 3};
  BOOST_TEST(icat::account::UserChangeJson(both) ==
             R"({"email":"a@b.test","role":{"from":"admin","to":"viewer"},"disabled":{"from":false,"to":true},)"
             R"("sessionsRevoked":3})");
}

BOOST_AUTO_TEST_CASE(email_addresses_have_one_at_and_no_white_space) {
  for (const char* good : {"a@b", "ada.lovelace+x@acme.test", "ADA@ACME.TEST"}) {
    BOOST_TEST(icat::IsEmailAddress(good), good);
  }
  for (const char* bad : {"", "@", "a@", "@b", "a@b@c", "a b@c", "a@b\tc", "no-at-sign"}) {
    BOOST_TEST(!icat::IsEmailAddress(bad), bad);
  }
}

BOOST_AUTO_TEST_CASE(mail_addresses_of_channels_are_dot_atom_addr_specs_with_the_domain_in_lower_case) {
  BOOST_TEST(icat::NormaliseMailAddress("Ada.Lovelace+x@ACME.Example").value_or("") == "Ada.Lovelace+x@acme.example");
  BOOST_TEST(icat::NormaliseMailAddress("o'brien@mail.example.com").value_or("") == "o'brien@mail.example.com");
  BOOST_TEST(icat::NormaliseMailAddress(std::string(64, 'a') + "@example.com").has_value());
  for (const std::string& bad : std::vector<std::string>{"", "a@b", "a@localhost", "Ada <ada@example.com>", "\"a b\"@example.com", "a..b@example.com",
                          ".a@example.com", "a@-x.example", "a@x_y.example", "a@[127.0.0.1]", "a@example..com",
                          "a b@example.com", "a@example.com\r\nBcc: x@evil.test", std::string(65, 'a') + "@example.com",
                          "a@" + std::string(250, 'b') + ".com"}) {
    BOOST_TEST(!icat::NormaliseMailAddress(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_CASE(passwords_need_twelve_characters_counted_in_utf8_and_at_most_1024_bytes) {
  BOOST_TEST(icat::kMinPasswordChars == 12u);
  BOOST_TEST(icat::PasswordIssue("twelve chars").value_or("ok") == "ok");
  BOOST_TEST(icat::PasswordIssue("eleven char").value_or("ok") == "must have at least 12 characters");
  // 11 characters in 22 bytes are too few; 12 in 24 are enough.
  BOOST_TEST(icat::PasswordIssue("ééééééééééé").has_value());
  BOOST_TEST(!icat::PasswordIssue("éééééééééééé").has_value());
  BOOST_TEST(!icat::PasswordIssue(std::string(1024, 'x')).has_value());
  BOOST_TEST(icat::PasswordIssue(std::string(1025, 'x')).value_or("ok") == "must have at most 1024 bytes");
  BOOST_TEST(icat::PasswordIssue("\xff\xfe not utf-8 at all").value_or("ok") == "must be valid UTF-8");
  BOOST_TEST(!icat::PasswordIssue("  spaces count  ").has_value());  // taken exactly as sent
}

BOOST_AUTO_TEST_CASE(session_json_leaves_the_refresh_token_out_in_cookie_mode) {
  icat::auth::SessionView s{"a.b.c", "opaque", 900, {"u-1", "a@b.test", "admin"}};
  auto d = icat::ParseJson(icat::auth::SessionJson(s, false));
  BOOST_TEST(!d.HasMember("refreshToken"));
  BOOST_TEST(Str(d, "accessToken") == "a.b.c");
  BOOST_TEST(d.MemberCount() == 4u);
}

BOOST_AUTO_TEST_CASE(refresh_cookie_is_http_only_secure_strict_and_scoped_to_auth) {
  BOOST_TEST(icat::auth::RefreshCookie("tok", 2592000) ==
             "icat_refresh=tok; Max-Age=2592000; Path=/api/auth; HttpOnly; Secure; SameSite=Strict");
  BOOST_TEST(icat::auth::RefreshCookie("", 0) ==
             "icat_refresh=; Max-Age=0; Path=/api/auth; HttpOnly; Secure; SameSite=Strict");
}

BOOST_AUTO_TEST_CASE(cookie_mode_is_asked_for_with_x_session_cookie_1_only) {
  std::vector<icat::FieldIssue> issues;
  icat::Request request;
  BOOST_TEST(!icat::auth::WantsCookie(request, issues));
  request.headers["x-session-cookie"] = "1";
  BOOST_TEST(icat::auth::WantsCookie(request, issues));
  BOOST_TEST(issues.empty());
  request.headers["x-session-cookie"] = "true";
  BOOST_TEST(!icat::auth::WantsCookie(request, issues));
  BOOST_TEST_REQUIRE(issues.size() == 1u);
  BOOST_TEST(issues[0].field == "X-Session-Cookie");
}

BOOST_AUTO_TEST_SUITE_END()
