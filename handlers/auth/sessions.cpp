// POST /api/auth/login, /api/auth/refresh, /api/auth/logout and GET /api/auth/me.
// Sign-in answers an unknown tenant, an unknown email, a disabled or pending account and a wrong
// password with the same 401 after the same work (one scrypt verification); refresh tokens are
// opaque, stored as SHA-256 only, rotated on every use, and a reused one signs out its whole family.
// The console takes its refresh token in an HttpOnly cookie instead of the body (X-Session-Cookie).
#include "sessions.hpp"

#include <algorithm>
#include <ctime>

#include "icat/audit.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/jwt.hpp"
#include "icat/log.hpp"
#include "icat/login_limit.hpp"
#include "icat/metrics.hpp"
#include "icat/paging.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::auth {

namespace {

// The scrypt hash (N=2^17, r=8, p=1) of a password nobody has, verified when there is no such
// user or the user has no password yet (pending set-up), so those cases cost what a wrong
// password costs.
constexpr std::string_view kDummyHash =
    "$scrypt$ln=17,r=8,p=1$iGfsqUvQGBrQKg2yvi/Y2A$O9XaoKhlyqYNQb37kvoP+EExIrH9eRm/acI2Ws1Eabg";
constexpr size_t kMaxTokenChars = 256;
constexpr std::string_view kWrongCredentials = "The email, password or tenant is not right.";

struct PresentedToken {
  std::string tenant, token_hash;  // token_hash: bytea hex literal of SHA-256
  bool from_cookie = false;        // the token came from the icat_refresh cookie
  bool cookie = false;             // the reply sets (or clears) the cookie
  bool everywhere = false;         // logout: every session of the token's user
};

// The body's refreshToken when it has one (API clients, as always), else the icat_refresh cookie
// (the console). Without either, a request in cookie mode has no session (401); any other lacks the
// field (400). Only logout reads "everywhere".
PresentedToken ReadRefreshToken(Context& ctx, bool logout) {
  std::vector<FieldIssue> issues;
  PresentedToken in;
  in.tenant = TenantHeader(ctx.request, issues);
  bool wants_cookie = WantsCookie(ctx.request, issues);
  FieldReader body(ctx.body, issues);
  std::optional<std::string> cookie = ctx.request.Cookie(kRefreshCookie);
  std::optional<std::string> token;
  if (body.Has("refreshToken") || ((!cookie || cookie->empty()) && !wants_cookie)) {
    token = ExactString(body, "refreshToken", kMaxTokenChars, Need::kRequired);
  } else if (cookie && !cookie->empty()) {
    token = *cookie;
    in.from_cookie = true;
  }
  if (logout) in.everywhere = body.Bool("everywhere", Need::kOptional).value_or(false);
  body.CheckUnknown();
  ThrowIfIssues(issues);
  in.cookie = wants_cookie || in.from_cookie;
  if (!token) Unauthenticated("There is no session here; sign in.");
  in.token_hash = ByteaHex(Sha256(*token));
  return in;
}

// Runs a refresh or logout; a refusal of a token that came from the cookie also clears the cookie,
// so the browser stops sending it.
template <typename Run>
Reply ClearingRefusedCookie(const PresentedToken& in, Run run) {
  try {
    return run();
  } catch (ApiError& e) {
    if (in.from_cookie && e.error() == Error::kUNAUTHENTICATED)
      e.headers.emplace_back("Set-Cookie", RefreshCookie("", 0));
    throw;
  }
}

// The user signing in, looked up as its tenant (`tenant`: the row of kTenantBySubdomain; the
// function answers for that tenant only, sql/V0009). No row: no such tenant; user columns NULL: no
// such user. In the same read, whether a password may sign in here: 403 SSO_REQUIRED when the
// tenant signs its people in with its identity provider only and this is not its break-glass admin
// (the email compared in any case), before any password hash.
Rows FindLoginUser(Db& db, const Rows& tenant, const Credentials& in) {
  if (tenant.empty()) return tenant;
  std::string tenant_id(tenant.Text(0, tenant.Column("id")));
  db.ReadAsTenant(tenant_id);
  Rows found = db.Run(kLoginLookup, {in.email});
  Rows sso = db.Run(kSsoRequirement, {tenant_id});
  db.Commit();  // ends the read scope
  if (!sso.empty() && sso.Bool(0, sso.Column("required")) &&
      Lower(sso.OptionalText(0, sso.Column("break_glass_email")).value_or("")) != Lower(in.email)) {
    throw ApiError(Error::kSSO_REQUIRED,
                   "This tenant signs its people in with its identity provider: use \"Sign in "
                   "with\" on the sign-in page.");
  }
  return found;
}

// The sign-in look-up. When it fails (Postgres down, a timeout) the attempt was never judged, so
// its count against the address is given back: else the right password would get 429 for the
// rest of the window once Postgres is back. An SSO_REQUIRED refusal judged no password either.
Rows LookUpLogin(Context& ctx, const Rows& tenant, const Credentials& in, const std::string& ip_key) {
  try {
    return FindLoginUser(ctx.db, tenant, in);
  } catch (...) {
    if (!GiveBackLoginAttempt(ctx.redis, ip_key)) {
      LogWarn("rid=" + ctx.request.request_id + " cannot give back an unjudged login attempt: redis unreachable");
    }
    throw;
  }
}

}  // namespace

