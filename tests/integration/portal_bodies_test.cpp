// Request bodies on every portal route that takes one: wrong Content-Type 415, invalid JSON 400
// MALFORMED_JSON, over 1 MiB 413, not an object or empty 400 VALIDATION_ERROR with details; and the
// portal's OpenAPI document at /api/openapi.json.
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "icat/errors.hpp"
#include "icat/vocabulary.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

struct BodyRoute {
  const char* method;
  std::string path;
  std::vector<std::string> required;  // the fields an empty object is missing, in detail order
};

std::vector<BodyRoute> Routes(const std::string& webhook_id) {
  return {
      {"POST", "/api/auth/login", {"email", "password"}},
      {"POST", "/api/auth/refresh", {"refreshToken"}},
      {"POST", "/api/auth/logout", {"refreshToken"}},
      {"POST", "/api/api-keys", {"name", "scopes"}},
      {"POST", "/api/cve-watches", {"cveId"}},
      {"POST", "/api/feature-requests", {"type", "title", "description"}},
      {"POST", "/api/webhooks", {"url", "events"}},
      {"PUT", "/api/webhooks/" + webhook_id, {"url", "events"}},
      {"PUT", "/api/admission-policy", {}},  // every field has a default
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_bodies)

BOOST_AUTO_TEST_CASE(every_body_route_checks_type_syntax_size_shape_and_fields) {
  it::PortalTenant t;
  it::Headers json = t.As(t.admin);
  it::Headers text = {json[0], json[1], {"Content-Type", "text/plain"}};
  it::Headers none = {json[0], json[1]};
  std::string hook = it::StringMember(
      it::JsonOf(it::Send("POST", "/api/webhooks", json, R"({"url": "https://93.184.215.14/b", "events": ["ping"]})")),
      "id");
  std::string big = "{\"x\":\"" + std::string(1024 * 1024 + 10, 'a') + "\"}";
  for (const BodyRoute& route : Routes(hook)) {
    BOOST_TEST_CONTEXT(route.method << " " << route.path) {
      it::ExpectError(it::Send(route.method, route.path, text, "{}"), 415, "UNSUPPORTED_MEDIA_TYPE");
      it::ExpectError(it::Send(route.method, route.path, none, "{}"), 415, "UNSUPPORTED_MEDIA_TYPE");
      it::ExpectError(it::Send(route.method, route.path, json, "{\"name\": "), 400, "MALFORMED_JSON");
      it::ExpectError(it::Send(route.method, route.path, json, "{\"a\": 1} trailing"), 400, "MALFORMED_JSON");
      it::ExpectError(it::Send(route.method, route.path, json, big), 413, "PAYLOAD_TOO_LARGE");
      it::Response array = it::Send(route.method, route.path, json, "[]");
      it::ExpectError(array, 400, "VALIDATION_ERROR");
      std::vector<std::string> fields = it::DetailFields(array);
      BOOST_TEST((std::find(fields.begin(), fields.end(), "body") != fields.end()), array.Summary());
      it::Response empty = it::Send(route.method, route.path, json, "{\"unknownField\": true}");
      it::ExpectError(empty, 400, "VALIDATION_ERROR");
      std::vector<std::string> expected = route.required;
      expected.push_back("unknownField");
      BOOST_TEST(it::DetailFields(empty) == expected, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_string_with_nul_or_a_number_too_large_is_a_validation_error_not_a_500) {
  it::PortalTenant t;
  it::Response nul = it::Send("POST", "/api/feature-requests", t.As(t.admin),
                              R"({"type": "bug", "title": "a\u0000b", "description": "d"})");
  it::ExpectError(nul, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(nul) == std::vector<std::string>{"title"}, boost::test_tools::per_element());
  it::Response huge = it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"gracePeriodDays": 1e300})");
  it::ExpectError(huge, 400, "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_openapi)

BOOST_AUTO_TEST_CASE(portal_openapi_document_is_public_and_valid_openapi_3_0) {
  it::ExpectValidOpenApi("/api/openapi.json");
  it::ExpectError(it::Send("POST", "/api/openapi.json", {{"Content-Type", "application/json"}}, "{}"), 405,
                  "METHOD_NOT_ALLOWED");
}

BOOST_AUTO_TEST_CASE(portal_openapi_lists_every_portal_route_and_the_error_table) {
  rapidjson::Document doc = it::ExpectJson200(it::Get("/api/openapi.json"));
  const rapidjson::Value& paths = doc["paths"];
  const std::pair<const char*, const char*> routes[] = {
      {"/api/auth/login", "post"},
      {"/api/auth/refresh", "post"},
      {"/api/auth/logout", "post"},
      {"/api/auth/me", "get"},
      {"/api/docker-images", "get"},
      {"/api/docker-images/{id}", "get"},
      {"/api/docker-images/{id}/versions/{vid}/scan-history", "get"},
      {"/api/docker-images/{imageId}/versions/{versionId}/sbom/spdx", "get"},
      {"/api/docker-images/{imageId}/versions/{versionId}/sbom/cyclonedx", "get"},
      {"/api/docker-images/{imageId}/versions/{versionId}/vulnerabilities", "get"},
      {"/api/cve/{cveId}", "get"},
      {"/api/api-keys", "get"},
      {"/api/api-keys", "post"},
      {"/api/api-keys/{id}", "delete"},
      {"/api/cve-watches", "get"},
      {"/api/cve-watches", "post"},
      {"/api/cve-watches/{id}", "delete"},
      {"/api/feature-requests", "get"},
      {"/api/feature-requests", "post"},
      {"/api/webhooks", "get"},
      {"/api/webhooks", "post"},
      {"/api/webhooks/{id}", "put"},
      {"/api/webhooks/{id}", "delete"},
      {"/api/webhooks/{id}/deliveries", "get"},
      {"/api/webhooks/{id}/ping", "post"},
      {"/api/admission-policy", "get"},
      {"/api/admission-policy", "put"},
      {"/api/admission-decisions", "get"},
      {"/api/audit-log", "get"},
      {"/api/status", "get"},
      {"/api/openapi.json", "get"},
  };
  for (const auto& [path, method] : routes) {
    BOOST_TEST_CONTEXT(method << " " << path) {
      BOOST_TEST_REQUIRE(paths.HasMember(path));
      BOOST_TEST(paths[path].HasMember(method));
    }
  }
  const rapidjson::Value& error_enum = doc["components"]["schemas"]["Error"]["properties"]["error"]["enum"];
  std::set<std::string> listed;
  for (const rapidjson::Value& name : error_enum.GetArray()) listed.insert(name.GetString());
  std::set<std::string> table;
  for (const icat::ErrorInfo& info : icat::AllErrors()) table.insert(std::string(info.name));
  BOOST_TEST((listed == table));
}

BOOST_AUTO_TEST_CASE(portal_openapi_has_every_webhook_event_type_and_a_callback_for_each) {
  rapidjson::Document doc = it::ExpectJson200(it::Get("/api/openapi.json"));
  std::set<std::string> types, callbacks;
  for (const rapidjson::Value& type : doc["components"]["schemas"]["EventType"]["enum"].GetArray()) {
    types.insert(type.GetString());
  }
  const rapidjson::Value& post = doc["paths"]["/api/webhooks"]["post"];
  BOOST_TEST_REQUIRE(post.HasMember("callbacks"));
  for (auto it = post["callbacks"].MemberBegin(); it != post["callbacks"].MemberEnd(); ++it) {
    callbacks.insert(it->name.GetString());
  }
  BOOST_TEST((types == std::set<std::string>(icat::kEventTypes.begin(), icat::kEventTypes.end())));
  BOOST_TEST((callbacks == types));
}

// The route tables themselves (handlers/<group>/routes.cpp, as icat-gen reads them), so a new /api
// route cannot ship undocumented.
BOOST_AUTO_TEST_CASE(every_api_route_of_every_handler_group_is_in_the_portal_openapi) {
  rapidjson::Document doc = it::ExpectJson200(it::Get("/api/openapi.json"));
  const rapidjson::Value& paths = doc["paths"];
  it::ProcessResult rows = it::RunProcess({it::GetEnv().bin_dir + "/icat-gen", "routes"});
  BOOST_TEST_REQUIRE(rows.exit_code == 0, rows.err);
  std::istringstream lines(rows.out);
  size_t routes = 0;
  for (std::string method, path, group, rest; lines >> method >> path >> group && std::getline(lines, rest);) {
    if (!path.starts_with("/api/")) continue;
    for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    routes++;
    BOOST_TEST_CONTEXT(group << ": " << method << " " << path) {
      BOOST_TEST((paths.HasMember(path.c_str()) && paths[path.c_str()].HasMember(method.c_str())));
    }
  }
  BOOST_TEST(routes >= 30u);  // the tables were read
}

BOOST_AUTO_TEST_SUITE_END()
