// icatctl request list and request status: the vendor's side of the feature requests, package
// requests and bug reports tenants file in the portal (POST /api/feature-requests).
#include <iostream>

#include "commands.hpp"
#include "icat/vocabulary.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

// A status of kRequestStatuses, else a usage error naming them: "is not a status (open, planned,
// done or declined)".
void RequireStatus(std::string_view flag, const std::string& status) {
  if (IsOneOf(status, kRequestStatuses)) return;
  std::string statuses;
  for (size_t i = 0; i < kRequestStatuses.size(); i++) {
    statuses += (i == 0 ? "" : i + 1 < kRequestStatuses.size() ? ", " : " or ") + std::string(kRequestStatuses[i]);
  }
  throw UsageError(std::string(flag) + ": '" + status + "' is not a status (" + statuses + ")");
}

}  // namespace

void RequestList(const Args& args) {
  std::optional<std::string> status = args.Optional("status");
  if (status) RequireStatus("--status", *status);
  Session session;
  std::string tenant_id = TenantId(session.db, args.Value("tenant"));
  Rows rows = session.db.RunSql(
      "SELECT f.id, f.type, f.status, rfc3339(f.created_at), coalesce(u.email, '-'), f.title "
      "FROM feature_requests f LEFT JOIN users u ON u.id = f.created_by "
      "WHERE f.tenant_id = $1 AND ($2::text IS NULL OR f.status = $2) ORDER BY f.created_at, f.id",
      {tenant_id, status});
  // Tab-separated, one request a line: easy to read and to cut.
  std::cout << "ID\tTYPE\tSTATUS\tCREATED\tBY\tTITLE\n";
  for (int row = 0; row < rows.size(); ++row) {
    for (int col = 0; col < 6; ++col) std::cout << rows.Text(row, col) << (col < 5 ? '\t' : '\n');
  }
}

void RequestStatus(const Args& args) {
  const std::string& id = args.Positional(0);
  const std::string& status = args.Positional(1);
  if (!IsUuid(id)) throw UsageError("'" + id + "' is not a request id (a UUID, as request list shows)");
  RequireStatus("STATUS", status);
  const std::string& subdomain = args.Value("tenant");

  Session session;
  std::string tenant_id = TenantId(session.db, subdomain);
  Transaction transaction(session.db);
  Rows found = session.db.RunSql(
      "SELECT status FROM feature_requests WHERE tenant_id = $1 AND id = $2::uuid FOR UPDATE", {tenant_id, id});
  if (found.empty()) throw Failure("tenant " + subdomain + " has no request " + id);
  std::string previous(found.Text(0, found.Column("status")));
  if (previous != status) {
    session.db.ExecSql(
        "UPDATE feature_requests SET status = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2::uuid",
        {tenant_id, id, status});
    // The tenant sees the change in its audit log, by the operator.
    session.db.ExecSql(
        "INSERT INTO audit_log (tenant_id, actor, action, target, detail) VALUES ($1, 'operator', "
        "'feature_request.status_changed', $2, jsonb_build_object('from', $3::text, 'to', $4::text))",
        {tenant_id, id, previous, status});
  }
  transaction.Commit();
  std::cout << id << ' ' << previous << " -> " << status << '\n';
}

}  // namespace icat::ctl
