// The admission policy document: JSON in and out, with field-level checks.
#include "icat/admission_policy.hpp"

#include <algorithm>
#include <regex>

#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"

namespace icat {

namespace {

// Every severity but unknown, which never counts.
const std::vector<std::string_view> kThresholds(kSeverities.begin(), kSeverities.end() - 1);

// A registry host with optional port and path: registry.example.test/hardened, 10.0.0.5:5000/x.
bool IsRegistryPrefix(const std::string& text) {
  static const std::regex form(R"([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[A-Za-z0-9._/-]*)?)");
  return text.size() <= 255 && std::regex_match(text, form);
}

// A Kubernetes namespace name (RFC 1123 label).
bool IsNamespace(const std::string& text) {
  static const std::regex form("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return text.size() <= 63 && std::regex_match(text, form);
}

// A glob on an image reference: printable ASCII without spaces.
bool IsImagePattern(const std::string& text) {
  return !text.empty() && text.size() <= 512 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

// An array of strings each passing `valid`; duplicates dropped. Issues name the offending index.
std::optional<std::vector<std::string>> ReadList(FieldReader& reader, std::string_view name,
                                                 bool (*valid)(const std::string&), std::string_view expectation) {
  const rapidjson::Value* value = reader.Member(name, Need::kOptional);
  if (!value) return std::nullopt;
  if (!value->IsArray()) {
    reader.Issue(name, "must be an array of strings");
    return std::nullopt;
  }
  if (value->Size() > kMaxPolicyListItems) {
    reader.Issue(name, "must have at most " + std::to_string(kMaxPolicyListItems) + " entries");
    return std::nullopt;
  }
  std::vector<std::string> items;
  bool ok = true;
  for (rapidjson::SizeType i = 0; i < value->Size(); i++) {
    const rapidjson::Value& item = (*value)[i];
    std::string text = item.IsString() ? std::string(item.GetString(), item.GetStringLength()) : std::string();
    if (!item.IsString() || !valid(text)) {
      reader.Issue(std::string(name) + "[" + std::to_string(i) + "]", std::string(expectation));
      ok = false;
    } else if (std::find(items.begin(), items.end(), text) == items.end()) {
      items.push_back(std::move(text));
    }
  }
  if (!ok) return std::nullopt;
  return items;
}

std::optional<PolicyException> ReadException(const rapidjson::Value& item, std::vector<FieldIssue>& issues,
                                             const std::string& path) {
  FieldReader reader(item, issues, path);
  size_t before = issues.size();
  PolicyException e;
  // Either a CVE id or a rule: one exception lifts one thing.
  bool names_rule = reader.Has("rule");
  e.rule = reader.Enum("rule", Need::kOptional, kExceptionRules);
  std::optional<std::string> cve = reader.String("cveId", names_rule ? Need::kOptional : Need::kRequired, 40);
  if (cve && names_rule) {
    reader.Issue("rule", "must be absent when cveId is given: an exception lifts one CVE or one rule");
  }
  if (cve) {
    std::optional<std::string> normal = NormaliseVulnId(*cve);
    if (!normal) reader.Issue("cveId", "must be a CVE id (CVE-2024-3094) or a GHSA id (GHSA-xxxx-xxxx-xxxx)");
    e.cve_id = normal.value_or("");
  }
  std::optional<std::string> image = reader.String("imageId", Need::kOptional, 36);
  if (image && !IsUuid(*image)) reader.Issue("imageId", "must be an image id (a UUID) or null");
  if (image) e.image_id = *image;
  e.justification = reader.String("justification", Need::kRequired, 1000, 1, true).value_or("");
  std::optional<std::string> expires = reader.String("expiresAt", Need::kRequired, 40);
  if (expires && !ParseRfc3339(*expires)) {
    reader.Issue("expiresAt", "must be an RFC 3339 time such as 2027-01-01T00:00:00Z");
  }
  e.expires_at = expires.value_or("");
  reader.CheckUnknown();
  if (issues.size() != before) return std::nullopt;
  return e;
}

void WriteList(JsonWriter& w, std::string_view key, const std::vector<std::string>& values) {
  WriteStringArray(w, key, values);
}

}  // namespace

std::string AdmissionPolicyJson(const AdmissionPolicy& p) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "mode", p.mode);
  WriteBool(w, "requireCatalogImages", p.require_catalog_images);
  WriteBool(w, "requireScan", p.require_scan);
  WriteList(w, "allowedRegistries", p.allowed_registries);
  WriteList(w, "exemptNamespaces", p.exempt_namespaces);
  WriteList(w, "exemptImages", p.exempt_images);
  WriteOptionalString(w, "severityThreshold", p.severity_threshold);
  WriteBool(w, "onlyFixable", p.only_fixable);
  WriteInt(w, "gracePeriodDays", p.grace_period_days);
  WriteBool(w, "denyWatchedCves", p.deny_watched_cves);
  WriteBool(w, "trustVendorVex", p.trust_vendor_vex);
  WriteBool(w, "requireDigest", p.require_digest);
  WriteBool(w, "requireCatalogRegistry", p.require_catalog_registry);
  WriteBool(w, "denyKnownExploited", p.deny_known_exploited);
  WriteOptionalDouble(w, "maxEpss", p.max_epss);
  WriteKey(w, "exceptions");
  WriteObjects(w, p.exceptions, [&](JsonWriter& w, const PolicyException& e) {
    if (e.rule)
      WriteString(w, "rule", *e.rule);
    else
      WriteString(w, "cveId", e.cve_id);
    WriteOptionalString(w, "imageId", e.image_id);
    WriteString(w, "justification", e.justification);
    WriteString(w, "expiresAt", e.expires_at);
  });
  w.EndObject();
  return buffer.GetString();
}

AdmissionPolicy ReadAdmissionPolicy(const rapidjson::Value& document, std::vector<FieldIssue>& issues) {
  AdmissionPolicy p;
  FieldReader reader(document, issues);
  if (auto mode = reader.Enum("mode", Need::kOptional, AsList(kAdmissionModes))) p.mode = *mode;
  if (auto v = reader.Bool("requireCatalogImages", Need::kOptional)) p.require_catalog_images = *v;
  if (auto v = reader.Bool("requireScan", Need::kOptional)) p.require_scan = *v;
  if (auto v =
          ReadList(reader, "allowedRegistries", IsRegistryPrefix,
                   "must be a registry host with optional port and path, such as registry.example.test/hardened")) {
    p.allowed_registries = *v;
  }
  if (auto v = ReadList(reader, "exemptNamespaces", IsNamespace,
                        "must be a Kubernetes namespace name (a-z, 0-9 and inner '-', at most 63 characters)")) {
    p.exempt_namespaces = *v;
  }
  if (auto v = ReadList(reader, "exemptImages", IsImagePattern,
                        "must be a glob pattern of 1 to 512 printable characters without spaces")) {
    p.exempt_images = *v;
  }
  // null is meaningful here: it turns the severity rule off.
  bool threshold_null =
      document.IsObject() && document.HasMember("severityThreshold") && document["severityThreshold"].IsNull();
  if (threshold_null) {
    p.severity_threshold.reset();
    (void)reader.Has("severityThreshold");
  } else if (auto v = reader.Enum("severityThreshold", Need::kOptional, kThresholds)) {
    p.severity_threshold = *v;
  }
  if (auto v = reader.Bool("onlyFixable", Need::kOptional)) p.only_fixable = *v;
  if (auto v = reader.Int("gracePeriodDays", Need::kOptional, 0, kMaxGracePeriodDays))
    p.grace_period_days = static_cast<int>(*v);
  if (auto v = reader.Bool("denyWatchedCves", Need::kOptional)) p.deny_watched_cves = *v;
  if (auto v = reader.Bool("trustVendorVex", Need::kOptional)) p.trust_vendor_vex = *v;
  if (auto v = reader.Bool("requireDigest", Need::kOptional)) p.require_digest = *v;
  if (auto v = reader.Bool("requireCatalogRegistry", Need::kOptional)) p.require_catalog_registry = *v;
  if (auto v = reader.Bool("denyKnownExploited", Need::kOptional)) p.deny_known_exploited = *v;
  if (const rapidjson::Value* v = reader.Member("maxEpss", Need::kOptional)) {  // null: rule off
    if (!v->IsNumber() || v->GetDouble() < 0 || v->GetDouble() > 1) {
      reader.Issue("maxEpss", "must be a number from 0 to 1 (an EPSS score), or null to turn the rule off");
    } else {
      p.max_epss = v->GetDouble();
    }
  }
  if (const rapidjson::Value* list = reader.Member("exceptions", Need::kOptional)) {
    if (!list->IsArray()) {
      reader.Issue("exceptions", "must be an array of objects");
    } else if (list->Size() > kMaxPolicyExceptions) {
      reader.Issue("exceptions", "must have at most " + std::to_string(kMaxPolicyExceptions) + " entries");
    } else {
      for (rapidjson::SizeType i = 0; i < list->Size(); i++) {
        std::optional<PolicyException> e = ReadException((*list)[i], issues, "exceptions[" + std::to_string(i) + "]");
        if (e) p.exceptions.push_back(std::move(*e));
      }
    }
  }
  reader.CheckUnknown();
  return p;
}

AdmissionPolicy StoredAdmissionPolicy(std::string_view json) {
  JsonRead read = ReadJson(json, kMaxBodyDepth);  // stored from a request body, so within its limit
  if (!read.error.empty() || !read.document.IsObject()) return AdmissionPolicy{};
  std::vector<FieldIssue> ignored;  // a field that does not read cleanly keeps its default
  return ReadAdmissionPolicy(read.document, ignored);
}

}  // namespace icat
