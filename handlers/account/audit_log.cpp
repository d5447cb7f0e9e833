// GET /api/audit-log: the tenant's security and change log (every portal write, sign-ins, key
// revocations, role denials), for its admins.
#include "account.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

void WriteEntry(JsonWriter& w, const AuditEntryView& e) {
  w.StartObject();
  WriteInt(w, "id", e.id);
  WriteString(w, "at", e.at);
  WriteString(w, "actor", e.actor);
  WriteOptionalString(w, "actorEmail", e.actor_email);
  WriteString(w, "action", e.action);
  WriteOptionalString(w, "target", e.target);
  WriteOptionalString(w, "clientIp", e.client_ip);
  WriteOptionalString(w, "requestId", e.request_id);
  WriteOptionalString(w, "traceId", e.trace_id);
  WriteKey(w, "detail");
  w.RawValue(e.detail_json.data(), e.detail_json.size(), rapidjson::kObjectType);
  w.EndObject();
}

}  // namespace

std::string AuditLogJson(const std::vector<AuditEntryView>& entries, const std::optional<std::string>& next_cursor) {
  return ListJson("entries", entries, next_cursor, WriteEntry);
}

// GET /api/audit-log?action=&limit=&cursor=   (portal; admin only)
//   200 {"entries": [{id, at, actor, actorEmail, action, target, clientIp, requestId, traceId, detail}],
//       "nextCursor"}: newest first; actor is user:<id>, key:<id>, operator or anonymous; actorEmail the
//       person's email at the time (null for the others); ?action= matches exactly
//   400 VALIDATION_ERROR (action, limit, cursor, headers); 401; 403 FORBIDDEN (not an admin)
Reply ListAuditLog(Context& ctx) {
  std::optional<std::string> action = ctx.query.Text("action");
  int limit = ctx.query.Limit();
  // The cursor holds the id of the last entry shown.
  std::optional<std::vector<std::string>> cursor = ctx.query.Cursor();
  std::optional<std::string> after = cursor ? std::optional((*cursor)[0]) : std::nullopt;
  Rows rows = ctx.db.Run(kListAudit, {ctx.principal.tenant_id, action, after, limit + 1});
  const int id = rows.Column("id"), at = rows.Column("at"), actor = rows.Column("actor"),
            actor_email = rows.Column("actor_email"),
            action_col = rows.Column("action"), target = rows.Column("target"), client_ip = rows.Column("client_ip"),
            request_id = rows.Column("request_id"), detail = rows.Column("detail"), trace_id = rows.Column("trace_id");
  std::vector<AuditEntryView> entries;
  for (int row = 0; row < rows.size() && row < limit; row++) {
    entries.push_back({rows.Int(row, id), std::string(rows.Text(row, at)), std::string(rows.Text(row, actor)),
                       rows.OptionalText(row, actor_email), std::string(rows.Text(row, action_col)),
                       rows.OptionalText(row, target),
                       rows.OptionalText(row, client_ip), rows.OptionalText(row, request_id),
                       std::string(rows.Text(row, detail)), rows.OptionalText(row, trace_id)});
  }
  std::optional<std::string> next;
  if (rows.size() > limit) next = EncodeCursor({std::to_string(entries.back().id)});
  return JsonReply(200, AuditLogJson(entries, next));
}

}  // namespace icat::account
