// The request pipeline (its phases: pipeline.hpp) and the FastCGI worker loop that feeds it.
#include "icat/pipeline.hpp"

#include <fcgiapp.h>
#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "icat/audit.hpp"
#include "icat/auth.hpp"
#include "icat/errors.hpp"
#include "icat/fastcgi_client.hpp"
#include "icat/hash_gate.hpp"
#include "icat/json.hpp"
#include "icat/log.hpp"
#include "icat/metrics.hpp"
#include "icat/server.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"

namespace icat {

namespace {

// A route's JSON body: 413 past the limit, 415 of another type, 400 MALFORMED_JSON.
rapidjson::Document ParsedBody(const Request& request, const Config& config) {
  if (request.content_length > config.max_body_bytes) {
    throw ApiError(Error::kPAYLOAD_TOO_LARGE,
                   "The request body is larger than " + std::to_string(config.max_body_bytes) + " bytes.");
  }
  if (!IsJsonMediaType(request.Header("content-type"))) {
    throw ApiError(Error::kUNSUPPORTED_MEDIA_TYPE, "The request body must be sent as Content-Type: application/json.");
  }
  return ParseJson(request.body);  // MALFORMED_JSON before any handler sees it
}

// "x-tenant" -> "X-Tenant", as clients write header names.
std::string HeaderName(std::string_view lower_case) {
  std::string name(lower_case);
  for (size_t i = 0; i < name.size(); i++) {
    if (i == 0 || name[i - 1] == '-') name[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[i])));
  }
  return name;
}

// The edge: every text of the request that a handler, Postgres, a log or a reply may see is clean
// UTF-8 (validate.hpp IsCleanText), checked once here; a body's strings are FieldReader's.
// A tab is white space inside a header value (RFC 9110); only then is the value copied.
bool IsCleanHeaderValue(const std::string& value) {
  if (value.find('\t') == std::string::npos) return IsCleanText(value);
  std::string spaced = value;
  std::replace(spaced.begin(), spaced.end(), '\t', ' ');
  return IsCleanText(spaced);
}

// `query` is the request's query decoded once (Request::QueryParameters) for this check and the next.
void CheckTexts(const Request& request, const QueryPairs& query) {
  static constexpr const char* kIssue = "must be valid UTF-8 without control characters";
  std::vector<FieldIssue> issues;
  for (const auto& [name, value] : request.headers) {
    if (!IsCleanHeaderValue(value)) issues.push_back({"header " + HeaderName(name), kIssue});
  }
  for (const auto& [name, value] : query) {
    bool clean_name = IsCleanText(name);
    if (!clean_name || !IsCleanText(value)) issues.push_back({clean_name ? name : "query", kIssue});
  }
  for (const auto& [name, value] : request.path_params) {
    if (!IsCleanText(value)) issues.push_back({name, kIssue});
  }
  ThrowIfIssues(issues);
}

// The route's query parameters (Route::query) and no other: one issue per unknown name. Their
// values, parsed, for the handler: an invalid one is refused just before it (CallHandler).
QueryValues ParseQuery(const QueryPairs& query, const Route& route) {
  std::vector<FieldIssue> issues;
  for (std::string& name : UnknownQueryParameters(query, route.query)) {
    issues.push_back({std::move(name), "is not a parameter of this endpoint"});
  }
  ThrowIfIssues(issues);
  return QueryValues(route.query, query);
}

// The handler, once every check before it passed: its query values last, so that a refusal of the
// caller (401, 403, 404 of a tenant) comes before a 400 of a value.
Reply CallHandler(const Route& route, Context& ctx) {
  ctx.query.RefuseInvalid();
  return route.handler.function(ctx);
}

Reply ErrorReply(const ApiError& e, const Request& request) {
  std::string message = e.what();
  if (e.error() == Error::kINTERNAL_ERROR) message += " Request id: " + request.request_id + ".";
  Reply reply = Reply::Json(Describe(e.error()).status, ErrorBody(e.error(), message, e.details()));
  reply.headers.insert(reply.headers.end(), e.headers.begin(), e.headers.end());
  return reply;
}

