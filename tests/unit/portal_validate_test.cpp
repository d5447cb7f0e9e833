// Request-body checks of the portal: one detail per problem, RFC 3339 times, vulnerability ids,
// and the login limits' decisions.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/errors.hpp"
#include "icat/login_limit.hpp"
#include "icat/validate.hpp"

namespace {

rapidjson::Document Parse(const char* text) {
  rapidjson::Document d;
  d.Parse(text);
  BOOST_REQUIRE(!d.HasParseError());
  return d;
}

std::vector<std::string> Fields(const std::vector<icat::FieldIssue>& issues) {
  std::vector<std::string> fields;
  for (const icat::FieldIssue& i : issues) fields.push_back(i.field);
  return fields;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(field_reader)

BOOST_AUTO_TEST_CASE(every_problem_is_one_issue_naming_its_field) {
  auto d = Parse(R"({"name": 5, "extra": true, "scopes": ["read:catalog", "nope", 3], "n": 1.5})");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader r(d, issues);
  BOOST_TEST(!r.String("name", icat::Need::kRequired, 10).has_value());
  BOOST_TEST(!r.String("title", icat::Need::kRequired, 10).has_value());
  BOOST_TEST(!r.StringArray("scopes", icat::Need::kRequired, 4, 20, false, {"read:catalog", "read:sbom"}).has_value());
  BOOST_TEST(!r.Int("n", icat::Need::kOptional, 0, 10).has_value());
  r.CheckUnknown();
  std::vector<std::string> expected = {"name", "title", "scopes[1]", "scopes[2]", "n", "extra"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
  BOOST_TEST(issues[1].issue == "is required");
  BOOST_TEST(issues[5].issue == "is not a known field");
}

BOOST_AUTO_TEST_CASE(a_body_that_is_not_an_object_is_one_issue_on_body) {
  auto d = Parse("[1, 2]");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader r(d, issues);
  BOOST_TEST(!r.String("email", icat::Need::kRequired, 10).has_value());
  r.CheckUnknown();
  BOOST_TEST_REQUIRE(issues.size() == 1u);
  BOOST_TEST(issues[0].field == "body");
}

BOOST_AUTO_TEST_CASE(strings_are_trimmed_counted_in_characters_and_free_of_control_characters) {
  auto d = Parse(R"({"a": "  hi  ", "b": "ééé", "c": "x\u0000y", "d": "line\nline", "e": "   ", "f": null})");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader r(d, issues);
  BOOST_TEST(*r.String("a", icat::Need::kRequired, 2) == "hi");
  BOOST_TEST(*r.String("b", icat::Need::kRequired, 3) == "ééé");      // 6 bytes, 3 characters
  BOOST_TEST(!r.String("c", icat::Need::kRequired, 10).has_value());  // NUL: Postgres text cannot hold it
  BOOST_TEST(!r.String("d", icat::Need::kRequired, 20).has_value());
  BOOST_TEST(*r.String("d", icat::Need::kRequired, 20, 1, true) == "line\nline");
  BOOST_TEST(!r.String("e", icat::Need::kRequired, 5).has_value());  // empty after trimming
  BOOST_TEST(!r.String("f", icat::Need::kOptional, 5).has_value());  // null: absent
  std::vector<std::string> expected = {"c", "d", "e"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(null_for_a_required_field_is_missing) {
  auto d = Parse(R"({"email": null})");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader r(d, issues);
  (void)r.String("email", icat::Need::kRequired, 10);
  BOOST_TEST_REQUIRE(issues.size() == 1u);
  BOOST_TEST(issues[0].issue == "is required");
}

BOOST_AUTO_TEST_CASE(string_arrays_drop_duplicates_and_refuse_empty_when_asked) {
  auto d = Parse(R"({"a": ["x", "y", "x"], "b": [], "c": "x"})");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader r(d, issues);
  std::vector<std::string> expected = {"x", "y"};
  BOOST_TEST(*r.StringArray("a", icat::Need::kRequired, 5, 5, false) == expected, boost::test_tools::per_element());
  BOOST_TEST(!r.StringArray("b", icat::Need::kRequired, 5, 5, false).has_value());
  BOOST_TEST(!r.StringArray("c", icat::Need::kRequired, 5, 5, false).has_value());
  BOOST_TEST(Fields(issues).size() == 2u);
}

BOOST_AUTO_TEST_CASE(nested_readers_prefix_their_fields) {
  auto d = Parse(R"({"x": {"cveId": 1, "zzz": 2}})");
  std::vector<icat::FieldIssue> issues;
  icat::FieldReader outer(d, issues);
  const rapidjson::Value* x = outer.Member("x", icat::Need::kRequired);
  BOOST_TEST_REQUIRE(x != nullptr);
  icat::FieldReader inner(*x, issues, "exceptions[0]");
  (void)inner.String("cveId", icat::Need::kRequired, 10);
  inner.CheckUnknown();
  outer.CheckUnknown();
  std::vector<std::string> expected = {"exceptions[0].cveId", "exceptions[0].zzz"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(throw_issues_is_validation_error_with_every_detail) {
  std::vector<icat::FieldIssue> issues = {{"a", "is required"}, {"b", "is not a known field"}};
  try {
    icat::ThrowIfIssues(issues);
    BOOST_ERROR("no throw");
  } catch (const icat::ApiError& e) {
    BOOST_TEST(static_cast<int>(e.error()) == static_cast<int>(icat::Error::kVALIDATION_ERROR));
    BOOST_TEST(e.details().size() == 2u);
    BOOST_TEST(std::string(e.what()).find("a is required") != std::string::npos);
  }
  std::vector<icat::FieldIssue> none;
  icat::ThrowIfIssues(none);  // nothing to say: no throw
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(formats)

BOOST_AUTO_TEST_CASE(rfc3339_times_with_offsets_and_fractions) {
  BOOST_TEST(*icat::ParseRfc3339("1970-01-01T00:00:00Z") == 0);
  BOOST_TEST(*icat::ParseRfc3339("1970-01-01T01:00:00+01:00") == 0);
  BOOST_TEST(*icat::ParseRfc3339("1969-12-31T23:00:00-01:00") == 0);
  BOOST_TEST(*icat::ParseRfc3339("2027-01-01T00:00:00.123456Z") == 1798761600);
  BOOST_TEST(*icat::ParseRfc3339("2022-07-01T19:00:00.5+02:00") == 1656694800);
  BOOST_TEST(*icat::ParseRfc3339("2024-02-29T00:00:00z") == 1709164800);  // leap year; t and z in either case
  for (const char* bad : {"2027-01-01", "2027-01-01 00:00:00Z", "2027-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
                          "2027-04-31T00:00:00Z", "2027-01-01T24:00:00Z", "2027-01-01T00:00:00",
                          "2027-01-01T00:00:00+0100", "2027-01-01T00:00:00.Z", "2027-01-01T00:00:00+24:00", "soon"}) {
    BOOST_TEST(!icat::ParseRfc3339(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_CASE(vulnerability_ids_are_matched_case_insensitively_and_upper_cased) {
  BOOST_TEST(*icat::NormaliseVulnId("cve-2024-3094") == "CVE-2024-3094");
  BOOST_TEST(*icat::NormaliseVulnId("CVE-2021-1234567") == "CVE-2021-1234567");
  BOOST_TEST(*icat::NormaliseVulnId("ghsa-jfh8-c2jp-5v3q") == "GHSA-JFH8-C2JP-5V3Q");
  for (const char* bad : {"CVE-2024-309", "CVE-24-3094", "CVE-2024-30a4", "CVE2024-3094", "GHSA-jfh8-c2jp", "xz",
                          "GHSA-jfh8-c2jp-5v3q-", " CVE-2024-3094", ""}) {
    BOOST_TEST(!icat::NormaliseVulnId(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_CASE(utf8_characters_are_counted_not_bytes) {
  BOOST_TEST(icat::Utf8Chars("abc") == 3u);
  BOOST_TEST(icat::Utf8Chars("né") == 2u);
  BOOST_TEST(icat::Utf8Chars("😀") == 1u);
}

BOOST_AUTO_TEST_CASE(valid_utf8_is_shortest_form_without_surrogates_up_to_u10ffff) {
  for (const char* good : {"", "abc", "né", "😀", "\xF4\x8F\xBF\xBF", "\x7F"}) BOOST_TEST(icat::IsValidUtf8(good), good);
  // A lone surrogate as RapidJSON decodes \uDC00, an overlong '/', beyond U+10FFFF, a cut sequence, a stray continuation.
  for (const char* bad : {"\xED\xB0\x80", "\xC0\xAF", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "a\xFF" "b"}) {
    BOOST_TEST(!icat::IsValidUtf8(bad), bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(login_limits)

// The settings' defaults (ICAT_LOGIN_LIMIT_*).
constexpr icat::LoginLimits kLimits{.ip_attempts = 5, .account_failures = 10, .window_seconds = 900};

BOOST_AUTO_TEST_CASE(sixth_attempt_from_one_ip_is_refused_with_the_windows_remaining_time) {
  icat::LoginLimits limits = kLimits;  // 5 per IP, 10 failures per account, 900 s
  BOOST_TEST(icat::DecideLogin(5, 800, 0, -2, limits).allowed);
  icat::LoginVerdict sixth = icat::DecideLogin(6, 800, 0, -2, limits);
  BOOST_TEST(!sixth.allowed);
  BOOST_TEST(sixth.by_ip);
  BOOST_TEST(sixth.retry_after == 800);
}

BOOST_AUTO_TEST_CASE(tenth_failure_of_an_account_refuses_the_next_attempt) {
  icat::LoginLimits limits = kLimits;
  BOOST_TEST(icat::DecideLogin(1, 900, 9, 500, limits).allowed);
  icat::LoginVerdict v = icat::DecideLogin(1, 900, 10, 500, limits);
  BOOST_TEST(!v.allowed);
  BOOST_TEST(!v.by_ip);
  BOOST_TEST(v.retry_after == 500);
}

BOOST_AUTO_TEST_CASE(both_limits_spent_waits_for_the_later_window_and_missing_ttl_means_a_full_window) {
  icat::LoginLimits limits = kLimits;
  BOOST_TEST(icat::DecideLogin(7, 100, 12, 600, limits).retry_after == 600);
  BOOST_TEST(icat::DecideLogin(7, -1, 0, -2, limits).retry_after == 900);
}

BOOST_AUTO_TEST_CASE(account_key_ignores_case_and_never_holds_the_email) {
  std::string key = icat::LoginAccountKey("Acme", "Alice@Example.COM");
  BOOST_TEST(key == icat::LoginAccountKey("acme", "alice@example.com"));
  BOOST_TEST(key != icat::LoginAccountKey("other", "alice@example.com"));
  BOOST_TEST(key.find("alice") == std::string::npos);
  BOOST_TEST(icat::LoginIpKey("192.0.2.1") == "icat:login:ip:192.0.2.1");
}

BOOST_AUTO_TEST_SUITE_END()
