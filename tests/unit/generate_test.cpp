// icat-gen (tools/generate): README's settings table, the words for who may call a route, and the
// OpenAPI build's refusal of a document that does not match the route tables. The generated files
// themselves are checked whole by icat-gen --check (make test).
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "../../tools/generate/outputs.hpp"
#include "../../tools/generate/routes.hpp"
#include "icat/json.hpp"

namespace gen = icat::gen;

namespace {

std::string RepoFile(const std::string& path) {
  const char* repo = std::getenv("ICAT_REPO");
  std::ifstream file(repo && *repo ? std::string(repo) + "/" + path : path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

const icat::Route& RouteOf(std::string_view method, std::string_view pattern) {
  for (const gen::Row& row : gen::Rows()) {
    if (row.route->method == method && row.route->pattern == pattern) return *row.route;
  }
  throw std::runtime_error("no route " + std::string(method) + " " + std::string(pattern));
}

// The message of the GenError icat-gen openapi v1 gives for nginx/openapi.json changed by `change`;
// "" when it gives none.
std::string OpenApiRefusal(const std::function<void(rapidjson::Document&)>& change) {
  icat::JsonRead read = icat::ReadJson(RepoFile("nginx/openapi.json"), icat::kMaxDocumentDepth);
  BOOST_TEST_REQUIRE(read.error.empty());
  change(read.document);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  read.document.Accept(writer);
  std::string path = "/tmp/icat-gen-test-" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << buffer.GetString();
  std::string message;
  try {
    gen::OpenApi("v1", path);
  } catch (const gen::GenError& e) {
    message = e.what();
  }
  std::remove(path.c_str());
  return message;
}

rapidjson::Value& Operation(rapidjson::Document& doc, const char* path, const char* method) {
  return doc["paths"][path][method];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(generate)

BOOST_AUTO_TEST_CASE(readme_holds_the_settings_table) {
  std::string table = gen::SettingsTable();
  BOOST_TEST_REQUIRE(table.find("| ICAT_WORKERS_\\<GROUP> |") != std::string::npos);
  BOOST_TEST(RepoFile("README.md").find(table) != std::string::npos,
             "README.md's Configuration table differs from the settings table; run make gen:\n"
                 << table);
}

BOOST_AUTO_TEST_CASE(who_may_call_a_route_is_said_once_per_access) {
  BOOST_TEST(gen::Who(RouteOf("GET", "/v1/images/{id}/sbom")) == "API key with `read:sbom`");
  BOOST_TEST(gen::Who(RouteOf("POST", "/api/auth/login")) == "anyone");
  BOOST_TEST(gen::Who(RouteOf("GET", "/api/api-keys")) == "portal, admin");
  BOOST_TEST(gen::Who(RouteOf("POST", "/api/auth/password")) == "portal, any role (own account)");
  BOOST_TEST(gen::Who(RouteOf("GET", "/_registry/auth")) ==
             "registry client: Basic, an API key with `pull` or a publisher's password");
  BOOST_TEST(gen::PortalRole(icat::Access::kPortal) == "viewer");
  BOOST_TEST(gen::PortalRole(icat::Access::kPortalAdmin) == "admin");
  BOOST_TEST(gen::PortalRole(icat::Access::kRegistry) == "");
  BOOST_CHECK_THROW(gen::AccessName(static_cast<icat::Access>(99)), gen::GenError);
}

BOOST_AUTO_TEST_CASE(two_regex_locations_overlap_when_one_path_matches_both) {
  BOOST_TEST(gen::PathsOverlap("/v1/images/{id}", "/v1/{kind}/{id}"));
  BOOST_TEST(gen::PathsOverlap("/v1/images/{id}/sbom", "/v1/images/{x}/sbom"));
  BOOST_TEST(!gen::PathsOverlap("/v1/images/{id}", "/v1/vulns/{id}"));
  BOOST_TEST(!gen::PathsOverlap("/v1/images/{id}", "/v1/images/{id}/sbom"));
  BOOST_TEST(!gen::PathsOverlap("/v1/images/latest", "/v1/images/{id}"));  // the exact location wins
  BOOST_CHECK_NO_THROW(gen::CheckNoOverlap());
}

BOOST_AUTO_TEST_CASE(the_unchanged_source_builds) {
  BOOST_TEST(OpenApiRefusal([](rapidjson::Document&) {}) == "");
}

BOOST_AUTO_TEST_CASE(an_operation_without_a_route_fails_the_build) {
  std::string refusal = OpenApiRefusal([](rapidjson::Document& doc) {
    rapidjson::Value copy(Operation(doc, "/v1/images", "get"), doc.GetAllocator());
    doc["paths"]["/v1/images"].AddMember("delete", copy, doc.GetAllocator());
  });
  BOOST_TEST(refusal == "operations without a route:\n  /v1/images delete");
}

BOOST_AUTO_TEST_CASE(a_route_without_an_operation_fails_the_build) {
  std::string refusal =
      OpenApiRefusal([](rapidjson::Document& doc) { doc["paths"]["/v1/images"].RemoveMember("get"); });
  BOOST_TEST(refusal == "routes without an operation:\n  /v1/images get");
}

BOOST_AUTO_TEST_CASE(an_operation_whose_query_parameters_are_not_its_routes_fails_the_build) {
  std::string refusal = OpenApiRefusal([](rapidjson::Document& doc) {
    rapidjson::Value parameter(rapidjson::kObjectType);
    parameter.AddMember("name", "sort", doc.GetAllocator()).AddMember("in", "query", doc.GetAllocator());
    rapidjson::Value& operation = Operation(doc, "/v1/images/{id}", "get");
    if (!operation.HasMember("parameters"))
      operation.AddMember("parameters", rapidjson::kArrayType, doc.GetAllocator());
    operation["parameters"].PushBack(parameter, doc.GetAllocator());
  });
  BOOST_TEST(refusal ==
             "query parameters differ from the route table:\n  /v1/images/{} get: documented [sort], route []");
}

BOOST_AUTO_TEST_SUITE_END()
