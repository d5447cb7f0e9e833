// icat-admission: the Kubernetes admission webhook (DESIGN.md section 8), a pool of its own so a
// busy cluster never waits behind catalogue reads, and the other way round.
#include "admission.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  using icat::admission::AdmitReview, icat::admission::RefuseAsReview;
  // The key in the path is for API servers that cannot send a header (docs/admission.md).
  static const std::vector<icat::Route> routes = {
      {"POST", "/v1/admission", Access::kApiKey, "admission", "timeout", AdmitReview, true, false, RefuseAsReview},
      {"POST", "/v1/admission/{key}", Access::kApiKey, "admission", "timeout", AdmitReview, true, false,
       RefuseAsReview},
  };
  return icat::ServeGroup("admission", routes, icat::admission::kStatements, argc, argv);
}
