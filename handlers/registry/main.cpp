// icat-registry: who may pull or push what through /v2/ (nginx asks it of every request before the
// Distribution registry sees it), each tenant's list of repositories, and publishing from pushes.
#include "queries.hpp"
#include "registry.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("registry", icat::registry::Routes(), icat::registry::kStatements, argc, argv);
}
