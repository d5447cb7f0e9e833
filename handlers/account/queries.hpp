// The account group's named SQL. Every statement filters by tenant ($1) although row-level
// security already does: RLS is the second wall. Lists are newest first, paginated by
// (created_at, id) with the cursor's time in microseconds (rfc3339_us, sql/V0003).
#pragma once

#include <vector>

#include "icat/auth.hpp"
#include "icat/db.hpp"
#include "icat/outbox.hpp"

namespace icat::account {

// "$N::timestamptz IS NULL OR (t.created_at, t.id) < ($N, $N+1)": rows after a cursor.
#define ICAT_AFTER(table, n, n1) \
  "($" #n "::timestamptz IS NULL OR (" table ".created_at, " table ".id) < ($" #n "::timestamptz, $" #n1 "::uuid)) "
// A user id from a token, or NULL when that user is gone (created_by stays valid).
#define ICAT_USER(n) "(SELECT id FROM users WHERE id = $" #n "::uuid AND tenant_id = $1)"

#define ICAT_KEY_COLUMNS                                                                                         \
  "k.id, k.name, k.prefix, k.scopes, rfc3339(k.created_at) AS created_at, rfc3339(k.expires_at) AS expires_at, " \
  "rfc3339(k.last_used_at) AS last_used_at, "                                                                    \
  "CASE WHEN k.revoked_at IS NOT NULL THEN 'revoked' WHEN k.expires_at <= now() THEN 'expired' "                 \
  "ELSE 'active' END AS state, k.created_by, rfc3339_us(k.created_at) AS cursor_time"
#define ICAT_WATCH_COLUMNS                                                      \
  "w.id, w.cve_id, w.note, rfc3339(w.created_at) AS created_at, w.created_by, " \
  "rfc3339_us(w.created_at) AS cursor_time"
#define ICAT_REQUEST_COLUMNS                                                                          \
  "f.id, f.type, f.title, f.description, f.status, rfc3339(f.created_at) AS created_at, "             \
  "rfc3339(f.updated_at) AS updated_at, f.image_id, i.name AS image_name, f.cve_id, f.package_name, " \
  "u.id AS created_by_id, u.email AS created_by_email, rfc3339_us(f.created_at) AS cursor_time "      \
  "FROM f LEFT JOIN images i ON i.id = f.image_id LEFT JOIN users u ON u.id = f.created_by "
// A user as admins see it; the state from has_password, never from the hash (sql/V0015).
#define ICAT_USER_COLUMNS                                                                                          \
  "u.id, u.email, u.role, rfc3339(u.created_at) AS created_at, rfc3339(u.disabled_at) AS disabled_at, "            \
  "rfc3339(u.last_login_at) AS last_login_at, CASE WHEN u.disabled_at IS NOT NULL THEN 'disabled' "                \
  "WHEN u.has_password THEN 'active' ELSE 'pending_setup' END AS state, rfc3339_us(u.created_at) AS cursor_time, " \
  "EXISTS (SELECT FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS totp, "            \
  "EXISTS (SELECT FROM user_identities i WHERE i.user_id = u.id) AS sso"
// What an INSERT or UPDATE of users returns for ICAT_USER_COLUMNS (never RETURNING *: the hash).
#define ICAT_USER_RETURNING "RETURNING id, email, role, created_at, disabled_at, last_login_at, has_password"
#define ICAT_WEBHOOK_COLUMNS                                                                  \
  "w.id, w.url, w.events, w.active, w.disabled_reason, rfc3339(w.created_at) AS created_at, " \
  "rfc3339(w.updated_at) AS updated_at, rfc3339_us(w.created_at) AS cursor_time"

// Each statement reads as SQL, a line per clause.
// clang-format off
// ---- API keys. $1 tenant.
inline constexpr Statement kListKeys{"account_list_keys",
    "SELECT " ICAT_KEY_COLUMNS " FROM api_keys k WHERE k.tenant_id = $1 AND " ICAT_AFTER("k", 2, 3)
    "ORDER BY k.created_at DESC, k.id DESC LIMIT $4"};
// $2 name, $3 prefix, $4 key hash (bytea hex), $5 scopes, $6 expiry or NULL, $7 creator
inline constexpr Statement kInsertKey{"account_insert_key",
    "WITH k AS (INSERT INTO api_keys (tenant_id, name, prefix, key_hash, scopes, expires_at, created_by) "
    "VALUES ($1, $2, $3, $4::bytea, $5::text[], $6::timestamptz, " ICAT_USER(7) ") RETURNING *) "
    "SELECT " ICAT_KEY_COLUMNS " FROM k"};
// $2 key id. Locked, so two revokes of one key audit once.
inline constexpr Statement kKeyForRevoke{"account_key_for_revoke",
    "SELECT encode(key_hash, 'hex') AS key_hash_hex, revoked_at IS NOT NULL AS revoked, name, prefix FROM api_keys "
    "WHERE tenant_id = $1 AND id = $2::uuid FOR UPDATE"};
// The first revoke sets revoked_at; every one, a repeat too, announces it to the workers' poll
// (sql/V0026), stamped as late as it can be.
inline constexpr Statement kRevokeKey{"account_revoke_key",
    "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), revoke_announced_at = clock_timestamp() "
    "WHERE tenant_id = $1 AND id = $2::uuid"};

// ---- CVE watches. $1 tenant.
inline constexpr Statement kListWatches{"account_list_watches",
    "SELECT " ICAT_WATCH_COLUMNS " FROM cve_watches w WHERE w.tenant_id = $1 AND " ICAT_AFTER("w", 2, 3)
    "ORDER BY w.created_at DESC, w.id DESC LIMIT $4"};
// $2 watch ids: the licensed images whose latest version's latest scan carries each watched id
// (as the id or an alias; a VEX not-affected finding does not count).
inline constexpr Statement kWatchedImages{"account_watched_images",
    "SELECT w.id AS watch_id, i.id AS image_id, i.name AS image_name, v.id AS version_id, v.tag, "
    "array_agg(DISTINCT x.package_name ORDER BY x.package_name) AS packages "
    "FROM cve_watches w JOIN licenses l ON l.tenant_id = w.tenant_id JOIN images i ON i.id = l.image_id "
    "JOIN image_versions v ON v.id = i.latest_version_id "
    "JOIN vulnerabilities x ON x.set_id = v.latest_findings_set_id AND x.fix_state <> 'not-affected' "
    "AND (x.vuln_id = w.cve_id OR w.cve_id = ANY (x.aliases)) "
    "WHERE w.tenant_id = $1 AND w.id = ANY ($2::uuid[]) "
    "GROUP BY w.id, i.id, i.name, v.id, v.tag ORDER BY w.id, i.name"};
// $2 CVE id, $3 note, $4 creator. No row: the tenant already watches it.
inline constexpr Statement kInsertWatch{"account_insert_watch",
    "WITH w AS (INSERT INTO cve_watches (tenant_id, cve_id, note, created_by) VALUES ($1, $2, $3, " ICAT_USER(4)
    ") ON CONFLICT (tenant_id, cve_id) DO NOTHING RETURNING *) SELECT " ICAT_WATCH_COLUMNS " FROM w"};
inline constexpr Statement kDeleteWatch{"account_delete_watch",
    "DELETE FROM cve_watches WHERE tenant_id = $1 AND id = $2::uuid RETURNING cve_id"};

// ---- Feature requests. $1 tenant.
// $2 status or NULL, $3 type or NULL, $4/$5 cursor, $6 limit
inline constexpr Statement kListRequests{"account_list_requests",
    "WITH f AS (SELECT * FROM feature_requests f WHERE f.tenant_id = $1 AND ($2::text IS NULL OR f.status = $2) "
    "AND ($3::text IS NULL OR f.type = $3) AND " ICAT_AFTER("f", 4, 5)
    "ORDER BY f.created_at DESC, f.id DESC LIMIT $6) "
    "SELECT " ICAT_REQUEST_COLUMNS "ORDER BY f.created_at DESC, f.id DESC"};
// $2 type, $3 title, $4 description, $5 image, $6 CVE, $7 package, $8 creator
inline constexpr Statement kInsertRequest{"account_insert_request",
    "WITH f AS (INSERT INTO feature_requests (tenant_id, type, title, description, image_id, cve_id, package_name, "
    "created_by) VALUES ($1, $2, $3, $4, $5::uuid, $6, $7, " ICAT_USER(8) ") RETURNING *) "
    "SELECT " ICAT_REQUEST_COLUMNS};
// $2 image id: whether the tenant holds a licence for it
inline constexpr Statement kImageVisible{"account_image_visible",
    "SELECT 1 FROM licenses WHERE tenant_id = $1 AND image_id = $2::uuid"};

// ---- Webhook subscriptions. $1 tenant.
inline constexpr Statement kListWebhooks{"account_list_webhooks",
    "SELECT " ICAT_WEBHOOK_COLUMNS " FROM webhooks w WHERE w.tenant_id = $1 AND " ICAT_AFTER("w", 2, 3)
    "ORDER BY w.created_at DESC, w.id DESC LIMIT $4"};
// $2 url, $3 events, $4 active, $5 secret (kept when the URL is already subscribed).
// The last two columns: whether the row is new, and its secret.
inline constexpr Statement kUpsertWebhook{"account_upsert_webhook",
    "INSERT INTO webhooks AS w (tenant_id, url, events, active, secret) VALUES ($1, $2, $3::text[], $4, $5) "
    "ON CONFLICT (tenant_id, url) DO UPDATE SET events = EXCLUDED.events, active = EXCLUDED.active, "
    "disabled_reason = CASE WHEN EXCLUDED.active THEN NULL ELSE w.disabled_reason END, updated_at = now() "
    "RETURNING " ICAT_WEBHOOK_COLUMNS ", w.xmax = 0 AS created, w.secret"};
// $2 id, $3 url, $4 events, $5 active
inline constexpr Statement kUpdateWebhook{"account_update_webhook",
    "UPDATE webhooks w SET url = $3, events = $4::text[], active = $5, "
    "disabled_reason = CASE WHEN $5 THEN NULL ELSE w.disabled_reason END, updated_at = now() "
    "WHERE w.tenant_id = $1 AND w.id = $2::uuid RETURNING " ICAT_WEBHOOK_COLUMNS};
// $2 url, $3 id: another subscription of the tenant with this URL
inline constexpr Statement kWebhookUrlTaken{"account_webhook_url_taken",
    "SELECT 1 FROM webhooks WHERE tenant_id = $1 AND url = $2 AND id <> $3::uuid"};
inline constexpr Statement kDeleteWebhook{"account_delete_webhook",
    "DELETE FROM webhooks WHERE tenant_id = $1 AND id = $2::uuid RETURNING url"};

// ---- Notification channels (sql/V0034, V0035). $1 tenant. Never the URL: it is a secret; its
// host only. An e-mail channel's addresses with their states, as a JSON array.
#define ICAT_CHANNEL_COLUMNS                                                                          \
  "c.id, c.type, c.name, substring(c.url from '^https?://([^/:?#]+)') AS url_host, c.events, "         \
  "c.min_severity, c.image_ids, c.active, c.disabled_reason, c.digest, "                              \
  "(SELECT coalesce(json_agg(json_build_object('address', a.address, 'state', a.state) "               \
  "ORDER BY a.address), '[]') FROM notification_addresses a WHERE a.channel_id = c.id)::text AS addresses, " \
  "rfc3339(c.created_at) AS created_at, "                                                             \
  "rfc3339(c.updated_at) AS updated_at, rfc3339_us(c.created_at) AS cursor_time"
inline constexpr Statement kListChannels{"account_list_channels",
    "SELECT " ICAT_CHANNEL_COLUMNS " FROM notification_channels c WHERE c.tenant_id = $1 AND " ICAT_AFTER("c", 2, 3)
    "ORDER BY c.created_at DESC, c.id DESC LIMIT $4"};
inline constexpr Statement kChannelById{"account_channel_by_id",
    "SELECT " ICAT_CHANNEL_COLUMNS " FROM notification_channels c WHERE c.tenant_id = $1 AND c.id = $2::uuid"};
// $2 id: the stored type, the row locked until the PUT is done.
inline constexpr Statement kChannelTypeForUpdate{"account_channel_type_for_update",
    "SELECT type FROM notification_channels WHERE tenant_id = $1 AND id = $2::uuid FOR UPDATE"};
// $2 type, $3 name, $4 url, $5 events, $6 min severity, $7 image ids, $8 active, $9 digest
inline constexpr Statement kInsertChannel{"account_insert_channel",
    "INSERT INTO notification_channels AS c (tenant_id, type, name, url, events, min_severity, image_ids, active, "
    "digest) VALUES ($1, $2, $3, $4, $5::text[], $6, $7::uuid[], $8, $9) RETURNING c.id"};
// $2 id, then as kInsertChannel without the type; $4 url NULL keeps the one stored. Enabling a
// channel clears why it was disabled and its refusals.
inline constexpr Statement kUpdateChannel{"account_update_channel",
    "UPDATE notification_channels c SET name = $3, url = coalesce($4, c.url), events = $5::text[], "
    "min_severity = $6, image_ids = $7::uuid[], active = $8, digest = $9, "
    "disabled_reason = CASE WHEN $8 THEN NULL ELSE c.disabled_reason END, "
    "refusals = CASE WHEN $8 AND NOT c.active THEN 0 ELSE c.refusals END, updated_at = now() "
    "WHERE c.tenant_id = $1 AND c.id = $2::uuid RETURNING c.id"};
inline constexpr Statement kDeleteChannel{"account_delete_channel",
    "DELETE FROM notification_channels c WHERE c.tenant_id = $1 AND c.id = $2::uuid "
    "RETURNING c.type, substring(c.url from '^https?://([^/:?#]+)') AS url_host"};
// $2 image ids: those of them the tenant holds no licence for.
inline constexpr Statement kUnlicensedImages{"account_unlicensed_images",
    "SELECT i::text FROM unnest($2::uuid[]) i WHERE NOT EXISTS "
    "(SELECT FROM licenses l WHERE l.tenant_id = $1 AND l.image_id = i)"};

// ---- Webhook delivery log and ping. $1 tenant, $2 webhook id.
// Locked (FOR SHARE) until the ping's delivery is written, so a concurrent PUT or DELETE waits.
inline constexpr Statement kWebhookForPing{"account_webhook_for_ping",
    "SELECT w.url, w.active, w.disabled_reason FROM webhooks w WHERE w.tenant_id = $1 AND w.id = $2::uuid FOR SHARE"};
inline constexpr Statement kWebhookExists{"account_webhook_exists",
    "SELECT 1 FROM webhooks WHERE tenant_id = $1 AND id = $2::uuid"};
// A delivery log: the deliveries of one webhook or channel (`owner`, their column in deliveries, $2).
// $3 state or NULL, $4/$5 cursor, $6 limit. next_attempt_at only while pending; address: the e-mail
// address a channel's delivery goes to (sql/V0035), NULL for a webhook's or a Slack or Teams channel's.
#define ICAT_DELIVERY_LOG(owner)                                                                          \
  "SELECT d.id, d.event_id, e.type AS event_type, d.state, d.attempts, d.last_status, d.last_error, "    \
  "CASE WHEN d.state = 'pending' THEN rfc3339(d.next_attempt_at) END AS next_attempt_at, "              \
  "rfc3339(d.created_at) AS created_at, rfc3339(d.updated_at) AS updated_at, rfc3339_us(d.created_at) AS cursor_time, " \
  "a.address FROM deliveries d JOIN events e ON e.id = d.event_id "                                      \
  "LEFT JOIN notification_addresses a ON a.id = d.address_id "                                          \
  "WHERE d.tenant_id = $1 AND d." owner " = $2::uuid AND ($3::text IS NULL OR d.state = $3) AND "         \
  ICAT_AFTER("d", 4, 5) "ORDER BY d.created_at DESC, d.id DESC LIMIT $6"
inline constexpr Statement kListDeliveries{"account_list_deliveries", ICAT_DELIVERY_LOG("webhook_id")};
// A channel's delivery log ($2 channel id): as a webhook's.
inline constexpr Statement kChannelExists{"account_channel_exists",
    "SELECT 1 FROM notification_channels WHERE tenant_id = $1 AND id = $2::uuid"};
inline constexpr Statement kListChannelDeliveries{"account_list_channel_deliveries", ICAT_DELIVERY_LOG("channel_id")};
// The ping (an event and its one delivery) is the outbox's: icat/outbox.hpp kInsertPing.

// ---- Admission policy and decisions. $1 tenant.
inline constexpr Statement kGetPolicy{"account_get_policy",
    "SELECT policy::text FROM admission_policies WHERE tenant_id = $1"};
// $2 policy, $3 editor
inline constexpr Statement kPutPolicy{"account_put_policy",
    "INSERT INTO admission_policies (tenant_id, policy, updated_by, updated_at) "
    "VALUES ($1, $2::jsonb, " ICAT_USER(3) ", now()) ON CONFLICT (tenant_id) DO UPDATE "
    "SET policy = EXCLUDED.policy, updated_by = EXCLUDED.updated_by, updated_at = now()"};
// $2 image ids: those the tenant holds a licence for
inline constexpr Statement kVisibleImages{"account_visible_images",
    "SELECT image_id FROM licenses WHERE tenant_id = $1 AND image_id = ANY ($2::uuid[])"};
// $2 allowed filter or NULL, $3/$4 cursor, $5 limit
inline constexpr Statement kListDecisions{"account_list_decisions",
    "SELECT d.id, rfc3339(d.created_at) AS created_at, d.request_uid, d.operation, d.kind, d.namespace, d.name, "
    "d.images::text AS images, d.allowed, d.mode, d.dry_run, d.reasons::text AS reasons, d.key_prefix, "
    "rfc3339_us(d.created_at) AS cursor_time FROM admission_decisions d "
    "WHERE d.tenant_id = $1 AND ($2::boolean IS NULL OR d.allowed = $2) AND " ICAT_AFTER("d", 3, 4)
    "ORDER BY d.created_at DESC, d.id DESC LIMIT $5"};

// ---- Users. $1 tenant.
inline constexpr Statement kListUsers{"account_list_users",
    "SELECT " ICAT_USER_COLUMNS " FROM users u WHERE u.tenant_id = $1 AND " ICAT_AFTER("u", 2, 3)
    "ORDER BY u.created_at DESC, u.id DESC LIMIT $4"};
// $2 email, $3 role: a pending user (no password). No row: the tenant has the email already.
inline constexpr Statement kInsertUser{"account_insert_user",
    "WITH u AS (INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, $3) "
    "ON CONFLICT (tenant_id, lower(email)) DO NOTHING " ICAT_USER_RETURNING ") SELECT " ICAT_USER_COLUMNS " FROM u"};
// $2 user id. Locked until the change commits, so two changes of one user take turns.
inline constexpr Statement kUserForChange{"account_user_for_change",
    "SELECT " ICAT_USER_COLUMNS ", u.disabled_at IS NOT NULL AS disabled, u.has_password FROM users u "
    "WHERE u.tenant_id = $1 AND u.id = $2::uuid FOR UPDATE"};
// $2 user id: the tenant's other active admins, counted under the tenant's admin lock (sql/V0015),
// which the users_keep_an_admin trigger takes too.
inline constexpr Statement kOtherActiveAdmins{"account_other_active_admins",
    "SELECT active_admins_besides($1, $2::uuid) AS others"};
// $2 user id, $3 role or NULL (unchanged), $4 disabled or NULL (unchanged)
inline constexpr Statement kUpdateUser{"account_update_user",
    "WITH u AS (UPDATE users u SET role = COALESCE($3, u.role), disabled_at = CASE WHEN $4::boolean IS NULL "
    "THEN u.disabled_at WHEN $4::boolean THEN COALESCE(u.disabled_at, now()) END "
    "WHERE u.tenant_id = $1 AND u.id = $2::uuid " ICAT_USER_RETURNING ") SELECT " ICAT_USER_COLUMNS " FROM u"};
inline constexpr Statement kDeleteUser{"account_delete_user",
    "DELETE FROM users WHERE tenant_id = $1 AND id = $2::uuid"};
// $2 user id, $3 SHA-256 of the token (bytea hex), $4 lifetime in hours. Replaces the user's
// earlier token, used or not: one link per user works at a time. No row: no such user of the tenant.
inline constexpr Statement kIssueSetupToken{"account_issue_setup_token",
    "INSERT INTO setup_tokens AS s (user_id, tenant_id, token_hash, expires_at) "
    "SELECT u.id, u.tenant_id, $3::bytea, now() + make_interval(hours => $4::int) FROM users u "
    "WHERE u.tenant_id = $1 AND u.id = $2::uuid "
    "ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now(), "
    "expires_at = EXCLUDED.expires_at, used_at = NULL WHERE s.tenant_id = $1 "
    "RETURNING rfc3339(s.expires_at) AS expires_at"};

// ---- Audit log. $1 tenant, $2 action or NULL, $3 last id of the previous page or NULL, $4 limit
inline constexpr Statement kListAudit{"account_list_audit",
    "SELECT id, rfc3339(at) AS at, actor, actor_email, action, target, client_ip, request_id, detail::text, trace_id "
    "FROM audit_log "
    "WHERE tenant_id = $1 AND ($2::text IS NULL OR action = $2) AND ($3::bigint IS NULL OR id < $3) "
    "ORDER BY id DESC LIMIT $4"};

// ---- The tenant's sign-in policy (sign_in_policy.cpp): defaults when never set.
inline constexpr Statement kGetSignInPolicy{"account_get_sign_in_policy",
    "SELECT COALESCE((SELECT totp_required FROM sign_in_policies WHERE tenant_id = $1), false) AS totp_required"};
// $2 totp_required
inline constexpr Statement kPutSignInPolicy{"account_put_sign_in_policy",
    "INSERT INTO sign_in_policies (tenant_id, totp_required) VALUES ($1, $2::boolean) ON CONFLICT (tenant_id) "
    "DO UPDATE SET totp_required = EXCLUDED.totp_required, updated_at = now() RETURNING totp_required"};
// ---- Single sign-on (sso.cpp, docs/sso.md). $1 tenant. Never the client secret itself.
#define ICAT_SSO_COLUMNS                                                                                      \
  "issuer, client_id, display_name, scopes, groups_claim, role_mapping::text, default_role, allowed_domains, " \
  "required, break_glass_email, max_session_hours, rfc3339(updated_at) AS updated_at"
inline constexpr Statement kGetSso{"account_get_sso",
    "SELECT " ICAT_SSO_COLUMNS " FROM sso_configs WHERE tenant_id = $1"};
// Whether a client secret is stored; locked, so a save that keeps it keeps one.
inline constexpr Statement kSsoSecretStored{"account_sso_secret_stored",
    "SELECT true AS stored FROM sso_configs WHERE tenant_id = $1 FOR UPDATE"};
// $2 issuer, $3 client id, $4 the sealed client secret (bytea hex; NULL keeps the stored one), $5
// display name, $6 scopes, $7 groups claim, $8 role mapping (JSON object), $9 default role, $10
// allowed domains, $11 required, $12 break-glass email, $13 maximum session hours. The stored secret
// is taken into the VALUES as well: Postgres checks NOT NULL on the row proposed for insertion
// before ON CONFLICT turns it into an update.
inline constexpr Statement kPutSso{"account_put_sso",
    "INSERT INTO sso_configs AS s (tenant_id, issuer, client_id, client_secret, display_name, scopes, groups_claim, "
    "role_mapping, default_role, allowed_domains, required, break_glass_email, max_session_hours) "
    "VALUES ($1, $2, $3, COALESCE($4::bytea, (SELECT c.client_secret FROM sso_configs c WHERE c.tenant_id = $1)), "
    "$5, $6::text[], $7, $8::jsonb, $9, $10::text[], $11, $12, $13) "
    "ON CONFLICT (tenant_id) DO UPDATE SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id, "
    "client_secret = COALESCE($4::bytea, s.client_secret), display_name = EXCLUDED.display_name, "
    "scopes = EXCLUDED.scopes, groups_claim = EXCLUDED.groups_claim, role_mapping = EXCLUDED.role_mapping, "
    "default_role = EXCLUDED.default_role, allowed_domains = EXCLUDED.allowed_domains, required = EXCLUDED.required, "
    "break_glass_email = EXCLUDED.break_glass_email, max_session_hours = EXCLUDED.max_session_hours, "
    "updated_at = now() "
    "RETURNING " ICAT_SSO_COLUMNS};
inline constexpr Statement kDeleteSso{"account_delete_sso",
    "DELETE FROM sso_configs WHERE tenant_id = $1 RETURNING issuer"};
// $2 email: whether it names an active admin of the tenant (enabled, with a password): the one
// person who may still sign in with a password when SSO is required.
inline constexpr Statement kBreakGlassAdmin{"account_break_glass_admin",
    "SELECT EXISTS (SELECT FROM users WHERE tenant_id = $1 AND lower(email) = lower($2) AND role = 'admin' "
    "AND disabled_at IS NULL AND has_password) AS ok"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kListKeys, kInsertKey, kKeyForRevoke, kRevokeKey, kListWatches, kWatchedImages, kInsertWatch,
    kDeleteWatch, kListRequests, kInsertRequest, kImageVisible, kListWebhooks, kUpsertWebhook, kUpdateWebhook,
    kWebhookUrlTaken, kDeleteWebhook, kWebhookForPing, kWebhookExists, kListDeliveries, outbox::kInsertPing,
    kListChannels, kChannelById, kChannelTypeForUpdate, kInsertChannel, kUpdateChannel, kDeleteChannel,
    outbox::kSetMailAddresses, kUnlicensedImages, kChannelExists, kListChannelDeliveries,
    kGetPolicy, kPutPolicy, kVisibleImages, kListDecisions, kListAudit, kListUsers, kInsertUser,
    kUserForChange, kOtherActiveAdmins, kUpdateUser, kRevokeUserSessions, kDeleteUser, kIssueSetupToken,
    kGetSignInPolicy, kPutSignInPolicy, kDeleteTotpFactor,
    kGetSso, kSsoSecretStored, kPutSso, kDeleteSso, kBreakGlassAdmin,
};
// clang-format on

#undef ICAT_AFTER
#undef ICAT_USER
#undef ICAT_KEY_COLUMNS
#undef ICAT_WATCH_COLUMNS
#undef ICAT_REQUEST_COLUMNS
#undef ICAT_WEBHOOK_COLUMNS
#undef ICAT_CHANNEL_COLUMNS
#undef ICAT_USER_COLUMNS
#undef ICAT_USER_RETURNING
#undef ICAT_SSO_COLUMNS

}  // namespace icat::account
