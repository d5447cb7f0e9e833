// GET /api/auth/oidc/provider, /api/auth/oidc/start and /api/auth/oidc/callback: signing in with the
// tenant's own OpenID Provider (docs/sso.md), the authorization code flow with PKCE, state and
// nonce. The protocol is common/src/oidc.cpp's; here are the sign-in in progress (sso_sign_ins,
// used once, tied to the browser that started it by a cookie), the person the provider vouches for
// (user_identities; created just in time, the role from the groups each time) and the session it
// lands: a password sign-in's refresh cookie, with a hard end (sso_configs.max_session_hours).
#include "icat/oidc.hpp"

#include <ctime>
#include <map>

#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/log.hpp"
#include "icat/sso.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"
#include "sessions.hpp"

namespace icat::auth {

namespace {

constexpr std::string_view kSsoCookie = "icat_sso";
constexpr long long kSignInSeconds = 600;  // as long as kInsertSignIn keeps the sign-in
constexpr size_t kRandomBytes = 32;        // state, nonce, the browser's cookie: 43 base64url characters

// The cookie that ties a sign-in to the browser that started it. Only the flow's paths receive it;
// SameSite=Lax, so the provider's redirect back (a top-level GET from its site) carries it.
std::string SsoCookie(std::string_view value, long long max_age_seconds) {
  return SessionCookie(kSsoCookie, value, max_age_seconds, "/api/auth/oidc", "Lax");
}

struct SsoConfig {
  std::string issuer, client_id, sealed_secret, display_name, groups_claim, default_role;
  std::vector<std::string> scopes, allowed_domains;
  std::map<std::string, std::string, std::less<>> role_mapping;  // group -> admin, user or viewer
  bool required = false;
  int max_session_hours = 0;
};

// The tenant's configuration (kSsoConfig's row); 404 SSO_NOT_CONFIGURED when it has none.
SsoConfig ConfigOf(const Rows& rows) {
  if (rows.empty()) throw ApiError(Error::kSSO_NOT_CONFIGURED);
  auto text = [&rows](const char* column) { return std::string(rows.Text(0, rows.Column(column))); };
  SsoConfig c;
  c.issuer = text("issuer");
  c.client_id = text("client_id");
  c.sealed_secret = Base64Decode(text("client_secret")).value_or("");
  c.display_name = text("display_name");
  c.groups_claim = text("groups_claim");
  c.default_role = text("default_role");
  c.scopes = ParseTextArray(text("scopes"));
  c.allowed_domains = ParseTextArray(text("allowed_domains"));
  c.required = rows.Bool(0, rows.Column("required"));
  c.max_session_hours = static_cast<int>(rows.Int(0, rows.Column("max_session_hours")));
  JsonRead mapping = ReadJson(text("role_mapping"), kMaxBodyDepth);  // stored by PUT /api/sso: an object of strings
  if (mapping.error.empty() && mapping.document.IsObject()) {
    for (const auto& m : mapping.document.GetObject()) {
      if (m.value.IsString()) c.role_mapping[m.name.GetString()] = m.value.GetString();
    }
  }
  return c;
}

// The tenant of a subdomain, or nullopt.
std::optional<std::string> TenantId(Context& ctx, std::string_view subdomain) {
  Rows tenant = ctx.db.Run(kTenantBySubdomain, {Lower(subdomain)});
  if (tenant.empty()) return std::nullopt;
  return std::string(tenant.Text(0, tenant.Column("id")));
}

// ?tenant= of the provider and start: 400 when absent, 404 SSO_NOT_CONFIGURED for no such tenant
// (as for a tenant without a configuration: the page learns nothing more). Sets the request's tenant.
std::string TenantOfQuery(Context& ctx) {
  std::optional<std::string> subdomain = ctx.query.Text("tenant");
  if (!subdomain) ThrowInvalid("tenant", "is required: the tenant's subdomain");
  std::optional<std::string> tenant_id = TenantId(ctx, *subdomain);
  if (!tenant_id) throw ApiError(Error::kSSO_NOT_CONFIGURED);
  ctx.principal.tenant_id = *tenant_id;
  return Lower(*subdomain);
}

SsoConfig ReadConfig(Context& ctx) {
  ctx.db.ReadAsTenant(ctx.principal.tenant_id);
  Rows rows = ctx.db.Run(kSsoConfig, {ctx.principal.tenant_id});
  ctx.db.Commit();  // ends the read scope
  return ConfigOf(rows);
}

// ?next=: where in the console the person lands, a path of this site ("/...", never "//..." or a
// backslash, which browsers read as another host), printable ASCII; "/" when absent.
std::string NextPath(const std::optional<std::string>& next) {
  if (!next) return "/";
  bool ok = next->size() >= 1 && (*next)[0] == '/' && (next->size() == 1 || (*next)[1] != '/');
  for (char c : *next) ok = ok && c > ' ' && c < 0x7f && c != '\\';
  if (!ok) ThrowInvalid("next", "must be a path of the console: /... (not //...), printable ASCII without spaces");
  return *next;
}

// The provider's discovery and keys (cached); 401 SSO_PROVIDER_ERROR when they cannot be had.
oidc::ProviderDocuments Provider(const Context& ctx, const std::string& issuer) {
  oidc::ProviderResult result = oidc::LoadProvider(issuer, ctx.config.oidc_policy);
  if (!result.documents) {
    throw ApiError(Error::kSSO_PROVIDER_ERROR, "The identity provider cannot be used: " + result.error.message);
  }
  return *result.documents;
}

[[noreturn]] void StateInvalid(std::string message) { throw ApiError(Error::kSSO_STATE_INVALID, std::move(message)); }
[[noreturn]] void AccessRefused(std::string message) { throw ApiError(Error::kSSO_ACCESS_REFUSED, std::move(message)); }

// A sign-in the callback finishes: the row of its start (taken, so used once), the tenant's configuration.
struct SignIn {
  std::string subdomain, nonce, verifier, next;
  SsoConfig config;
};

// The sign-in that ?state= names (its tenant part sets the tenant, then its row is looked up),
// deleted whatever follows; 400 SSO_STATE_INVALID when it is unknown, used, expired, or was started
// in another browser (the icat_sso cookie's hash is not the one stored).
SignIn TakeSignIn(Context& ctx) {
  std::optional<std::string> state = ctx.query.Text("state");
  if (!state) StateInvalid("The answer of the identity provider has no state; start the sign-in again.");
  std::string subdomain = state->substr(0, state->find('.'));
  std::optional<std::string> tenant_id = TenantId(ctx, subdomain);
  if (!tenant_id) StateInvalid("The sign-in's state names no tenant; start the sign-in again.");
  TenantTransaction transaction(ctx, *tenant_id);
  Rows row = ctx.db.Run(kTakeSignIn, {*tenant_id, ByteaHex(Sha256(*state))});
  Rows config = ctx.db.Run(kSsoConfig, {*tenant_id});
  transaction.Commit();  // the sign-in is used up, whatever comes next
  if (row.empty()) StateInvalid("This sign-in is unknown or was already used; start it again.");
  if (row.Bool(0, row.Column("expired"))) StateInvalid("This sign-in took more than ten minutes; start it again.");
  std::optional<std::string> cookie = ctx.request.Cookie(kSsoCookie);
  if (!cookie || !ConstantTimeEqual(Sha256Hex(*cookie), row.Text(0, row.Column("browser_hash")))) {
    StateInvalid("This sign-in was started in another browser; start it again here.");
  }
  return {subdomain, std::string(row.Text(0, row.Column("nonce"))),
          std::string(row.Text(0, row.Column("code_verifier"))), std::string(row.Text(0, row.Column("next_path"))),
          ConfigOf(config)};
}

// The provider's answer: its error, or its code redeemed (with the PKCE verifier) for an ID token
// that passes every check of OpenID Connect Core 3.1.3.7; its claims.
oidc::IdClaims Authenticate(Context& ctx, const SignIn& sign_in) {
  const SsoConfig& config = sign_in.config;
  if (std::optional<std::string> error = ctx.query.Text("error")) {
    std::string description = ctx.query.Text("error_description").value_or("");
    throw ApiError(Error::kSSO_PROVIDER_ERROR, "The identity provider answered " + *error +
                                                   (description.empty() ? "." : ": " + description.substr(0, 200)));
  }
  // RFC 9207: a provider that names itself must be the one the sign-in went to.
  std::optional<std::string> iss = ctx.query.Text("iss");
  if (iss && *iss != config.issuer) throw ApiError(Error::kSSO_PROVIDER_ERROR, "The answer came from another issuer.");
  std::optional<std::string> code = ctx.query.Text("code");
  if (!code) throw ApiError(Error::kSSO_PROVIDER_ERROR, "The identity provider sent no authorization code.");
  oidc::ProviderDocuments provider = Provider(ctx, config.issuer);
  std::optional<std::string> secret =
      Unseal(ctx.config.sso_key, config.sealed_secret, SsoSecretContext(ctx.principal.tenant_id));
  if (!secret) {
    LogError("rid=" + ctx.request.request_id + " tenant=" + ctx.principal.tenant_id +
             " the stored client secret does not open with ICAT_SSO_KEY_FILE");
    throw ApiError(Error::kSSO_PROVIDER_ERROR,
                   "The stored client secret cannot be used; an admin must enter it again (PUT /api/sso).");
  }
  oidc::TokenResult token = oidc::RedeemCode(
      provider.discovery, {*code, SsoRedirectUri(ctx.request), sign_in.verifier, config.client_id, *secret},
      ctx.config.oidc_policy);
  if (!token.id_token) {
    throw ApiError(Error::kSSO_PROVIDER_ERROR, "The identity provider refused the code (" + token.error + ")" +
                                                   (token.description.empty() ? "." : ": " + token.description));
  }
  oidc::IdTokenCheck check{.issuer = config.issuer,
                           .client_id = config.client_id,
                           .nonce = sign_in.nonce,
                           .groups_claim = config.groups_claim,
                           .now = static_cast<long long>(std::time(nullptr))};
  oidc::IdTokenResult result = oidc::ValidateIdToken(*token.id_token, *provider.keys, check);
  if (result.unknown_kid) {  // the provider may have rotated its keys since they were fetched
    oidc::ProviderResult again = oidc::RefreshKeys(config.issuer, ctx.config.oidc_policy);
    if (again.documents) result = oidc::ValidateIdToken(*token.id_token, *again.documents->keys, check);
  }
  if (!result.claims) {
    throw ApiError(Error::kSSO_TOKEN_INVALID,
                   "The identity provider's ID token is not valid: " + result.problem.message,
                   {{"id_token", result.problem.reason + ": " + result.problem.message}});
  }
  return *result.claims;
}

// The role the groups give: the highest mapped one (admin > user > viewer), else the default
// ("refuse" included).
std::string RoleOf(const SsoConfig& config, const std::vector<std::string>& groups) {
  for (std::string_view role : kRoles) {  // highest first
    for (const std::string& group : groups) {
      auto mapped = config.role_mapping.find(group);
      if (mapped != config.role_mapping.end() && mapped->second == role) return std::string(role);
    }
  }
  return config.default_role;
}

bool DomainAllowed(const SsoConfig& config, std::string_view email) {
  if (config.allowed_domains.empty()) return true;
  std::string domain = Lower(email.substr(email.rfind('@') + 1));
  for (const std::string& allowed : config.allowed_domains) {
    if (domain == allowed) return true;
  }
  return false;
}

// The person the provider vouches for, in the transaction's tenant: known by issuer and subject;
// else the local user of the email, linked only when the provider verified it; else a new user
// without a password. Their role is set from the groups at every sign-in. 403 SSO_ACCESS_REFUSED:
// no role ("refuse"), no email, an email domain not allowed, an unverified email of a local user,
// a disabled user, or the tenant's last active admin losing the role.
UserView SignedInPerson(Context& ctx, const SsoConfig& config, const oidc::IdClaims& claims) {
  const std::string& tenant = ctx.principal.tenant_id;
  std::string role = RoleOf(config, claims.groups);
  if (role == "refuse") AccessRefused("None of your groups gives access to this tenant; ask its admin.");
  Rows person = ctx.db.Run(kIdentityUser, {tenant, claims.issuer, claims.subject});
  const bool linked = !person.empty();
  std::string email =
      !claims.email.empty() || !linked ? claims.email : std::string(person.Text(0, person.Column("email")));
  if (email.empty()) AccessRefused("The identity provider gave no email address for you.");
  if (!DomainAllowed(config, email)) AccessRefused("Your email domain may not sign in to this tenant.");
  if (!linked) {
    person = ctx.db.Run(kUserByEmail, {tenant, email});
    if (!person.empty() && !claims.email_verified) {
      AccessRefused("This tenant has a user of your email, which the identity provider has not verified.");
    }
    if (person.empty()) person = ctx.db.Run(kInsertSsoUser, {tenant, email, role});
    if (person.empty()) throw ApiError(Error::kCONFLICT, "Another sign-in of this email ran at the same time; retry.");
  }
  auto text = [&person](const char* column) { return std::string(person.Text(0, person.Column(column))); };
  UserView user{text("id"), text("email"), role};
  if (person.Bool(0, person.Column("disabled"))) AccessRefused("Your account in this tenant is disabled.");
  bool losing_admin = text("role") == "admin" && role != "admin" && person.Bool(0, person.Column("has_password"));
  if (losing_admin) {
    Rows others = ctx.db.Run(kOtherActiveAdmins, {tenant, user.id});
    if (others.Int(0, others.Column("others")) == 0) {
      AccessRefused(
          "Your groups no longer make you an admin, and you are the tenant's last admin: sign in with "
          "your password and make another admin first.");
    }
  }
  ctx.db.Exec(kSetSignInRole, {tenant, user.id, role});
  if (linked)
    ctx.db.Exec(kTouchIdentity, {tenant, claims.issuer, claims.subject});
  else
    ctx.db.Exec(kInsertIdentity, {tenant, claims.issuer, claims.subject, user.id});
  return user;
}

bool WantsHtml(const Request& request) { return request.Header("accept").find("text/html") != std::string::npos; }

// Runs a step of the flow. A refusal is audited (login.sso_failed) when the tenant is known, in a
// transaction of its own, and clears the sign-in's cookie; a browser (Accept: text/html) is sent to
// the console's sign-in page, which explains the error, any other client gets the JSON error.
template <typename Step>
Reply FlowStep(Context& ctx, Step step) {
  try {
    return step();
  } catch (ApiError& e) {
    ctx.db.Rollback();
    std::string_view name = Describe(e.error()).name;
    if (!ctx.principal.tenant_id.empty()) {
      TenantTransaction transaction(ctx, ctx.principal.tenant_id);
      std::string reason = e.details().empty() ? e.what() : e.details().front().issue;
      Audit(ctx, "login.sso_failed", "sso", StringObjectJson({{"error", std::string(name)}, {"reason", reason}}));
      transaction.Commit();
    }
    if (WantsHtml(ctx.request)) {
      return {303,
              {{"Location", "/sign-in?ssoError=" + std::string(name)},
               {"Set-Cookie", SsoCookie("", 0)},
               {"Cache-Control", "no-store"}},
              ""};
    }
    e.headers.emplace_back("Set-Cookie", SsoCookie("", 0));
    e.headers.emplace_back("Cache-Control", "no-store");
    throw;
  }
}

}  // namespace

// GET /api/auth/oidc/provider?tenant=   (public)
//   200 {"configured": true, "displayName", "required"}: what the console's sign-in page offers;
//       {"configured": false} for a tenant without single sign-on or no such tenant (the page learns
//       nothing more, and a browser logs no failed request on every sign-in page)
//   400 VALIDATION_ERROR: tenant missing
Reply SsoProvider(Context& ctx) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  try {
    TenantOfQuery(ctx);
    SsoConfig config = ReadConfig(ctx);
    WriteBool(w, "configured", true);
    WriteString(w, "displayName", config.display_name);
    WriteBool(w, "required", config.required);
  } catch (const ApiError& e) {
    if (e.error() != Error::kSSO_NOT_CONFIGURED) throw;
    WriteBool(w, "configured", false);
  }
  w.EndObject();
  return Reply::Json(200, buffer.GetString());
}

