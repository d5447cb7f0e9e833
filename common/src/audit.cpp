#include "icat/audit.hpp"

#include <exception>
#include <optional>
#include <string>

#include "icat/log.hpp"

namespace icat {

namespace {
// clang-format off
constexpr Statement kAuditInsert{"audit_insert",
    "INSERT INTO audit_log (tenant_id, actor, actor_email, action, target, client_ip, request_id, detail, trace_id) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)"};
// clang-format on
}  // namespace

const std::vector<Statement>& AuditStatements() {
  static const std::vector<Statement> statements = {kAuditInsert};
  return statements;
}

void Audit(Context& ctx, std::string_view action, std::string_view target, std::string_view detail_json) {
  std::string actor = !ctx.principal.user_id.empty() ? "user:" + ctx.principal.user_id
                      : !ctx.principal.key_id.empty() ? "key:" + ctx.principal.key_id
                                                       : "anonymous";
  // The person's email as the request found it (sql/V0025): their id alone tells nothing once they are gone.
  std::optional<std::string> actor_email;
  if (!ctx.principal.user_id.empty() && !ctx.principal.email.empty()) actor_email = ctx.principal.email;
  ctx.db.Exec(kAuditInsert, {ctx.principal.tenant_id, actor, actor_email, action, target, ctx.request.client_ip,
                             ctx.request.request_id, detail_json, ctx.trace.trace_id});
}

void AuditRoleDenial(Context& ctx) {
  try {
    ctx.db.BeginForTenant(ctx.principal.tenant_id);
    Audit(ctx, "role.denied", ctx.request.method + " " + ctx.request.path);
    ctx.db.Commit();
  } catch (const std::exception& e) {
    ctx.db.Rollback();
    LogError("rid=" + ctx.request.request_id + " cannot audit a role denial: " + e.what());
  }
}

}  // namespace icat
