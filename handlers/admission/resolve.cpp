// The tenant's data a review needs: its policy and watch list, the catalogue versions its images
// resolve to, and the vulnerabilities of those versions. Three queries however many images.
#include "admission.hpp"
#include "queries.hpp"

namespace icat::admission {

namespace {

// The severity rank the findings query filters on; above every rank when the rule is off.
constexpr int kRuleOff = 99;

bool NeedsFindings(const TenantRules& rules) {
  return rules.policy.severity_threshold || (rules.policy.deny_watched_cves && !rules.watched.empty());
}

// Reads the findings of the resolved versions into their images.
void ReadFindings(Context& ctx, const TenantRules& rules, std::vector<JudgedImage>& images) {
  std::vector<std::string> version_ids;
  for (const JudgedImage& image : images) {
    if (image.resolution) version_ids.push_back(image.resolution->version_id);
  }
  if (version_ids.empty() || !NeedsFindings(rules)) return;
  int threshold = rules.policy.severity_threshold ? SeverityRank(*rules.policy.severity_threshold) : kRuleOff;
  std::vector<std::string> watched = rules.policy.deny_watched_cves ? rules.watched : std::vector<std::string>{};
  Rows rows = ctx.db.Run(kFindings, {TextArrayLiteral(version_ids), threshold, TextArrayLiteral(watched)});
  for (int row = 0; row < rows.size(); row++) {
    std::optional<long long> first_seen;
    if (!rows.IsNull(row, 5)) first_seen = rows.Int(row, 5);
    std::vector<std::string> aliases = ParseTextArray(rows.Text(row, 2));
    for (JudgedImage& image : images) {
      if (!image.resolution || image.resolution->version_id != rows.Text(row, 0)) continue;
      AddFinding(image.resolution->findings, rows.Text(row, 1), aliases, rows.Text(row, 3), rows.Text(row, 4),
                 first_seen);
    }
  }
}

}  // namespace

TenantRules LoadTenantRules(Context& ctx) {
  Rows rows = ctx.db.Run(kTenantRules, {ctx.principal.tenant_id});
  TenantRules rules;
  if (!rows.IsNull(0, 1)) rules.policy = StoredAdmissionPolicy(rows.Text(0, 1));
  rules.watched = ParseTextArray(rows.Text(0, 2));
  return rules;
}

void ResolveImages(Context& ctx, const TenantRules& rules, std::vector<JudgedImage>& images) {
  std::vector<std::string> digests, repositories, tags;
  std::vector<JudgedImage*> asked;  // position n (1-based) in the query is asked[n - 1]
  for (JudgedImage& image : images) {
    if (image.outcome != Outcome::kPending || !image.reference) continue;
    digests.push_back(image.reference->digest.value_or(""));
    repositories.push_back(image.reference->Repository());
    tags.push_back(image.reference->EffectiveTag());
    asked.push_back(&image);
  }
  if (asked.empty()) return;
  Rows rows = ctx.db.Run(kResolveImages, {ctx.principal.tenant_id, TextArrayLiteral(digests),
                                          TextArrayLiteral(repositories), TextArrayLiteral(tags)});
  for (int row = 0; row < rows.size(); row++) {
    long long n = rows.Int(row, 0);
    if (n < 1 || n > static_cast<long long>(asked.size())) continue;
    asked[n - 1]->resolution = Resolution{std::string(rows.Text(row, 1)),
                                          std::string(rows.Text(row, 2)),
                                          std::string(rows.Text(row, 3)),
                                          std::string(rows.Text(row, 4)),
                                          {}};
  }
  ReadFindings(ctx, rules, images);
}

}  // namespace icat::admission
