// GET, POST /api/users, PUT, DELETE /api/users/:id, POST /api/users/:id/setup-token and DELETE
// /api/users/:id/totp: a tenant's admins manage its people. A new user has no password: the reply to its creation holds
// a one-time set-up token (shown once, stored as SHA-256) with which the person sets one (POST /api/auth/setup). The
// tenant's last active admin stays one, here for the clear message and in Postgres (sql/V0015 users_keep_an_admin) for
// the races.
#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxEmailChars = 254;
constexpr size_t kSetupTokenBytes = 32;
constexpr std::string_view kLastAdmin =
    "This user is the tenant's last active admin; make another user an admin (who has set a password) first.";

// At most `count` rows of ICAT_USER_COLUMNS (queries.hpp).
std::vector<UserView> UsersAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), email = rows.Column("email"), role = rows.Column("role"),
            state = rows.Column("state"), created_at = rows.Column("created_at"),
            disabled_at = rows.Column("disabled_at"), last_login_at = rows.Column("last_login_at"),
            totp = rows.Column("totp"), sso = rows.Column("sso");
  std::vector<UserView> users;
  for (int row = 0; row < rows.size() && row < count; row++) {
    UserView& u = users.emplace_back();
    u.id = rows.Text(row, id);
    u.email = rows.Text(row, email);
    u.role = rows.Text(row, role);
    u.state = rows.Text(row, state);
    u.created_at = rows.Text(row, created_at);
    u.disabled_at = rows.OptionalText(row, disabled_at);
    u.last_login_at = rows.OptionalText(row, last_login_at);
    u.totp = rows.Bool(row, totp);
    u.sso = rows.Bool(row, sso);
  }
  return users;
}

void WriteUserFields(JsonWriter& w, const UserView& u) {
  w.StartObject();
  WriteString(w, "id", u.id);
  WriteString(w, "email", u.email);
  WriteString(w, "role", u.role);
  WriteString(w, "state", u.state);
  WriteString(w, "createdAt", u.created_at);
  WriteOptionalString(w, "disabledAt", u.disabled_at);
  WriteOptionalString(w, "lastLoginAt", u.last_login_at);
  WriteBool(w, "totp", u.totp);
  WriteBool(w, "sso", u.sso);
  if (u.setup_token) WriteString(w, "setupToken", *u.setup_token);
  if (u.setup_expires_at) WriteString(w, "setupExpiresAt", *u.setup_expires_at);
  w.EndObject();
}

// A new set-up token for the user, stored hashed: the token and until when it is good.
std::pair<std::string, std::string> IssueToken(Context& ctx, const std::string& user_id) {
  std::string token = Base64UrlEncode(RandomBytes(kSetupTokenBytes));
  Rows issued = ctx.db.Run(kIssueSetupToken,
                           {ctx.principal.tenant_id, user_id, ByteaHex(Sha256(token)), ctx.config.setup_token_hours});
  if (issued.empty()) throw ApiError(Error::kNOT_FOUND, "No such user.");
  std::string expires_at(issued.Text(0, issued.Column("expires_at")));
  Audit(ctx, "user.setup_token_issued", user_id, StringObjectJson({{"expiresAt", expires_at}}));
  return {token, expires_at};
}

// The user about to change, locked; 404 when the tenant has none of that id.
struct Target {
  UserView user;
  std::string id, email, role;
  bool disabled = false, has_password = false;
  bool ActiveAdmin() const { return role == "admin" && !disabled && has_password; }
};

Target LockTarget(Context& ctx) {
  Rows rows = ctx.db.Run(kUserForChange, {ctx.principal.tenant_id, PathId(ctx, "user")});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such user.");
  Target t{UsersAt(rows, 1).at(0)};
  t.id = t.user.id;
  t.email = t.user.email;
  t.role = t.user.role;
  t.disabled = rows.Bool(0, rows.Column("disabled"));
  t.has_password = rows.Bool(0, rows.Column("has_password"));
  return t;
}

