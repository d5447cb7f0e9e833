// The routes of icat-admission: one row per method and path, with who may call it (docs/routes.md).
#include "admission.hpp"

namespace icat::admission {

namespace {
// POST at `pattern`: an AdmissionReview, answered (and refused) as one.
Route ReviewAt(std::string_view pattern) {
  return {.method = "POST",
          .pattern = pattern,
          .access = Access::kApiKey,
          .scope = Scope::kAdmission,
          .query = {query::Text("timeout")},
          .handler = ICAT_HANDLER(AdmitReview),
          .json_body = true,
          .refusal = RefuseAsReview};
}
}  // namespace

// The key in the path is for API servers that cannot send a header (docs/admission.md).
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {ReviewAt("/v1/admission"), ReviewAt("/v1/admission/{key}")};
  return routes;
}

}  // namespace icat::admission
