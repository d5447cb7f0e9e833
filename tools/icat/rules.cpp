// Image specs, severity levels and the fail-on rule (rules.hpp).
#include "rules.hpp"

#include <algorithm>
#include <set>

#include "icat/image_reference.hpp"
#include "icat/vocabulary.hpp"
#include "icat/vulnerability_rules.hpp"

namespace icat::client {

namespace {

// The catalogue's version digests are sha256 (image_versions.digest); the grammar's check of it.
bool IsDigest(std::string_view digest) { return digest.rfind("sha256:", 0) == 0 && IsImageDigest(digest); }

bool BreaksAny(const icat::Finding& f, const icat::AdmissionPolicy& policy) {
  return icat::BreaksSeverity(f, policy) || icat::BreaksKnownExploited(f, policy) || icat::BreaksMaxEpss(f, policy);
}

}  // namespace

std::optional<ImageSpec> ParseImageSpec(std::string_view text, std::string* why) {
  ImageSpec spec;
  size_t at = text.find('@');
  if (at != std::string_view::npos) {
    std::string_view digest = text.substr(at + 1);
    if (!IsDigest(digest)) {
      *why = "'" + std::string(digest) + "' is not a digest of the form sha256:<64 lower-case hex>";
      return std::nullopt;
    }
    spec.digest = std::string(digest);
    text = text.substr(0, at);
  }
  // The tag follows the last ':' after the last '/': a ':' before it is a registry's port.
  size_t slash = text.rfind('/');
  size_t colon = text.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    std::string_view tag = text.substr(colon + 1);
    if (!IsImageTag(tag)) {
      *why = "'" + std::string(tag) + "' is not a version tag";
      return std::nullopt;
    }
    spec.tag = std::string(tag);
    text = text.substr(0, colon);
  }
  // A ':' left in the last component is neither a port nor the tag ("nginx::1", "nginx:1.x:2"): such
  // a name could not be written alone, where the ':' would start a tag.
  size_t last_slash = text.rfind('/');
  bool colon_in_name = text.find(':', last_slash == std::string_view::npos ? 0 : last_slash) != std::string_view::npos;
  if (text.empty() || text.front() == '/' || text.back() == '/' || colon_in_name ||
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) || std::iscntrl(c); })) {
    *why = "'" + std::string(text) + "' is not an image name or repository";
    return std::nullopt;
  }
  spec.image = std::string(text);
  return spec;
}

std::optional<int> ParseLevel(std::string_view level) {
  int rank = SeverityRank(level);
  if (rank == 0) return std::nullopt;
  return rank;
}

icat::AdmissionPolicy CheckPolicy(int level, bool deny_known_exploited, std::optional<double> max_epss) {
  icat::AdmissionPolicy policy;
  policy.severity_threshold = std::string(SeverityOfRank(level));
  policy.only_fixable = false;
  policy.grace_period_days = 0;
  policy.trust_vendor_vex = true;
  policy.deny_known_exploited = deny_known_exploited;
  policy.max_epss = max_epss;
  return policy;
}

Judgement Judge(const std::vector<Finding>& findings, const icat::AdmissionPolicy& policy) {
  std::vector<icat::Finding> found, vendor_not_affected, scanner_not_affected;
  for (const Finding& f : findings) {
    std::vector<icat::Finding>& into = !icat::FixStateCounts(f.fix_state) ? scanner_not_affected
                                       : f.vex_status == "not_affected"   ? vendor_not_affected
                                                                          : found;
    icat::AddFinding(into, f.id, f.aliases, f.severity, f.fix_state, {std::nullopt, f.kev_added, f.epss, std::nullopt});
  }
  icat::VulnerabilityView view = icat::ViewOf(found, vendor_not_affected, policy.trust_vendor_vex);
  Judgement judgement;
  for (std::string_view severity : kSeverities) judgement.counts[std::string(severity)] = 0;
  std::set<std::string> counted;
  for (const icat::Finding& f : view.counted) {
    counted.insert(f.vuln_id);
    judgement.counts[std::string(SeverityOfRank(f.severity))]++;
    if (icat::BreaksSeverity(f, policy)) judgement.at_or_above++;
    if (icat::BreaksKnownExploited(f, policy)) judgement.known_exploited.push_back(f.vuln_id);
    if (icat::BreaksMaxEpss(f, policy)) judgement.above_epss.push_back(f.vuln_id);
    judgement.failed = judgement.failed || BreaksAny(f, policy);
  }
  std::set<std::string> excluded;
  for (const auto* list : {&view.vendor_not_affected, &scanner_not_affected}) {
    for (const icat::Finding& f : *list) {
      if (!counted.count(f.vuln_id) && BreaksAny(f, policy)) excluded.insert(f.vuln_id);
    }
  }
  judgement.excluded = static_cast<int>(excluded.size());
  std::sort(judgement.known_exploited.begin(), judgement.known_exploited.end());
  std::sort(judgement.above_epss.begin(), judgement.above_epss.end());
  return judgement;
}

std::string CountsText(const std::map<std::string, int>& counts) {
  std::string text;
  for (std::string_view severity : kSeverities) {
    auto found = counts.find(std::string(severity));
    text += (text.empty() ? "" : ", ") + std::string(severity) + " " +
            std::to_string(found == counts.end() ? 0 : found->second);
  }
  return text;
}

}  // namespace icat::client