// 409 when the target is the tenant's last active admin (counted under the tenant's admin lock).
void KeepAnAdmin(Context& ctx, const Target& target) {
  Rows others = ctx.db.Run(kOtherActiveAdmins, {ctx.principal.tenant_id, target.id});
  if (others.Int(0, others.Column("others")) == 0) throw ApiError(Error::kCONFLICT, std::string(kLastAdmin));
}

struct UserInput {
  std::optional<std::string> email, role;
  std::optional<bool> disabled;
};

UserInput ReadNewUser(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  UserInput in;
  in.email = body.String("email", Need::kRequired, kMaxEmailChars);
  if (in.email && !IsEmailAddress(*in.email)) body.Issue("email", "must be an email address (name@domain)");
  in.role = body.Enum("role", Need::kRequired, AsList(kRoles));
  body.CheckUnknown();
  ThrowIfIssues(issues);
  return in;
}

UserInput ReadUserChange(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  UserInput in;
  in.role = body.Enum("role", Need::kOptional, AsList(kRoles));
  in.disabled = body.Bool("disabled", Need::kOptional);
  body.CheckUnknown();
  if (body.ok() && !in.role && !in.disabled) issues.push_back({"body", "give role, disabled or both"});
  ThrowIfIssues(issues);
  return in;
}

}  // namespace

std::string UserJson(const UserView& user) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteUserFields(w, user);
  return buffer.GetString();
}

std::string UserListJson(const std::vector<UserView>& users, const std::optional<std::string>& next_cursor) {
  return ListJson("users", users, next_cursor, WriteUserFields);
}

std::string UserChangeJson(const UserChange& c) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "email", c.email);
  if (c.old_role != c.new_role) {
    WriteKey(w, "role");
    w.StartObject();
    WriteString(w, "from", c.old_role);
    WriteString(w, "to", c.new_role);
    w.EndObject();
  }
  if (c.was_disabled != c.disabled) {
    WriteKey(w, "disabled");
    w.StartObject();
    WriteBool(w, "from", c.was_disabled);
    WriteBool(w, "to", c.disabled);
    w.EndObject();
  }
  if (c.sessions_revoked) WriteInt(w, "sessionsRevoked", *c.sessions_revoked);
  w.EndObject();
  return buffer.GetString();
}

// GET /api/users?limit=&cursor=   (portal; admin)
//   200 {"users": [{id, email, role, state, createdAt, disabledAt, lastLoginAt, totp}], "nextCursor"}: newest first
//   400 VALIDATION_ERROR (limit, cursor, headers); 401; 403 FORBIDDEN (not an active admin)
Reply ListUsers(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListUsers, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, UserListJson(UsersAt(rows, page.limit), NextCursor(rows, page.limit)));
}

// POST /api/users {"email", "role"}   (portal; admin)
//   201 the user (state pending_setup) with "setupToken" and "setupExpiresAt", shown this once
//       (Cache-Control: no-store); the console's link is /setup#token=<setupToken>
//   400 VALIDATION_ERROR (email, role: admin, user or viewer, unknown fields); 401; 403; 415; MALFORMED_JSON
//   409 CONFLICT: the tenant has a user with this email (in any case)
Reply CreateUser(Context& ctx) {
  UserInput in = ReadNewUser(ctx);
  Rows rows = ctx.db.Run(kInsertUser, {ctx.principal.tenant_id, *in.email, *in.role});
  if (rows.empty()) throw ApiError(Error::kCONFLICT, "The tenant has a user with this email already.");
  UserView user = UsersAt(rows, 1).at(0);
  Audit(ctx, "user.created", user.id, StringObjectJson({{"email", user.email}, {"role", user.role}}));
  std::tie(user.setup_token, user.setup_expires_at) = IssueToken(ctx, user.id);
  return JsonReply(201, UserJson(user), true);
}

