// The admission group (DESIGN.md section 8): POST /v1/admission judges the container images of Pods
// and pod templates against the tenant's policy. Parsing, matching and rule evaluation are pure
// functions (unit-tested); admission.cpp, resolve.cpp and decisions.cpp talk to Postgres.
#pragma once

#include <rapidjson/document.h>

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "icat/admission_policy.hpp"
#include "icat/image_reference.hpp"
#include "icat/pipeline.hpp"
#include "icat/vulnerability_rules.hpp"

namespace icat::admission {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

// POST /v1/admission and POST /v1/admission/{key} (admission.cpp).
Reply AdmitReview(Context& ctx);

// The routes' Route::refusal: a refused credential (401, 403, 429) answered as a denying
// AdmissionReview with that status code, when the body is a review ReadAdmissionReview accepts.
std::optional<Reply> RefuseAsReview(const Context& ctx, const ApiError& refusal);

// ------------------------------------------------------------------ image references (reference.cpp)

// Parsed by common/ (icat/image_reference.hpp), which GET /v1/images?reference= shares.
using icat::ImageReference;
using icat::ParseImageReference;

// Glob match of the whole text: '*' matches any run of characters ('/' and ':' included), '?' any
// one character; every other character matches itself.
bool GlobMatch(std::string_view pattern, std::string_view text);

// True when prefixes is empty, or the repository equals a prefix or continues it at a '/' (so
// "registry.example.test/hardened" admits ".../hardened/nginx" but not ".../hardened-x/nginx").
// The host part of a prefix is compared without regard to case; a trailing '/' is ignored.
bool RegistryAllowed(const std::vector<std::string>& prefixes, std::string_view repository);

// ------------------------------------------------------------------ the review (review.cpp)

// One image reference of the object and every container that names it.
struct ImageUse {
  std::string reference;                // as written in the spec
  std::vector<std::string> containers;  // "container web", "initContainer init", "ephemeralContainer debug"
};

struct AdmissionRequest {
  std::string uid;
  std::string operation;       // CREATE, UPDATE, DELETE, CONNECT (anything else: not judged)
  std::string group, kind;     // request.kind
  std::string namespace_name;  // request.namespace, else the object's; empty for cluster objects
  std::string name;            // request.name, else metadata.name, else metadata.generateName
  bool dry_run = false;
  bool judged = false;               // CREATE or UPDATE of a kind that carries a pod spec
  std::vector<ImageUse> images;      // of the object, distinct, in order of first appearance
  std::set<std::string> old_images;  // UPDATE: references the old object already ran
};

inline constexpr std::string_view kAdmissionApiVersion = "admission.k8s.io/v1";

// Reads an admission.k8s.io/v1 AdmissionReview. Anything else, or a request without what the
// decision needs (uid, kind, operation; object for CREATE and UPDATE; a pod spec of the right
// shape), throws 400 VALIDATION_ERROR naming every offending field.
AdmissionRequest ReadAdmissionReview(const rapidjson::Value& body);

// The API server's wait for the answer, from the ?timeout= it appends to the webhook's URL (a Go
// duration: "3s" for timeoutSeconds: 3; "2.5s" and "500ms" are read too). nullopt when absent,
// zero or in another form: the request's own budget applies then.
std::optional<std::chrono::milliseconds> ParseApiServerTimeout(std::string_view text);

// ------------------------------------------------------------------ rules (rules.cpp)

inline constexpr std::string_view kRuleImageReference = "imageReference";
inline constexpr std::string_view kRuleCatalog = "requireCatalogImages";
inline constexpr std::string_view kRuleScan = "requireScan";
inline constexpr std::string_view kRuleRegistries = "allowedRegistries";
inline constexpr std::string_view kRuleSeverity = "severityThreshold";
inline constexpr std::string_view kRuleWatched = "denyWatchedCves";
inline constexpr std::string_view kRuleDigest = "requireDigest";
inline constexpr std::string_view kRuleCatalogRegistry = "requireCatalogRegistry";
inline constexpr std::string_view kRuleKnownExploited = "denyKnownExploited";
inline constexpr std::string_view kRuleMaxEpss = "maxEpss";

// A version's findings, merged per id, and the rules on them: shared with `icat check`.
using icat::AddFinding;
using icat::Finding;
using icat::FindingFacts;

// The catalogue version an image reference resolved to (licensed to the tenant).
struct Resolution {
  std::string version_id, image_id, image_name, tag;
  std::vector<Finding> findings;  // of the latest scan: those at or above the threshold or watched
  bool scanned = false;           // the version has a scan; without one its findings are unknown, not none
  // The same kind of findings whose package the vendor's VEX marks not_affected (trustVendorVex).
  std::vector<Finding> vendor_not_affected;
  std::string digest;  // the version's manifest digest: what requireDigest tells a tag-only reference to write
};

struct Reason {
  std::string rule;               // one of the kRule* names
  std::string message;            // one sentence, without the image
  std::vector<std::string> cves;  // the ids behind it, sorted
};

enum class Outcome {
  kPending,    // to be judged
  kPassed,     // judged, no rule objects
  kFailed,     // judged, reasons say why
  kExempt,     // exempt namespace or image pattern: not judged
  kUnchanged,  // UPDATE: the old object ran it already: not judged again
};
std::string_view OutcomeName(Outcome outcome);

struct JudgedImage {
  ImageUse use;
  std::optional<ImageReference> reference;  // nullopt: not a valid reference
  std::optional<Resolution> resolution;     // nullopt: not a licensed catalogue version
  Outcome outcome = Outcome::kPending;
  std::string exempt_by;                   // kExempt: "namespace <ns>" or "pattern <glob>"
  std::vector<Reason> reasons;              // kFailed
  std::vector<std::string> excepted_cves;   // CVEs a policy exception kept from counting
  std::vector<std::string> vendor_not_affected_cves;  // CVEs the vendor's VEX kept from counting
  std::vector<std::string> excepted_rules;  // rules (requireScan) a policy exception lifted
};

// The images of a review with what needs no catalogue: parsed references, unchanged images on
// UPDATE, exempt namespace and exempt image patterns. The rest stay kPending. Nothing for reviews
// that are not judged.
std::vector<JudgedImage> PlanImages(const AdmissionRequest& request, const AdmissionPolicy& policy);

// What the rules read besides the policy: the tenant's CVE watch list, the host (and port) of the
// service's registry (RegistryHost of ICAT_REGISTRY, for requireCatalogRegistry), and now in epoch
// seconds (exception expiry, grace periods).
struct JudgeContext {
  std::vector<std::string> watched;
  std::string registry_host;
  long long now = 0;
};

// Applies every rule of the policy to a kPending image (whose resolution, if any, is filled in),
// setting its outcome, reasons and excepted CVEs.
void JudgeImage(JudgedImage& image, const AdmissionPolicy& policy, const JudgeContext& context);

// What the webhook answers.
struct Verdict {
  bool allowed = true;
  std::string message;                // when denied: every offending image, its rules and CVE ids
  std::vector<std::string> warnings;  // warn mode: one per offending image and rule
  int code = 403;                     // status.code of a denial: 403 by policy; 401, 403 or 429 for a refused key
};

// enforce denies when any image failed; warn allows with warnings; audit allows and only records.
Verdict Decide(std::string_view mode, const std::vector<JudgedImage>& images);

// The AdmissionReview answered to the API server: response.uid echoes the request's uid; a denial
// carries status {code, reason, message} (403 Forbidden by policy; 401 Unauthorized or 429
// TooManyRequests for a refused credential); warnings only when there are some.
std::string AdmissionResponseJson(std::string_view uid, const Verdict& verdict);

// ------------------------------------------------------------------ decision records (decisions.cpp)

// admission_decisions.images: [{reference, normalised, containers, outcome, imageId, versionId,
// exemptBy?, exceptedCves?, exceptedRules?, vendorNotAffectedCves?}]
std::string DecisionImagesJson(const std::vector<JudgedImage>& images);
// admission_decisions.reasons: [{image, rule, message, cves}], every reason of every failed image.
std::string DecisionReasonsJson(const std::vector<JudgedImage>& images);

// Inserts the decision and commits the request's transaction.
void RecordDecision(Context& ctx, const AdmissionRequest& request, std::string_view mode,
                    const std::vector<JudgedImage>& images, const Verdict& verdict);

// ------------------------------------------------------------------ the tenant's data (resolve.cpp)

struct TenantRules {
  AdmissionPolicy policy;            // the stored policy over the defaults, or the defaults
  std::vector<std::string> watched;  // the tenant's CVE watch list
};

// The policy and the watch list: one round trip, or none when the worker holds them.
TenantRules LoadTenantRules(Context& ctx);

// Resolves every kPending image with a valid reference to a licensed catalogue version (one query
// for all of them): by digest when the reference carries one, else by repository and tag, with
// whether that version was ever scanned. Then
// reads the findings the rules need for every resolved version (one more query), only when the
// severity or watched-CVE rule is on. Images the worker resolved before need neither.
void ResolveImages(Context& ctx, const TenantRules& rules, std::vector<JudgedImage>& images);

}  // namespace icat::admission
