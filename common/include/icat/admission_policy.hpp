// A tenant's admission policy (DESIGN.md section 8): the document, its defaults, its checks.
// The portal stores it (GET/PUT /api/admission-policy); the admission handler reads it.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/errors.hpp"

namespace icat {

// Lifts one CVE id, or one rule that has no CVE behind it (requireScan), until it expires.
struct PolicyException {
  std::string cve_id;                   // upper case; empty when the exception names a rule
  std::optional<std::string> image_id;  // a catalogue image id; none: every image
  std::string justification;
  std::string expires_at;           // RFC 3339, as given
  std::optional<std::string> rule;  // one of kExceptionRules, instead of a CVE id
};

// The rules an exception can name instead of a CVE id.
inline const std::vector<std::string_view> kExceptionRules = {"requireScan"};

// Every field with its default: what a tenant that never saved a policy gets.
struct AdmissionPolicy {
  std::string mode = "enforce";  // one of kAdmissionModes
  bool require_catalog_images = true;
  bool require_scan = true;  // a catalogue version that was never scanned is denied (its risk is unknown)
  std::vector<std::string> allowed_registries;  // prefixes; empty: any
  std::vector<std::string> exempt_namespaces = {"kube-system"};
  std::vector<std::string> exempt_images;                      // glob patterns on the full reference
  std::optional<std::string> severity_threshold = "critical";  // critical|high|medium|low; none: rule off
  bool only_fixable = false;
  int grace_period_days = 0;
  bool deny_watched_cves = false;
  // The vendor's VEX: a CVE it marks not_affected for the version counts toward no rule (docs/vex.md).
  bool trust_vendor_vex = true;
  bool require_digest = false;  // a reference must carry a digest (@sha256:...)
  // An image must come from the service's own registry: the host (and port) of ICAT_REGISTRY.
  bool require_catalog_registry = false;
  // A counted finding whose id or a CVE alias is in CISA's KEV catalogue is denied (issue 31).
  bool deny_known_exploited = false;
  // A counted finding whose EPSS score is above this (0..1) is denied; none: rule off.
  std::optional<double> max_epss;
  std::vector<PolicyException> exceptions;
};

inline constexpr size_t kMaxPolicyListItems = 100;
inline constexpr size_t kMaxPolicyExceptions = 500;
inline constexpr int kMaxGracePeriodDays = 365;

// The document, every field present, in the order DESIGN.md shows.
std::string AdmissionPolicyJson(const AdmissionPolicy& policy);

// Reads a PUT body: fields left out (or null, except severityThreshold where null turns the rule
// off, and maxEpss, where null turns it off) keep their defaults; each problem is appended to issues with its field name
// ("exceptions[2].expiresAt"), and unknown fields are problems too.
AdmissionPolicy ReadAdmissionPolicy(const rapidjson::Value& document, std::vector<FieldIssue>& issues);

// A stored document (checked when it was saved) merged over the defaults, so fields added to the
// policy later get their default; a field that does not read cleanly keeps its default, and text
// that is not a JSON object gives the defaults.
AdmissionPolicy StoredAdmissionPolicy(std::string_view json);

}  // namespace icat
