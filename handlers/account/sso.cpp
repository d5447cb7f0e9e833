// GET, PUT, DELETE /api/sso: the tenant's OpenID Provider, with which its people sign in
// (docs/sso.md; the sign-in itself is handlers/auth/oidc.cpp). The client secret is stored sealed
// (crypto.hpp Seal) and never leaves: not in a reply, not in the audit log, not in a log line. A
// save fetches the provider's discovery document, so a wrong issuer is refused then, not at sign-in.
#include "icat/sso.hpp"

#include <algorithm>

#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/oidc.hpp"
#include "icat/text.hpp"
#include "icat/url_guard.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxClientChars = 1024;  // client ids and secrets
constexpr size_t kMaxNameChars = 200;     // display names, claims, groups, scopes, domains
constexpr size_t kMaxMappedGroups = 100;
constexpr size_t kMaxListItems = 100;  // scopes, allowed domains
const std::vector<std::string_view> kDefaultRoles = {"admin", "user", "viewer", "refuse"};

struct SsoView {
  std::string issuer, client_id, display_name, groups_claim, role_mapping_json, default_role, redirect_uri, updated_at;
  std::vector<std::string> scopes, allowed_domains;
  bool required = false;
  std::optional<std::string> break_glass_email;
  long long max_session_hours = 0;
};

// kGetSso's or kPutSso's row, with the redirect URI of the request's host.
SsoView SsoAt(const Rows& rows, const Request& request) {
  auto text = [&rows](const char* column) { return std::string(rows.Text(0, rows.Column(column))); };
  SsoView v;
  v.issuer = text("issuer");
  v.client_id = text("client_id");
  v.display_name = text("display_name");
  v.scopes = ParseTextArray(text("scopes"));
  v.groups_claim = text("groups_claim");
  v.role_mapping_json = text("role_mapping");
  v.default_role = text("default_role");
  v.allowed_domains = ParseTextArray(text("allowed_domains"));
  v.required = rows.Bool(0, rows.Column("required"));
  v.break_glass_email = rows.OptionalText(0, rows.Column("break_glass_email"));
  v.max_session_hours = rows.Int(0, rows.Column("max_session_hours"));
  v.updated_at = text("updated_at");
  v.redirect_uri = SsoRedirectUri(request);
  return v;
}

std::string SsoJson(const SsoView& v) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "issuer", v.issuer);
  WriteString(w, "clientId", v.client_id);
  WriteBool(w, "clientSecretSet", true);  // a configuration cannot be stored without one
  WriteString(w, "displayName", v.display_name);
  WriteStringArray(w, "scopes", v.scopes);
  WriteString(w, "groupsClaim", v.groups_claim);
  WriteKey(w, "roleMapping");
  w.RawValue(v.role_mapping_json.data(), v.role_mapping_json.size(), rapidjson::kObjectType);  // jsonb, as stored
  WriteString(w, "defaultRole", v.default_role);
  WriteStringArray(w, "allowedDomains", v.allowed_domains);
  WriteBool(w, "required", v.required);
  WriteOptionalString(w, "breakGlassEmail", v.break_glass_email);
  WriteInt(w, "maxSessionHours", v.max_session_hours);
  WriteString(w, "redirectUri", v.redirect_uri);
  WriteString(w, "updatedAt", v.updated_at);
  w.EndObject();
  return buffer.GetString();
}

struct SsoInput {
  std::string issuer, issuer_host, client_id, display_name, groups_claim, role_mapping_json, default_role;
  std::optional<std::string> client_secret, break_glass_email;
  std::vector<std::string> scopes, allowed_domains;
  bool required = false;
  long long max_session_hours = 12;
};