Credentials ReadCredentials(Context& ctx, bool login) {
  std::vector<FieldIssue> issues;
  Credentials in;
  in.tenant = TenantHeader(ctx.request, issues);
  if (login) in.cookie = WantsCookie(ctx.request, issues);
  FieldReader body(ctx.body, issues);
  std::optional<std::string> email = body.String("email", Need::kRequired, 254);
  std::optional<std::string> password = ExactString(body, "password", kMaxPasswordBytes, Need::kRequired);
  if (login) ReadSecondFactor(body, in);
  body.CheckUnknown();
  ThrowIfIssues(issues);
  in.email = *email;
  in.password = *password;
  return in;
}

void RefuseLogin(Context& ctx, const Credentials& in, const std::string& account_key, const Rows& found,
                 std::string_view reason) {
  if (!RecordLoginFailure(ctx.redis, account_key, ctx.config.login_limits)) {
    LogWarn("rid=" + ctx.request.request_id + " cannot count a failed login: redis unreachable");
  }
  if (!found.empty()) {
    TenantTransaction transaction(ctx, std::string(found.Text(0, found.Column("tenant_id"))));
    Audit(ctx, "login.failed", in.email, StringObjectJson({{"email", in.email}, {"reason", std::string(reason)}}));
    transaction.Commit();
  }
  Unauthenticated(kWrongCredentials);
}

Rows CheckPassword(Context& ctx, const Credentials& in, const Rows& tenant) {
  // The gate before the limits: its refusal comes at once, costs no hash and counts no attempt.
  HashPermit permit(ctx, tenant.empty() ? std::string_view() : tenant.Text(0, tenant.Column("id")));
  std::string ip_key = ClientIpKey(ctx), account_key = LoginAccountKey(in.tenant, in.email);
  CheckLoginLimits(ctx, ip_key, account_key);
  Rows found = LookUpLogin(ctx, tenant, in, ip_key);
  bool user_known = !found.empty() && !found.IsNull(0, found.Column("user_id"));
  bool pending = user_known && found.IsNull(0, found.Column("password_hash"));
  // Always one verification: against the dummy hash when there is no such user or no password yet.
  bool password_ok =
      VerifyPassword(in.password, user_known && !pending ? found.Text(0, found.Column("password_hash")) : kDummyHash);
  permit.Release();
  if (!user_known) RefuseLogin(ctx, in, account_key, found, found.empty() ? "unknown_tenant" : "unknown_user");
  if (pending) RefuseLogin(ctx, in, account_key, found, "pending_setup");
  if (!password_ok) RefuseLogin(ctx, in, account_key, found, "wrong_password");
  if (found.Bool(0, found.Column("disabled"))) RefuseLogin(ctx, in, account_key, found, "disabled");
  return found;
}

std::string SessionJson(const SessionView& s, bool with_refresh_token) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "accessToken", s.access_token);
  if (with_refresh_token) WriteString(w, "refreshToken", s.refresh_token);
  WriteInt(w, "expiresIn", s.expires_in);
  WriteString(w, "tokenType", "Bearer");
  WriteKey(w, "user");
  w.StartObject();
  WriteString(w, "id", s.user.id);
  WriteString(w, "email", s.user.email);
  WriteString(w, "role", s.user.role);
  w.EndObject();
  if (!s.recovery_codes.empty()) WriteStringArray(w, "recoveryCodes", s.recovery_codes);
  w.EndObject();
  return buffer.GetString();
}

std::string MeJson(const MeView& me) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "id", me.user.id);
  WriteString(w, "email", me.user.email);
  WriteString(w, "role", me.user.role);
  WriteString(w, "createdAt", me.created_at);
  WriteBool(w, "totp", me.totp);
  WriteKey(w, "tenant");
  w.StartObject();
  WriteString(w, "id", me.tenant_id);
  WriteString(w, "subdomain", me.tenant_subdomain);
  WriteString(w, "name", me.tenant_name);
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

