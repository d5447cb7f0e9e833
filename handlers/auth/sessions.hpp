// The auth group: portal sign-in, refresh-token rotation, sign-out, who is signed in, a new user's
// set-up and a signed-in person's password change. Endpoints, what they share, and the pure
// functions that shape their replies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/hash_gate.hpp"
#include "icat/pipeline.hpp"
#include "icat/validate.hpp"

namespace icat::auth {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

// ------------------------------------------------------------------ endpoints

Reply Login(Context& ctx);  // sessions.cpp
Reply Refresh(Context& ctx);
Reply Logout(Context& ctx);
Reply Me(Context& ctx);
Reply Setup(Context& ctx);  // password.cpp
Reply ChangePassword(Context& ctx);
Reply EnrolTotp(Context& ctx);  // totp.cpp
Reply RemoveTotp(Context& ctx);
Reply SsoProvider(Context& ctx);  // oidc.cpp
Reply StartSsoSignIn(Context& ctx);
Reply FinishSsoSignIn(Context& ctx);
Reply ConfirmAddress(Context& ctx);  // mail_addresses.cpp
Reply UnsubscribeAddress(Context& ctx);
Reply UnsubscribePage(Context& ctx);

// ------------------------------------------------------------------ views and shapes

struct UserView {
  std::string id, email, role;
};

struct SessionView {
  std::string access_token, refresh_token;
  long long expires_in = 0;  // seconds the access token lives
  UserView user;
  std::vector<std::string> recovery_codes;  // only on the sign-in that confirms a second factor
};

struct MeView {
  UserView user;
  std::string created_at;
  std::string tenant_id, tenant_subdomain, tenant_name;
  bool totp = false;  // has a confirmed second factor
};

// {"accessToken", "refreshToken", "expiresIn", "tokenType": "Bearer", "user": {"id", "email", "role"},
// "recoveryCodes"?}; without "refreshToken" when it travels in the cookie instead (with_refresh_token false).
std::string SessionJson(const SessionView& session, bool with_refresh_token = true);
// {"id", "email", "role", "createdAt", "totp", "tenant": {"id", "subdomain", "name"}}
std::string MeJson(const MeView& me);

// The browser console's refresh token: a cookie only /api/auth/* receives, never script-readable.
inline constexpr std::string_view kRefreshCookie = "icat_refresh";
inline constexpr std::string_view kCookieOptIn = "x-session-cookie";  // request header: "1" asks for the cookie
// A Set-Cookie value no script reads, sent over HTTPS only, to `path` and below; an empty value and
// 0 clear it. Every cookie of the auth group is one of these.
std::string SessionCookie(std::string_view name, std::string_view value, long long max_age_seconds,
                          std::string_view path, std::string_view same_site);
// The Set-Cookie value that holds token for max_age_seconds; an empty token and 0 clear it.
std::string RefreshCookie(std::string_view token, long long max_age_seconds);

// ------------------------------------------------------------------ shared by the endpoints (support.cpp)

// A transaction for a public route (the pipeline opens none): rolled back unless committed.
class TenantTransaction {
 public:
  TenantTransaction(Context& ctx, std::string tenant_id);
  ~TenantTransaction();
  TenantTransaction(const TenantTransaction&) = delete;
  TenantTransaction& operator=(const TenantTransaction&) = delete;
  void Commit();

