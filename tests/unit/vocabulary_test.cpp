// The service's words (icat/vocabulary.hpp) and the published contract: each enum of the built
// OpenAPI documents that holds a vocabulary's words holds exactly those, in the vocabulary's order.
// The console's lists are checked against these enums in turn (tests/browser/vocabulary.test.mjs).
#include "icat/vocabulary.hpp"

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "icat/attestation.hpp"

namespace {

using Words = std::vector<std::string>;

// A built document (make builds both): build/www/v1/openapi.json or build/www/api/openapi.json,
// under ICAT_BUILD_DIR when set.
rapidjson::Document BuiltDocument(const std::string& api) {
  const char* build = std::getenv("ICAT_BUILD_DIR");
  std::string path = std::string(build && *build ? build : "build") + "/www/" + api + "/openapi.json";
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  rapidjson::Document document;
  document.Parse(text.str().c_str());
  BOOST_TEST_REQUIRE(document.IsObject(), "no OpenAPI document at " << path << ": run make all");
  return document;
}

// The enum's words; a null member (a nullable field) is left out. Empty when there is no enum.
Words EnumWords(const rapidjson::Value* schema) {
  Words words;
  if (schema == nullptr || !schema->IsObject() || !schema->HasMember("enum")) return words;
  for (const rapidjson::Value& word : (*schema)["enum"].GetArray()) {
    if (word.IsString()) words.emplace_back(word.GetString());
  }
  return words;
}

// The enum of the schema at a JSON pointer ("/components/schemas/Severity").
Words EnumAt(const rapidjson::Document& document, const char* pointer) {
  return EnumWords(rapidjson::Pointer(pointer).Get(document));
}

// The enum of a GET operation's parameter, by the path and the parameter's name.
Words ParameterEnum(const rapidjson::Document& document, const char* path, const char* name) {
  const rapidjson::Value& operation = document["paths"][path]["get"];
  for (const rapidjson::Value& parameter : operation["parameters"].GetArray()) {
    if (parameter.HasMember("name") && std::string(parameter["name"].GetString()) == name) {
      return EnumWords(&parameter["schema"]);
    }
  }
  return {};
}

template <size_t N>
Words AsWords(const std::array<std::string_view, N>& words) {
  return {words.begin(), words.end()};
}

Words AttestationTypeNames() {
  Words names;
  for (const icat::AttestationType& type : icat::kAttestationTypes) names.emplace_back(type.name);
  return names;
}

// An admission policy's severityThreshold: the severities that rank above unknown.
Words ThresholdSeverities() {
  Words words;
  for (std::string_view severity : icat::kSeverities) {
    if (icat::SeverityRank(severity) > 0) words.emplace_back(severity);
  }
  return words;
}

// What both documents publish alike.
void CheckSharedEnums(const rapidjson::Document& document) {
  BOOST_TEST(EnumAt(document, "/components/schemas/Severity") == AsWords(icat::kSeverities),
             boost::test_tools::per_element());
  BOOST_TEST(EnumAt(document, "/components/schemas/SeveritySource/properties/severity") == AsWords(icat::kSeverities),
             boost::test_tools::per_element());
  BOOST_TEST(EnumAt(document, "/components/schemas/FixState") == AsWords(icat::kFixStates),
             boost::test_tools::per_element());
  BOOST_TEST(EnumAt(document, "/components/schemas/VendorVex/properties/status") == AsWords(icat::kVexStatuses),
             boost::test_tools::per_element());
  BOOST_TEST(
      EnumAt(document, "/components/schemas/VendorVex/properties/justification") == AsWords(icat::kVexJustifications),
      boost::test_tools::per_element());
  BOOST_TEST(EnumAt(document, "/components/schemas/AttestationList/properties/attestations/items/properties/type") ==
                 AttestationTypeNames(),
             boost::test_tools::per_element());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vocabulary)

BOOST_AUTO_TEST_CASE(severity_rank_puts_critical_highest_and_any_other_word_with_unknown) {
  BOOST_TEST(icat::SeverityRank("critical") == 4);
  BOOST_TEST(icat::SeverityRank("low") == 1);
  BOOST_TEST(icat::SeverityRank("unknown") == 0);
  BOOST_TEST(icat::SeverityRank("CRITICAL") == 0);
  for (std::string_view severity : icat::kSeverities) {
    BOOST_TEST(icat::SeverityOfRank(icat::SeverityRank(severity)) == severity);
  }
}

BOOST_AUTO_TEST_CASE(the_v1_documents_enums_are_the_vocabularies) {
  rapidjson::Document v1 = BuiltDocument("v1");
  CheckSharedEnums(v1);
  for (const char* path : {"/v1/images/{id}/sbom", "/v1/images/{id}/versions/{versionId}/sbom"}) {
    BOOST_TEST(ParameterEnum(v1, path, "format") == AsWords(icat::kSbomFormats), path);
  }
  BOOST_TEST(ParameterEnum(v1, "/v1/images/{id}/versions/{versionId}/vex", "format") == AsWords(icat::kVexFormats));
  BOOST_TEST(ParameterEnum(v1, "/v1/images/{id}/versions/{versionId}/attestations/{type}", "type") ==
             AttestationTypeNames());
}

BOOST_AUTO_TEST_CASE(the_portal_documents_enums_are_the_vocabularies) {
  rapidjson::Document api = BuiltDocument("api");
  CheckSharedEnums(api);
  for (const char* schema : {"ApiKeyRequest", "ApiKey"}) {
    std::string pointer = "/components/schemas/" + std::string(schema) + "/properties/scopes/items";
    BOOST_TEST(EnumAt(api, pointer.c_str()) == AsWords(icat::kScopes), pointer);
  }
  for (const char* schema : {"User", "Me", "PortalUser", "UserRequest", "UserChangeRequest"}) {
    std::string pointer = "/components/schemas/" + std::string(schema) + "/properties/role";
    BOOST_TEST(EnumAt(api, pointer.c_str()) == AsWords(icat::kRoles), pointer);
  }
  BOOST_TEST(EnumAt(api, "/components/schemas/EventType") == AsWords(icat::kEventTypes),
             boost::test_tools::per_element());
  BOOST_TEST(EnumAt(api, "/components/schemas/ApiKey/properties/state") == AsWords(icat::kKeyStates),
             boost::test_tools::per_element());
  for (const char* schema : {"FeatureRequest", "FeatureRequestRequest"}) {
    std::string pointer = "/components/schemas/" + std::string(schema) + "/properties/type";
    BOOST_TEST(EnumAt(api, pointer.c_str()) == AsWords(icat::kRequestTypes), pointer);
  }
  BOOST_TEST(EnumAt(api, "/components/schemas/FeatureRequest/properties/status") == AsWords(icat::kRequestStatuses),
             boost::test_tools::per_element());
  BOOST_TEST(ParameterEnum(api, "/api/feature-requests", "type") == AsWords(icat::kRequestTypes));
  BOOST_TEST(ParameterEnum(api, "/api/feature-requests", "status") == AsWords(icat::kRequestStatuses));
  BOOST_TEST(EnumAt(api, "/components/schemas/DeliveryAttempts/properties/state") == AsWords(icat::kDeliveryStates),
             boost::test_tools::per_element());
  BOOST_TEST(ParameterEnum(api, "/api/webhooks/{id}/deliveries", "state") == AsWords(icat::kDeliveryStates));
  for (const char* schema : {"AdmissionPolicy", "AdmissionDecision"}) {
    std::string pointer = "/components/schemas/" + std::string(schema) + "/properties/mode";
    BOOST_TEST(EnumAt(api, pointer.c_str()) == AsWords(icat::kAdmissionModes), pointer);
  }
  BOOST_TEST(EnumAt(api, "/components/schemas/AdmissionPolicy/properties/severityThreshold") == ThresholdSeverities(),
             boost::test_tools::per_element());
  const char* vex_event = "/components/schemas/VexUpdatedEvent/allOf/1/properties/data/properties";
  BOOST_TEST(EnumAt(api, (std::string(vex_event) + "/document/properties/format").c_str()) ==
             AsWords(icat::kVexFormats));
  BOOST_TEST(EnumAt(api, (std::string(vex_event) + "/statements/items/properties/status").c_str()) ==
             AsWords(icat::kVexStatuses));
  BOOST_TEST(EnumAt(api, (std::string(vex_event) + "/statements/items/properties/justification").c_str()) ==
             AsWords(icat::kVexJustifications));
  BOOST_TEST(ParameterEnum(api, "/api/docker-images/{imageId}/versions/{versionId}/vex", "format") ==
             AsWords(icat::kVexFormats));
  BOOST_TEST(ParameterEnum(api, "/api/docker-images/{imageId}/versions/{versionId}/attestations/{type}", "type") ==
             AttestationTypeNames());
}

BOOST_AUTO_TEST_SUITE_END()
