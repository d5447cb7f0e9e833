// Outbox and delivery-log statements of the dispatcher.
#include "outbox.hpp"

namespace icat::dispatcher {

namespace {
// clang-format off
constexpr Statement kTenantsWithWork{"dispatch_tenants", "SELECT tenant_id FROM dispatch_tenants_with_work($1)"};
// Events are claimed with SKIP LOCKED, so dispatchers side by side never fan out one twice.
constexpr Statement kFanOut{"dispatch_fan_out",
    "WITH pending AS (SELECT id, tenant_id, type FROM events WHERE fanned_out_at IS NULL "
    "  ORDER BY created_at LIMIT 200 FOR UPDATE SKIP LOCKED), "
    "created AS (INSERT INTO deliveries (tenant_id, event_id, webhook_id) "
    "  SELECT p.tenant_id, p.id, w.id FROM pending p JOIN webhooks w "
    "  ON w.tenant_id = p.tenant_id AND w.active AND p.type = ANY (w.events) "
    "  ON CONFLICT (event_id, webhook_id) DO NOTHING) "
    "UPDATE events SET fanned_out_at = now() WHERE id IN (SELECT id FROM pending)"};
// $1 most to claim, $2 lease seconds, $3 limit per subscription, $4 the tenant's deliveries
// this dispatcher has in flight. A subscription's in-flight deliveries count against its limit,
// so a slow receiver holds only its own subscription's slots. Window functions cannot sit
// beside FOR UPDATE: the candidates are locked first, then ranked per subscription; a backlog
// of one subscription fills the candidates at most until it is at its limit and left out.
constexpr Statement kClaim{"dispatch_claim",
    "WITH busy AS (SELECT webhook_id, count(*) AS n FROM deliveries WHERE id = ANY ($4::uuid[]) GROUP BY webhook_id), "
    "candidate AS (SELECT id, webhook_id, next_attempt_at FROM deliveries "
    "  WHERE state = 'pending' AND next_attempt_at <= now() AND NOT id = ANY ($4::uuid[]) "
    "  AND webhook_id NOT IN (SELECT webhook_id FROM busy WHERE n >= $3) "
    "  ORDER BY next_attempt_at LIMIT 200 FOR UPDATE SKIP LOCKED), "
    "ranked AS (SELECT c.id, c.next_attempt_at, coalesce(b.n, 0) "
    "  + row_number() OVER (PARTITION BY c.webhook_id ORDER BY c.next_attempt_at) AS slot "
    "  FROM candidate c LEFT JOIN busy b USING (webhook_id)), "
    "due AS (SELECT id FROM ranked WHERE slot <= $3 ORDER BY next_attempt_at LIMIT $1), "
    "claimed AS (UPDATE deliveries d SET next_attempt_at = now() + make_interval(secs => $2), "
    "  updated_at = now() FROM due WHERE d.id = due.id "
    "  RETURNING d.id, d.attempts, d.event_id, d.webhook_id) "
    "SELECT c.id AS delivery_id, c.attempts, e.id AS event_id, e.type, rfc3339(e.created_at) AS created_at, "
    "e.payload::text AS payload, w.id AS webhook_id, w.url, w.secret, w.active, e.traceparent "
    "FROM claimed c JOIN events e ON e.id = c.event_id JOIN webhooks w ON w.id = c.webhook_id"};
// $1 delivery, $2 status
constexpr Statement kSucceeded{"dispatch_succeeded",
    "UPDATE deliveries SET state = 'succeeded', attempts = attempts + 1, last_status = $2, last_error = NULL, "
    "updated_at = now() WHERE id = $1"};
// $1 delivery, $2 status or NULL, $3 error, $4 seconds until the next attempt
constexpr Statement kRetry{"dispatch_retry",
    "UPDATE deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3, "
    "next_attempt_at = now() + make_interval(secs => $4), updated_at = now() WHERE id = $1"};
// $1 delivery, $2 status or NULL, $3 error
constexpr Statement kFailed{"dispatch_failed",
    "UPDATE deliveries SET state = 'failed', attempts = attempts + 1, last_status = $2, last_error = $3, "
    "updated_at = now() WHERE id = $1"};
// $1 webhook, $2 reason
constexpr Statement kDisable{"dispatch_disable_webhook",
    "UPDATE webhooks SET active = false, disabled_reason = $2, updated_at = now() WHERE id = $1"};
// $1 days
constexpr Statement kPrune{"dispatch_prune", "SELECT dispatch_prune(make_interval(days => $1)) AS pruned"};
// $1 dispatcher (host:pid), $2 seconds between beats
constexpr Statement kBeat{"dispatch_beat",
    "INSERT INTO dispatcher_heartbeats (dispatcher, every_seconds) VALUES ($1, $2) "
    "ON CONFLICT (dispatcher) DO UPDATE SET beat_at = now()"};
constexpr Statement kStopped{"dispatch_stopped", "DELETE FROM dispatcher_heartbeats WHERE dispatcher = $1"};
// Rows of dispatchers that died without a clean stop: stale for a day, then gone.
constexpr Statement kPruneBeats{"dispatch_prune_beats",
    "DELETE FROM dispatcher_heartbeats WHERE beat_at < now() - interval '1 day'"};
constexpr Statement kBacklog{"dispatch_backlog", "SELECT waiting, oldest_seconds FROM dispatch_backlog()"};
// clang-format on
}  // namespace

const std::vector<Statement>& OutboxStatements() {
  static const std::vector<Statement> statements = {
      kTenantsWithWork, kFanOut, kClaim, kSucceeded, kRetry,      kFailed,
      kDisable,         kPrune,  kBeat,  kStopped,   kPruneBeats, kBacklog,
  };
  return statements;
}

std::vector<std::string> TenantsWithWork(Db& db, int limit) {
  Rows rows = db.Run(kTenantsWithWork, {limit});
  std::vector<std::string> tenants;
  const int tenant_id = rows.Column("tenant_id");
  for (int row = 0; row < rows.size(); row++) tenants.emplace_back(rows.Text(row, tenant_id));
  return tenants;
}

int FanOut(Db& db, const std::string& tenant_id) {
  db.BeginForTenant(tenant_id);
  Rows updated = db.Run(kFanOut);
  db.Commit();
  return static_cast<int>(updated.affected());
}

std::vector<Claimed> ClaimDue(Db& db, const std::string& tenant_id, const ClaimLimits& limits,
                              const std::vector<std::string>& in_flight) {
  db.BeginForTenant(tenant_id);
  Rows rows = db.Run(kClaim, {limits.most, limits.lease_seconds, limits.per_subscription, TextArrayLiteral(in_flight)});
  db.Commit();
  const int delivery_id = rows.Column("delivery_id"), attempts = rows.Column("attempts"),
            event_id = rows.Column("event_id"), type = rows.Column("type"), created_at = rows.Column("created_at"),
            payload = rows.Column("payload"), webhook_id = rows.Column("webhook_id"), url = rows.Column("url"),
            secret = rows.Column("secret"), active = rows.Column("active"), traceparent = rows.Column("traceparent");
  std::vector<Claimed> claimed;
  for (int row = 0; row < rows.size(); row++) {
    Claimed c;
    c.delivery_id = rows.Text(row, delivery_id);
    c.attempts = static_cast<int>(rows.Int(row, attempts));
    c.event_id = rows.Text(row, event_id);
    c.type = rows.Text(row, type);
    c.created_at = rows.Text(row, created_at);
    c.payload_json = rows.Text(row, payload);
    c.webhook_id = rows.Text(row, webhook_id);
    c.url = rows.Text(row, url);
    c.secret = rows.Text(row, secret);
    c.webhook_active = rows.Bool(row, active);
    c.traceparent = rows.OptionalText(row, traceparent).value_or("");
    claimed.push_back(std::move(c));
  }
  return claimed;
}

void Record(Db& db, const std::string& tenant_id, const Claimed& delivery, const Outcome& outcome) {
  std::optional<std::string> status;
  if (outcome.status) status = std::to_string(*outcome.status);
  std::optional<std::string> error;
  if (!outcome.error.empty()) error = outcome.error.substr(0, 500);
  db.BeginForTenant(tenant_id);
  if (outcome.succeeded) {
    db.Exec(kSucceeded, {delivery.delivery_id, status});
  } else if (outcome.retry_in_seconds) {
    db.Exec(kRetry, {delivery.delivery_id, status, error, *outcome.retry_in_seconds});
  } else {
    db.Exec(kFailed, {delivery.delivery_id, status, error});
  }
  if (outcome.disable_subscription) db.Exec(kDisable, {delivery.webhook_id, "The receiver answered 410 Gone."});
  db.Commit();
}

long Prune(Db& db, int keep_days) {
  Rows rows = db.Run(kPrune, {keep_days});
  db.Exec(kPruneBeats);
  return static_cast<long>(rows.Int(0, rows.Column("pruned")));
}

void Beat(Db& db, const std::string& dispatcher, int every_seconds) { db.Exec(kBeat, {dispatcher, every_seconds}); }

void Stopped(Db& db, const std::string& dispatcher) { db.Exec(kStopped, {dispatcher}); }

Backlog CurrentBacklog(Db& db) {
  Rows rows = db.Run(kBacklog);
  return {rows.Int(0, rows.Column("waiting")), rows.Int(0, rows.Column("oldest_seconds"))};
}

}  // namespace icat::dispatcher
