// POST /api/auth/setup and POST /api/auth/password: a new user sets their first password with the
// one-time link an admin gave them, and a signed-in person changes theirs. Both answer with a new
// session, as sign-in does. The hash is written only through the owner's functions of sql/V0015.
#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/log.hpp"
#include "icat/login_limit.hpp"
#include "icat/text.hpp"
#include "queries.hpp"
#include "sessions.hpp"

namespace icat::auth {

namespace {

constexpr size_t kMaxSetupTokenChars = 256;
constexpr std::string_view kBadSetupToken = "This set-up link is not valid; ask an admin of your tenant for a new one.";

struct SetupInput {
  std::string tenant, token_hash, password;  // token_hash: bytea hex literal of SHA-256
  bool cookie = false;
};

SetupInput ReadSetup(Context& ctx) {
  std::vector<FieldIssue> issues;
  SetupInput in;
  in.tenant = TenantHeader(ctx.request, issues);
  in.cookie = WantsCookie(ctx.request, issues);
  FieldReader body(ctx.body, issues);
  std::optional<std::string> token = ExactString(body, "token", kMaxSetupTokenChars, Need::kRequired);
  std::optional<std::string> password = NewPassword(body, "password");
  body.CheckUnknown();
  ThrowIfIssues(issues);
  in.token_hash = ByteaHex(Sha256(*token));
  in.password = *password;
  return in;
}

// The token's state before the slow hash, so a bad link costs no scrypt: 401 unless it is
// unused, unexpired and its user pending and enabled. Returns the tenant's id.
std::string CheckSetupToken(Context& ctx, const SetupInput& in) {
  Rows tenant = ctx.db.Run(kTenantBySubdomain, {in.tenant});
  if (tenant.empty()) Unauthenticated(kBadSetupToken);
  std::string tenant_id(tenant.Text(0, tenant.Column("id")));
  ctx.db.ReadAsTenant(tenant_id);
  Rows token = ctx.db.Run(kFindSetupToken, {tenant_id, in.token_hash});
  ctx.db.Commit();  // ends the read scope
  if (token.empty()) Unauthenticated(kBadSetupToken);
  if (token.Bool(0, token.Column("used")) || token.Bool(0, token.Column("has_password"))) {
    Unauthenticated("This set-up link was already used; sign in, or ask an admin for a new link.");
  }
  if (token.Bool(0, token.Column("expired")))
    Unauthenticated("This set-up link has expired; ask an admin for a new one.");
  if (token.Bool(0, token.Column("disabled"))) Unauthenticated(kBadSetupToken);
  return tenant_id;
}

struct PasswordChange {
  std::string current, replacement;
  bool cookie = false;
};

PasswordChange ReadPasswordChange(Context& ctx) {
  std::vector<FieldIssue> issues;
  PasswordChange in;
  in.cookie = WantsCookie(ctx.request, issues);
  FieldReader body(ctx.body, issues);
  std::optional<std::string> current = ExactString(body, "currentPassword", kMaxPasswordBytes, Need::kRequired);
  std::optional<std::string> replacement = NewPassword(body, "newPassword");
  if (current && replacement && *current == *replacement) body.Issue("newPassword", "must differ from the current one");
  body.CheckUnknown();
  ThrowIfIssues(issues);
  in.current = *current;
  in.replacement = *replacement;
  return in;
}

}  // namespace

// POST /api/auth/setup   (public; X-Tenant, X-Session-Cookie?, {"token", "password"})
//   200 SessionJson (the person is signed in), as login answers; the token is used up
//   400 VALIDATION_ERROR (X-Tenant, token, password: 12+ characters, unknown fields); 415; MALFORMED_JSON
//   401 UNAUTHENTICATED: unknown, used, expired or replaced token, another tenant's, a disabled user
//   429 RATE_LIMITED, 503 SERVICE_UNAVAILABLE + Retry-After: the node's password hashes, as sign-in
Reply Setup(Context& ctx) {
  SetupInput in = ReadSetup(ctx);
  std::string tenant_id = CheckSetupToken(ctx, in);
  HashPermit permit(ctx, tenant_id);
  std::string password_hash = HashPassword(in.password);  // slow on purpose: after the token is known good
  permit.Release();
  TenantTransaction transaction(ctx, tenant_id);
  // Checks the token again and uses it up with the password set, in one statement: of two uses
  // at once, one gets the row.
  Rows set = ctx.db.Run(kCompleteSetup, {in.token_hash, password_hash});
  if (set.empty()) Unauthenticated("This set-up link was already used; sign in, or ask an admin for a new link.");
  UserView user{std::string(set.Text(0, set.Column("user_id"))), std::string(set.Text(0, set.Column("email"))),
                std::string(set.Text(0, set.Column("role")))};
  SessionView session = StartSession(ctx, user, in.tenant, RandomUuid());
  ctx.db.Exec(kRecordLogin, {tenant_id, user.id});
  Audit(ctx, "user.setup_completed", user.id, StringObjectJson({{"email", user.email}}));
  transaction.Commit();
  return SessionReply(ctx, session, in.cookie);
}

// POST /api/auth/password   (portal, any role: the caller's own password; X-Session-Cookie?,
//                            {"currentPassword", "newPassword"})
//   200 SessionJson: a new session; every other session of the user (every refresh-token family,
//       this one's included) is revoked
//   400 VALIDATION_ERROR (newPassword 12+ characters and not the current one, unknown fields); 415
//   401 UNAUTHENTICATED: the access token (WWW-Authenticate: Bearer), or the current password is
//       wrong (no WWW-Authenticate: the session is fine); counted against the login limits
//   409 CONFLICT: the password was changed meanwhile by another request
//   429 RATE_LIMITED + Retry-After, 503: as sign-in (the login limits and the node's password hashes)
Reply ChangePassword(Context& ctx) {
  PasswordChange in = ReadPasswordChange(ctx);
  Rows account = ctx.db.Run(kCurrentPassword, {ctx.principal.tenant_id, ctx.principal.user_id});
  if (account.empty() || account.IsNull(0, account.Column("password_hash"))) {
    Unauthenticated("This account no longer exists or is disabled; sign in again.");
  }
  std::string email(account.Text(0, account.Column("email"))),
      old_hash(account.Text(0, account.Column("password_hash")));
  std::string tenant = Lower(ctx.request.Header("x-tenant"));  // the token's, checked by the pipeline
  std::string account_key = LoginAccountKey(tenant, email);
  HashPermit permit(ctx, ctx.principal.tenant_id);  // held for both hashes: the current and the new
  CheckLoginLimits(ctx, ClientIpKey(ctx), account_key);
  if (!VerifyPassword(in.current, old_hash)) {
    permit.Release();
    if (!RecordLoginFailure(ctx.redis, account_key, ctx.config.login_limits)) {
      LogWarn("rid=" + ctx.request.request_id + " cannot count a failed password change: redis unreachable");
    }
    Audit(ctx, "password.change_failed", ctx.principal.user_id, StringObjectJson({{"reason", "wrong_password"}}));
    ctx.db.Commit();  // the audit entry stays; the pipeline's rollback then finds nothing open
    throw ApiError(Error::kUNAUTHENTICATED, "The current password is not right.");
  }
  ClearLoginFailures(ctx.redis, account_key);
  std::string new_hash = HashPassword(in.replacement);
  permit.Release();
  Rows changed = ctx.db.Run(kChangePassword, {ctx.principal.user_id, old_hash, new_hash});
  if (!changed.Bool(0, changed.Column("changed"))) {
    throw ApiError(Error::kCONFLICT, "The password was changed meanwhile; sign in with the new one.");
  }
  Rows revoked = ctx.db.Run(kRevokeUserSessions, {ctx.principal.tenant_id, ctx.principal.user_id});
  UserView user{ctx.principal.user_id, email, ctx.principal.role};
  Rows role = ctx.db.Run(kGetMe, {ctx.principal.tenant_id, ctx.principal.user_id});
  if (!role.empty()) user.role = role.Text(0, role.Column("role"));  // as stored now, as refresh does
  SessionView session = StartSession(ctx, user, tenant, RandomUuid());
  Audit(ctx, "password.changed", user.id,
        "{\"sessionsRevoked\": " + std::to_string(revoked.Int(0, revoked.Column("families"))) + "}");
  return SessionReply(ctx, session, in.cookie);
}

}  // namespace icat::auth
