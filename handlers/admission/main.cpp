// icat-admission: the Kubernetes admission webhook (DESIGN.md section 8), a pool of its own so a
// busy cluster never waits behind catalogue reads, and the other way round.
#include "admission.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  static const std::vector<icat::Route> routes = {
      {"POST", "/v1/admission", Access::kApiKey, "admission", icat::admission::AdmitReview, true},
  };
  return icat::ServeGroup("admission", routes, icat::admission::kStatements, argc, argv);
}