// An ApiError's answer: a refusal of the caller's credential (401, 403, 429) in the route's own
// shape when it has one (Route::refusal), else the error body.
Reply RefusalOrErrorReply(const ApiError& e, const Route* route, const Context& ctx) {
  // A registry client reads the registry's error shape only, whatever the error; the shape sets
  // every header itself (its challenge is Basic, not the API's Bearer).
  if (route && route->access == Access::kRegistry) return *route->refusal(ctx, e);
  int status = Describe(e.error()).status;
  bool refusal = status == 401 || status == 403 || status == 429;
  std::optional<Reply> shaped = refusal && route && route->refusal ? route->refusal(ctx, e) : std::nullopt;
  if (!shaped) return ErrorReply(e, ctx.request);
  shaped->headers.insert(shaped->headers.end(), e.headers.begin(), e.headers.end());
  return std::move(*shaped);
}

size_t ReplyBytes(const Reply& reply) {
  size_t bytes = reply.body.size();
  for (const Header& h : reply.headers) bytes += h.first.size() + h.second.size();
  return bytes;
}

// The request's Cache-Control holds no-cache (RFC 9111 5.2.1.4): a stored reply may not be used
// without going to the origin, here Postgres.
bool AsksNoCache(const Request& request) {
  const std::string directives = Lower(request.Header("cache-control"));
  for (size_t at = directives.find("no-cache"); at != std::string::npos; at = directives.find("no-cache", at + 1)) {
    bool starts = at == 0 || directives[at - 1] == ',' || directives[at - 1] == ' ';
    size_t end = at + 8;
    if (starts && (end == directives.size() || directives[end] == ',' || directives[end] == ' ')) return true;
  }
  return false;
}

// A cached route's reply from the worker's cache, or the handler's (stored for the next request).
// Cache-Status (RFC 9211) tells which; "bypass" when there is no cache generation (Redis down),
// "request" when the request's Cache-Control: no-cache asked for a fresh reply.
Reply CachedOrHandled(const Route& route, Context& ctx, ReplyCache& cache) {
  // The tenant and the whole URL: the reply depends on nothing else.
  std::string key = ctx.principal.tenant_id + " " + ctx.request.path + "?" + ctx.request.query;
  bool fresh_asked = AsksNoCache(ctx.request);
  std::optional<Reply> cached = fresh_asked ? std::nullopt : cache.Find(key, ctx.cache_generation);
  if (cached) {
    cached->headers.emplace_back("Cache-Status", "icat; hit");
    metrics::Add(metrics::Metric::kReplyCacheHit);
    return std::move(*cached);
  }
  Reply reply = CallHandler(route, ctx);
  // Only the primary's replies are kept: a standby's may predate a write another client already saw.
  if (reply.status == 200 && !ctx.db.reads_on_standby())
    cache.Store(key, ctx.cache_generation, reply, ReplyBytes(reply));
  reply.headers.emplace_back("Cache-Status", !ctx.cache_generation ? "icat; fwd=bypass"
                                             : fresh_asked         ? "icat; fwd=request"
                                                                   : "icat; fwd=miss");
  metrics::Add(ctx.cache_generation ? metrics::Metric::kReplyCacheMiss : metrics::Metric::kReplyCacheBypass);
  return reply;
}

// The route, or 404 (no such path) or 405 (another method, with Allow).
const Route& RouteOf(const RouteMatch& match) {
  if (match.route) return *match.route;
  if (match.allowed_methods.empty()) throw ApiError(Error::kNOT_FOUND, "No such path.");
  ApiError error(Error::kMETHOD_NOT_ALLOWED, "Use " + Join(match.allowed_methods, " or ") + " on this path.");
  error.headers.emplace_back("Allow", Join(match.allowed_methods, ", "));
  throw error;
}

// The request judged on its own, before anyone is identified: the route (404/405), its texts and
// query names (400), a JSON body's size, type and syntax (413/415/400). The path's parameters and
// the body go where the handler reads them.
const Route& Admit(RouteMatch& match, Request& request, Context& ctx) {
  const Route& route = RouteOf(match);
  request.path_params = std::move(match.path_params);
  const QueryPairs query = request.QueryParameters();
  CheckTexts(request, query);
  ctx.query = ParseQuery(query, route);
  if (route.json_body) ctx.body = ParsedBody(request, ctx.config);
  return route;
}

// The tenant's scope for the handler (row-level security reads it), as the route declares. A portal
// request acts as the person is now, not as the token says: read in that scope, the stored person's
// role is the one authorised.
// Whose writes a request's reads must see (replica.hpp): its credential's and its address's.
std::vector<std::string> ClientKeys(const Context& ctx) {
  return ClientWriteKeys(ctx.principal.key_id, ctx.principal.user_id, ctx.request.client_ip);
}

