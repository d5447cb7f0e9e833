// The request pipeline every handler group runs, in a fixed order:
// route (404/405) -> limits (413/415/400) -> authenticate and authorise (401/403/429)
// -> transaction with the tenant set -> a portal caller's person as stored now (401/403) -> a cached
// reply of a catalogue read, or the handler -> reply or error body -> one log line; then, the reply
// out, an API key's last-used mark.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/config.hpp"
#include "icat/db.hpp"
#include "icat/http.hpp"
#include "icat/json.hpp"
#include "icat/redis.hpp"
#include "icat/worker_cache.hpp"
#include "icat/router.hpp"
#include "icat/trace.hpp"

namespace icat {

// Who is calling, as authentication established it.
struct Principal {
  std::string tenant_id;
  std::string key_id;                // API key callers
  std::string key_prefix;            // the key's listed prefix, set once its form is checked: for logs
  std::vector<std::string> scopes;
  bool touch_key = false;            // the key's last_used_at is due for an update
  std::string user_id;               // portal callers
  std::string role;                  // the token's, then (LoadCurrentPerson) the stored one
  std::string email;                 // the person's, once read from the database: for the audit log
  std::string session_id;            // portal callers: their access token's sign-in (JWT sid)
  std::string publisher;             // registry callers with a publisher credential: its name
};

// An API key's last-used mark, left by a request for after its reply is out (TouchApiKey, auth.hpp).
struct KeyTouch {
  std::string tenant_id;
  std::string key_id;
  std::string key_prefix;  // for the log line when it cannot be written
  std::string request_id;
};

struct Context {
  const Request& request;
  Db& db;
  Redis& redis;
  const Config& config;
  Principal principal;
  std::vector<Header> reply_headers;  // added to whatever the handler returns (rate-limit headers, ...)
  rapidjson::Document body;           // the parsed body of routes with json_body
  std::optional<std::string> cache_generation;  // read with the API key; unset: use no cached values
  bool cached_data_changed = false;             // a handler changed cached data: bump after commit
  Trace trace;                                  // the caller's trace (traceparent) with this request's span
  bool handler_ran = false;                     // every check passed: a key's due last-used mark is written
  QueryValues query;                            // the route's query parameters, parsed (Route::query)
};

// A worker's replies of cached routes (Route::cached), by tenant and URL.
using ReplyCache = WorkerCache<Reply>;

// Runs one request through the pipeline; never throws. Every wait for Postgres ends within the
// request's budget (Db::StartBudget). When the request's API key is due for its last-used mark,
// touch_after_reply receives it: the caller writes it once the reply is out.
Reply HandleRequest(const std::vector<Route>& routes, Request request, Db& db, Redis& redis, ReplyCache& cache,
                    const Config& config, std::string_view group, std::optional<KeyTouch>& touch_after_reply);

// A handler executable's whole main: reads the configuration, parses --socket and --workers,
// and serves the routes with a pool of pre-forked workers. Returns the process exit code.
int ServeGroup(std::string_view group, const std::vector<Route>& routes,
               const std::vector<Statement>& statements, int argc, char** argv);

}  // namespace icat
