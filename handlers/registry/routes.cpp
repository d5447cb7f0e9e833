// The routes of icat-registry: one row per method and path, with who may call it (docs/routes.md).
#include "registry.hpp"

namespace icat::registry {

const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/_registry/auth",
       .access = Access::kRegistry,
       .scope = Scope::kPull,
       .handler = ICAT_HANDLER(DecidePull),
       .refusal = ErrorAsAuthDecision},
      {.method = "GET",
       .pattern = "/v2/_catalog",
       .access = Access::kRegistry,
       .scope = Scope::kPull,
       // ?n= is refused on read: a publisher's 403 comes first.
       .query = {query::RefusedOnRead(query::Number("n", kMaxPage)), query::Text("last")},
       .handler = ICAT_HANDLER(ListRepositories),
       .refusal = ErrorAsRegistry},
      {.method = "POST",
       .pattern = "/_registry/events",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(ReceiveEvents)},
  };
  return routes;
}

}  // namespace icat::registry
