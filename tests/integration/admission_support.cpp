// What the admission tests share (admission_support.hpp).
#include "admission_support.hpp"

#include <boost/test/unit_test.hpp>

namespace icat::test {

std::string PodReview(const std::string& uid, const std::string& image) {
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":")" + uid +
         R"(","kind":{"group":"","version":"v1","kind":"Pod"},"namespace":"web","operation":"CREATE",)"
         R"("object":{"metadata":{"name":"front"},"spec":{"containers":[{"name":"app","image":")" +
         image + R"("}]}}}})";
}

Response PostReview(const std::string& key, const std::string& body) {
  return Send("POST", "/v1/admission", {{"Authorization", "Bearer " + key}, {"Content-Type", "application/json"}},
              body);
}

Response PostReviewKeyInPath(const std::string& key, const std::string& body) {
  return Send("POST", "/v1/admission/" + key, {{"Content-Type", "application/json"}}, body);
}

namespace {

// The AdmissionReview v1 envelope answering uid, checked; its response, which says allowed or not.
const rapidjson::Value& ReviewResponse(const rapidjson::Document& d, const std::string& uid) {
  BOOST_TEST(StringMember(d, "apiVersion") == "admission.k8s.io/v1");
  BOOST_TEST(StringMember(d, "kind") == "AdmissionReview");
  BOOST_TEST_REQUIRE((d.HasMember("response") && d["response"].IsObject()));
  const rapidjson::Value& response = d["response"];
  BOOST_TEST(StringMember(response, "uid") == uid);
  BOOST_TEST_REQUIRE((response.HasMember("allowed") && response["allowed"].IsBool()));
  return response;
}

}  // namespace

AdmissionAnswer ExpectAnswer(const Response& r, const std::string& uid) {
  rapidjson::Document d = ExpectJson200(r);
  AdmissionAnswer a;
  BOOST_TEST_CONTEXT(r.Summary()) {
    const rapidjson::Value& response = ReviewResponse(d, uid);
    a.allowed = response["allowed"].GetBool();
    BOOST_TEST(response.HasMember("status") == !a.allowed);
    if (!a.allowed) {
      BOOST_TEST(IntMember(response["status"], "code") == 403);
      a.message = StringMember(response["status"], "message");
    }
    if (response.HasMember("warnings")) {
      BOOST_TEST_REQUIRE(response["warnings"].IsArray());
      for (const rapidjson::Value& w : response["warnings"].GetArray()) a.warnings.emplace_back(w.GetString());
    }
  }
  return a;
}

std::string ExpectRefusal(const Response& r, const std::string& uid, int code, const std::string& error,
                          const std::string& fragment) {
  static const std::map<int, std::string> kReasons = {{401, "Unauthorized"}, {403, "Forbidden"}, {429, "TooManyRequests"}};
  rapidjson::Document d = ExpectJson200(r);
  std::string message;
  BOOST_TEST_CONTEXT(r.Summary()) {
    const rapidjson::Value& response = ReviewResponse(d, uid);
    BOOST_TEST(!response["allowed"].GetBool());
    BOOST_TEST_REQUIRE((response.HasMember("status") && response["status"].IsObject()));
    BOOST_TEST(IntMember(response["status"], "code") == code);
    BOOST_TEST(StringMember(response["status"], "reason") == kReasons.at(code));
    message = StringMember(response["status"], "message");
    BOOST_TEST(message.find("(" + error + ")") != std::string::npos, message);
    BOOST_TEST(message.find(fragment) != std::string::npos, message);
  }
  return message;
}

}  // namespace icat::test
