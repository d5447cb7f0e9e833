// The webhook outbox's SQL, all of it, in one place: the writers (icatctl ingest's events, the
// portal's ping) and the dispatcher's reads and updates (services/dispatcher/delivery_store.cpp runs
// them). Events and deliveries are written nowhere else; their tables and the functions the
// dispatcher calls are in sql/ (V0005, V0011, V0013).
#pragma once

#include "icat/db.hpp"

namespace icat::outbox {

// clang-format off
// ---- Writers: an event per licensed tenant of an image ($1 image, $2 type, $3 data) or for one
// tenant ($1 tenant, $2 data, cve_watch.matched), with the traceparent ($4, $3) its deliveries
// pass on: the trace of whatever caused it (an ingest run, a request).
inline constexpr Statement kEventPerLicensee{"outbox_event_per_licensee",
    "INSERT INTO events (tenant_id, type, payload, traceparent) "
    "SELECT tenant_id, $2, $3::jsonb, $4 FROM licenses WHERE image_id = $1"};
inline constexpr Statement kEventForTenant{"outbox_event_for_tenant",
    "INSERT INTO events (tenant_id, type, payload, traceparent) VALUES ($1, 'cve_watch.matched', $2::jsonb, $3)"};
// $3 the event's data, $4 the request's traceparent (its delivery passes it on). The event is
// born fanned out: its one delivery, to this subscription alone, is written here, and the
// dispatcher sends it like any other due delivery.
inline constexpr Statement kInsertPing{"outbox_insert_ping",
    "WITH e AS (INSERT INTO events (tenant_id, type, payload, fanned_out_at, traceparent) "
    "VALUES ($1, 'ping', $3::jsonb, now(), $4) "
    "RETURNING id), d AS (INSERT INTO deliveries (tenant_id, event_id, webhook_id) SELECT $1, e.id, $2::uuid FROM e "
    "RETURNING id, event_id) SELECT event_id, id AS delivery_id FROM d"};

// An e-mail channel's addresses (the portal's POST and PUT, sql/V0035): $1 tenant, $2 channel, $3
// its addresses from now on, $4 the request's traceparent. The others go (with their deliveries);
// addresses kept keep their state; new ones start pending, each with its one confirmation mail
// queued here: an event born fanned out with its one delivery, to that address (the dispatcher
// writes the mail). Returns how many are new.
inline constexpr Statement kSetMailAddresses{"outbox_set_mail_addresses",
    "WITH gone AS (DELETE FROM notification_addresses WHERE tenant_id = $1 AND channel_id = $2::uuid "
    "  AND NOT address = ANY ($3::text[])), "
    "added AS (INSERT INTO notification_addresses (channel_id, tenant_id, address) "
    "  SELECT $2::uuid, $1, x FROM unnest($3::text[]) x ON CONFLICT (channel_id, address) DO NOTHING RETURNING id), "
    "e AS (INSERT INTO events (tenant_id, type, payload, fanned_out_at, traceparent) "
    "  SELECT $1, 'notification_address.confirm', jsonb_build_object('addressId', id), now(), $4 FROM added "
    "  RETURNING id, payload), "
    "d AS (INSERT INTO deliveries (tenant_id, event_id, channel_id, address_id) "
    "  SELECT $1, e.id, $2::uuid, (e.payload ->> 'addressId')::uuid FROM e RETURNING id) "
    "SELECT count(*) AS added FROM d"};

// ---- The dispatcher
inline constexpr Statement kTenantsWithWork{"dispatch_tenants", "SELECT tenant_id FROM dispatch_tenants_with_work($1)"};
// Events are claimed with SKIP LOCKED, so dispatchers side by side never fan out one twice. Each
// event goes to the tenant's active webhook subscriptions and notification channels of its type;
// to a channel only when channel_wants it (sql/V0034: its images, its minimum severity); to an
// e-mail channel, one per confirmed address (sql/V0035; a digest channel subscribes to no event).
inline constexpr Statement kFanOut{"dispatch_fan_out",
    "WITH pending AS (SELECT id, tenant_id, type, payload FROM events WHERE fanned_out_at IS NULL "
    "  ORDER BY created_at LIMIT 200 FOR UPDATE SKIP LOCKED), "
    "to_webhooks AS (INSERT INTO deliveries (tenant_id, event_id, webhook_id) "
    "  SELECT p.tenant_id, p.id, w.id FROM pending p JOIN webhooks w "
    "  ON w.tenant_id = p.tenant_id AND w.active AND p.type = ANY (w.events) "
    "  ON CONFLICT (event_id, webhook_id) DO NOTHING), "
    "to_channels AS (INSERT INTO deliveries (tenant_id, event_id, channel_id) "
    "  SELECT p.tenant_id, p.id, c.id FROM pending p JOIN notification_channels c "
    "  ON c.tenant_id = p.tenant_id AND c.active AND p.type = ANY (c.events) AND c.type <> 'email' "
    "  WHERE channel_wants(c.image_ids, c.min_severity, p.payload) "
    "  ON CONFLICT (event_id, channel_id) WHERE address_id IS NULL DO NOTHING), "
    "to_addresses AS (INSERT INTO deliveries (tenant_id, event_id, channel_id, address_id) "
    "  SELECT p.tenant_id, p.id, c.id, a.id FROM pending p JOIN notification_channels c "
    "  ON c.tenant_id = p.tenant_id AND c.active AND p.type = ANY (c.events) AND c.type = 'email' "
    "  JOIN notification_addresses a ON a.channel_id = c.id AND a.state = 'confirmed' "
    "  WHERE channel_wants(c.image_ids, c.min_severity, p.payload) "
    "  ON CONFLICT (event_id, address_id) WHERE address_id IS NOT NULL DO NOTHING) "
    "UPDATE events SET fanned_out_at = now() WHERE id IN (SELECT id FROM pending)"};
// $1 most to claim, $2 lease seconds, $3 limit per subscription, $4 the tenant's deliveries
// this dispatcher has in flight. A subscription (a webhook or a channel: `target`) counts its
// in-flight deliveries against its limit, so a slow receiver holds only its own slots. Window
// functions cannot sit beside FOR UPDATE: the candidates are locked first, then ranked per
// subscription; a backlog of one subscription fills the candidates at most until it is at its
// limit and left out. A channel's row names its type (slack, teams, email) and its tenant's
// subdomain (the console's links), an e-mail channel's its address; a webhook's, its secret.
inline constexpr Statement kClaim{"dispatch_claim",
    "WITH busy AS (SELECT coalesce(webhook_id, channel_id) AS target, count(*) AS n FROM deliveries "
    "  WHERE id = ANY ($4::uuid[]) GROUP BY 1), "
    "candidate AS (SELECT id, coalesce(webhook_id, channel_id) AS target, next_attempt_at FROM deliveries "
    "  WHERE state = 'pending' AND next_attempt_at <= now() AND NOT id = ANY ($4::uuid[]) "
    "  AND coalesce(webhook_id, channel_id) NOT IN (SELECT target FROM busy WHERE n >= $3) "
    "  ORDER BY next_attempt_at LIMIT 200 FOR UPDATE SKIP LOCKED), "
    "ranked AS (SELECT c.id, c.next_attempt_at, coalesce(b.n, 0) "
    "  + row_number() OVER (PARTITION BY c.target ORDER BY c.next_attempt_at) AS slot "
    "  FROM candidate c LEFT JOIN busy b USING (target)), "
    "due AS (SELECT id FROM ranked WHERE slot <= $3 ORDER BY next_attempt_at LIMIT $1), "
    "claimed AS (UPDATE deliveries d SET next_attempt_at = now() + make_interval(secs => $2), "
    "  updated_at = now() FROM due WHERE d.id = due.id "
    "  RETURNING d.id, d.attempts, d.event_id, d.webhook_id, d.channel_id, d.address_id) "
    "SELECT c.id AS delivery_id, c.attempts, e.id AS event_id, e.type, rfc3339(e.created_at) AS created_at, "
    "e.payload::text AS payload, coalesce(w.id, n.id) AS target_id, coalesce(w.url, n.url) AS url, w.secret, "
    "coalesce(w.active, n.active) AS active, e.traceparent, n.type AS channel_type, t.subdomain AS tenant, "
    "n.name AS channel_name, a.id AS address_id, a.address, a.state AS address_state "
    "FROM claimed c JOIN events e ON e.id = c.event_id JOIN tenants t ON t.id = e.tenant_id "
    "LEFT JOIN webhooks w ON w.id = c.webhook_id LEFT JOIN notification_channels n ON n.id = c.channel_id "
    "LEFT JOIN notification_addresses a ON a.id = c.address_id"};
// $1 address, $2 and $3 the SHA-256 of its confirm and unsubscribe tokens (bytea literals): kept
// before its confirmation mail goes, so the link works the moment the mail arrives. The tokens are
// the same on every attempt (services/dispatcher/mail.hpp); the link expires 7 days after the first.
inline constexpr Statement kAddressTokens{"dispatch_address_tokens",
    "UPDATE notification_addresses SET confirm_token_sha256 = $2::bytea, unsubscribe_token_sha256 = $3::bytea, "
    "confirm_expires_at = coalesce(confirm_expires_at, now() + interval '7 days') WHERE id = $1 AND state = 'pending'"};
// $1 delivery, $2 status
inline constexpr Statement kSucceeded{"dispatch_succeeded",
    "UPDATE deliveries SET state = 'succeeded', attempts = attempts + 1, last_status = $2, last_error = NULL, "
    "updated_at = now() WHERE id = $1"};
// $1 delivery, $2 status or NULL, $3 error, $4 seconds until the next attempt
inline constexpr Statement kRetry{"dispatch_retry",
    "UPDATE deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3, "
    "next_attempt_at = now() + make_interval(secs => $4), updated_at = now() WHERE id = $1"};
// $1 delivery, $2 status or NULL, $3 error
inline constexpr Statement kFailed{"dispatch_failed",
    "UPDATE deliveries SET state = 'failed', attempts = attempts + 1, last_status = $2, last_error = $3, "
    "updated_at = now() WHERE id = $1"};
// $1 webhook, $2 reason
inline constexpr Statement kDisable{"dispatch_disable_webhook",
    "UPDATE webhooks SET active = false, disabled_reason = $2, updated_at = now() WHERE id = $1"};
// $1 channel, $2 refusals that disable it, $3 the reason then: a refusal for good (a 4xx) counts,
// and the channel is disabled at the limit.
inline constexpr Statement kChannelRefused{"dispatch_channel_refused",
    "UPDATE notification_channels SET refusals = refusals + 1, active = active AND refusals + 1 < $2, "
    "disabled_reason = CASE WHEN refusals + 1 >= $2 THEN $3 ELSE disabled_reason END, updated_at = now() "
    "WHERE id = $1"};
// $1 channel: a delivery went through, so its refusals start again from none.
inline constexpr Statement kChannelDelivered{"dispatch_channel_delivered",
    "UPDATE notification_channels SET refusals = 0 WHERE id = $1 AND refusals > 0"};
// $1 days
inline constexpr Statement kPrune{"dispatch_prune", "SELECT dispatch_prune(make_interval(days => $1)) AS pruned"};
// $1 dispatcher (host:pid), $2 seconds between beats
inline constexpr Statement kBeat{"dispatch_beat",
    "INSERT INTO dispatcher_heartbeats (dispatcher, every_seconds) VALUES ($1, $2) "
    "ON CONFLICT (dispatcher) DO UPDATE SET beat_at = now()"};
inline constexpr Statement kStopped{"dispatch_stopped", "DELETE FROM dispatcher_heartbeats WHERE dispatcher = $1"};
// Rows of dispatchers that died without a clean stop: stale for a day, then gone.
inline constexpr Statement kPruneBeats{"dispatch_prune_beats",
    "DELETE FROM dispatcher_heartbeats WHERE beat_at < now() - interval '1 day'"};
inline constexpr Statement kBacklog{"dispatch_backlog", "SELECT waiting, oldest_seconds FROM dispatch_backlog()"};
// clang-format on

}  // namespace icat::outbox
