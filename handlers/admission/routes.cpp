// The routes of icat-admission: one row per method and path, with who may call it (docs/routes.md).
#include "admission.hpp"

namespace icat::admission {

// The key in the path is for API servers that cannot send a header (docs/admission.md).
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "POST",
       .pattern = "/v1/admission",
       .access = Access::kApiKey,
       .scope = Scope::kAdmission,
       .query = {query::Text("timeout")},
       .handler = ICAT_HANDLER(AdmitReview),
       .json_body = true,
       .refusal = RefuseAsReview},
      {.method = "POST",
       .pattern = "/v1/admission/{key}",
       .access = Access::kApiKey,
       .scope = Scope::kAdmission,
       .query = {query::Text("timeout")},
       .handler = ICAT_HANDLER(AdmitReview),
       .json_body = true,
       .refusal = RefuseAsReview},
  };
  return routes;
}

}  // namespace icat::admission