// A read-only request reads on a standby when one is fresh enough for this client.
void OpenReadScope(Context& ctx) {
  Db* standby = ctx.replicas ? ctx.replicas->StandbyFor(ClientKeys(ctx), ctx.redis) : nullptr;
  if (standby)
    ctx.db.ReadAsTenantOn(*standby, ctx.principal.tenant_id);
  else
    ctx.db.ReadAsTenant(ctx.principal.tenant_id);
}

void OpenTenantScope(const Route& route, Context& ctx) {
  if (TransactionOf(route) == Transaction::kRead)
    OpenReadScope(ctx);
  else
    ctx.db.BeginForTenant(ctx.principal.tenant_id);
  if (!IsPortalAccess(route.access)) return;
  StoredPerson person = CurrentPerson(ctx.db, ctx.principal);
  ctx.principal.role = std::move(person.role);
  ctx.principal.email = std::move(person.email);
  Authorise(route, ctx.principal);
}

// Phase 4: the handler in the tenant's scope when the caller has a tenant, committed after it. A
// serialization failure or a deadlock rolled all of it back, so it runs once more before the failure
// is answered (sqlstates.def); a read whose standby went away runs once more on the primary. With
// standbys, a write's WAL position is remembered for the client's next reads.
Reply RunHandler(const Route& route, Context& ctx, ReplyCache& cache) {
  // Judged before the handler runs: a public route's handler may set a tenant for a scope of its own.
  const bool scoped = !ctx.principal.tenant_id.empty();
  for (int attempt = 1;; ++attempt) {
    try {
      if (scoped) OpenTenantScope(route, ctx);
      Reply reply = route.cached ? CachedOrHandled(route, ctx, cache) : CallHandler(route, ctx);
      if (scoped) ctx.db.Commit();
      if (ctx.replicas && TransactionOf(route) != Transaction::kRead) {
        ctx.replicas->RememberWrite(ClientKeys(ctx), ctx.db, ctx.redis);
      }
      return reply;
    } catch (const DbError& e) {
      if (ctx.db.reads_on_standby() && e.connection_lost && attempt == 1) {
        ctx.db.Rollback();
        ctx.replicas->MarkDown();
        continue;
      }
      if (attempt > 1 || !IsRetryableSqlState(e.sqlstate)) throw;
      LogWarn("rid=" + ctx.request.request_id + " postgres: " + e.sqlstate + " " + e.what() + "; running it again");
      ctx.db.Rollback();
    }
  }
}

// What the phases returned that the end of the request reads whichever phase refused: each is set
// from its phase's value as the phase returns.
struct Passed {
  std::string key_prefix;                  // 1. identify: the key presented, by the part logs may name
  KeyUse key_use;                          // 1. identify
  std::vector<Header> rate_limit_headers;  // 3. rate limit: on every reply from then on, a 429 too
  bool handler_reached = false;            // 4. begun: every check before it passed
};

// Phase 5, the after-effects, each on its own. After a commit that changed cached data, a new cache
// generation, now: before the reply, so that a worker that reads the new generation finds the new
// data and whoever reads after this reply is not answered from the old. An API key's due last-used
// mark, for the worker to write once the reply is out: a read answered from the caches needs no
// Postgres, and must not wait for it.
std::optional<KeyTouch> AfterEffects(const Context& ctx, const Passed& passed, bool committed) {
  if (committed && ctx.cached_data_changed && !BumpCacheGeneration(ctx.redis)) {
    LogWarn("rid=" + ctx.request.request_id + " redis: cannot bump the cache generation; cached values age out");
  }
  if (!passed.handler_reached || !passed.key_use.last_used_due) return std::nullopt;
  return KeyTouch{ctx.principal.tenant_id, ctx.principal.key_id, ctx.principal.key_prefix, ctx.request.request_id};
}

std::string RouteName(const RouteMatch& match, const Request& request) {
  return match.route ? RouteName(*match.route) : request.method + " (unrouted)";
}

// The request's one log line.
void LogRequest(const RouteMatch& match, const Context& ctx, std::string_view group, std::string_view key_prefix,
                const Reply& reply, std::optional<Error> error, double ms) {
  char millis[32];
  std::snprintf(millis, sizeof millis, "%.1f", ms);
  auto or_dash = [](std::string_view value) { return value.empty() ? std::string("-") : std::string(value); };
  LogInfo("rid=" + ctx.request.request_id + " trace=" + ctx.trace.trace_id + " span=" + ctx.trace.span_id +
          " group=" + std::string(group) + " tenant=" + or_dash(ctx.principal.tenant_id) +
          " key=" + or_dash(key_prefix) + " user=" + or_dash(ctx.principal.user_id) + " route=\"" +
          RouteName(match, ctx.request) + "\" status=" + std::to_string(reply.status) +
          " error=" + (error ? std::string(Describe(*error).name) : "-") + " ms=" + millis);
}

}  // namespace

