// What nginx and the public endpoints answer before any tenant data matters: unknown paths, body
// limits, wrong methods, request ids, /api/status, /v1/openapi.json and HTTPS.
#include <sched.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <set>

#include "icat/api_key.hpp"
#include "icat/errors.hpp"
#include "support.hpp"

namespace it = icat::test;

BOOST_AUTO_TEST_SUITE(edge)

BOOST_AUTO_TEST_CASE(unknown_path_is_404_not_found_json) {
  it::ExpectError(it::Get("/nope"), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/v1/images/x/y/z"), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/v1/images/"), 404, "NOT_FOUND");
  it::ExpectError(it::Send("POST", "/nope", {{"Content-Type", "application/json"}}, "{}"), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(two_megabyte_body_is_413_payload_too_large_json) {
  std::string body = "{\"x\":\"" + std::string(2 * 1024 * 1024, 'a') + "\"}";
  it::Response r = it::Send("POST", "/v1/images", {{"Content-Type", "application/json"}}, body);
  it::ExpectError(r, 413, "PAYLOAD_TOO_LARGE");
}

BOOST_AUTO_TEST_CASE(post_to_image_list_is_405_with_allow_get) {
  it::Response r = it::Send("POST", "/v1/images", {{"Content-Type", "application/json"}}, "{}");
  it::ExpectError(r, 405, "METHOD_NOT_ALLOWED");
  BOOST_TEST(r.Header("allow") == "GET", r.Summary());
}

BOOST_AUTO_TEST_CASE(head_answers_like_get_without_a_body) {
  it::Tenant tenant;
  tenant.AddImage("head", {{"1.0"}});
  std::string key = tenant.CreateKey();
  it::HttpClient client;
  it::Response r = client.Send("HEAD", "/v1/images", it::Bearer(key), std::nullopt,
                               [](CURL* curl) { curl_easy_setopt(curl, CURLOPT_NOBODY, 1L); });
  BOOST_TEST(r.status == 200, r.Summary());
  BOOST_TEST(r.body.empty());
  BOOST_TEST(r.Header("content-type") == "application/json");
}

BOOST_AUTO_TEST_CASE(delete_of_image_detail_is_405_with_allow_get) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("del405");
  it::Response r = it::Send("DELETE", "/v1/images/" + image.id, it::Bearer(key));
  it::ExpectError(r, 405, "METHOD_NOT_ALLOWED");
  BOOST_TEST(r.Header("allow") == "GET", r.Summary());
}

BOOST_AUTO_TEST_CASE(every_response_carries_a_distinct_request_id) {
  std::set<std::string> ids;
  for (const char* path : {"/api/status", "/api/status", "/nope", "/v1/images", "/v1/openapi.json"}) {
    it::Response r = it::Get(path);
    BOOST_TEST_CONTEXT(path << ": " << r.Summary()) {
      BOOST_TEST(r.status != 0);
      BOOST_TEST(!r.Header("x-request-id").empty());
      BOOST_TEST(ids.insert(r.Header("x-request-id")).second, "request id repeated");
    }
  }
}

