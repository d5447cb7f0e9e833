// POST /v1/admission: one AdmissionReview in, one out, the decision recorded in between.
#include "admission.hpp"

#include <ctime>

#include "icat/errors.hpp"
#include "icat/metrics.hpp"
#include "icat/registry.hpp"

namespace icat::admission {

namespace {
metrics::Metric OutcomeMetric(const Verdict& verdict, const std::vector<JudgedImage>& images) {
  using metrics::Metric;
  if (!verdict.allowed) return Metric::kAdmissionDenied;
  if (!verdict.warnings.empty()) return Metric::kAdmissionWarned;
  return images.empty() ? Metric::kAdmissionSkipped : Metric::kAdmissionAllowed;
}
}  // namespace

// POST /v1/admission        (scope admission; Authorization: Bearer <key> or X-API-Key)
// POST /v1/admission/{key}  (the same, the key as the last path segment: for the API server of a
//                            managed cluster, which cannot send a header; a key in a header too is 401)
//   body: an admission.k8s.io/v1 AdmissionReview
//   200 AdmissionReview {response: {uid, allowed, status {code 403, reason, message} when denied,
//       warnings in warn mode}}; allowed at once for operations and kinds it does not judge
//   200 AdmissionReview {allowed false, status {code 401, 403 or 429, message}}: the credential was
//       refused (RefuseAsReview); not recorded, as no decision was made
//   400 MALFORMED_JSON; 400 VALIDATION_ERROR (not an AdmissionReview v1: details name the fields)
//   401 UNAUTHENTICATED; 403 INSUFFICIENT_SCOPE; 429 RATE_LIMITED: only for a body that is not a review
//   413; 415; 503 DATABASE_UNAVAILABLE (Postgres unavailable, or silent for three quarters of the API
//       server's ?timeout=): not a review, so that the API server applies the webhook's failurePolicy
Reply AdmitReview(Context& ctx) {
  // Answer while the API server still waits: its failurePolicy then meets our 503, not its own
  // timeout. Postgres gets three quarters of its wait; the rest is for the answer's way back.
  std::optional<std::chrono::milliseconds> timeout = ParseApiServerTimeout(ctx.query.Text("timeout").value_or(""));
  if (timeout) ctx.db.ShortenBudget(*timeout * 3 / 4);
  AdmissionRequest request = ReadAdmissionReview(ctx.body);
  TenantRules rules = LoadTenantRules(ctx);
  std::vector<JudgedImage> images = PlanImages(request, rules.policy);
  ResolveImages(ctx, rules, images);
  JudgeContext context{rules.watched, std::string(RegistryHost(ctx.config.registry)), std::time(nullptr)};
  for (JudgedImage& image : images) JudgeImage(image, rules.policy, context);
  Verdict verdict = Decide(rules.policy.mode, images);
  RecordDecision(ctx, request, rules.policy.mode, images, verdict);
  metrics::Add(OutcomeMetric(verdict, images));
  return Reply::Json(200, AdmissionResponseJson(request.uid, verdict));
}

// A 401 body makes the API server report only "failed calling webhook"; a denying review makes it
// show why to whoever applied the object.
std::optional<Reply> RefuseAsReview(const Context& ctx, const ApiError& refusal) {
  AdmissionRequest request;
  try {
    request = ReadAdmissionReview(ctx.body);
  } catch (const ApiError&) {
    return std::nullopt;  // not a review: nobody to answer in its shape
  }
  Verdict verdict{false, "icat refused the webhook's API key (" + std::string(Describe(refusal.error()).name) +
                             "): " + refusal.what(),
                  {}, Describe(refusal.error()).status};
  metrics::Add(metrics::Metric::kAdmissionRejected);
  return Reply::Json(200, AdmissionResponseJson(request.uid, verdict));
}

}  // namespace icat::admission
