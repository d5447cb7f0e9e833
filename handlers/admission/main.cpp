// icat-admission: the Kubernetes admission webhook (DESIGN.md section 8), a pool of its own so a
// busy cluster never waits behind catalogue reads, and the other way round.
#include "admission.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("admission", icat::admission::Routes(), icat::admission::kStatements, argc, argv);
}
