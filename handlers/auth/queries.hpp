// The auth group's named SQL: logins, refresh-token families, the signed-in user, set-up tokens and
// password changes (the hash written only through the owner's functions of sql/V0015).
#pragma once

#include <vector>

#include "icat/auth.hpp"
#include "icat/db.hpp"

namespace icat::auth {

// Each statement reads as SQL, a line per clause.
// clang-format off
// The owner's function (sql/V0009), run as the tenant: it answers for that tenant only.
// $1 email. No row: no tenant set; user_id NULL: no such user.
inline constexpr Statement kLoginLookup{"auth_login_lookup",
    "SELECT tenant_id, user_id, email, role, password_hash, disabled FROM auth_login_user($1)"};
inline constexpr Statement kTenantBySubdomain{"auth_tenant_by_subdomain",
    "SELECT id FROM tenants WHERE subdomain = $1"};
// $1 tenant, $2 user, $3 family, $4 SHA-256 of the token (bytea hex), $5 lifetime in days; the
// session's hard end (an SSO sign-in's): $6 the family's stored end (a refresh), or $7 hours from
// now (a new sign-in); both NULL: none.
inline constexpr Statement kInsertRefresh{"auth_insert_refresh",
    "INSERT INTO refresh_tokens (tenant_id, user_id, family_id, token_hash, expires_at, session_ends_at) "
    "VALUES ($1, $2, $3::uuid, $4::bytea, now() + make_interval(days => $5::int), "
    "COALESCE($6::timestamptz, now() + make_interval(hours => $7::int)))"};
// $1 tenant, $2 token hash. Locked, so two uses of one token cannot both rotate it.
inline constexpr Statement kFindRefresh{"auth_find_refresh",
    "SELECT r.id, r.user_id, r.family_id, r.used_at IS NOT NULL AS used, r.revoked_at IS NOT NULL AS revoked, "
    "r.expires_at <= now() AS expired, r.session_ends_at, r.session_ends_at <= now() AS session_over, "
    "u.email, u.role, u.id IS NOT NULL AND u.disabled_at IS NULL AS user_active "
    "FROM refresh_tokens r LEFT JOIN users u ON u.id = r.user_id AND u.tenant_id = r.tenant_id "
    "WHERE r.tenant_id = $1 AND r.token_hash = $2::bytea FOR UPDATE OF r"};
inline constexpr Statement kMarkRefreshUsed{"auth_mark_refresh_used",
    "UPDATE refresh_tokens SET used_at = now() WHERE tenant_id = $1 AND id = $2"};
// $1 tenant, $2 family: every token of the family, used or not, stops working.
inline constexpr Statement kRevokeFamily{"auth_revoke_family",
    "UPDATE refresh_tokens SET revoked_at = now() WHERE tenant_id = $1 AND family_id = $2 AND revoked_at IS NULL"};
// $1 tenant, $2 user
inline constexpr Statement kGetMe{"auth_get_me",
    "SELECT u.id AS user_id, u.email, u.role, rfc3339(u.created_at) AS created_at, t.id AS tenant_id, t.subdomain, "
    "t.name AS tenant_name, "
    "EXISTS (SELECT FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS totp "
    "FROM users u JOIN tenants t ON t.id = u.tenant_id "
    "WHERE u.tenant_id = $1 AND u.id = $2::uuid AND u.disabled_at IS NULL"};

// $1 tenant, $2 user
inline constexpr Statement kRecordLogin{"auth_record_login",
    "UPDATE users SET last_login_at = now() WHERE tenant_id = $1 AND id = $2::uuid"};

// ---- Set-up tokens and passwords.
// $1 tenant, $2 SHA-256 of the token (bytea hex): its state, before any hashing.
inline constexpr Statement kFindSetupToken{"auth_find_setup_token",
    "SELECT s.user_id, s.used_at IS NOT NULL AS used, s.expires_at <= now() AS expired, "
    "u.disabled_at IS NOT NULL AS disabled, u.has_password "
    "FROM setup_tokens s JOIN users u ON u.id = s.user_id AND u.tenant_id = s.tenant_id "
    "WHERE s.tenant_id = $1 AND s.token_hash = $2::bytea"};
// $1 token hash, $2 the new password's scrypt hash. No row: the token is no longer good.
inline constexpr Statement kCompleteSetup{"auth_complete_setup",
    "SELECT user_id, email, role FROM auth_complete_setup($1::bytea, $2)"};
// $1 tenant, $2 user: the signed-in user's email and stored hash, through the login look-up.
inline constexpr Statement kCurrentPassword{"auth_current_password",
    "SELECT u.email, l.password_hash FROM users u CROSS JOIN LATERAL auth_login_user(u.email) l "
    "WHERE u.tenant_id = $1 AND u.id = $2::uuid AND u.disabled_at IS NULL AND l.user_id = u.id"};
// $1 user, $2 the hash the current password was verified against, $3 the new hash
inline constexpr Statement kChangePassword{"auth_change_password",
    "SELECT auth_change_password($1::uuid, $2, $3) AS changed"};

// ---- The second factor (totp.cpp). Secrets are sealed (crypto.hpp Seal), read as base64.
// $1 tenant, $2 user: always one row; secret NULL when the person has no factor.
inline constexpr Statement kSecondFactor{"auth_second_factor",
    "SELECT translate(encode(f.secret, 'base64'), E'\\n', '') AS secret, f.confirmed_at IS NOT NULL AS confirmed, "
    "f.last_step, COALESCE(p.totp_required, false) AS required "
    "FROM (SELECT $1::uuid AS tenant_id, $2::uuid AS user_id) me "
    "LEFT JOIN totp_factors f ON f.tenant_id = me.tenant_id AND f.user_id = me.user_id "
    "LEFT JOIN sign_in_policies p ON p.tenant_id = me.tenant_id"};
// $3 the step of the code shown. No row: that step or a later one was used meanwhile (the row lock
// orders two sign-ins with one code, and the second finds last_step moved).
inline constexpr Statement kClaimTotpStep{"auth_claim_totp_step",
    "UPDATE totp_factors SET last_step = $3::bigint, confirmed_at = COALESCE(confirmed_at, now()) "
    "WHERE tenant_id = $1 AND user_id = $2::uuid AND last_step < $3::bigint RETURNING 1"};
// $3 SHA-256 of the recovery code (bytea hex). No row: unknown or used already.
inline constexpr Statement kUseRecoveryCode{"auth_use_recovery_code",
    "UPDATE recovery_codes SET used_at = now() "
    "WHERE tenant_id = $1 AND user_id = $2::uuid AND code_hash = $3::bytea AND used_at IS NULL RETURNING 1"};
// The person's recovery codes, replaced: the earlier ones go, then $3 the new ones' SHA-256, hex, as
// a text array.
inline constexpr Statement kDeleteRecoveryCodes{"auth_delete_recovery_codes",
    "DELETE FROM recovery_codes WHERE tenant_id = $1 AND user_id = $2::uuid"};
inline constexpr Statement kInsertRecoveryCodes{"auth_insert_recovery_codes",
    "INSERT INTO recovery_codes (tenant_id, user_id, code_hash) "
    "SELECT $1::uuid, $2::uuid, decode(h, 'hex') FROM unnest($3::text[]) h"};
// $3 the sealed secret (bytea hex): a new unconfirmed factor, or one replacing an unconfirmed one.
// No row: the person has a confirmed factor.
inline constexpr Statement kPutUnconfirmedFactor{"auth_put_unconfirmed_factor",
    "INSERT INTO totp_factors AS f (user_id, tenant_id, secret) VALUES ($2::uuid, $1, $3::bytea) "
    "ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = now(), last_step = 0 "
    "WHERE f.confirmed_at IS NULL RETURNING 1"};
// $1 tenant
inline constexpr Statement kTotpRequired{"auth_totp_required",
    "SELECT COALESCE((SELECT totp_required FROM sign_in_policies WHERE tenant_id = $1), false) AS required"};
// ---- Single sign-on (oidc.cpp, docs/sso.md). $1 tenant.
// What a password sign-in must know first: whether the tenant signs in with its provider only.
inline constexpr Statement kSsoRequirement{"auth_sso_requirement",
    "SELECT required, break_glass_email FROM sso_configs WHERE tenant_id = $1"};
// The configuration, the client secret sealed (base64).
inline constexpr Statement kSsoConfig{"auth_sso_config",
    "SELECT issuer, client_id, translate(encode(client_secret, 'base64'), E'\\n', '') AS client_secret, "
    "display_name, scopes, groups_claim, role_mapping, default_role, allowed_domains, required, max_session_hours "
    "FROM sso_configs WHERE tenant_id = $1"};
// $2 SHA-256 of the state, $3 of the browser's cookie (bytea hex), $4 nonce, $5 PKCE verifier, $6
// the console path to land on. Ten minutes to come back; the tenant's stale ones go first.
inline constexpr Statement kInsertSignIn{"auth_insert_sign_in",
    "WITH stale AS (DELETE FROM sso_sign_ins WHERE tenant_id = $1 AND expires_at <= now()) "
    "INSERT INTO sso_sign_ins (state_hash, tenant_id, browser_hash, nonce, code_verifier, next_path, expires_at) "
    "VALUES ($2::bytea, $1, $3::bytea, $4, $5, $6, now() + interval '10 minutes')"};
// $2 SHA-256 of the state (bytea hex): the sign-in, used up whatever follows.
inline constexpr Statement kTakeSignIn{"auth_take_sign_in",
    "DELETE FROM sso_sign_ins WHERE tenant_id = $1 AND state_hash = $2::bytea "
    "RETURNING encode(browser_hash, 'hex') AS browser_hash, nonce, code_verifier, next_path, "
    "expires_at <= now() AS expired"};
#define ICAT_SSO_USER "u.id, u.email, u.role, u.disabled_at IS NOT NULL AS disabled, u.has_password"
// $2 issuer, $3 subject: the person the provider's subject is, locked until the sign-in commits.
inline constexpr Statement kIdentityUser{"auth_identity_user",
    "SELECT " ICAT_SSO_USER " FROM user_identities i JOIN users u ON u.id = i.user_id AND u.tenant_id = i.tenant_id "
    "WHERE i.tenant_id = $1 AND i.issuer = $2 AND i.subject = $3 FOR UPDATE OF u"};
// $2 email: the tenant's person of that email (any case), locked.
inline constexpr Statement kUserByEmail{"auth_user_by_email",
    "SELECT " ICAT_SSO_USER " FROM users u WHERE u.tenant_id = $1 AND lower(u.email) = lower($2) FOR UPDATE"};
// $2 email, $3 role: a person the provider vouches for, without a password. No row: the email was
// taken meanwhile.
inline constexpr Statement kInsertSsoUser{"auth_insert_sso_user",
    "WITH u AS (INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, $3) "
    "ON CONFLICT (tenant_id, lower(email)) DO NOTHING RETURNING id, email, role, disabled_at, has_password) "
    "SELECT " ICAT_SSO_USER " FROM u"};
// $2 issuer, $3 subject, $4 user
inline constexpr Statement kInsertIdentity{"auth_insert_identity",
    "INSERT INTO user_identities (tenant_id, issuer, subject, user_id, last_sign_in_at) "
    "VALUES ($1, $2, $3, $4::uuid, now())"};
inline constexpr Statement kTouchIdentity{"auth_touch_identity",
    "UPDATE user_identities SET last_sign_in_at = now() WHERE tenant_id = $1 AND issuer = $2 AND subject = $3"};
// $2 user, $3 the role the provider's groups map to now.
inline constexpr Statement kSetSignInRole{"auth_set_sign_in_role",
    "UPDATE users SET role = $3, last_login_at = now() WHERE tenant_id = $1 AND id = $2::uuid"};
// $2 user: the tenant's other active admins (sql/V0015), counted under the tenant's admin lock.
inline constexpr Statement kOtherActiveAdmins{"auth_other_active_admins",
    "SELECT active_admins_besides($1, $2::uuid) AS others"};
#undef ICAT_SSO_USER

// ---- An e-mail channel's address by the token of its link (sql/V0035): no session, so the tenant
// is found first by the token ($1 confirm or unsubscribe, $2 its SHA-256), then the address is
// changed as that tenant. A token works once: its hash goes with the change.
inline constexpr Statement kAddressTenant{"auth_address_tenant",
    "SELECT notification_address_tenant($1, $2::bytea) AS tenant_id"};
inline constexpr Statement kConfirmAddress{"auth_confirm_address",
    "UPDATE notification_addresses a SET state = 'confirmed', confirmed_at = now(), confirm_token_sha256 = NULL "
    "FROM notification_channels c WHERE a.tenant_id = $1 AND a.confirm_token_sha256 = $2::bytea "
    "AND a.state = 'pending' AND a.confirm_expires_at > now() AND c.id = a.channel_id "
    "RETURNING a.address, c.name AS channel, c.id AS channel_id"};
inline constexpr Statement kUnsubscribeAddress{"auth_unsubscribe_address",
    "UPDATE notification_addresses a SET state = 'unsubscribed', unsubscribed_at = now(), "
    "unsubscribe_token_sha256 = NULL FROM notification_channels c WHERE a.tenant_id = $1 "
    "AND a.unsubscribe_token_sha256 = $2::bytea AND a.state = 'confirmed' AND c.id = a.channel_id "
    "RETURNING a.address, c.name AS channel, c.id AS channel_id"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kLoginLookup, kTenantBySubdomain, kInsertRefresh, kFindRefresh, kMarkRefreshUsed, kRevokeFamily, kGetMe,
    kRevokeUserSessions, kRecordLogin, kFindSetupToken, kCompleteSetup, kCurrentPassword, kChangePassword,
    kSecondFactor, kClaimTotpStep, kUseRecoveryCode, kDeleteRecoveryCodes, kInsertRecoveryCodes,
    kPutUnconfirmedFactor, kTotpRequired, kDeleteTotpFactor,
    kSsoRequirement, kSsoConfig, kInsertSignIn, kTakeSignIn, kIdentityUser, kUserByEmail, kInsertSsoUser,
    kInsertIdentity, kTouchIdentity, kSetSignInRole, kOtherActiveAdmins,
    kAddressTenant, kConfirmAddress, kUnsubscribeAddress,
};
// clang-format on

}  // namespace icat::auth