Handled HandleRequest(const std::vector<Route>& routes, Request request, Db& db, Redis& redis, ReplyCache& cache,
                      const Config& config, std::string_view group, Replicas* replicas) {
  if (request.path == kPoolProbePath) return {Reply{204, {}, {}}};
  db.StartBudget();
  if (request.path == kPoolReadyPath) return {Reply{db.Ping() ? 204 : 503, {}, {}}};
  auto started = std::chrono::steady_clock::now();
  RouteMatch match = MatchRoute(routes, request.method, request.path);
  Context ctx{request, db, redis, config, {}, {}, {}, false, ContinueTrace(request.Header("traceparent"))};
  ctx.replicas = replicas;
  Passed passed;
  Reply reply;
  std::optional<Error> error;
  try {
    const Route& route = Admit(match, request, ctx);
    // 1. identify: the credential checked offline, then looked up
    Credential credential = ReadCredential(route.access, request, config);
    passed.key_prefix = credential.key_prefix;
    Identity identity = Identify(credential, ctx);
    ctx.principal = std::move(identity.principal);
    ctx.cache_generation = std::move(identity.cache_generation);
    passed.key_use = identity.key_use;
    // 2. authorise; a portal caller's role is the stored person's, in phase 4
    if (!IsPortalAccess(route.access)) Authorise(route, ctx.principal);
    // 3. rate limit
    RateLimit limit = LimitRate(config, passed.key_use);
    passed.rate_limit_headers = std::move(limit.headers);
    if (limit.refusal) throw *limit.refusal;
    // 4. the handler
    passed.handler_reached = true;
    reply = RunHandler(route, ctx, cache);
  } catch (const ApiError& e) {
    error = e.error();
    reply = RefusalOrErrorReply(e, match.route, ctx);
  } catch (const DbError& e) {
    LogError("rid=" + request.request_id + " postgres: " + (e.sqlstate.empty() ? "" : e.sqlstate + " ") + e.what());
    ApiError mapped = ErrorOfSqlState(e.sqlstate, e.connection_lost);
    error = mapped.error();
    reply = RefusalOrErrorReply(mapped, match.route, ctx);
  } catch (const std::exception& e) {
    LogError("rid=" + request.request_id + " unexpected: " + e.what());
    error = Error::kINTERNAL_ERROR;
    reply = RefusalOrErrorReply(ApiError(Error::kINTERNAL_ERROR), match.route, ctx);
  }
  // After a failure nothing of the request may stay open, whatever a handler began itself.
  if (error) db.Rollback();
  if (error == Error::kFORBIDDEN && !ctx.principal.tenant_id.empty()) AuditRoleDenial(ctx);
  std::optional<KeyTouch> key_touch = AfterEffects(ctx, passed, !error);  // 5. after-effects
  reply.headers.insert(reply.headers.end(), passed.rate_limit_headers.begin(), passed.rate_limit_headers.end());

  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  metrics::CountRequest(match.route ? static_cast<size_t>(match.route - routes.data()) : metrics::kUnrouted,
                        reply.status, ms / 1000);
  LogRequest(match, ctx, group, passed.key_prefix, reply, error, ms);
  return {std::move(reply), std::move(key_touch)};
}

namespace {

std::string Param(FCGX_ParamArray env, const char* name) {
  const char* value = FCGX_GetParam(name, env);
  return value ? value : "";
}

Request ReadRequest(FCGX_Request& fcgi, long max_body_bytes) {
  Request r;
  r.method = Param(fcgi.envp, "REQUEST_METHOD");
  std::string uri = Param(fcgi.envp, "REQUEST_URI");
  size_t question = uri.find('?');
  r.path = uri.substr(0, question);
  r.query = Param(fcgi.envp, "QUERY_STRING");
  r.request_id = Param(fcgi.envp, "REQUEST_ID");
  r.client_ip = Param(fcgi.envp, "REMOTE_ADDR");
  if (Param(fcgi.envp, "HTTPS") == "on") r.scheme = "https";
  for (char** p = fcgi.envp; p && *p; p++) {
    std::string_view entry = *p;
    size_t eq = entry.find('=');
    std::string_view name = entry.substr(0, eq);
    if (name.rfind("HTTP_", 0) != 0 && name != "CONTENT_TYPE") continue;
    std::string header(name.rfind("HTTP_", 0) == 0 ? name.substr(5) : name);
    for (char& c : header) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[header] = std::string(entry.substr(eq + 1));
  }
  r.content_length = std::atol(Param(fcgi.envp, "CONTENT_LENGTH").c_str());
  if (r.content_length > 0 && r.content_length <= max_body_bytes) {
    r.body.resize(static_cast<size_t>(r.content_length));
    int read = FCGX_GetStr(r.body.data(), static_cast<int>(r.body.size()), fcgi.in);
    r.body.resize(read > 0 ? static_cast<size_t>(read) : 0);
  }
  return r;
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 302:
      return "Found";
    case 303:
      return "See Other";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 413:
      return "Payload Too Large";
    case 415:
      return "Unsupported Media Type";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "";
  }
}