// PUT /api/users/:id {"role"?, "disabled"?}   (portal; admin)
//   200 the user. Disabling ends every session of the user (refresh tokens revoked; an access token
//       already issued is refused from its next request, as is a demoted admin's on admin routes: the
//       pipeline reads the person as stored, CurrentPerson); enabling again keeps the password
//   400 VALIDATION_ERROR (role, disabled, neither given, unknown fields); 401; 403; 415; MALFORMED_JSON
//   404 NOT_FOUND: unknown, malformed or another tenant's id
//   409 CONFLICT: the change would leave the tenant without an active admin
Reply UpdateUser(Context& ctx) {
  UserInput in = ReadUserChange(ctx);
  Target target = LockTarget(ctx);
  bool still_admin = in.role.value_or(target.role) == "admin" && !in.disabled.value_or(target.disabled);
  if (target.ActiveAdmin() && !still_admin) KeepAnAdmin(ctx, target);
  Rows rows = ctx.db.Run(kUpdateUser, {ctx.principal.tenant_id, target.id, in.role, in.disabled});
  UserView user = UsersAt(rows, 1).at(0);
  UserChange change{target.email, target.role, user.role, target.disabled, user.disabled_at.has_value()};
  if (in.disabled.value_or(false)) {
    Rows revoked = ctx.db.Run(kRevokeUserSessions, {ctx.principal.tenant_id, target.id});
    change.sessions_revoked = revoked.Int(0, revoked.Column("families"));
  }
  if (change.old_role != change.new_role || change.was_disabled != change.disabled ||
      change.sessions_revoked.value_or(0)) {
    Audit(ctx, "user.updated", target.id, UserChangeJson(change));
  }
  return JsonReply(200, UserJson(user));
}

// DELETE /api/users/:id   (portal; admin; an admin may delete themselves unless they are the last)
//   204: the user, their sessions and set-up token are gone, and an access token they hold is refused
//        from its next request; what they created stays, and the audit log names them by id and email
//   401; 403; 404 NOT_FOUND: unknown, malformed or another tenant's id
//   409 CONFLICT: the tenant's last active admin
Reply DeleteUser(Context& ctx) {
  Target target = LockTarget(ctx);
  if (target.ActiveAdmin()) KeepAnAdmin(ctx, target);
  ctx.db.Exec(kDeleteUser, {ctx.principal.tenant_id, target.id});
  Audit(ctx, "user.deleted", target.id, StringObjectJson({{"email", target.email}, {"role", target.role}}));
  return NoContent();
}

// POST /api/users/:id/setup-token   (portal; admin) — no body, or {}
//   200 the user with a new "setupToken" and "setupExpiresAt" (no-store); the earlier link stops working
//   400 a body other than {}; 401; 403; 404 NOT_FOUND
//   409 CONFLICT: the user has set a password already, or is disabled
Reply IssueSetupToken(Context& ctx) {
  RequireNoInput(ctx.request);
  Target target = LockTarget(ctx);
  if (target.has_password) throw ApiError(Error::kCONFLICT, "This user has set a password already.");
  if (target.disabled) throw ApiError(Error::kCONFLICT, "This user is disabled; enable them first.");
  std::tie(target.user.setup_token, target.user.setup_expires_at) = IssueToken(ctx, target.id);
  return JsonReply(200, UserJson(target.user), true);
}

// DELETE /api/users/:id/totp   (portal; admin) — a person who lost their authenticator app
//   204: their second factor and recovery codes are gone (also when they had none); they sign in with
//        the password, and enrol again where the tenant requires a factor
//   401; 403; 404 NOT_FOUND: unknown, malformed or another tenant's id
Reply ResetUserTotp(Context& ctx) {
  Target target = LockTarget(ctx);
  Rows removed = ctx.db.Run(kDeleteTotpFactor, {ctx.principal.tenant_id, target.id});
  if (!removed.empty()) {
    bool confirmed = removed.Bool(0, removed.Column("confirmed"));
    Audit(ctx, "totp.reset", target.id,
          StringObjectJson({{"email", target.email}, {"factor", confirmed ? "confirmed" : "unconfirmed"}}));
  }
  return NoContent();
}

}  // namespace icat::account