// GET /api/auth/oidc/start?tenant=&next=   (public; a browser navigation)
//   302 to the provider's authorization endpoint (code, PKCE S256, state "<tenant>.<random>", nonce),
//       Set-Cookie icat_sso (the browser's half of the sign-in, ten minutes); the sign-in stored
//   400 VALIDATION_ERROR: tenant missing, next not a console path; 404 SSO_NOT_CONFIGURED (no such
//   tenant alike); 401 SSO_PROVIDER_ERROR: the provider's discovery or keys cannot be had.
//   With Accept: text/html every refusal is 303 to /sign-in?ssoError=<error>.
Reply StartSsoSignIn(Context& ctx) {
  return FlowStep(ctx, [&] {
    std::string subdomain = TenantOfQuery(ctx);
    std::string next = NextPath(ctx.query.Text("next"));
    SsoConfig config = ReadConfig(ctx);
    oidc::ProviderDocuments provider = Provider(ctx, config.issuer);
    ctx.db.StartBudget();  // the wait for the provider is not Postgres's
    std::string state = subdomain + "." + Base64UrlEncode(RandomBytes(kRandomBytes));
    std::string nonce = Base64UrlEncode(RandomBytes(kRandomBytes)),
                browser = Base64UrlEncode(RandomBytes(kRandomBytes));
    std::string verifier = oidc::NewCodeVerifier();
    TenantTransaction transaction(ctx, ctx.principal.tenant_id);
    ctx.db.Exec(kInsertSignIn,
                {ctx.principal.tenant_id, ByteaHex(Sha256(state)), ByteaHex(Sha256(browser)), nonce, verifier, next});
    transaction.Commit();
    oidc::AuthorizationRequest request{.client_id = config.client_id,
                                       .redirect_uri = SsoRedirectUri(ctx.request),
                                       .state = state,
                                       .nonce = nonce,
                                       .code_challenge = oidc::CodeChallengeS256(verifier),
                                       .scopes = config.scopes};
    return Reply{302,
                 {{"Location", oidc::AuthorizationUrl(provider.discovery, request)},
                  {"Set-Cookie", SsoCookie(browser, kSignInSeconds)},
                  {"Cache-Control", "no-store"}},
                 ""};
  });
}

