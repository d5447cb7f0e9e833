// The policy's rules applied to each image of a review, and the verdict the webhook answers.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "admission.hpp"
#include "icat/text.hpp"
#include "icat/vocabulary.hpp"
#include "icat/validate.hpp"

namespace icat::admission {

namespace {

// A denial names at most this many CVE ids per rule; the decision record keeps all of them.
constexpr size_t kMaxCvesInMessage = 20;
// The API server may cut longer warnings.
constexpr size_t kMaxWarningBytes = 256;
// A denial names at most this many images, and warn mode gives at most this many warnings; an
// answer stays readable (and small) whatever the object. The decision record keeps everything.
constexpr size_t kMaxImagesInMessage = 50;
constexpr size_t kMaxWarnings = 50;
constexpr long long kSecondsPerDay = 86400;

bool Contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

void SortUnique(std::vector<std::string>& items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
}

// An EPSS score as the reasons show it: at most 4 decimals, no trailing zeros ("0.5", "0.9731").
std::string FormatScore(double score) {
  char text[16];
  std::snprintf(text, sizeof text, "%.4f", score);
  std::string out = text;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

// "CVE-1, CVE-2 and 3 more": the ids a message shows.
std::string CveList(const std::vector<std::string>& cves) {
  std::vector<std::string> shown(cves.begin(), cves.begin() + std::min(cves.size(), kMaxCvesInMessage));
  std::string text = Join(shown, ", ");
  if (cves.size() > shown.size()) text += " and " + std::to_string(cves.size() - shown.size()) + " more";
  return text;
}

std::string Plural(size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

// The id of a finding a list names (its own id, else the first alias listed), or nullopt.
std::optional<std::string> NamedIn(const Finding& finding, const std::vector<std::string>& ids) {
  if (Contains(ids, finding.vuln_id)) return finding.vuln_id;
  for (const std::string& alias : finding.aliases) {
    if (Contains(ids, alias)) return alias;
  }
  return std::nullopt;
}

// True when the exception is in force (not expired) for this image.
bool InForce(const PolicyException& e, const std::string& image_id, long long now) {
  if (e.image_id && Lower(*e.image_id) != Lower(image_id)) return false;
  std::optional<long long> expires = ParseRfc3339(e.expires_at);
  return expires && *expires > now;
}

// True when an unexpired exception of the policy covers this finding on this image.
bool Excepted(const Finding& finding, const AdmissionPolicy& policy, const std::string& image_id, long long now) {
  for (const PolicyException& e : policy.exceptions) {
    if (e.rule || !InForce(e, image_id, now)) continue;
    if (e.cve_id == finding.vuln_id || Contains(finding.aliases, e.cve_id)) return true;
  }
  return false;
}

// True when an unexpired exception of the policy lifts this rule on this image.
bool RuleExcepted(std::string_view rule, const AdmissionPolicy& policy, const std::string& image_id, long long now) {
  for (const PolicyException& e : policy.exceptions) {
    if (e.rule == rule && InForce(e, image_id, now)) return true;
  }
  return false;
}

// requireScan, with exceptions: a version never scanned has unknown vulnerabilities, not none, so
// the rules that count them cannot pass it on their own.
void JudgeScan(JudgedImage& image, const AdmissionPolicy& policy, long long now) {
  const Resolution& resolved = *image.resolution;
  if (!policy.require_scan || resolved.scanned) return;
  if (RuleExcepted(kRuleScan, policy, resolved.image_id, now)) {
    image.excepted_rules.push_back(std::string(kRuleScan));
    return;
  }
  image.reasons.push_back({std::string(kRuleScan),
                           resolved.image_name + ":" + resolved.tag +
                               " has never been scanned, so its vulnerabilities are unknown",
                           {}});
}

// "; not counted, as the vendor's VEX marks them not_affected: CVE-1, CVE-2", for the ids of
// `excluded` that would have counted; empty when none.
std::string VendorNote(std::vector<std::string> excluded) {
  if (excluded.empty()) return "";
  SortUnique(excluded);
  return "; not counted, as the vendor's VEX marks them not_affected: " + CveList(excluded);
}

// severityThreshold, with onlyFixable, gracePeriodDays and exceptions.
void JudgeSeverity(JudgedImage& image, const VulnerabilityView& view, const AdmissionPolicy& policy, long long now) {
  if (!policy.severity_threshold) return;
  std::vector<std::string> cves;
  for (const Finding& f : view.counted) {
    if (!BreaksSeverity(f, policy)) continue;
    bool in_grace =
        policy.grace_period_days > 0 && f.first_seen && now - *f.first_seen < policy.grace_period_days * kSecondsPerDay;
    if (in_grace) continue;
    if (Excepted(f, policy, image.resolution->image_id, now)) {
      image.excepted_cves.push_back(f.vuln_id);
      continue;
    }
    cves.push_back(f.vuln_id);
  }
  if (cves.empty()) return;
  SortUnique(cves);
  std::string message = Plural(cves.size(), "vulnerability", "vulnerabilities") +
                        (policy.only_fixable ? " with a fix" : "") + " at or above " + *policy.severity_threshold;
  if (policy.grace_period_days > 0) message += " known for " + std::to_string(policy.grace_period_days) + "+ days";
  message += " in " + image.resolution->image_name + ":" + image.resolution->tag + ": " + CveList(cves);
  std::vector<std::string> excluded;
  for (const Finding& f : view.vendor_not_affected) {
    if (BreaksSeverity(f, policy)) excluded.push_back(f.vuln_id);
  }
  image.reasons.push_back({std::string(kRuleSeverity), message + VendorNote(excluded), cves});
}

// The ids of the counted findings that break a rule, less those an exception lifts (recorded on
// the image), each with what the reason says of it ("CVE-1 (0.97)"); sorted.
std::vector<std::pair<std::string, std::string>> Breaking(JudgedImage& image, const VulnerabilityView& view,
                                                          const AdmissionPolicy& policy, long long now,
                                                          bool (*breaks)(const Finding&, const AdmissionPolicy&),
                                                          std::string (*describe)(const Finding&)) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const Finding& f : view.counted) {
    if (!breaks(f, policy)) continue;
    if (Excepted(f, policy, image.resolution->image_id, now)) {
      image.excepted_cves.push_back(f.vuln_id);
      continue;
    }
    found.emplace_back(f.vuln_id, describe(f));
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Adds a reason naming the findings found (none: no reason), after its lead ("2 known exploited
// vulnerabilities in nginx:1.27: "), with the vendor's not_affected ids the rule would have counted.
void AddVulnerabilityReason(JudgedImage& image, std::string_view rule, const std::string& lead,
                            const std::vector<std::pair<std::string, std::string>>& found,
                            const VulnerabilityView& view, const AdmissionPolicy& policy,
                            bool (*breaks)(const Finding&, const AdmissionPolicy&)) {
  if (found.empty()) return;
  std::vector<std::string> cves, described;
  for (const auto& [id, text] : found) {
    cves.push_back(id);
    described.push_back(text);
  }
  std::vector<std::string> excluded;
  for (const Finding& f : view.vendor_not_affected) {
    if (breaks(f, policy)) excluded.push_back(f.vuln_id);
  }
  image.reasons.push_back({std::string(rule), lead + CveList(described) + VendorNote(excluded), cves});
}

std::string ImageTag(const JudgedImage& image) {
  return image.resolution->image_name + ":" + image.resolution->tag;
}

// denyKnownExploited, with exceptions: "CVE-2021-44228 (CISA KEV, added 2021-12-10)", or for an id
// listed under its CVE alias "GHSA-jfh8-c2jp-5v3q (CVE-2021-44228, CISA KEV, added 2021-12-10)".
void JudgeKnownExploited(JudgedImage& image, const VulnerabilityView& view, const AdmissionPolicy& policy,
                         long long now) {
  if (!policy.deny_known_exploited) return;
  auto describe = [](const Finding& f) {
    std::string alias = f.kev_cve && *f.kev_cve != f.vuln_id ? *f.kev_cve + ", " : "";
    return f.vuln_id + " (" + alias + "CISA KEV, added " + *f.kev_added + ")";
  };
  auto found = Breaking(image, view, policy, now, BreaksKnownExploited, describe);
  std::string lead = Plural(found.size(), "known exploited vulnerability", "known exploited vulnerabilities") +
                     " in " + ImageTag(image) + ": ";
  AddVulnerabilityReason(image, kRuleKnownExploited, lead, found, view, policy, BreaksKnownExploited);
}

// maxEpss, with exceptions: "CVE-2024-3094 (EPSS 0.85)".
void JudgeMaxEpss(JudgedImage& image, const VulnerabilityView& view, const AdmissionPolicy& policy, long long now) {
  if (!policy.max_epss) return;
  auto describe = [](const Finding& f) { return f.vuln_id + " (EPSS " + FormatScore(*f.epss) + ")"; };
  auto found = Breaking(image, view, policy, now, BreaksMaxEpss, describe);
  std::string lead = Plural(found.size(), "vulnerability", "vulnerabilities") + " with an EPSS score above " +
                     FormatScore(*policy.max_epss) + " in " + ImageTag(image) + ": ";
  AddVulnerabilityReason(image, kRuleMaxEpss, lead, found, view, policy, BreaksMaxEpss);
}

// denyWatchedCves, with exceptions.
void JudgeWatched(JudgedImage& image, const VulnerabilityView& view, const AdmissionPolicy& policy,
                  const std::vector<std::string>& watched, long long now) {
  if (!policy.deny_watched_cves || watched.empty()) return;
  std::vector<std::string> cves;
  for (const Finding& f : view.counted) {
    std::optional<std::string> named = NamedIn(f, watched);
    if (!named) continue;
    if (Excepted(f, policy, image.resolution->image_id, now)) {
      image.excepted_cves.push_back(f.vuln_id);
      continue;
    }
    cves.push_back(*named);
  }
  if (cves.empty()) return;
  SortUnique(cves);
  std::vector<std::string> excluded;
  for (const Finding& f : view.vendor_not_affected) {
    if (std::optional<std::string> named = NamedIn(f, watched)) excluded.push_back(*named);
  }
  image.reasons.push_back({std::string(kRuleWatched),
                           Plural(cves.size(), "CVE", "CVEs") + " on your watch list in " +
                               image.resolution->image_name + ":" + image.resolution->tag + ": " + CveList(cves) +
                               VendorNote(excluded),
                           cves});
}

// requireDigest: a tag can be moved to other bytes, a digest cannot. The reason says what to write
// instead: the digest of the version the tag names now, when it is a version of the catalogue.
void JudgeDigest(JudgedImage& image, const AdmissionPolicy& policy) {
  const ImageReference& ref = *image.reference;
  if (!policy.require_digest || ref.digest) return;
  std::string pinned = ref.Repository() + "@" + (image.resolution ? image.resolution->digest : "sha256:<digest>");
  image.reasons.push_back({std::string(kRuleDigest), "not pinned to a digest: write " + pinned, {}});
}

// requireCatalogRegistry: the host of the reference is the service's registry. Hosts compare without
// regard to case; a port is part of the host (localhost:8443 is not localhost).
void JudgeCatalogRegistry(JudgedImage& image, const AdmissionPolicy& policy, std::string_view registry_host) {
  const ImageReference& ref = *image.reference;
  if (!policy.require_catalog_registry || Lower(ref.domain) == Lower(registry_host)) return;
  image.reasons.push_back({std::string(kRuleCatalogRegistry),
                           ref.Repository() + " is not on the catalogue's registry " + std::string(registry_host),
                           {}});
}

// The rules that need only the reference and whether it resolved.
void JudgeReference(JudgedImage& image, const AdmissionPolicy& policy, std::string_view registry_host) {
  const ImageReference& ref = *image.reference;
  if (!RegistryAllowed(policy.allowed_registries, ref.Repository())) {
    image.reasons.push_back(
        {std::string(kRuleRegistries),
         ref.Repository() + " is not under an allowed registry (" + Join(policy.allowed_registries, ", ") + ")",
         {}});
  }
  JudgeCatalogRegistry(image, policy, registry_host);
  JudgeDigest(image, policy);
  if (policy.require_catalog_images && !image.resolution) {
    std::string what = ref.digest ? "digest " + *ref.digest : ref.Repository() + ":" + ref.EffectiveTag();
    image.reasons.push_back({std::string(kRuleCatalog), what + " is not a version of your licensed catalogue", {}});
  }
}

// "nginx:1.27 (container web, initContainer init)"
std::string ImageLabel(const JudgedImage& image) {
  return image.use.reference + " (" + Join(image.use.containers, ", ") + ")";
}

// Cuts UTF-8 text to at most max bytes, at a character boundary, marking the cut.
std::string Truncate(std::string text, size_t max) {
  if (text.size() <= max) return text;
  size_t cut = max - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) cut--;
  return text.substr(0, cut) + "...";
}

// Old images by their normalised form (or their text, when not a reference).
std::set<std::string> NormalisedSet(const std::set<std::string>& references) {
  std::set<std::string> out;
  for (const std::string& r : references) {
    std::optional<ImageReference> ref = ParseImageReference(r);
    out.insert(ref ? ref->Normalised() : r);
  }
  return out;
}

}  // namespace

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPending:
      return "pending";
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kExempt:
      return "exempt";
    case Outcome::kUnchanged:
      return "unchanged";
  }
  return "pending";
}

std::vector<JudgedImage> PlanImages(const AdmissionRequest& request, const AdmissionPolicy& policy) {
  std::vector<JudgedImage> images;
  if (!request.judged) return images;
  bool namespace_exempt = !request.namespace_name.empty() && Contains(policy.exempt_namespaces, request.namespace_name);
  std::set<std::string> old_images = NormalisedSet(request.old_images);
  for (const ImageUse& use : request.images) {
    JudgedImage image;
    image.use = use;
    image.reference = ParseImageReference(use.reference);
    std::string subject = image.reference ? image.reference->Normalised() : use.reference;
    auto pattern = std::find_if(policy.exempt_images.begin(), policy.exempt_images.end(),
                                [&](const std::string& p) { return GlobMatch(p, subject); });
    if (namespace_exempt) {
      image.outcome = Outcome::kExempt;
      image.exempt_by = "namespace " + request.namespace_name;
    } else if (old_images.count(subject)) {
      image.outcome = Outcome::kUnchanged;
    } else if (pattern != policy.exempt_images.end()) {
      image.outcome = Outcome::kExempt;
      image.exempt_by = "pattern " + *pattern;
    }
    images.push_back(std::move(image));
  }
  return images;
}

void JudgeImage(JudgedImage& image, const AdmissionPolicy& policy, const JudgeContext& context) {
  if (image.outcome != Outcome::kPending) return;
  if (!image.reference) {
    image.reasons.push_back({std::string(kRuleImageReference), "not a valid image reference", {}});
  } else {
    JudgeReference(image, policy, context.registry_host);
    if (image.resolution) {
      const Resolution& resolved = *image.resolution;
      VulnerabilityView view = ViewOf(resolved.findings, resolved.vendor_not_affected, policy.trust_vendor_vex);
      JudgeScan(image, policy, context.now);
      JudgeSeverity(image, view, policy, context.now);
      JudgeKnownExploited(image, view, policy, context.now);
      JudgeMaxEpss(image, view, policy, context.now);
      JudgeWatched(image, view, policy, context.watched, context.now);
      for (const Finding& f : view.vendor_not_affected) image.vendor_not_affected_cves.push_back(f.vuln_id);
    }
  }
  SortUnique(image.excepted_cves);
  SortUnique(image.vendor_not_affected_cves);
  image.outcome = image.reasons.empty() ? Outcome::kPassed : Outcome::kFailed;
}

Verdict Decide(std::string_view mode, const std::vector<JudgedImage>& images) {
  Verdict verdict;
  std::vector<const JudgedImage*> failed;
  for (const JudgedImage& image : images) {
    if (image.outcome == Outcome::kFailed) failed.push_back(&image);
  }
  if (failed.empty() || mode == "audit") return verdict;
  if (mode == "warn") {
    for (const JudgedImage* image : failed) {
      for (const Reason& r : image->reasons) {
        verdict.warnings.push_back(Truncate(
            "icat admission (warn): " + ImageLabel(*image) + ": " + r.rule + ": " + r.message, kMaxWarningBytes));
      }
    }
    if (verdict.warnings.size() > kMaxWarnings) {
      size_t more = verdict.warnings.size() - (kMaxWarnings - 1);
      verdict.warnings.resize(kMaxWarnings - 1);
      verdict.warnings.push_back("icat admission (warn): and " + std::to_string(more) +
                                 " more; the decision record lists them all");
    }
    return verdict;
  }
  verdict.allowed = false;  // enforce, and any mode this code does not know
  verdict.message = "icat admission policy denied " + Plural(failed.size(), "image", "images") + ":";
  for (size_t i = 0; i < failed.size() && i < kMaxImagesInMessage; i++) {
    std::vector<std::string> parts;
    for (const Reason& r : failed[i]->reasons) parts.push_back(r.rule + ": " + r.message);
    verdict.message += " [" + ImageLabel(*failed[i]) + ": " + Join(parts, "; ") + "]";
  }
  if (failed.size() > kMaxImagesInMessage) {
    verdict.message += " and " + Plural(failed.size() - kMaxImagesInMessage, "more image", "more images") +
                       " (the decision record lists them all)";
  }
  return verdict;
}

}  // namespace icat::admission