// POST /api/auth/login   (public; X-Tenant, X-Session-Cookie?, {"email", "password", "code"? | "recoveryCode"?})
//   200 SessionJson; Cache-Control: no-store. With X-Session-Cookie: 1 the refresh token is in
//       Set-Cookie icat_refresh (HttpOnly; Secure; SameSite=Strict; Path=/api/auth), not the body.
//       The sign-in that confirms a second factor gains "recoveryCodes" (shown this once; totp.cpp)
//   400 VALIDATION_ERROR (X-Tenant, X-Session-Cookie, email, password, code, recoveryCode, unknown fields);
//       415; MALFORMED_JSON
//   401 UNAUTHENTICATED: unknown tenant, unknown email, disabled or pending account, wrong password, alike;
//       a wrong, reused or late code or recovery code (counted as a failure, as a wrong password)
//   401 SECOND_FACTOR_REQUIRED: the password is right and the person has a second factor: send "code"
//   403 SECOND_FACTOR_ENROLMENT_REQUIRED: the tenant requires a second factor and the person has none
//   429 RATE_LIMITED + Retry-After: 5 attempts per IP, 10 failures per account, per 15 minutes; or
//       the tenant already has its share of the node's password hashes running (Retry-After: 1)
//   503 SERVICE_UNAVAILABLE: Redis cannot count attempts (fails closed), or the node hashes all the
//       passwords it may (Retry-After: 1); 503 DATABASE_UNAVAILABLE: Postgres is unavailable (the
//       attempt then does not count against the limits)
Reply Login(Context& ctx) {
  Credentials in = ReadCredentials(ctx, true);
  Rows tenant = ctx.db.Run(kTenantBySubdomain, {in.tenant});
  Rows found = CheckPassword(ctx, in, tenant);
  std::vector<std::string> recovery_codes = PassSecondFactor(ctx, in, found);

  ClearLoginFailures(ctx.redis, LoginAccountKey(in.tenant, in.email));
  UserView user{std::string(found.Text(0, found.Column("user_id"))), std::string(found.Text(0, found.Column("email"))),
                std::string(found.Text(0, found.Column("role")))};
  TenantTransaction transaction(ctx, std::string(found.Text(0, found.Column("tenant_id"))));
  SessionView session = StartSession(ctx, user, in.tenant, RandomUuid());
  session.recovery_codes = std::move(recovery_codes);
  ctx.db.Exec(kRecordLogin, {ctx.principal.tenant_id, user.id});
  Audit(ctx, "login.succeeded", user.id, StringObjectJson({{"email", user.email}}));
  transaction.Commit();
  return SessionReply(ctx, session, in.cookie);
}

// POST /api/auth/refresh   (public; X-Tenant, X-Session-Cookie?, {"refreshToken"?})
//   The token of the body, else of the icat_refresh cookie (then the reply is in cookie mode too).
//   200 SessionJson with a new refresh token (the presented one is used up), or the new cookie
//   400 VALIDATION_ERROR (no token and no cookie outside cookie mode, ...); 415; MALFORMED_JSON
//   401 UNAUTHENTICATED: unknown, expired or revoked token, an SSO session past its hard end
//       (sso_configs.max_session_hours), another tenant's, a disabled user, no cookie in cookie mode
//       (a refused cookie is cleared); an already used token also revokes its whole family (every
//       session of that sign-in)
Reply Refresh(Context& ctx) {
  PresentedToken in = ReadRefreshToken(ctx, false);
  return ClearingRefusedCookie(in, [&] {
    Rows tenant = ctx.db.Run(kTenantBySubdomain, {in.tenant});
    if (tenant.empty()) Unauthenticated("The refresh token is not valid; sign in again.");
    TenantTransaction transaction(ctx, std::string(tenant.Text(0, tenant.Column("id"))));
    Rows token = ctx.db.Run(kFindRefresh, {ctx.principal.tenant_id, in.token_hash});
    if (token.empty()) Unauthenticated("The refresh token is not valid; sign in again.");
    std::string token_id(token.Text(0, token.Column("id"))), user_id(token.Text(0, token.Column("user_id"))),
        family(token.Text(0, token.Column("family_id")));
    const bool used = token.Bool(0, token.Column("used")), revoked = token.Bool(0, token.Column("revoked"));
    ctx.principal.user_id = user_id;
    ctx.principal.email = token.OptionalText(0, token.Column("email")).value_or("");
    if (used && !revoked) {
      // Reuse: whoever holds the family's newest token may be a thief; everyone signs in again.
      ctx.db.Exec(kRevokeFamily, {ctx.principal.tenant_id, family});
      Audit(ctx, "session.reuse_detected", user_id, StringObjectJson({{"family", family}}));
      transaction.Commit();
      Unauthenticated("This refresh token was already used; its sessions are signed out. Sign in again.");
    }
    // An SSO session also ends at its hard end (session_over), however often it was refreshed.
    if (used || revoked || token.Bool(0, token.Column("expired")) || token.Bool(0, token.Column("session_over")) ||
        !token.Bool(0, token.Column("user_active"))) {
      Unauthenticated("The refresh token has expired or was revoked; sign in again.");
    }
    ctx.db.Exec(kMarkRefreshUsed, {ctx.principal.tenant_id, token_id});
    UserView user{user_id, std::string(token.Text(0, token.Column("email"))),
                  std::string(token.Text(0, token.Column("role")))};
    SessionView session =
        StartSession(ctx, user, in.tenant, family, {.at = token.OptionalText(0, token.Column("session_ends_at"))});
    Audit(ctx, "session.refreshed", user_id, StringObjectJson({{"family", family}}));
    transaction.Commit();
    return SessionReply(ctx, session, in.cookie);
  });
}