 private:
  Db& db_;
  bool open_ = true;
};

// 401 UNAUTHENTICATED with WWW-Authenticate: Bearer (the cue to sign in).
[[noreturn]] void Unauthenticated(std::string_view message);
// The X-Tenant header, lower case; an issue when missing.
std::string TenantHeader(const Request& request, std::vector<FieldIssue>& issues);
// A string member taken exactly as sent (passwords are never trimmed); 1 to max_bytes bytes.
std::optional<std::string> ExactString(FieldReader& body, std::string_view name, size_t max_bytes, Need need);
// A new password member: ExactString, then the rules of validate.hpp PasswordIssue.
std::optional<std::string> NewPassword(FieldReader& body, std::string_view name);
// Whether the reply carries the refresh token in the cookie: X-Session-Cookie: 1 (400 naming the
// header for any other value).
bool WantsCookie(const Request& request, std::vector<FieldIssue>& issues);

// This worker's place in the pool's password-hash gate (hash_gate.hpp) for as long as it lives:
// take one before every scrypt hash of a request, after the cheap checks, and let it go when the
// hashing is done. Refused at once, before any hash: 429 RATE_LIMITED when the tenant has its share
// hashing, 503 SERVICE_UNAVAILABLE when the node hashes all it may, both with Retry-After.
class HashPermit {
 public:
  // tenant_id: the tenant the hash is for; empty when the request named no tenant that exists.
  HashPermit(const Context& ctx, std::string_view tenant_id);
  ~HashPermit();
  HashPermit(const HashPermit&) = delete;
  HashPermit& operator=(const HashPermit&) = delete;
  // Gives the place back before the end of the scope (once the hashing is done).
  void Release();

 private:
  HashGate* gate_ = nullptr;  // nullptr: nothing held (outside a pool, or released)
  size_t worker_ = 0;
};

std::string ClientIpKey(const Context& ctx);
// 503 when Redis cannot count (fails closed), 429 with Retry-After past a limit.
void CheckLoginLimits(Context& ctx, const std::string& ip_key, const std::string& account_key);

// ------------------------------------------------------------------ signing in with a password (sessions.cpp)

// What a sign-in sends: the tenant, the email and password, and at login a second factor.
struct Credentials {
  std::string tenant, email, password;
  bool cookie = false;                             // the refresh token goes in the cookie (X-Session-Cookie: 1)
  std::optional<std::string> code, recovery_code;  // login only: one of them at most
};
// X-Tenant, {"email", "password"}; at login (`login` true) also X-Session-Cookie and the second
// factor's members (ReadSecondFactor). 400 naming each issue.
Credentials ReadCredentials(Context& ctx, bool login);
// The password check every password sign-in makes (`tenant`: the rows of kTenantBySubdomain): the
// hash gate, the login limits, one scrypt verification whatever the case. Refused with RefuseLogin;
// else the login look-up's row (tenant_id, user_id, email, role).
Rows CheckPassword(Context& ctx, const Credentials& in, const Rows& tenant);
// A failed sign-in: counted against the account, audited (login.failed with `reason`) when the
// tenant exists, then 401 UNAUTHENTICATED, worded alike whatever failed.
[[noreturn]] void RefuseLogin(Context& ctx, const Credentials& in, const std::string& account_key, const Rows& found,
                              std::string_view reason);

// ------------------------------------------------------------------ the second factor (totp.cpp)

// Login's "code" (6 digits) or "recoveryCode" (not both) into `in`.
void ReadSecondFactor(FieldReader& body, Credentials& in);
// Login's second factor, once the password is right (`found`: CheckPassword's row). A person with a
// confirmed factor needs its code or a recovery code (401 SECOND_FACTOR_REQUIRED without either,
// not counted); one without, in a tenant that requires it, 403 SECOND_FACTOR_ENROLMENT_REQUIRED; a
// wrong, reused or late code is RefuseLogin's. The code of an unconfirmed factor confirms it: then
// the new recovery codes (stored hashed) are returned, to be shown once; else none.
std::vector<std::string> PassSecondFactor(Context& ctx, const Credentials& in, const Rows& found);
// When a session ends however often it is refreshed (an SSO sign-in's maximum lifetime): the
// family's stored end (a refresh keeps it), or hours from now (a new sign-in); neither: no hard end.
struct SessionEnd {
  std::optional<std::string> at;
  std::optional<int> hours;
};

// A new refresh token of the family (stored hashed) and an access token for the user of the
// transaction's tenant; sets ctx.principal's user and role.
SessionView StartSession(Context& ctx, const UserView& user, const std::string& tenant, const std::string& family,
                         const SessionEnd& end = {});
// 200 with the session, Cache-Control: no-store; in cookie mode the refresh token goes in the
// cookie and not in the body.
Reply SessionReply(const Context& ctx, const SessionView& session, bool cookie);

}  // namespace icat::auth
