// The tenant's data a review needs: its policy and watch list, the catalogue versions its images
// resolve to, and the vulnerabilities of those versions. Three queries however many images, and
// none for what the worker already holds: under one cache generation (worker_cache.hpp) neither
// the catalogue nor the tenant's policy and watch list can have changed.
#include "admission.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::admission {

namespace {

// The severity rank the findings query filters on; above every rank when the rule is off.
constexpr int kRuleOff = 99;

bool NeedsFindings(const TenantRules& rules) {
  const AdmissionPolicy& p = rules.policy;
  return p.severity_threshold || (p.deny_watched_cves && !rules.watched.empty()) || p.deny_known_exploited ||
         p.max_epss;
}

// One cache per worker for each kind of value, sized and aged by the settings.
template <typename Value>
WorkerCache<Value>& CacheOf(const Config& config) {
  static WorkerCache<Value> cache(config.worker_cache_bytes, config.worker_cache_seconds);
  return cache;
}

// What Postgres said about one reference: its version and that version's findings, or nothing.
struct CachedResolution {
  std::optional<Resolution> resolution;
};

size_t BytesOf(const CachedResolution& cached) {
  size_t bytes = 256;
  if (cached.resolution) {
    bytes += (cached.resolution->findings.size() + cached.resolution->vendor_not_affected.size()) * 128;
  }
  return bytes;
}

std::string ResolutionKey(const Context& ctx, const ImageReference& reference) {
  return ctx.principal.tenant_id + "\n" + reference.digest.value_or("") + "\n" + reference.Repository() + "\n" +
         reference.EffectiveTag();
}

// Reads the findings of the versions the asked images resolved to into them.
void ReadFindings(Context& ctx, const TenantRules& rules, const std::vector<JudgedImage*>& asked) {
  std::vector<std::string> version_ids;
  for (const JudgedImage* image : asked) {
    if (image->resolution) version_ids.push_back(image->resolution->version_id);
  }
  if (version_ids.empty() || !NeedsFindings(rules)) return;
  int threshold = rules.policy.severity_threshold ? SeverityRank(*rules.policy.severity_threshold) : kRuleOff;
  std::vector<std::string> watched = rules.policy.deny_watched_cves ? rules.watched : std::vector<std::string>{};
  std::optional<std::string> max_epss;
  if (rules.policy.max_epss) max_epss = std::to_string(*rules.policy.max_epss);
  Rows rows = ctx.db.Run(kFindings, {TextArrayLiteral(version_ids), threshold, TextArrayLiteral(watched),
                                     rules.policy.deny_known_exploited, max_epss});
  const int version_id = rows.Column("version_id"), vuln_id = rows.Column("vuln_id"),
            aliases_col = rows.Column("aliases"), severity = rows.Column("severity"),
            fix_state = rows.Column("fix_state"), first_seen_col = rows.Column("first_seen"),
            vendor_not_affected = rows.Column("vendor_not_affected"), kev_col = rows.Column("kev"),
            epss_col = rows.Column("epss");
  for (int row = 0; row < rows.size(); row++) {
    FindingFacts facts;
    if (!rows.IsNull(row, first_seen_col)) facts.first_seen = rows.Int(row, first_seen_col);
    if (!rows.IsNull(row, kev_col)) {  // "<CVE id> <dateAdded>"
      std::string kev(rows.Text(row, kev_col));
      size_t space = kev.find(' ');
      facts.kev_cve = kev.substr(0, space);
      facts.kev_added = space == std::string::npos ? "" : kev.substr(space + 1);
    }
    if (!rows.IsNull(row, epss_col)) facts.epss = std::stod(std::string(rows.Text(row, epss_col)));
    std::vector<std::string> aliases = ParseTextArray(rows.Text(row, aliases_col));
    for (JudgedImage* image : asked) {
      if (!image->resolution || image->resolution->version_id != rows.Text(row, version_id)) continue;
      Resolution& r = *image->resolution;
      AddFinding(rows.Bool(row, vendor_not_affected) ? r.vendor_not_affected : r.findings, rows.Text(row, vuln_id),
                 aliases, rows.Text(row, severity), rows.Text(row, fix_state), facts);
    }
  }
}

// Resolves the asked images (one query) and reads their findings (one more).
void Resolve(Context& ctx, const TenantRules& rules, const std::vector<JudgedImage*>& asked) {
  std::vector<std::string> digests, repositories, tags;
  for (const JudgedImage* image : asked) {
    digests.push_back(image->reference->digest.value_or(""));
    repositories.push_back(image->reference->Repository());
    tags.push_back(image->reference->EffectiveTag());
  }
  Rows rows = ctx.db.Run(kResolveImages, {ctx.principal.tenant_id, TextArrayLiteral(digests),
                                          TextArrayLiteral(repositories), TextArrayLiteral(tags)});
  const int position = rows.Column("n"), version_id = rows.Column("version_id"), image_id = rows.Column("image_id"),
            image_name = rows.Column("image_name"), tag = rows.Column("tag"), scanned = rows.Column("scanned"),
            digest = rows.Column("digest");
  for (int row = 0; row < rows.size(); row++) {
    long long n = rows.Int(row, position);  // the 1-based position of the asked image
    if (n < 1 || n > static_cast<long long>(asked.size())) continue;
    asked[n - 1]->resolution = Resolution{std::string(rows.Text(row, version_id)),
                                          std::string(rows.Text(row, image_id)),
                                          std::string(rows.Text(row, image_name)),
                                          std::string(rows.Text(row, tag)),
                                          {},
                                          rows.Bool(row, scanned),
                                          {},
                                          std::string(rows.Text(row, digest))};
  }
  ReadFindings(ctx, rules, asked);
}

}  // namespace

TenantRules LoadTenantRules(Context& ctx) {
  WorkerCache<TenantRules>& cache = CacheOf<TenantRules>(ctx.config);
  if (std::optional<TenantRules> cached = cache.Find(ctx.principal.tenant_id, ctx.cache_generation)) return *cached;
  Rows rows = ctx.db.Run(kTenantRules, {ctx.principal.tenant_id});
  TenantRules rules;
  const int policy = rows.Column("policy");
  if (!rows.IsNull(0, policy)) rules.policy = StoredAdmissionPolicy(rows.Text(0, policy));
  rules.watched = ParseTextArray(rows.Text(0, rows.Column("watched")));
  cache.Store(ctx.principal.tenant_id, ctx.cache_generation, rules, 1024 + rules.watched.size() * 32);
  return rules;
}

void ResolveImages(Context& ctx, const TenantRules& rules, std::vector<JudgedImage>& images) {
  WorkerCache<CachedResolution>& cache = CacheOf<CachedResolution>(ctx.config);
  std::vector<JudgedImage*> asked;  // not in the cache
  for (JudgedImage& image : images) {
    if (image.outcome != Outcome::kPending || !image.reference) continue;
    std::optional<CachedResolution> cached = cache.Find(ResolutionKey(ctx, *image.reference), ctx.cache_generation);
    if (cached) image.resolution = std::move(cached->resolution);
    else asked.push_back(&image);
  }
  if (asked.empty()) return;
  Resolve(ctx, rules, asked);
  for (const JudgedImage* image : asked) {
    CachedResolution value{image->resolution};
    size_t bytes = BytesOf(value);
    cache.Store(ResolutionKey(ctx, *image->reference), ctx.cache_generation, std::move(value), bytes);
  }
}

}  // namespace icat::admission
