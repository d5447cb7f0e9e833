// GET /api/status: Postgres down is unavailable (503), Redis down only degraded (reads still work).
#include "status.hpp"

#include "icat/errors.hpp"
#include "icat/json.hpp"

namespace icat::status {

std::string StatusJson(bool postgres_ok, bool redis_ok) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "status", !postgres_ok ? "unavailable" : redis_ok ? "ok" : "degraded");
  if (!postgres_ok) {
    WriteString(w, "error", Describe(Error::kSERVICE_UNAVAILABLE).name);
    WriteString(w, "message", "The database is unreachable.");
  }
  WriteKey(w, "checks");
  w.StartObject();
  WriteString(w, "postgres", postgres_ok ? "ok" : "unavailable");
  WriteString(w, "redis", redis_ok ? "ok" : "unavailable");
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

// GET /api/status (public)
//   200 {"status": "ok"|"degraded", "checks": {"postgres", "redis"}}
//   503 {"status": "unavailable", "error": "SERVICE_UNAVAILABLE", ...} when Postgres is unreachable
Reply GetStatus(Context& ctx) {
  bool postgres_ok = ctx.db.Ping();
  bool redis_ok = ctx.redis.Ping();
  Reply reply = Reply::Json(postgres_ok ? 200 : 503, StatusJson(postgres_ok, redis_ok));
  reply.headers.emplace_back("Cache-Control", "no-store");
  return reply;
}

}  // namespace icat::status
