// icat-catalog: the image catalogue, as the tenant's licences let it see it.
#include "catalog.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  static const std::vector<icat::Route> routes = {
      {"GET", "/v1/images", Access::kApiKey, "read:catalog", icat::catalog::ListImages},
      {"GET", "/v1/images/{id}", Access::kApiKey, "read:catalog", icat::catalog::GetImage},
  };
  return icat::ServeGroup("catalog", routes, icat::catalog::kStatements, argc, argv);
}
