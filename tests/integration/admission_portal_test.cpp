// The admission webhook end to end with the portal: a policy saved with PUT /api/admission-policy
// decides the reviews of POST /v1/admission, and GET /api/admission-decisions lists what was decided.
#include <boost/test/unit_test.hpp>

#include "portal_support.hpp"

namespace it = icat::test;

namespace {

std::string PodReview(const std::string& uid, const std::string& image) {
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":")" + uid +
         R"(","kind":{"group":"","version":"v1","kind":"Pod"},"namespace":"web","operation":"CREATE",)"
         R"("object":{"metadata":{"name":"front"},"spec":{"containers":[{"name":"app","image":")" +
         image + R"("}]}}}})";
}

rapidjson::Document Review(const std::string& key, const std::string& uid, const std::string& image) {
  it::Response r =
      it::Send("POST", "/v1/admission", {{"Authorization", "Bearer " + key}, {"Content-Type", "application/json"}},
               PodReview(uid, image));
  rapidjson::Document d = it::ExpectJson200(r);
  BOOST_TEST_REQUIRE((d.IsObject() && d.HasMember("response")), r.Summary());
  BOOST_TEST(it::StringMember(d["response"], "uid") == uid);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_portal)

BOOST_AUTO_TEST_CASE(policy_saved_in_the_portal_decides_and_its_decisions_are_listed_there) {
  it::PortalTenant t;
  std::string key = t.tenant.CreateKey("admission");
  it::Image image = t.tenant.AddImage("portal", {{"2.0"}});
  std::string reference = image.repository + ":2.0";

  it::Response put =
      it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"mode": "warn", "requireDigest": true})");
  it::ExpectJson200(put);
  rapidjson::Document warned = Review(key, "uid-warn-" + it::RandomSuffix(6), reference);
  BOOST_TEST(warned["response"]["allowed"].GetBool());
  BOOST_TEST_REQUIRE(warned["response"].HasMember("warnings"));
  BOOST_TEST(std::string(warned["response"]["warnings"][0].GetString()).find("requireDigest") != std::string::npos);

  it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireDigest": true})"));
  std::string denied_uid = "uid-deny-" + it::RandomSuffix(6);
  rapidjson::Document denied = Review(key, denied_uid, reference);
  BOOST_TEST(!denied["response"]["allowed"].GetBool());
  // Pinned, the same image passes.
  BOOST_TEST(Review(key, "uid-pin-" + it::RandomSuffix(6),
                    image.repository + "@" + image.versions[0].digest)["response"]["allowed"]
                 .GetBool());

  rapidjson::Document list = it::ExpectJson200(it::Get("/api/admission-decisions", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(list["decisions"].Size() == 3u);
  const rapidjson::Value& d = list["decisions"][1];  // newest first: pinned, denied, warned
  BOOST_TEST(it::StringMember(d, "requestUid") == denied_uid);
  BOOST_TEST(!d["allowed"].GetBool());
  BOOST_TEST(it::StringMember(d, "mode") == "enforce");
  BOOST_TEST(it::StringMember(d, "kind") == "Pod");
  BOOST_TEST(it::StringMember(d, "namespace") == "web");
  BOOST_TEST(it::StringMember(d, "name") == "front");
  BOOST_TEST(!d["dryRun"].GetBool());
  BOOST_TEST(it::StringMember(d["images"][0], "reference") == reference);
  BOOST_TEST(it::StringMember(d["images"][0], "imageId") == image.id);
  BOOST_TEST(it::StringMember(d["reasons"][0], "rule") == "requireDigest");
  BOOST_TEST(it::StringMember(list["decisions"][2], "mode") == "warn");
  BOOST_TEST(list["decisions"][2]["allowed"].GetBool());

  rapidjson::Document refused = it::ExpectJson200(it::Get("/api/admission-decisions?allowed=false", t.As(t.user)));
  BOOST_TEST_REQUIRE(refused["decisions"].Size() == 1u);
  BOOST_TEST(it::StringMember(refused["decisions"][0], "requestUid") == denied_uid);
}

BOOST_AUTO_TEST_CASE(another_tenants_decisions_are_not_listed) {
  it::PortalTenant mine, theirs;
  std::string their_key = theirs.tenant.CreateKey("admission");
  Review(their_key, "uid-theirs-" + it::RandomSuffix(6), "nginx");
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-decisions", mine.As(mine.viewer)))["decisions"].Size() == 0u);
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-decisions", theirs.As(theirs.viewer)))["decisions"].Size() ==
             1u);
}

BOOST_AUTO_TEST_SUITE_END()
