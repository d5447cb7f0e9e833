// Texts at the edge: query parameters, path segments, headers, cursors and body strings that are
// not clean UTF-8 (bad bytes, NUL and other controls, bidirectional overrides) are 400
// VALIDATION_ERROR naming the field, never a 500 from Postgres.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

void ExpectInvalidNaming(const it::Response& r, const std::string& field) {
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> fields = it::DetailFields(r);
  BOOST_TEST((std::find(fields.begin(), fields.end(), field) != fields.end()), field << " not named: " << r.Summary());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(edge_texts)

BOOST_AUTO_TEST_CASE(query_text_that_is_not_utf8_or_holds_nul_is_400_naming_it) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:catalog,read:vulns");
  ExpectInvalidNaming(it::Get("/v1/images?q=%ff", it::Bearer(key)), "q");
  ExpectInvalidNaming(it::Get("/v1/images?q=a%00b", it::Bearer(key)), "q");
  ExpectInvalidNaming(it::Get("/v1/images?q=%c0%af", it::Bearer(key)), "q");  // an overlong "/"
  ExpectInvalidNaming(it::Get("/v1/images?q=%ed%a0%80", it::Bearer(key)), "q");  // a surrogate
  // Clean UTF-8 still searches.
  it::ExpectJson200(it::Get("/v1/images?q=%c3%a9", it::Bearer(key)));
}

BOOST_AUTO_TEST_CASE(a_cursor_that_decodes_to_bad_utf8_is_400_naming_it) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::string cursor = icat::Base64UrlEncode(std::string("\xff\xfe", 2) + "\n1");
  ExpectInvalidNaming(it::Get("/v1/images?cursor=" + cursor, it::Bearer(key)), "cursor");
}

BOOST_AUTO_TEST_CASE(a_path_segment_that_is_not_utf8_is_400_naming_it) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:vulns");
  ExpectInvalidNaming(it::Get("/v1/cve/CVE-2024-%ff", it::Bearer(key)), "cveId");
}

BOOST_AUTO_TEST_CASE(portal_query_texts_are_checked_the_same_way) {
  it::PortalTenant t;
  ExpectInvalidNaming(it::Get("/api/docker-images?q=%ff", t.As(t.viewer)), "q");
  ExpectInvalidNaming(it::Get("/api/audit-log?action=%ff", t.As(t.admin)), "action");
}

BOOST_AUTO_TEST_CASE(an_x_tenant_header_that_is_not_utf8_is_400_before_sign_in) {
  it::Headers bad_tenant = {{"X-Tenant", "\xff"}, {"Content-Type", "application/json"}};
  ExpectInvalidNaming(it::Send("POST", "/api/auth/login", bad_tenant, R"({"email": "a@b.test", "password": "x"})"),
                      "header X-Tenant");
  ExpectInvalidNaming(it::Send("POST", "/api/auth/refresh", bad_tenant, R"({"refreshToken": "x"})"),
                      "header X-Tenant");
}

BOOST_AUTO_TEST_CASE(names_with_c1_controls_or_bidirectional_overrides_are_refused) {
  it::PortalTenant t;
  for (const char* name : {"ci\\u202Egnp.exe", "ci\\u0085key", "ci\\u2066key"}) {
    it::Response r = it::Send("POST", "/api/api-keys", t.As(t.admin),
                              std::string(R"({"name": ")") + name + R"(", "scopes": ["read:catalog"]})");
    ExpectInvalidNaming(r, "name");
  }
  // Letters of any script are fine.
  it::Response ok = it::Send("POST", "/api/api-keys", t.As(t.admin), R"({"name": "clé ключ", "scopes": ["read:catalog"]})");
  BOOST_TEST(ok.status == 201, ok.Summary());
}

BOOST_AUTO_TEST_SUITE_END()