void WriteReply(FCGX_Request& fcgi, const Reply& reply) {
  std::string head = "Status: " + std::to_string(reply.status) + " " + ReasonPhrase(reply.status) + "\r\n";
  for (const Header& h : reply.headers) head += h.first + ": " + h.second + "\r\n";
  head += "\r\n";
  FCGX_PutStr(head.data(), static_cast<int>(head.size()), fcgi.out);
  FCGX_PutStr(reply.body.data(), static_cast<int>(reply.body.size()), fcgi.out);
}

int WorkerLoop(int listen_fd, std::string_view group, const std::vector<Route>& routes,
               const std::vector<Statement>& statements, const Config& config) {
  Db db(config.pg_dsn, statements, config.pg_statement_timeout_ms);
  Redis redis(config.redis, config.redis_timeout_ms);
  ReplyCache cache(config.worker_cache_bytes, config.worker_cache_seconds);
  std::optional<Replicas> replicas;
  if (!config.pg_read_dsn.empty()) replicas.emplace(config, statements);
  FCGX_Request fcgi;
  FCGX_InitRequest(&fcgi, listen_fd, FCGI_FAIL_ACCEPT_ON_INTR);
  while (!StopRequested()) {
    AllowStopSignal(true);  // a stop arriving while idle interrupts accept
    if (StopRequested()) break;
    int accepted = FCGX_Accept_r(&fcgi);
    AllowStopSignal(false);  // a stop arriving mid-request waits until the reply is out
    metrics::SetBusy(accepted >= 0);
    if (accepted < 0) {
      if (StopRequested() || errno == EINTR) continue;
      LogError(std::string("accept failed: ") + std::strerror(errno));
      return 1;
    }
    Handled handled = HandleRequest(routes, ReadRequest(fcgi, config.max_body_bytes), db, redis, cache, config, group,
                                    replicas ? &*replicas : nullptr);
    WriteReply(fcgi, handled.reply);
    FCGX_Finish_r(&fcgi);
    if (handled.key_touch) TouchApiKey(db, *handled.key_touch);  // phase 5's, once the reply is out
    metrics::SetBusy(false);
  }
  return 0;
}

// "GET /v1/images" per route, in the table's order: the names of the per-route metrics.
std::vector<std::string> RouteNames(const std::vector<Route>& routes) {
  std::vector<std::string> names;
  for (const Route& r : routes) names.push_back(RouteName(r));
  return names;
}

// --probe live|ready: one request to a running pool at the --socket address, as Kubernetes'
// exec probes run it. live: a worker answers; ready: and it reaches Postgres. 0 when so, else 1.
int Probe(std::string_view group, std::string_view kind, const std::string& socket) {
  std::string address = socket.empty() || socket[0] == '/' ? "unix:" + socket
                        : socket[0] == ':'                 ? "127.0.0.1" + socket
                                                           : socket;
  std::optional<FastCgiEndpoint> endpoint = ParseFastCgiAddress(address);
  if (kind != "live" && kind != "ready") {
    std::cerr << "icat-" << group << ": --probe takes live or ready\n";
    return 2;
  }
  if (!endpoint) {
    std::cerr << "icat-" << group << ": --probe needs --socket PATH|:PORT|HOST:PORT\n";
    return 2;
  }
  std::optional<int> status =
      FastCgiGet(*endpoint, kind == "live" ? kPoolProbePath : kPoolReadyPath, "probe", std::chrono::seconds(4));
  if (status == 204) return 0;
  std::cerr << "icat-" << group << ": not " << kind << ": "
            << (status ? "answered " + std::to_string(*status) + " (Postgres unreachable)"
                       : "no answer from " + address)
            << "\n";
  return 1;
}

