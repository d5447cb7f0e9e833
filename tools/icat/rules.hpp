// icat's pure rules: what IMAGE[:TAG|@DIGEST] means, severity levels, and the --fail-on rule of
// icat check (docs/client.md). No network, so unit tests cover them whole.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

struct Finding {
  std::string id, severity, fix_state;
  std::string vex_status;  // the image vendor's VEX statement's status (docs/vex.md); empty: none applies
};

// The fail-on rule. A finding counts when its severity is at or above the level, its fixState is
// neither `not-affected` (the scanner's VEX: the code is not there) nor `wont-fix` (the distributor
// states no fix will ever come: fix unavailable), and the image vendor's VEX does not mark it
// `not_affected`. `fixed`, `not-fixed` and `unknown` count: a pending fix is still a present
// vulnerability. This is grype's `--fail-on LEVEL` with its VEX handling and `--ignore-states
// wont-fix`; a finding of unknown severity never counts.
bool CountsForFailOn(const Finding& finding, int level);

struct Judgement {
  bool failed = false;
  // Distinct ids per severity among the findings that count for the rule's fix states (each id at
  // its highest severity among them), every severity listed.
  std::map<std::string, int> counts;
  int at_or_above = 0;  // distinct ids at or above the level: failed exactly when above 0
  int excluded = 0;     // distinct ids at or above the level seen only as not affected or wont-fix
};

Judgement Judge(const std::vector<Finding>& findings, int level);

// "critical 1, high 2, medium 0, low 4, unknown 0"
std::string CountsText(const std::map<std::string, int>& counts);

}  // namespace icat::client