// POST /api/auth/logout   (public; X-Tenant, X-Session-Cookie?, {"refreshToken"?, "everywhere"?})
//   The token of the body, else of the icat_refresh cookie.
//   204: the token's family is revoked (also when it already was); with "everywhere": true, every
//        family of the token's user (every session on every device). In cookie mode the cookie is cleared.
//   400 VALIDATION_ERROR; 415; MALFORMED_JSON; 401 UNAUTHENTICATED: unknown token or tenant, no cookie
Reply Logout(Context& ctx) {
  PresentedToken in = ReadRefreshToken(ctx, true);
  return ClearingRefusedCookie(in, [&] {
    Rows tenant = ctx.db.Run(kTenantBySubdomain, {in.tenant});
    if (tenant.empty()) Unauthenticated("The refresh token is not valid.");
    TenantTransaction transaction(ctx, std::string(tenant.Text(0, tenant.Column("id"))));
    Rows token = ctx.db.Run(kFindRefresh, {ctx.principal.tenant_id, in.token_hash});
    if (token.empty()) Unauthenticated("The refresh token is not valid.");
    std::string user_id(token.Text(0, token.Column("user_id"))), family(token.Text(0, token.Column("family_id")));
    ctx.principal.user_id = user_id;
    ctx.principal.email = token.OptionalText(0, token.Column("email")).value_or("");
    if (in.everywhere) {
      Rows revoked = ctx.db.Run(kRevokeUserSessions, {ctx.principal.tenant_id, user_id});
      Audit(ctx, "sessions.revoked_everywhere", user_id,
            "{\"sessionsRevoked\": " + std::to_string(revoked.Int(0, revoked.Column("families"))) + "}");
    } else {
      Rows revoked = ctx.db.Run(kRevokeFamily, {ctx.principal.tenant_id, family});
      if (revoked.affected() > 0) Audit(ctx, "session.logout", user_id, StringObjectJson({{"family", family}}));
    }
    transaction.Commit();
    Reply reply{204, {{"Cache-Control", "no-store"}}, ""};
    if (in.cookie) reply.headers.emplace_back("Set-Cookie", RefreshCookie("", 0));
    return reply;
  });
}

// GET /api/auth/me   (portal: X-Tenant + Bearer)
//   200 MeJson: the user as stored now (its role may be newer than the token's, "totp": a confirmed
//       second factor) and the tenant
//   400 VALIDATION_ERROR (headers); 401 UNAUTHENTICATED: bad token, or the user is gone or disabled
Reply Me(Context& ctx) {
  if (!IsUuid(ctx.principal.user_id)) Unauthenticated("The access token is not valid.");
  Rows rows = ctx.db.Run(kGetMe, {ctx.principal.tenant_id, ctx.principal.user_id});
  if (rows.empty()) Unauthenticated("This account no longer exists or is disabled; sign in again.");
  auto text = [&rows](const char* column) { return std::string(rows.Text(0, rows.Column(column))); };
  MeView me{{text("user_id"), text("email"), text("role")},
            text("created_at"),
            text("tenant_id"),
            text("subdomain"),
            text("tenant_name"),
            rows.Bool(0, rows.Column("totp"))};
  return Reply::Json(200, MeJson(me));
}

}  // namespace icat::auth
