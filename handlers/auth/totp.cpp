// POST /api/auth/totp/enrolment, DELETE /api/auth/totp and login's second factor: a person who
// signs in with a password adds a one-time code from an authenticator app (RFC 6238, totp.hpp).
// The secret is sealed in Postgres (Seal, bound to the person) and shown only in the enrolment's
// reply; the factor counts once its first code signs the person in, which also hands out the
// recovery codes, shown that once and stored as SHA-256. Each step's code works once.
#include "icat/totp.hpp"

#include <ctime>
#include <stdexcept>

#include "icat/audit.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/login_limit.hpp"
#include "queries.hpp"
#include "sessions.hpp"

namespace icat::auth {

namespace {

constexpr size_t kMaxCodeChars = 64;  // longer is refused as too long; shorter by the code's own check

// What the sealed secret is bound to: another person's row does not open with it.
std::string SecretContext(std::string_view user_id) { return "totp_factors.secret:" + std::string(user_id); }

// The issuer an authenticator app shows above the code: the service and the tenant.
std::string Issuer(std::string_view tenant) { return "icat (" + std::string(tenant) + ")"; }

// kSecondFactor's row, opened.
struct Factor {
  bool exists = false, confirmed = false, required = false;
  std::string secret;  // raw bytes
  long long last_step = 0;
};

Factor ReadFactor(Context& ctx, const std::string& tenant_id, const std::string& user_id) {
  Rows row = ctx.db.Run(kSecondFactor, {tenant_id, user_id});
  Factor factor;
  factor.required = row.Bool(0, row.Column("required"));
  if (row.IsNull(0, row.Column("secret"))) return factor;
  std::optional<std::string> sealed = Base64Decode(row.Text(0, row.Column("secret")));
  std::optional<std::string> secret = Unseal(ctx.config.sso_key, sealed.value_or(""), SecretContext(user_id));
  // Another key (ICAT_SSO_KEY_FILE replaced) or a row copied from elsewhere: nobody can pass it.
  if (!secret) throw std::runtime_error("a TOTP secret does not unseal under ICAT_SSO_KEY_FILE");
  factor.exists = true;
  factor.secret = *secret;
  factor.confirmed = row.Bool(0, row.Column("confirmed"));
  factor.last_step = row.Int(0, row.Column("last_step"));
  return factor;
}

// New recovery codes replace the person's earlier ones; returns them as shown (once).
std::vector<std::string> IssueRecoveryCodes(Context& ctx, const std::string& tenant_id, const std::string& user_id) {
  std::vector<std::string> codes = NewRecoveryCodes();
  std::string hashes = "{";
  for (const std::string& code : codes) hashes += (hashes.size() > 1 ? "," : "") + Sha256Hex(NormalRecoveryCode(code));
  ctx.db.Exec(kDeleteRecoveryCodes, {tenant_id, user_id});
  ctx.db.Exec(kInsertRecoveryCodes, {tenant_id, user_id, hashes + "}"});
  return codes;
}

// Login's second factor within one transaction of the tenant. nullopt: a wrong, reused or late code,
// or an unknown or used recovery code (the caller refuses and counts it, after this rolled back).
std::optional<std::vector<std::string>> CheckSecondFactor(Context& ctx, const Credentials& in,
                                                          const std::string& tenant_id, const std::string& user_id) {
  TenantTransaction transaction(ctx, tenant_id);
  Factor factor = ReadFactor(ctx, tenant_id, user_id);
  if (!in.code && !in.recovery_code) {
    if (factor.confirmed) throw ApiError(Error::kSECOND_FACTOR_REQUIRED);
    if (factor.required) throw ApiError(Error::kSECOND_FACTOR_ENROLMENT_REQUIRED);
    return std::vector<std::string>{};
  }
  if (in.recovery_code) {
    if (!factor.confirmed) return std::nullopt;
    Rows used =
        ctx.db.Run(kUseRecoveryCode, {tenant_id, user_id, ByteaHex(Sha256(NormalRecoveryCode(*in.recovery_code)))});
    if (used.empty()) return std::nullopt;
    Audit(ctx, "login.recovery_code_used", user_id, StringObjectJson({{"email", in.email}}));
    transaction.Commit();
    return std::vector<std::string>{};
  }
  if (!factor.exists) return std::nullopt;
  std::optional<uint64_t> step =
      MatchTotp(factor.secret, *in.code, std::time(nullptr), static_cast<uint64_t>(factor.last_step));
  if (!step || ctx.db.Run(kClaimTotpStep, {tenant_id, user_id, static_cast<long long>(*step)}).empty()) {
    return std::nullopt;
  }
  std::vector<std::string> codes;
  if (!factor.confirmed) {
    codes = IssueRecoveryCodes(ctx, tenant_id, user_id);
    Audit(ctx, "totp.confirmed", user_id, StringObjectJson({{"email", in.email}}));
  }
  transaction.Commit();
  return codes;
}

}  // namespace

void ReadSecondFactor(FieldReader& body, Credentials& in) {
  in.code = body.String("code", Need::kOptional, kMaxCodeChars);
  if (in.code && (in.code->size() != static_cast<size_t>(kTotpDigits) ||
                  in.code->find_first_not_of("0123456789") != std::string::npos)) {
    body.Issue("code", "must be the 6 digits your authenticator app shows");
  }
  in.recovery_code = body.String("recoveryCode", Need::kOptional, kMaxCodeChars);
  if (in.code && in.recovery_code) body.Issue("recoveryCode", "give code or recoveryCode, not both");
}

std::vector<std::string> PassSecondFactor(Context& ctx, const Credentials& in, const Rows& found) {
  std::string tenant_id(found.Text(0, found.Column("tenant_id"))), user_id(found.Text(0, found.Column("user_id")));
  ctx.principal.user_id = user_id;  // the actor of the audit entries
  ctx.principal.email = found.Text(0, found.Column("email"));
  std::optional<std::vector<std::string>> passed = CheckSecondFactor(ctx, in, tenant_id, user_id);
  if (!passed) {
    RefuseLogin(ctx, in, LoginAccountKey(in.tenant, in.email), found, in.code ? "wrong_code" : "wrong_recovery_code");
  }
  return *passed;
}

// POST /api/auth/totp/enrolment   (public; X-Tenant, {"email", "password"})
//   The password is checked as sign-in checks it (the same limits, refusals and audit); a right one
//   does not clear the account's failures, so that enrolling cannot reset the count of wrong codes.
//   200 {"secret": base32, "otpauthUri"}, Cache-Control: no-store: a new factor, unconfirmed until a
//       sign-in with its code (which answers the recovery codes); it replaces an unconfirmed one
//   400 VALIDATION_ERROR (X-Tenant, email, password, unknown fields); 415; MALFORMED_JSON
//   401 UNAUTHENTICATED: as sign-in; 409 CONFLICT: the person has a confirmed factor
//   429 RATE_LIMITED, 503 SERVICE_UNAVAILABLE: as sign-in
Reply EnrolTotp(Context& ctx) {
  Credentials in = ReadCredentials(ctx, false);
  Rows tenant = ctx.db.Run(kTenantBySubdomain, {in.tenant});
  Rows found = CheckPassword(ctx, in, tenant);
  std::string tenant_id(found.Text(0, found.Column("tenant_id"))), user_id(found.Text(0, found.Column("user_id"))),
      email(found.Text(0, found.Column("email")));
  std::string secret = RandomBytes(kTotpSecretBytes);
  TenantTransaction transaction(ctx, tenant_id);
  ctx.principal.user_id = user_id;
  ctx.principal.email = email;
  Rows put = ctx.db.Run(kPutUnconfirmedFactor,
                        {tenant_id, user_id, ByteaHex(Seal(ctx.config.sso_key, secret, SecretContext(user_id)))});
  if (put.empty()) {
    throw ApiError(Error::kCONFLICT,
                   "You have a second factor already; remove it, or ask an admin to reset it, first.");
  }
  Audit(ctx, "totp.enrolment_started", user_id, StringObjectJson({{"email", email}}));
  transaction.Commit();
  std::string secret_text = Base32Encode(secret);
  Reply reply = Reply::Json(200, StringObjectJson({{"secret", secret_text},
                                                   {"otpauthUri", OtpauthUri(Issuer(in.tenant), email, secret_text)}}));
  reply.headers.emplace_back("Cache-Control", "no-store");
  return reply;
}

// DELETE /api/auth/totp   (portal, any role: the caller's own second factor)
//   204: gone, with its recovery codes (also when there was none); the next sign-in asks the password only
//   401 UNAUTHENTICATED; 409 CONFLICT: the tenant requires a second factor
Reply RemoveTotp(Context& ctx) {
  Rows policy = ctx.db.Run(kTotpRequired, {ctx.principal.tenant_id});
  if (policy.Bool(0, policy.Column("required"))) {
    throw ApiError(Error::kCONFLICT, "Your tenant requires a second factor; an admin can reset yours instead.");
  }
  Rows removed = ctx.db.Run(kDeleteTotpFactor, {ctx.principal.tenant_id, ctx.principal.user_id});
  if (!removed.empty()) Audit(ctx, "totp.removed", ctx.principal.user_id);
  return Reply{204, {{"Cache-Control", "no-store"}}, ""};
}

}  // namespace icat::auth
