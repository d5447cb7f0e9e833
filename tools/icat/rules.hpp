// icat's pure rules: what IMAGE[:TAG|@DIGEST] means, severity levels, and the --fail-on rule of
// icat check (docs/client.md). No network, so unit tests cover them whole.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/admission_policy.hpp"
#include "icat/vocabulary.hpp"

namespace icat::client {

// IMAGE[:TAG][@DIGEST]: IMAGE is an image's name or its repository (registry.example.test/hardened/nginx,
// a registry port allowed); no tag and no digest means the latest version.
struct ImageSpec {
  std::string image;
  std::optional<std::string> tag;
  std::optional<std::string> digest;  // sha256:<64 lower-case hex>
  bool Latest() const { return !tag && !digest; }
};

// nullopt with *why set when the text is not of that form (an empty name or tag, a tag with
// characters a tag cannot hold, a digest other than sha256:<64 hex>).
std::optional<ImageSpec> ParseImageSpec(std::string_view text, std::string* why);

// critical 4, high 3, medium 2, low 1; unknown (and anything else) 0: the service's one ranking.
using icat::SeverityRank;

// --fail-on / level values: critical, high, medium, low; nullopt otherwise.
std::optional<int> ParseLevel(std::string_view level);

// One package finding as GET .../vulnerabilities answers it.
struct Finding {
  std::string id, severity, fix_state;
  std::string vex_status;  // the image vendor's VEX statement's status (docs/vex.md); empty: none applies
  std::vector<std::string> aliases;
  std::optional<std::string> kev_added;  // kev.dateAdded when the service sends it
  std::optional<double> epss;            // epss.score when the service sends it
};

// What icat check's flags mean as an admission policy (docs/client.md): --fail-on LEVEL is
// severityThreshold LEVEL, --deny-known-exploited is denyKnownExploited, --max-epss N is maxEpss N;
// onlyFixable off, no grace period, trustVendorVex on, no exceptions. The rules themselves are the
// webhook's (icat/vulnerability_rules.hpp), so the two decide a version alike.
icat::AdmissionPolicy CheckPolicy(int level, bool deny_known_exploited, std::optional<double> max_epss);

struct Judgement {
  bool failed = false;
  // Distinct counted ids per severity (each id at its highest severity), every severity listed.
  std::map<std::string, int> counts;
  int at_or_above = 0;                       // distinct counted ids at or above the level
  std::vector<std::string> known_exploited;  // counted ids in CISA's KEV catalogue (--deny-known-exploited)
  std::vector<std::string> above_epss;       // counted ids above --max-epss
  int excluded = 0;  // distinct ids a rule would take that are seen only as not affected (scanner or vendor)
};

// The version's findings under the policy: failed when any rule takes a counted finding.
Judgement Judge(const std::vector<Finding>& findings, const icat::AdmissionPolicy& policy);

// "critical 1, high 2, medium 0, low 4, unknown 0"
std::string CountsText(const std::map<std::string, int>& counts);

}  // namespace icat::client
