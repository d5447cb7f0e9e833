// POST /v1/admission: one AdmissionReview in, one out, the decision recorded in between.
#include "admission.hpp"

#include <ctime>

namespace icat::admission {

// POST /v1/admission   (scope admission; Authorization: Bearer <key>, as the API server sends it)
//   body: an admission.k8s.io/v1 AdmissionReview
//   200 AdmissionReview {response: {uid, allowed, status {code 403, reason, message} when denied,
//       warnings in warn mode}}; allowed at once for operations and kinds it does not judge
//   400 MALFORMED_JSON; 400 VALIDATION_ERROR (not an AdmissionReview v1: details name the fields)
//   401 UNAUTHENTICATED; 403 INSUFFICIENT_SCOPE; 413; 415; 429; 503
Reply AdmitReview(Context& ctx) {
  AdmissionRequest request = ReadAdmissionReview(ctx.body);
  TenantRules rules = LoadTenantRules(ctx);
  std::vector<JudgedImage> images = PlanImages(request, rules.policy);
  ResolveImages(ctx, rules, images);
  long long now = std::time(nullptr);
  for (JudgedImage& image : images) JudgeImage(image, rules.policy, rules.watched, now);
  Verdict verdict = Decide(rules.policy.mode, images);
  RecordDecision(ctx, request, rules.policy.mode, images, verdict);
  return Reply::Json(200, AdmissionResponseJson(request.uid, verdict));
}

}  // namespace icat::admission
