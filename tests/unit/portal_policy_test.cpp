// The admission policy document: defaults, field checks, and stored documents merged over defaults.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/json.hpp"
#include "icat/admission_policy.hpp"

namespace {

std::vector<std::string> Fields(const std::vector<icat::FieldIssue>& issues) {
  std::vector<std::string> fields;
  for (const icat::FieldIssue& i : issues) fields.push_back(i.field);
  return fields;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_policy)

BOOST_AUTO_TEST_CASE(defaults_are_those_of_design_section_8) {
  auto d = icat::ParseJson(icat::AdmissionPolicyJson(icat::AdmissionPolicy{}));
  BOOST_TEST(d["mode"].GetString() == std::string("enforce"));
  BOOST_TEST(d["requireCatalogImages"].GetBool());
  BOOST_TEST(d["requireScan"].GetBool());
  BOOST_TEST(d["allowedRegistries"].Size() == 0u);
  BOOST_TEST_REQUIRE(d["exemptNamespaces"].Size() == 1u);
  BOOST_TEST(d["exemptNamespaces"][0].GetString() == std::string("kube-system"));
  BOOST_TEST(d["exemptImages"].Size() == 0u);
  BOOST_TEST(d["severityThreshold"].GetString() == std::string("critical"));
  BOOST_TEST(!d["onlyFixable"].GetBool());
  BOOST_TEST(d["gracePeriodDays"].GetInt() == 0);
  BOOST_TEST(!d["denyWatchedCves"].GetBool());
  BOOST_TEST(d["trustVendorVex"].GetBool());
  BOOST_TEST(!d["requireDigest"].GetBool());
  BOOST_TEST(!d["requireCatalogRegistry"].GetBool());
  BOOST_TEST(!d["denyKnownExploited"].GetBool());
  BOOST_TEST(d["maxEpss"].IsNull());
  BOOST_TEST(d["exceptions"].Size() == 0u);
  BOOST_TEST(d.MemberCount() == 16u);
}

BOOST_AUTO_TEST_CASE(trust_vendor_vex_reads_like_the_other_switches) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p = icat::ReadAdmissionPolicy(icat::ParseJson(R"({"trustVendorVex": false})"), issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(!p.trust_vendor_vex);
  BOOST_TEST(!icat::ParseJson(icat::AdmissionPolicyJson(p))["trustVendorVex"].GetBool());
  BOOST_TEST(icat::StoredAdmissionPolicy(R"({"trustVendorVex": false})").trust_vendor_vex == false);
  BOOST_TEST(icat::StoredAdmissionPolicy("{}").trust_vendor_vex);  // a policy saved before it: the default
  (void)icat::ReadAdmissionPolicy(icat::ParseJson(R"({"trustVendorVex": "no"})"), issues);
  BOOST_TEST(Fields(issues) == std::vector<std::string>{"trustVendorVex"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(deny_known_exploited_and_max_epss_read_checked_and_off_by_default) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p =
      icat::ReadAdmissionPolicy(icat::ParseJson(R"({"denyKnownExploited": true, "maxEpss": 0.25})"), issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(p.deny_known_exploited);
  BOOST_TEST(p.max_epss.value_or(-1) == 0.25);
  auto d = icat::ParseJson(icat::AdmissionPolicyJson(p));
  BOOST_TEST(d["denyKnownExploited"].GetBool());
  BOOST_TEST(d["maxEpss"].GetDouble() == 0.25);
  BOOST_TEST(icat::StoredAdmissionPolicy(icat::AdmissionPolicyJson(p)).max_epss.value_or(-1) == 0.25);
  BOOST_TEST(!icat::StoredAdmissionPolicy("{}").max_epss.has_value());  // saved before it: the rule is off
  BOOST_TEST(!icat::ReadAdmissionPolicy(icat::ParseJson(R"({"maxEpss": null})"), issues).max_epss.has_value());
  BOOST_TEST(icat::ReadAdmissionPolicy(icat::ParseJson(R"({"maxEpss": 0})"), issues).max_epss.value_or(-1) == 0);
  BOOST_TEST(issues.empty());
  for (const char* bad : {R"({"maxEpss": 1.5})", R"({"maxEpss": -0.1})", R"({"maxEpss": "0.5"})",
                          R"({"maxEpss": true})"}) {
    std::vector<icat::FieldIssue> found;
    (void)icat::ReadAdmissionPolicy(icat::ParseJson(bad), found);
    BOOST_TEST(Fields(found) == std::vector<std::string>{"maxEpss"}, boost::test_tools::per_element());
  }
  (void)icat::ReadAdmissionPolicy(icat::ParseJson(R"({"denyKnownExploited": 1})"), issues);
  BOOST_TEST(Fields(issues) == std::vector<std::string>{"denyKnownExploited"}, boost::test_tools::per_element());
}

// A policy stored before requireCatalogRegistry existed keeps behaving as it did: the rule is off.
BOOST_AUTO_TEST_CASE(require_catalog_registry_reads_like_the_other_switches_and_is_off_unless_stored_on) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p =
      icat::ReadAdmissionPolicy(icat::ParseJson(R"({"requireCatalogRegistry": true, "requireDigest": true})"), issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(p.require_catalog_registry);
  BOOST_TEST(icat::ParseJson(icat::AdmissionPolicyJson(p))["requireCatalogRegistry"].GetBool());
  BOOST_TEST(icat::StoredAdmissionPolicy(R"({"requireCatalogRegistry": true})").require_catalog_registry);
  BOOST_TEST(!icat::StoredAdmissionPolicy(R"({"mode": "enforce", "requireDigest": true})").require_catalog_registry);
  BOOST_TEST(!icat::StoredAdmissionPolicy("{}").require_catalog_registry);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"requireCatalogRegistry": "true"})", "requireCatalogRegistry"},
      {R"({"requireCatalogRegistry": 1})", "requireCatalogRegistry"},
      {R"({"requireCatalogRegistry": ["localhost:8443"]})", "requireCatalogRegistry"},
      {R"({"requireRegistry": true})", "requireRegistry"},  // no such field
  };
  for (const auto& [json, field] : bad) {
    BOOST_TEST_CONTEXT(json) {
      issues.clear();
      (void)icat::ReadAdmissionPolicy(icat::ParseJson(json), issues);
      BOOST_TEST(Fields(issues) == std::vector<std::string>{field}, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(empty_body_is_the_defaults) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p = icat::ReadAdmissionPolicy(icat::ParseJson("{}"), issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(icat::AdmissionPolicyJson(p) == icat::AdmissionPolicyJson(icat::AdmissionPolicy{}));
}

BOOST_AUTO_TEST_CASE(a_full_document_reads_back_normalised) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p = icat::ReadAdmissionPolicy(icat::ParseJson(R"({
    "mode": "warn", "requireCatalogImages": false, "allowedRegistries": ["registry.example.test/hardened", "10.0.0.5:5000"],
    "exemptNamespaces": ["kube-system", "monitoring", "monitoring"], "exemptImages": ["docker.io/library/busybox:*"],
    "severityThreshold": "high", "onlyFixable": true, "gracePeriodDays": 14, "denyWatchedCves": true,
    "requireDigest": true,
    "exceptions": [{"cveId": "cve-2024-3094", "imageId": null, "justification": "vendor fix pending",
                    "expiresAt": "2027-01-01T00:00:00Z"}]})"),
                                                      issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(p.mode == "warn");
  BOOST_TEST(!p.require_catalog_images);
  BOOST_TEST(p.allowed_registries.size() == 2u);
  BOOST_TEST(p.exempt_namespaces.size() == 2u);  // the duplicate dropped
  BOOST_TEST(*p.severity_threshold == "high");
  BOOST_TEST(p.grace_period_days == 14);
  BOOST_TEST_REQUIRE(p.exceptions.size() == 1u);
  BOOST_TEST(p.exceptions[0].cve_id == "CVE-2024-3094");
  BOOST_TEST(!p.exceptions[0].image_id.has_value());
  auto round_trip = icat::ParseJson(icat::AdmissionPolicyJson(p));
  BOOST_TEST(round_trip["exceptions"][0]["imageId"].IsNull());
}

BOOST_AUTO_TEST_CASE(null_severity_threshold_turns_the_rule_off_other_nulls_mean_default) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p = icat::ReadAdmissionPolicy(icat::ParseJson(R"({"severityThreshold": null, "mode": null})"), issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(!p.severity_threshold.has_value());
  BOOST_TEST(p.mode == "enforce");
  BOOST_TEST(icat::ParseJson(icat::AdmissionPolicyJson(p))["severityThreshold"].IsNull());
}

BOOST_AUTO_TEST_CASE(every_bad_field_is_one_issue_with_its_path) {
  std::vector<icat::FieldIssue> issues;
  (void)icat::ReadAdmissionPolicy(icat::ParseJson(R"({
    "mode": "block", "requireCatalogImages": "yes", "allowedRegistries": ["ok.example", "has space"],
    "exemptNamespaces": ["Kube_System"], "exemptImages": [""], "severityThreshold": "unknown",
    "onlyFixable": 1, "gracePeriodDays": 366, "denyWatchedCves": null, "requireDigest": [],
    "exceptions": [{"cveId": "CVE-2024-3094", "justification": "ok", "expiresAt": "2027-01-01T00:00:00Z"},
                   {"cveId": "xz", "imageId": "nope", "justification": "", "expiresAt": "tomorrow", "extra": 1}],
    "surprise": true})"),
                                  issues);
  std::vector<std::string> expected = {"mode",
                                       "requireCatalogImages",
                                       "allowedRegistries[1]",
                                       "exemptNamespaces[0]",
                                       "exemptImages[0]",
                                       "severityThreshold",
                                       "onlyFixable",
                                       "gracePeriodDays",
                                       "requireDigest",
                                       "exceptions[1].cveId",
                                       "exceptions[1].imageId",
                                       "exceptions[1].justification",
                                       "exceptions[1].expiresAt",
                                       "exceptions[1].extra",
                                       "surprise"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(exceptions_need_cve_justification_and_expiry) {
  std::vector<icat::FieldIssue> issues;
  (void)icat::ReadAdmissionPolicy(icat::ParseJson(R"({"exceptions": [{}], "exemptImages": "x"})"), issues);
  std::vector<std::string> expected = {"exemptImages", "exceptions[0].cveId", "exceptions[0].justification",
                                       "exceptions[0].expiresAt"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(require_scan_reads_like_the_other_switches_and_an_exception_may_name_it) {
  std::vector<icat::FieldIssue> issues;
  icat::AdmissionPolicy p = icat::ReadAdmissionPolicy(icat::ParseJson(R"({"requireScan": false,
    "exceptions": [{"rule": "requireScan", "imageId": null, "justification": "scan pending",
                    "expiresAt": "2027-01-01T00:00:00Z"}]})"),
                                                      issues);
  BOOST_TEST(issues.empty());
  BOOST_TEST(!p.require_scan);
  BOOST_TEST_REQUIRE(p.exceptions.size() == 1u);
  BOOST_TEST(*p.exceptions[0].rule == "requireScan");
  auto round_trip = icat::ParseJson(icat::AdmissionPolicyJson(p));
  BOOST_TEST(!round_trip["requireScan"].GetBool());
  BOOST_TEST(round_trip["exceptions"][0]["rule"].GetString() == std::string("requireScan"));
  BOOST_TEST(!round_trip["exceptions"][0].HasMember("cveId"));
  BOOST_TEST(icat::StoredAdmissionPolicy(R"({"mode": "warn"})").require_scan);  // absent: on

  (void)icat::ReadAdmissionPolicy(icat::ParseJson(R"({"requireScan": "no", "exceptions": [
    {"rule": "requireDigest", "justification": "x", "expiresAt": "2027-01-01T00:00:00Z"},
    {"rule": "requireScan", "cveId": "CVE-2024-3094", "justification": "x", "expiresAt": "2027-01-01T00:00:00Z"}]})"),
                                  issues);
  std::vector<std::string> expected = {"requireScan", "exceptions[0].rule", "exceptions[1].rule"};
  BOOST_TEST(Fields(issues) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(stored_policy_is_merged_over_the_defaults) {
  icat::AdmissionPolicy p = icat::StoredAdmissionPolicy(R"({"mode": "audit", "gracePeriodDays": 3, "retired": 1})");
  BOOST_TEST(p.mode == "audit");
  BOOST_TEST(p.grace_period_days == 3);
  BOOST_TEST(*p.severity_threshold == "critical");  // absent: the default
  BOOST_TEST(p.exempt_namespaces.size() == 1u);
  BOOST_TEST(icat::AdmissionPolicyJson(icat::StoredAdmissionPolicy("not json")) ==
             icat::AdmissionPolicyJson(icat::AdmissionPolicy{}));
}

BOOST_AUTO_TEST_SUITE_END()
