// GET, PUT /api/admission-policy and GET /api/admission-decisions: the tenant's admission policy
// (DESIGN.md section 8) and the decisions the admission webhook recorded under it.
#include <set>

#include "account.hpp"
#include "icat/admission_policy.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

// Exceptions naming an image the tenant holds no licence for: one detail each.
void CheckExceptionImages(Context& ctx, const AdmissionPolicy& policy, std::vector<FieldIssue>& issues) {
  std::vector<std::string> ids;
  for (const PolicyException& e : policy.exceptions) {
    if (e.image_id) ids.push_back(*e.image_id);
  }
  if (ids.empty()) return;
  Rows rows = ctx.db.Run(kVisibleImages, {ctx.principal.tenant_id, TextArrayLiteral(ids)});
  std::set<std::string, std::less<>> visible;
  const int image_id = rows.Column("image_id");
  for (int row = 0; row < rows.size(); row++) visible.insert(std::string(rows.Text(row, image_id)));
  for (size_t i = 0; i < policy.exceptions.size(); i++) {
    const std::optional<std::string>& image = policy.exceptions[i].image_id;
    if (image && visible.find(*image) == visible.end()) {
      issues.push_back({"exceptions[" + std::to_string(i) + "].imageId", "is not an image of your catalogue"});
    }
  }
}

void WriteDecision(JsonWriter& w, const DecisionView& d) {
  w.StartObject();
  WriteString(w, "id", d.id);
  WriteString(w, "createdAt", d.created_at);
  WriteString(w, "requestUid", d.request_uid);
  WriteString(w, "operation", d.operation);
  WriteString(w, "kind", d.kind);
  WriteOptionalString(w, "namespace", d.namespace_name);
  WriteOptionalString(w, "name", d.name);
  WriteBool(w, "allowed", d.allowed);
  WriteString(w, "mode", d.mode);
  WriteBool(w, "dryRun", d.dry_run);
  WriteOptionalString(w, "keyPrefix", d.key_prefix);
  WriteKey(w, "images");
  w.RawValue(d.images_json.data(), d.images_json.size(), rapidjson::kArrayType);
  WriteKey(w, "reasons");
  w.RawValue(d.reasons_json.data(), d.reasons_json.size(), rapidjson::kArrayType);
  w.EndObject();
}

}  // namespace

std::string DecisionListJson(const std::vector<DecisionView>& decisions,
                             const std::optional<std::string>& next_cursor) {
  return ListJson("decisions", decisions, next_cursor, WriteDecision);
}

// GET /api/admission-policy   (portal)
//   200 the policy document, every field present: the stored one merged over the defaults
//       (docs/portal.md lists them), or the defaults when the tenant never saved one
//   400 VALIDATION_ERROR (headers); 401
Reply GetAdmissionPolicy(Context& ctx) {
  Rows rows = ctx.db.Run(kGetPolicy, {ctx.principal.tenant_id});
  AdmissionPolicy policy =
      rows.empty() ? AdmissionPolicy{} : StoredAdmissionPolicy(rows.Text(0, rows.Column("policy")));
  return JsonReply(200, AdmissionPolicyJson(policy));
}

// PUT /api/admission-policy {policy document}   (portal; admin)
//   200 the stored policy: fields left out take their defaults
//   400 VALIDATION_ERROR, one detail per problem: mode, booleans, severityThreshold, gracePeriodDays
//       0-365, list entries, exceptions[i].cveId / imageId (a licensed image) / justification /
//       expiresAt (RFC 3339), unknown fields; 401; 403 FORBIDDEN; 415; MALFORMED_JSON
Reply PutAdmissionPolicy(Context& ctx) {
  std::vector<FieldIssue> issues;
  AdmissionPolicy policy = ReadAdmissionPolicy(ctx.body, issues);
  CheckExceptionImages(ctx, policy, issues);
  ThrowIfIssues(issues);
  std::string json = AdmissionPolicyJson(policy);
  ctx.db.Exec(kPutPolicy, {ctx.principal.tenant_id, json, ctx.principal.user_id});
  Audit(ctx, "admission_policy.updated", "admission-policy", json);
  ctx.cached_data_changed = true;  // admission workers keep the policy
  return JsonReply(200, json);
}

// GET /api/admission-decisions?allowed=&limit=&cursor=   (portal)
//   200 {"decisions": [{id, createdAt, requestUid, operation, kind, namespace, name, allowed, mode,
//        dryRun, images, reasons}], "nextCursor"}: newest first
//   400 VALIDATION_ERROR (allowed not true/false, limit, cursor, headers); 401
Reply ListAdmissionDecisions(Context& ctx) {
  std::optional<std::string> allowed = ctx.query.Text("allowed");
  Page page = ReadPage(ctx.query);
  Rows rows =
      ctx.db.Run(kListDecisions, {ctx.principal.tenant_id, allowed, page.after_time, page.after_id, page.limit + 1});
  const int id = rows.Column("id"), created_at = rows.Column("created_at"), request_uid = rows.Column("request_uid"),
            operation = rows.Column("operation"), kind = rows.Column("kind"), namespace_name = rows.Column("namespace"),
            name = rows.Column("name"), images = rows.Column("images"), allowed_col = rows.Column("allowed"),
            mode = rows.Column("mode"), dry_run = rows.Column("dry_run"), reasons = rows.Column("reasons"),
            key_prefix = rows.Column("key_prefix");
  std::vector<DecisionView> decisions;
  for (int row = 0; row < rows.size() && row < page.limit; row++) {
    DecisionView& d = decisions.emplace_back();
    d.id = rows.Text(row, id);
    d.created_at = rows.Text(row, created_at);
    d.request_uid = rows.Text(row, request_uid);
    d.operation = rows.Text(row, operation);
    d.kind = rows.Text(row, kind);
    d.namespace_name = rows.OptionalText(row, namespace_name);
    d.name = rows.OptionalText(row, name);
    d.images_json = rows.Text(row, images);
    d.allowed = rows.Bool(row, allowed_col);
    d.mode = rows.Text(row, mode);
    d.dry_run = rows.Bool(row, dry_run);
    d.reasons_json = rows.Text(row, reasons);
    d.key_prefix = rows.OptionalText(row, key_prefix);
  }
  return JsonReply(200, DecisionListJson(decisions, NextCursor(rows, page.limit)));
}

}  // namespace icat::account