// GET /api/auth/oidc/callback?code=&state=&iss=   or   ?error=&error_description=&state=   (public;
// the provider sends the browser here)
//   303 to the sign-in's next path with Set-Cookie icat_refresh (the console's refresh cookie, as a
//       password sign-in with X-Session-Cookie: 1; it ends with the session, maxSessionHours) and
//       icat_sso cleared. The sign-in is used up whatever happens. Each refusal creates no session:
//   400 SSO_STATE_INVALID: state missing, unknown, used, expired, naming no tenant, or not this
//       browser's (the icat_sso cookie)
//   401 SSO_PROVIDER_ERROR: the provider's error, its token endpoint refused the code (a wrong PKCE
//       verifier, another client's code) or cannot be reached, discovery or keys cannot be had
//   401 SSO_TOKEN_INVALID: the ID token fails a check (details: [{"field": "id_token", "issue":
//       "<reason>: <sentence>"}])
//   403 SSO_ACCESS_REFUSED: no role for the groups ("refuse"), no email, a domain not allowed, an
//       unverified email of a local user, a disabled user; 404 SSO_NOT_CONFIGURED
//   With Accept: text/html every refusal is 303 to /sign-in?ssoError=<error>. Audited: login.sso,
//   login.sso_failed.
Reply FinishSsoSignIn(Context& ctx) {
  return FlowStep(ctx, [&] {
    SignIn sign_in = TakeSignIn(ctx);
    oidc::IdClaims claims = Authenticate(ctx, sign_in);
    ctx.db.StartBudget();  // the wait for the provider is not Postgres's
    TenantTransaction transaction(ctx, ctx.principal.tenant_id);
    UserView user = SignedInPerson(ctx, sign_in.config, claims);
    SessionView session =
        StartSession(ctx, user, sign_in.subdomain, RandomUuid(), {.hours = sign_in.config.max_session_hours});
    Audit(ctx, "login.sso", user.id,
          StringObjectJson(
              {{"email", user.email}, {"role", user.role}, {"issuer", claims.issuer}, {"subject", claims.subject}}));
    transaction.Commit();
    long long cookie_seconds = static_cast<long long>(sign_in.config.max_session_hours) * 3600;
    return Reply{303,
                 {{"Location", sign_in.next},
                  {"Set-Cookie", RefreshCookie(session.refresh_token, cookie_seconds)},
                  {"Set-Cookie", SsoCookie("", 0)},
                  {"Cache-Control", "no-store"}},
                 ""};
  });
}

}  // namespace icat::auth
