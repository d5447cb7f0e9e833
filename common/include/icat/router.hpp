// Routes: method + path pattern ("/v1/images/{id}") -> handler, with who may call it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/http.hpp"
#include "icat/query.hpp"
#include "icat/vocabulary.hpp"

namespace icat {

struct Context;
class ApiError;

// The path parameter that carries the API key of a kApiKey route, for callers that cannot send a
// header (the API server of a managed Kubernetes cluster: POST /v1/admission/{key}). Only kApiKey
// routes may have it (CheckRouteTable); the pipeline's log line names the route's pattern, never the path.
inline constexpr std::string_view kKeyParam = "key";

// Who may call a route: the route table is the one place that says it (docs/routes.md shows it).
enum class Access {
  kPublic,       // no credential
  kApiKey,       // /v1: an API key holding `scope`
  kPortal,       // /api: access token + X-Tenant, any role (reads)
  kPortalAdmin,  // /api: the same, admin role only: every write (SPEC 4.2 rule 3), and admin-only reads
  // /api/auth/...: the same, any role, for a write on the caller's own account only (their password):
  // not a tenant resource, so not the admin's (docs/portal.md). CheckRouteTable keeps it under /api/auth/.
  kPortalSelf,
  // /v2/ (the registry, docs/registry.md): HTTP Basic, the password an API key holding `scope` (a
  // tenant, which pulls what its licences name) or a publisher's (the vendor, which pushes). Every
  // error is answered in the registry's own shape (Route::refusal).
  kRegistry,
};

// A route of the portal: an access token and X-Tenant, whatever the role (kPortal, kPortalAdmin,
// kPortalSelf).
constexpr bool IsPortalAccess(Access access) {
  return access == Access::kPortal || access == Access::kPortalAdmin || access == Access::kPortalSelf;
}

// How the pipeline runs a handler in Postgres for a caller with a tenant (an API key's, a portal
// token's); a public route's handler opens what it needs itself.
enum class Transaction {
  kByMethod,  // the default, as HTTP says: GET (and HEAD) reads, every other method writes
  kRead,      // no BEGIN and no COMMIT: each round trip sets the tenant and sees what is committed
  kWrite,     // BEGIN with the first statement, COMMIT after the handler: all of it or nothing
};

// A route's handler and its name as written in handlers/<group>/ (docs/routes.md shows where it is):
// ICAT_HANDLER(ListImages) makes both from one word, so the name cannot drift from the function.
struct Handler {
  Reply (*function)(Context&);
  std::string_view name;
};
#define ICAT_HANDLER(function) \
  ::icat::Handler { function, #function }

// One row of a group's route table (handlers/<group>/routes.cpp), written with named fields. The
// generator (icat-gen, tools/generate/) reads these very rows, linked in, for docs/routes.md, nginx and OpenAPI.
struct Route {
  std::string_view method;
  std::string_view pattern;  // literal segments and {name} placeholders
  Access access;
  std::optional<Scope> scope;  // kApiKey and kRegistry: the scope needed
  // The query parameters the route reads, each with the check of its value (query.hpp). The
  // pipeline refuses any other name with 400 VALIDATION_ERROR before authentication, so a misspelt
  // or unsupported parameter (?version= on the latest SBOM) is never silently ignored; it refuses
  // an invalid value just before the handler, which reads the parsed values from ctx.query.
  std::vector<QueryParam> query;
  Handler handler;
  bool json_body = false;  // POST/PUT with a JSON body: 413, 415 and MALFORMED_JSON apply
  // kApiKey GET routes whose reply depends on nothing but the tenant, the URL and catalogue data:
  // their 200 replies are kept per worker until the catalogue changes (worker_cache.hpp).
  bool cached = false;
  // Read (Db::ReadAsTenant) or write (Db::BeginForTenant); CheckRouteTable keeps it true to the method.
  Transaction transaction = Transaction::kByMethod;
  // A route whose callers read only its own reply shape answers a refusal of their credential
  // (401, 403, 429) in that shape: the admission webhook answers an AdmissionReview, whose message
  // the API server shows its user. nullopt (a body it cannot answer) keeps the JSON error.
  std::optional<Reply> (*refusal)(const Context&, const ApiError&) = nullptr;
};

// The names of the query parameters a route reads, in its row's order.
std::vector<std::string_view> QueryNames(const Route& route);

// The route's transaction mode, its default resolved: kRead or kWrite.
Transaction TransactionOf(const Route& route);

// "GET /v1/images": a route's name in logs, metrics and errors about the table.
std::string RouteName(const Route& route);

// The path GET /api/status sends each pool to see that a worker accepts and answers (handlers/status/
// pools.cpp). No route has it and nginx routes nothing under /-/; the pipeline answers it 204 at
// once, without a log line or a metric, so health checks add no noise.
inline constexpr std::string_view kPoolProbePath = "/-/pool-probe";
// The same, answered 204 only when the worker reaches Postgres (503 otherwise): a pool's readiness
// (icat-<group> --probe ready, Kubernetes' readinessProbe).
inline constexpr std::string_view kPoolReadyPath = "/-/pool-ready";

struct RouteMatch {
  const Route* route = nullptr;                    // null: no route for this method
  std::map<std::string, std::string> path_params;  // decoded
  std::vector<std::string_view> allowed_methods;   // when the path matched but the method did not
};

// Throws std::logic_error naming the first route that breaks a rule of the table itself: a
// portal route that writes (any method but GET) must be kPortalAdmin, or kPortalSelf under /api/auth/;
// an API-key or registry route names a scope and no other route does; only an API-key route has a
// {key} segment; its query parameters are sound declarations (QueryDeclarationProblem); every
// route has a handler; a route that writes (any method but GET) runs in a transaction, and a public
// route declares none (it has no tenant for the pipeline to set).
void CheckRouteTable(const std::vector<Route>& routes);

// The names of the query parameters (decoded, Request::QueryParameters) that `accepted` (a
// Route::query) does not declare, each once, in the order first sent. Empty pairs ("a=1&&b=2")
// name nothing.
std::vector<std::string> UnknownQueryParameters(const QueryPairs& parameters, const std::vector<QueryParam>& accepted);

// Finds the route for method and path. No match at all: route null, allowed_methods empty.
RouteMatch MatchRoute(const std::vector<Route>& routes, std::string_view method, std::string_view path);

}  // namespace icat