BOOST_AUTO_TEST_CASE(the_local_stack_runs_the_auth_pool_as_sched_idle_and_the_others_not) {
  // Password hashing must yield the CPU to every other pool at once (docs/decisions.md).
  for (pid_t pid : it::WorkerPids("auth")) BOOST_TEST(sched_getscheduler(pid) == SCHED_IDLE, "auth worker " << pid);
  for (pid_t pid : it::WorkerPids("catalog")) BOOST_TEST(sched_getscheduler(pid) == SCHED_OTHER, "catalog worker " << pid);
  BOOST_TEST(!it::WorkerPids("auth").empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(status)

BOOST_AUTO_TEST_CASE(status_with_everything_up_is_200_ok_with_checks) {
  rapidjson::Document body = it::ExpectJson200(it::Get("/api/status"));
  BOOST_TEST(it::StringMember(body, "status") == "ok");
  BOOST_TEST_REQUIRE((body.HasMember("checks") && body["checks"].IsObject()));
  BOOST_TEST(it::StringMember(body["checks"], "postgres") == "ok");
  BOOST_TEST(it::StringMember(body["checks"], "redis") == "ok");
}

BOOST_AUTO_TEST_CASE(status_ignores_a_bad_credential) {
  it::Response r = it::Get("/api/status", it::Bearer("not-a-key"));
  rapidjson::Document body = it::ExpectJson200(r);
  BOOST_TEST(it::StringMember(body, "status") == "ok");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(openapi)

BOOST_AUTO_TEST_CASE(openapi_document_is_public_and_valid_openapi_3_0) {
  it::ExpectValidOpenApi("/v1/openapi.json");
}

BOOST_AUTO_TEST_CASE(openapi_error_enum_is_exactly_the_error_table) {
  rapidjson::Document doc = it::ExpectJson200(it::Get("/v1/openapi.json"));
  const rapidjson::Value* schemas = nullptr;
  if (doc.HasMember("components") && doc["components"].IsObject() && doc["components"].HasMember("schemas")) {
    schemas = &doc["components"]["schemas"];
  }
  BOOST_TEST_REQUIRE(schemas != nullptr, "components.schemas missing");
  BOOST_TEST_REQUIRE((schemas->HasMember("Error") && (*schemas)["Error"].IsObject()), "schema Error missing");
  const rapidjson::Value& error_schema = (*schemas)["Error"];
  BOOST_TEST_REQUIRE((error_schema.HasMember("properties") && error_schema["properties"].HasMember("error")));
  const rapidjson::Value& error_property = error_schema["properties"]["error"];
  BOOST_TEST_REQUIRE((error_property.HasMember("enum") && error_property["enum"].IsArray()));
  std::set<std::string> listed;
  for (const rapidjson::Value& name : error_property["enum"].GetArray()) {
    BOOST_TEST_REQUIRE(name.IsString());
    listed.insert(name.GetString());
  }
  std::set<std::string> table;
  for (const icat::ErrorInfo& info : icat::AllErrors()) table.insert(std::string(info.name));
  for (const std::string& name : table) BOOST_TEST(listed.count(name) == 1u, name << " missing from the enum");
  for (const std::string& name : listed) BOOST_TEST(table.count(name) == 1u, name << " is not in errors.def");
  // The error body's shape, as clients read it.
  BOOST_TEST_REQUIRE(error_schema["properties"].HasMember("message"));
  BOOST_TEST_REQUIRE(error_schema["properties"].HasMember("details"));
}

BOOST_AUTO_TEST_CASE(openapi_paths_include_image_list_and_detail_with_api_key_security) {
  rapidjson::Document doc = it::ExpectJson200(it::Get("/v1/openapi.json"));
  BOOST_TEST_REQUIRE((doc.HasMember("paths") && doc["paths"].IsObject()));
  const rapidjson::Value& paths = doc["paths"];
  for (const char* path : {"/v1/images", "/v1/images/{id}"}) {
    BOOST_TEST_CONTEXT(path) {
      BOOST_TEST_REQUIRE(paths.HasMember(path));
      BOOST_TEST((paths[path].IsObject() && paths[path].HasMember("get")));
    }
  }
  BOOST_TEST((doc.HasMember("components") && doc["components"].HasMember("securitySchemes")),
             "components.securitySchemes missing");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(https)

namespace {

it::Response HttpsStatus(const std::function<void(CURL*)>& configure) {
  BOOST_TEST_REQUIRE(!it::GetEnv().https_url.empty(), "ICAT_HTTPS_URL is not set");
  it::HttpClient client;
  return client.Send("GET", it::GetEnv().https_url + "/api/status", {}, std::nullopt, [&](CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    configure(curl);
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(https_status_is_served_over_http2) {
  it::Response r = HttpsStatus([](CURL* curl) { curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS); });
  rapidjson::Document body = it::ExpectJson200(r);
  BOOST_TEST(r.http_version == static_cast<long>(CURL_HTTP_VERSION_2_0), "negotiated " << r.http_version);
  BOOST_TEST(it::StringMember(body, "status") == "ok");
}

BOOST_AUTO_TEST_CASE(tls_1_2_is_accepted) {
  it::Response r = HttpsStatus([](CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2) | static_cast<long>(CURL_SSLVERSION_MAX_TLSv1_2));
  });
  BOOST_TEST(r.status == 200, r.Summary());
}

BOOST_AUTO_TEST_CASE(tls_1_1_is_refused) {
  it::Response r = HttpsStatus([](CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_1) | static_cast<long>(CURL_SSLVERSION_MAX_TLSv1_1));
    // OpenSSL 3 refuses TLS 1.1 on the client side at its default security level; lower it so
    // that the refusal, if any, is the server's.
    curl_easy_setopt(curl, CURLOPT_SSL_CIPHER_LIST, "DEFAULT:@SECLEVEL=0");
  });
  BOOST_TEST(r.status == 0, "TLS 1.1 handshake succeeded: " << r.Summary());
}

BOOST_AUTO_TEST_SUITE_END()