// roleMapping: an object of at most kMaxMappedGroups groups, each to admin, user or viewer; as a
// JSON object to store.
std::string ReadRoleMapping(FieldReader& body, std::vector<FieldIssue>& issues) {
  const rapidjson::Value* mapping = body.Member("roleMapping", Need::kOptional);
  if (!mapping) return "{}";
  if (!mapping->IsObject() || mapping->MemberCount() > kMaxMappedGroups) {
    body.Issue("roleMapping", "must be an object of at most 100 groups, each mapped to admin, user or viewer");
    return "{}";
  }
  FieldReader groups(*mapping, issues, body.Field("roleMapping"));
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  for (const auto& member : mapping->GetObject()) {
    std::string group(member.name.GetString(), member.name.GetStringLength());
    if (group.empty() || Utf8Chars(group) > kMaxNameChars || !IsCleanText(group)) {
      body.Issue("roleMapping", "its group names are 1 to 200 characters of text");
      continue;
    }
    if (std::optional<std::string> role = groups.Enum(group, Need::kRequired, AsList(kRoles)))
      WriteString(w, group, *role);
  }
  w.EndObject();
  return buffer.GetString();
}

// The body, each field checked; the issuer's URL under the OpenID Provider policy (the network is
// asked later, CheckDiscovery).
SsoInput ReadSso(Context& ctx, std::vector<FieldIssue>& issues) {
  FieldReader body(ctx.body, issues);
  SsoInput in;
  if (std::optional<std::string> issuer = body.String("issuer", Need::kRequired, kMaxWebhookUrlChars)) {
    UrlVerdict verdict = CheckWebhookUrl(*issuer, ctx.config.oidc_policy);
    if (!verdict.ok) body.Issue("issuer", verdict.reason);
    in.issuer = *issuer;  // compared exactly with the provider's iss: kept as written
    in.issuer_host = verdict.host;
  }
  in.client_id = body.String("clientId", Need::kRequired, kMaxClientChars).value_or("");
  in.client_secret = body.String("clientSecret", Need::kOptional, kMaxClientChars);
  in.display_name = body.String("displayName", Need::kOptional, kMaxNameChars).value_or(in.issuer_host);
  in.scopes = body.StringArray("scopes", Need::kOptional, kMaxListItems, kMaxNameChars, false)
                  .value_or(std::vector<std::string>{"openid", "email", "profile"});
  if (std::find(in.scopes.begin(), in.scopes.end(), "openid") == in.scopes.end())
    body.Issue("scopes", "must hold openid");
  for (const std::string& scope : in.scopes) {
    if (scope.find_first_of(" \"\\") != std::string::npos)
      body.Issue("scopes", "a scope has no spaces, quotes or backslashes");
  }
  in.groups_claim = body.String("groupsClaim", Need::kOptional, kMaxNameChars).value_or("groups");
  in.role_mapping_json = ReadRoleMapping(body, issues);
  in.default_role = body.Enum("defaultRole", Need::kOptional, kDefaultRoles).value_or("refuse");
  in.allowed_domains = body.StringArray("allowedDomains", Need::kOptional, kMaxListItems, kMaxNameChars, true)
                           .value_or(std::vector<std::string>{});
  for (std::string& domain : in.allowed_domains) {
    domain = Lower(domain);
    if (domain.find_first_of("@ /") != std::string::npos)
      body.Issue("allowedDomains", "holds domains such as example.com, no @");
  }
  in.required = body.Bool("required", Need::kOptional).value_or(false);
  in.break_glass_email = body.String("breakGlassEmail", Need::kOptional, 254);
  in.max_session_hours = body.Int("maxSessionHours", Need::kOptional, 1, 720).value_or(12);
  body.CheckUnknown();
  return in;
}

// required needs a break-glass admin (enabled, with a password), who may still sign in with it.
void CheckBreakGlass(Context& ctx, const SsoInput& in, std::vector<FieldIssue>& issues) {
  if (!in.break_glass_email) {
    if (in.required)
      issues.push_back({"breakGlassEmail", "is required when required is true: an admin with a password"});
    return;
  }
  Rows admin = ctx.db.Run(kBreakGlassAdmin, {ctx.principal.tenant_id, *in.break_glass_email});
  if (!admin.Bool(0, admin.Column("ok"))) {
    issues.push_back({"breakGlassEmail", "must name an enabled admin of this tenant who has set a password"});
  }
}

// The provider's discovery document, fetched now: its issuer must be this one exactly.
void CheckDiscovery(Context& ctx, const SsoInput& in) {
  oidc::ProviderResult provider = oidc::LoadProvider(in.issuer, ctx.config.oidc_policy);
  ctx.db.StartBudget();  // the wait for the provider is not Postgres's
  if (!provider.documents) ThrowInvalid("issuer", "has no usable OpenID Provider: " + provider.error.message);
}

}  // namespace

