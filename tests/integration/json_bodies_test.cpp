// Request bodies against the real stack: nesting past the limit, bytes after the value and media
// types that only look like JSON are refused with JSON errors, before authentication, and the
// worker that read them lives on.
#include <boost/test/unit_test.hpp>
#include <string>

#include "admission_support.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

// 200,000 '[' overflowed the stack of the recursive parser: the worker died and nginx answered 502.
const std::string kDeepBody(200000, '[');

std::string LoginBody(const it::PortalUser& user) {
  return "{\"email\": " + it::Quote(user.email) + ", \"password\": " + it::Quote(it::kPortalPassword) + "}";
}

std::string ReviewBody(const std::string& uid) {
  return R"({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": ")" + uid +
         R"(", "kind": {"group": "", "version": "v1", "kind": "Pod"}, "namespace": "apps", "operation": "CREATE",)"
         R"( "object": {"kind": "Pod", "metadata": {"name": "p", "namespace": "apps"},)"
         R"( "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})";
}

// Posts the deep body more times than the group has workers: each answer is 400 MALFORMED_JSON
// naming the limit, and the group's workers are the same processes afterwards (none died).
void ExpectDeepBodyRefused(std::string_view group, std::string_view path, const it::Headers& headers) {
  std::set<pid_t> before = it::WorkerPids(group);
  BOOST_TEST_REQUIRE(!before.empty());
  for (size_t i = 0; i < 2 * before.size() + 2; i++) {
    it::Response r = it::Send("POST", path, headers, kDeepBody);
    it::ExpectError(r, 400, "MALFORMED_JSON");
    BOOST_TEST(it::StringMember(it::JsonOf(r), "message").find("more than 64 levels") != std::string::npos,
               r.Summary());
  }
  BOOST_TEST((it::WorkerPids(group) == before), "a " << group << " worker was replaced");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_bodies)

BOOST_AUTO_TEST_CASE(deep_nesting_to_login_is_400_and_no_auth_worker_dies) {
  it::PortalTenant t;
  ExpectDeepBodyRefused("auth", "/api/auth/login", {{"Content-Type", "application/json"}, {"X-Tenant", t.subdomain()}});
  it::Response after = it::Login(t.subdomain(), t.admin.email);
  BOOST_TEST(after.status == 200, after.Summary());
}

BOOST_AUTO_TEST_CASE(deep_nesting_to_admission_is_400_before_the_key_and_no_worker_dies) {
  ExpectDeepBodyRefused("admission", "/v1/admission", {{"Content-Type", "application/json"}});
  it::Tenant tenant;
  std::string uid = "uid-" + it::RandomSuffix(12);
  (void)it::ExpectAnswer(it::PostReview(tenant.CreateKey("admission"), ReviewBody(uid)), uid);
}

BOOST_AUTO_TEST_CASE(bytes_after_the_json_value_a_nul_included_are_400) {
  using namespace std::string_literals;
  it::PortalTenant t;
  it::Headers login = {{"Content-Type", "application/json"}, {"X-Tenant", t.subdomain()}};
  for (const std::string& tail : {"\0"s, "\0garbage"s, " \0 "s}) {
    it::ExpectError(it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/login", login, LoginBody(t.admin) + tail),
                    400, "MALFORMED_JSON");
  }
  std::string key = t.tenant.CreateKey("admission");
  std::string uid = "uid-" + it::RandomSuffix(12);
  it::ExpectError(it::PostReview(key, ReviewBody(uid) + "\0"s), 400, "MALFORMED_JSON");
  (void)it::ExpectAnswer(it::PostReview(key, ReviewBody(uid) + " \r\n"), uid);  // trailing whitespace is fine
}

BOOST_AUTO_TEST_CASE(a_media_type_that_only_begins_like_json_is_415) {
  it::PortalTenant t;
  for (const char* type : {"application/jsonx", "application/json-seq", "application/json; charset=latin1"}) {
    BOOST_TEST_CONTEXT(type) {
      it::ExpectError(it::SendFrom(it::RandomClientIp(), "POST", "/api/auth/login",
                                   {{"Content-Type", type}, {"X-Tenant", t.subdomain()}}, LoginBody(t.admin)),
                      415, "UNSUPPORTED_MEDIA_TYPE");
      it::ExpectError(it::Send("POST", "/v1/admission", {{"Content-Type", type}}, ReviewBody("u")), 415,
                      "UNSUPPORTED_MEDIA_TYPE");
    }
  }
  it::Response upper = it::SendFrom(
      it::RandomClientIp(), "POST", "/api/auth/login",
      {{"Content-Type", "Application/JSON; charset=\"UTF-8\""}, {"X-Tenant", t.subdomain()}}, LoginBody(t.admin));
  BOOST_TEST(upper.status == 200, upper.Summary());
}

BOOST_AUTO_TEST_SUITE_END()
