// The request pipeline every handler group runs (common/src/pipeline.cpp). First the request is
// judged on its own: route (404/405) -> its texts (400) -> the route's query names (400) -> body
// size, type and JSON (413/415/400). Then the phases, in order, each returning what the next reads:
//   1. identify -> Identity (auth.hpp): the credential read and checked offline, then looked up: an
//      API key in Redis (its state, rate-limit count, last-used throttle and the cache generation in
//      one round trip) or Postgres, a portal token as signed (401, 400, 429);
//   2. authorise (the principal x the route): an API key's scope (403); a portal caller's role is
//      the stored person's, authorised in phase 4;
//   3. rate limit -> the RateLimit headers every reply carries from here on (429 past the limit);
//   4. run the handler in the transaction mode the route declares (Route::transaction), when the
//      caller has a tenant; for a portal caller first the person as stored now (401) and their role
//      (403); a catalogue read from the worker's reply cache, or the route's query values (400,
//      query.hpp) and the handler; commit, once more after a
//      serialization failure;
//   5. after-effects: a new cache generation after a commit that changed cached data (before the
//      reply), and an API key's due last-used mark, written once the reply is out (Handled).
// Then the reply or the error body (a rollback after any failure) and one log line.
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
#include "icat/replica.hpp"
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
  std::string user_id;               // portal callers
  std::string role;                  // the token's, then (CurrentPerson) the stored one
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
  rapidjson::Document body;                     // the parsed body of routes with json_body
  std::optional<std::string> cache_generation;  // read with the API key; unset: use no cached values
  bool cached_data_changed = false;             // a handler changed cached data: bump after commit
  Trace trace;                                  // the caller's trace (traceparent) with this request's span
  QueryValues query;                            // the route's query parameters, parsed (Route::query)
  Replicas* replicas = nullptr;                 // the standbys of read-only requests; none: the primary
};

// A worker's replies of cached routes (Route::cached), by tenant and URL.
using ReplyCache = WorkerCache<Reply>;

// A request's reply, and what is left to do once it is out.
struct Handled {
  Reply reply;
  std::optional<KeyTouch> key_touch;  // an API key due for its last-used mark: TouchApiKey after the reply
};

// Runs one request through the pipeline; never throws. Every wait for Postgres ends within the
// request's budget (Db::StartBudget).
Handled HandleRequest(const std::vector<Route>& routes, Request request, Db& db, Redis& redis, ReplyCache& cache,
                      const Config& config, std::string_view group, Replicas* replicas = nullptr);

// A handler executable's whole main: reads the configuration, parses --socket and --workers,
// and serves the routes with a pool of pre-forked workers. Returns the process exit code.
int ServeGroup(std::string_view group, const std::vector<Route>& routes,
               const std::vector<Statement>& statements, int argc, char** argv);

}  // namespace icat