// GET /api/sso   (portal; admin)
//   200 {"issuer", "clientId", "clientSecretSet": true, "displayName", "scopes", "groupsClaim",
//       "roleMapping", "defaultRole", "allowedDomains", "required", "breakGlassEmail", "maxSessionHours",
//       "redirectUri" (to register at the provider), "updatedAt"}: never the client secret
//   400 VALIDATION_ERROR (headers); 401; 403 FORBIDDEN; 404 SSO_NOT_CONFIGURED
Reply GetSso(Context& ctx) {
  Rows rows = ctx.db.Run(kGetSso, {ctx.principal.tenant_id});
  if (rows.empty()) throw ApiError(Error::kSSO_NOT_CONFIGURED);
  return JsonReply(200, SsoJson(SsoAt(rows, ctx.request)));
}

// PUT /api/sso {"issuer", "clientId", "clientSecret"?, "displayName"?, "scopes"?, "groupsClaim"?,
//   "roleMapping"?, "defaultRole"?, "allowedDomains"?, "required"?, "breakGlassEmail"?,
//   "maxSessionHours"?}   (portal; admin) — the whole configuration; clientSecret left out keeps the stored one
//   200 as GET
//   400 VALIDATION_ERROR, one detail per problem: issuer (not an allowed http(s) URL, or its
//       discovery document cannot be fetched or names another issuer), clientId, clientSecret (required
//       while none is stored), scopes without openid, roleMapping, defaultRole, required without
//       breakGlassEmail, breakGlassEmail not an enabled admin with a password, maxSessionHours 1-720,
//       unknown fields; 401; 403 FORBIDDEN; 415; MALFORMED_JSON
Reply PutSso(Context& ctx) {
  std::vector<FieldIssue> issues;
  SsoInput in = ReadSso(ctx, issues);
  bool stored = !ctx.db.Run(kSsoSecretStored, {ctx.principal.tenant_id}).empty();
  if (!in.client_secret && !stored) issues.push_back({"clientSecret", "is required: none is stored yet"});
  CheckBreakGlass(ctx, in, issues);
  ThrowIfIssues(issues);
  CheckDiscovery(ctx, in);
  std::optional<std::string> sealed;
  if (in.client_secret) {
    sealed = ByteaHex(Seal(ctx.config.sso_key, *in.client_secret, SsoSecretContext(ctx.principal.tenant_id)));
  }
  Rows rows = ctx.db.Run(
      kPutSso, {ctx.principal.tenant_id, in.issuer, in.client_id, sealed, in.display_name, TextArrayLiteral(in.scopes),
                in.groups_claim, in.role_mapping_json, in.default_role, TextArrayLiteral(in.allowed_domains),
                in.required, in.break_glass_email, in.max_session_hours});
  SsoView view = SsoAt(rows, ctx.request);
  Audit(ctx, "sso.updated", "sso",
        StringObjectJson({{"issuer", view.issuer},
                          {"clientId", view.client_id},
                          {"clientSecret", in.client_secret ? "replaced" : "kept"},
                          {"defaultRole", view.default_role},
                          {"required", view.required ? "true" : "false"},
                          {"breakGlassEmail", view.break_glass_email.value_or("")},
                          {"roleMapping", view.role_mapping_json}}));
  return JsonReply(200, SsoJson(view));
}

// DELETE /api/sso   (portal; admin)
//   204: password sign-in only from now on; the people's identities are kept (a configuration with
//   the same issuer finds them again)
//   401; 403 FORBIDDEN; 404 SSO_NOT_CONFIGURED
Reply DeleteSso(Context& ctx) {
  Rows rows = ctx.db.Run(kDeleteSso, {ctx.principal.tenant_id});
  if (rows.empty()) throw ApiError(Error::kSSO_NOT_CONFIGURED);
  Audit(ctx, "sso.deleted", "sso", StringObjectJson({{"issuer", std::string(rows.Text(0, rows.Column("issuer")))}}));
  return NoContent();
}

}  // namespace icat::account
