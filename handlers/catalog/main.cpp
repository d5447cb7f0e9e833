// icat-catalog: the image catalogue, as the tenant's licences let it see it.
#include "catalog.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("catalog", icat::catalog::Routes(), icat::catalog::kStatements, argc, argv);
}
