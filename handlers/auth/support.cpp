// What the auth group's endpoints share: transactions of public routes, the request's tenant and
// password fields, the login limits, starting a session and answering with it (body or cookie).
#include <ctime>

#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/jwt.hpp"
#include "icat/login_limit.hpp"
#include "icat/metrics.hpp"
#include "icat/server.hpp"
#include "icat/text.hpp"
#include "queries.hpp"
#include "sessions.hpp"

namespace icat::auth {

namespace {
constexpr size_t kRefreshTokenBytes = 32;
}  // namespace

TenantTransaction::TenantTransaction(Context& ctx, std::string tenant_id) : db_(ctx.db) {
  ctx.db.BeginForTenant(tenant_id);
  ctx.principal.tenant_id = std::move(tenant_id);
}

TenantTransaction::~TenantTransaction() {
  if (open_) db_.Rollback();
}

void TenantTransaction::Commit() {
  db_.Commit();
  open_ = false;
}

void Unauthenticated(std::string_view message) {
  ApiError error(Error::kUNAUTHENTICATED, std::string(message));
  error.headers.emplace_back("WWW-Authenticate", "Bearer");
  throw error;
}

std::string TenantHeader(const Request& request, std::vector<FieldIssue>& issues) {
  std::string tenant = Lower(request.Header("x-tenant"));
  if (tenant.empty()) issues.push_back({"X-Tenant", "header is required: the tenant's subdomain"});
  return tenant;
}

std::optional<std::string> ExactString(FieldReader& body, std::string_view name, size_t max_bytes, Need need) {
  const rapidjson::Value* value = body.Member(name, need);
  if (!value) return std::nullopt;
  if (!value->IsString() || value->GetStringLength() == 0 || value->GetStringLength() > max_bytes) {
    body.Issue(name, "must be a string of 1 to " + std::to_string(max_bytes) + " bytes");
    return std::nullopt;
  }
  return std::string(value->GetString(), value->GetStringLength());
}

std::optional<std::string> NewPassword(FieldReader& body, std::string_view name) {
  std::optional<std::string> password = ExactString(body, name, kMaxPasswordBytes, Need::kRequired);
  if (!password) return std::nullopt;
  if (std::optional<std::string> issue = PasswordIssue(*password)) {
    body.Issue(name, *issue);
    return std::nullopt;
  }
  return password;
}

bool WantsCookie(const Request& request, std::vector<FieldIssue>& issues) {
  std::string value = request.Header(kCookieOptIn);
  if (value.empty()) return false;
  if (value == "1") return true;
  issues.push_back({"X-Session-Cookie", "must be 1 (the refresh token in a cookie) or absent"});
  return false;
}

HashPermit::HashPermit(const Context& ctx, std::string_view tenant_id) {
  HashGate* gate = PoolHashGate();
  if (!gate || WorkerSlot() == kNoWorkerSlot) return;  // not a pool worker: nothing to share
  HashGateVerdict verdict =
      gate->Enter(WorkerSlot(), tenant_id.empty() ? kNoSuchTenant : tenant_id, ctx.config.hash_gate);
  if (verdict == HashGateVerdict::kAdmitted) {
    gate_ = gate;
    worker_ = WorkerSlot();
    return;
  }
  // A hash takes about half a second: a place is likely free again in one.
  bool tenant_share = verdict == HashGateVerdict::kTenantAtShare;
  ApiError error(tenant_share ? Error::kRATE_LIMITED : Error::kSERVICE_UNAVAILABLE,
                 tenant_share ? "Too many sign-ins of this tenant are being checked right now; retry in a second."
                              : "Sign-in is busy right now; retry in a second.");
  error.headers.emplace_back("Retry-After", "1");
  metrics::Add(tenant_share ? metrics::Metric::kPasswordHashTenantLimited : metrics::Metric::kPasswordHashNodeLimited);
  throw error;
}

HashPermit::~HashPermit() { Release(); }

void HashPermit::Release() {
  if (gate_) gate_->Leave(worker_);
  gate_ = nullptr;
}

std::string ClientIpKey(const Context& ctx) {
  return LoginIpKey(ctx.request.client_ip.empty() ? "unknown" : ctx.request.client_ip);
}

void CheckLoginLimits(Context& ctx, const std::string& ip_key, const std::string& account_key) {
  std::optional<LoginVerdict> verdict = AdmitLogin(ctx.redis, ip_key, account_key, ctx.config.login_limits);
  if (!verdict) throw ApiError(Error::kSERVICE_UNAVAILABLE, "Sign-in is unavailable right now; retry shortly.");
  if (!verdict->allowed) {
    ApiError error(Error::kRATE_LIMITED,
                   "Too many sign-in attempts; retry in " + std::to_string(verdict->retry_after) + " seconds.");
    error.headers.emplace_back("Retry-After", std::to_string(verdict->retry_after));
    metrics::Add(metrics::Metric::kLoginLimited);
    throw error;
  }
}

SessionView StartSession(Context& ctx, const UserView& user, const std::string& tenant, const std::string& family,
                         const SessionEnd& end) {
  SessionView session;
  session.user = user;
  session.refresh_token = Base64UrlEncode(RandomBytes(kRefreshTokenBytes));
  ctx.db.Exec(kInsertRefresh, {ctx.principal.tenant_id, user.id, family, ByteaHex(Sha256(session.refresh_token)),
                               ctx.config.refresh_token_days, end.at, end.hours});
  AccessClaims claims;
  claims.user_id = user.id;
  claims.tenant_id = ctx.principal.tenant_id;
  claims.tenant = tenant;
  claims.role = user.role;
  claims.issued_at = std::time(nullptr);
  claims.expires_at = claims.issued_at + kAccessTokenSeconds;
  claims.token_id = RandomUuid();
  claims.session_id = family;
  session.access_token = IssueAccessToken(claims, ctx.config.jwt_secret);
  session.expires_in = kAccessTokenSeconds;
  ctx.principal.user_id = user.id;
  ctx.principal.role = user.role;
  ctx.principal.email = user.email;
  return session;
}

Reply SessionReply(const Context& ctx, const SessionView& session, bool cookie) {
  Reply reply = Reply::Json(200, SessionJson(session, !cookie));
  reply.headers.emplace_back("Cache-Control", "no-store");  // tokens must not sit in caches
  if (cookie) {
    reply.headers.emplace_back(
        "Set-Cookie",
        RefreshCookie(session.refresh_token, static_cast<long long>(ctx.config.refresh_token_days) * 86400));
  }
  return reply;
}

std::string SessionCookie(std::string_view name, std::string_view value, long long max_age_seconds,
                          std::string_view path, std::string_view same_site) {
  return std::string(name) + "=" + std::string(value) + "; Max-Age=" + std::to_string(max_age_seconds) +
         "; Path=" + std::string(path) + "; HttpOnly; Secure; SameSite=" + std::string(same_site);
}

std::string RefreshCookie(std::string_view token, long long max_age_seconds) {
  // Path=/api/auth: only refresh, logout and the other auth calls receive it; SameSite=Strict and
  // the X-Tenant header every one of them needs (a CORS preflight) keep other sites' pages out.
  return SessionCookie(kRefreshCookie, token, max_age_seconds, "/api/auth", "Strict");
}

}  // namespace icat::auth
