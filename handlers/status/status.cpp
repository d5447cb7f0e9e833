// GET /api/status: Postgres down is unavailable (503); Redis, a pool or the dispatcher down only
// degraded (what still works keeps working). docs/operations.md, "Health".
#include "status.hpp"

#include <algorithm>
#include <future>

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "pools.hpp"
#include "queries.hpp"

namespace icat::status {

namespace {

// The answer comes within a second whatever the parts do: the pools are asked side by side, each
// for at most kPoolTimeout, while Postgres gets kPostgresTimeout for the ping and the dispatcher's
// row together, then Redis its own timeout (ICAT_REDIS_TIMEOUT_MS, 200 ms by default).
constexpr std::chrono::milliseconds kPoolTimeout{500};
constexpr std::chrono::milliseconds kPostgresTimeout{500};

std::string DispatcherState(Db& db) {
  try {
    Rows rows = db.Run(kDispatcherFresh);
    const int fresh = rows.Column("fresh");
    if (rows.IsNull(0, fresh)) return "down";
    return rows.Bool(0, fresh) ? "ok" : "stale";
  } catch (const DbError&) {
    return "unknown";  // Postgres went away after the ping
  }
}

}  // namespace

std::string StatusJson(const Health& h) {
  bool pools_ok = std::all_of(h.pools.begin(), h.pools.end(), [](const auto& pool) { return pool.second; });
  bool all_ok = h.redis && pools_ok && h.dispatcher == "ok";
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "status", !h.postgres ? "unavailable" : all_ok ? "ok" : "degraded");
  if (!h.postgres) {
    WriteString(w, "error", Describe(Error::kDATABASE_UNAVAILABLE).name);
    WriteString(w, "message", "The database cannot be reached or did not answer within " +
                                  std::to_string(kPostgresTimeout.count()) + " ms.");
  }
  WriteKey(w, "checks");
  w.StartObject();
  WriteString(w, "postgres", h.postgres ? "ok" : "unavailable");
  WriteString(w, "redis", h.redis ? "ok" : "unavailable");
  WriteKey(w, "pools");
  w.StartObject();
  for (const auto& [group, up] : h.pools) WriteString(w, group, up ? "ok" : "down");
  w.EndObject();
  WriteString(w, "dispatcher", h.dispatcher);
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

// GET /api/status (public)
//   200 {"status": "ok"|"degraded", "checks": {"postgres", "redis", "pools": {...}, "dispatcher"}}
//   503 {"status": "unavailable", "error": "DATABASE_UNAVAILABLE", ...} + Retry-After when Postgres
//       cannot be reached or does not answer within kPostgresTimeout
Reply GetStatus(Context& ctx) {
  auto pools = std::async(std::launch::async, ProbePools, ctx.config.pool_address, "status", kPoolTimeout);
  Health health;
  ctx.db.ShortenBudget(kPostgresTimeout);
  health.postgres = ctx.db.Ping();
  health.redis = ctx.redis.Ping();
  health.dispatcher = health.postgres ? DispatcherState(ctx.db) : "unknown";
  health.pools = pools.get();
  Reply reply = Reply::Json(health.postgres ? 200 : 503, StatusJson(health));
  reply.headers.emplace_back("Cache-Control", "no-store");
  if (!health.postgres) reply.headers.emplace_back("Retry-After", "1");
  return reply;
}

}  // namespace icat::status