void PrintUsage(std::string_view group) {
  std::cout << "usage: icat-" << group << " [--socket PATH|:PORT|HOST:PORT] [--workers N]\n"
            << "       icat-" << group << " --probe live|ready --socket PATH|:PORT|HOST:PORT\n"
            << "Serves the " << group << " endpoints over FastCGI with N pre-forked workers (default 2).\n"
            << "--probe asks a running pool instead: live, a worker answers; ready, and it reaches Postgres.\n"
            << "Without --socket the listening socket is fd 0 (systemd socket activation, spawn-fcgi).\n"
            << "Configuration comes from ICAT_* environment variables (see README.md).\n";
}

}  // namespace

int ServeGroup(std::string_view group, const std::vector<Route>& routes, const std::vector<Statement>& statements,
               int argc, char** argv) {
  SetLogProgram("icat-" + std::string(group));
  ServerOptions options;
  std::string probe;
  for (int i = 1; i < argc; i++) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintUsage(group);
      return 0;
    } else if (arg == "--socket" && i + 1 < argc) {
      options.socket = argv[++i];
    } else if (arg == "--probe" && i + 1 < argc) {
      probe = argv[++i];
    } else if (arg == "--workers" && i + 1 < argc) {
      options.workers = std::atoi(argv[++i]);
      if (options.workers < 1 || options.workers > 512) {
        std::cerr << "icat-" << group << ": --workers must be 1 to 512\n";
        return 2;
      }
    } else {
      std::cerr << "icat-" << group << ": unknown argument " << arg << " (see --help)\n";
      return 2;
    }
  }
  if (!probe.empty()) return Probe(group, probe, options.socket);
  Config config;
  try {
    config = Config::FromEnvironment();
  } catch (const std::exception& e) {
    std::cerr << "icat-" << group << ": " << e.what() << "\n";
    return 2;
  }
  ConfigureLogs(config.log_level, config.log_format);
  try {
    CheckRouteTable(routes);
  } catch (const std::logic_error& e) {
    std::cerr << "icat-" << group << ": route table: " << e.what() << "\n";
    return 2;
  }
  bool has_portal_routes =
      std::any_of(routes.begin(), routes.end(), [](const Route& r) { return IsPortalAccess(r.access); });
  if (has_portal_routes && config.jwt_secret.empty()) {
    std::cerr << "icat-" << group << ": ICAT_JWT_SECRET_FILE must name the file holding the access-token secret\n";
    return 2;
  }
  bool has_key_routes = std::any_of(routes.begin(), routes.end(), [](const Route& r) {
    return r.access == Access::kApiKey || r.access == Access::kRegistry;
  });
  if (has_key_routes && config.key_cache_secret.empty()) {
    std::cerr << "icat-" << group << ": ICAT_KEY_CACHE_SECRET_FILE must name the file holding the key-cache secret\n";
    return 2;
  }
  std::vector<Statement> all = statements;
  all.insert(all.end(), AuthStatements().begin(), AuthStatements().end());
  all.insert(all.end(), AuditStatements().begin(), AuditStatements().end());
  // Before the fork: a statement that does not prepare stops the pool; Postgres down does not.
  if (!StatementsPrepareAtStart("icat-" + std::string(group), config.pg_dsn, all, config.pg_statement_timeout_ms)) {
    return 2;
  }
  // Made before the fork, so every worker shares it; a dead worker's place is given back by the
  // parent. Only the auth group hashes passwords: elsewhere it stays unused (a few KB).
  std::optional<HashGate> hash_gate;
  try {
    hash_gate.emplace(static_cast<size_t>(options.workers));
  } catch (const std::runtime_error& e) {
    std::cerr << "icat-" << group << ": " << e.what() << "\n";
    return 2;
  }
  SetPoolHashGate(&*hash_gate);
  options.on_worker_exit = [&hash_gate](size_t slot) { hash_gate->Leave(slot); };
  try {
    metrics::Open(config.metrics_dir, group, RouteNames(routes));
  } catch (const std::runtime_error& e) {
    std::cerr << "icat-" << group << ": " << e.what() << "\n";
    return 2;
  }
  int status =
      RunPreforkServer(options, [&](int listen_fd) { return WorkerLoop(listen_fd, group, routes, all, config); });
  SetPoolHashGate(nullptr);
  metrics::Close();
  return status;
}

}  // namespace icat
