// GET, PUT /api/sign-in-policy: what a tenant asks of its people at sign-in beyond the password.
// Today one rule: a second factor (TOTP) required of everyone who signs in with a password.
#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/json.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

std::string SignInPolicyJson(bool totp_required) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteBool(w, "totpRequired", totp_required);
  w.EndObject();
  return buffer.GetString();
}

}  // namespace

// GET /api/sign-in-policy   (portal; admin)
//   200 {"totpRequired"}: false when the tenant never set it
//   400 VALIDATION_ERROR (headers); 401; 403 FORBIDDEN
Reply GetSignInPolicy(Context& ctx) {
  Rows rows = ctx.db.Run(kGetSignInPolicy, {ctx.principal.tenant_id});
  return JsonReply(200, SignInPolicyJson(rows.Bool(0, rows.Column("totp_required"))));
}

// PUT /api/sign-in-policy {"totpRequired"}   (portal; admin)
//   200 the stored policy. Required: a person without a confirmed factor who signs in with a
//       password is answered 403 SECOND_FACTOR_ENROLMENT_REQUIRED and enrols (sessions already
//       started go on); nobody may remove their own factor
//   400 VALIDATION_ERROR (totpRequired missing or not a boolean, unknown fields); 401; 403; 415; MALFORMED_JSON
Reply PutSignInPolicy(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  std::optional<bool> totp_required = body.Bool("totpRequired", Need::kRequired);
  body.CheckUnknown();
  ThrowIfIssues(issues);
  Rows before = ctx.db.Run(kGetSignInPolicy, {ctx.principal.tenant_id});
  bool was_required = before.Bool(0, before.Column("totp_required"));
  ctx.db.Exec(kPutSignInPolicy, {ctx.principal.tenant_id, *totp_required});
  if (was_required != *totp_required) {
    Audit(ctx, "sign_in_policy.updated", "sign-in-policy",
          std::string("{\"totpRequired\": {\"from\": ") + (was_required ? "true" : "false") +
              ", \"to\": " + (*totp_required ? "true" : "false") + "}}");
  }
  return JsonReply(200, SignInPolicyJson(*totp_required));
}

}  // namespace icat::account
