// icat-registry: who may pull or push what through /v2/ (nginx asks it of every request before the
// Distribution registry sees it), each tenant's list of repositories, and publishing from pushes.
#include "queries.hpp"
#include "registry.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  using namespace icat::registry;
  static const std::vector<icat::Route> routes = {
      {"GET", "/_registry/auth", Access::kRegistry, "pull", "", DecidePull, false, false, ErrorAsAuthDecision},
      {"GET", "/v2/_catalog", Access::kRegistry, "pull", "n,last", ListRepositories, false, false, ErrorAsRegistry},
      {"POST", "/_registry/events", Access::kPublic, "", "", ReceiveEvents},
  };
  return icat::ServeGroup("registry", routes, kStatements, argc, argv);
}
