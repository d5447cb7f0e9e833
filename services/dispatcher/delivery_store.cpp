// Outbox and delivery-log statements of the dispatcher.
#include "delivery_store.hpp"

#include "icat/crypto.hpp"
#include "icat/outbox.hpp"

namespace icat::dispatcher {

using namespace icat::outbox;  // the statements (icat/outbox.hpp)


const std::vector<Statement>& OutboxStatements() {
  static const std::vector<Statement> statements = {
      kTenantsWithWork, kFanOut, kClaim, kSucceeded, kRetry,      kFailed,
      kDisable,         kPrune,  kBeat,  kStopped,   kPruneBeats, kBacklog,
      kChannelRefused,  kChannelDelivered, kAddressTokens,
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
            payload = rows.Column("payload"), target_id = rows.Column("target_id"), url = rows.Column("url"),
            secret = rows.Column("secret"), active = rows.Column("active"), traceparent = rows.Column("traceparent"),
            channel_type = rows.Column("channel_type"), tenant = rows.Column("tenant"),
            channel_name = rows.Column("channel_name"), address_id = rows.Column("address_id"),
            address = rows.Column("address"), address_state = rows.Column("address_state");
  std::vector<Claimed> claimed;
  for (int row = 0; row < rows.size(); row++) {
    Claimed c;
    c.delivery_id = rows.Text(row, delivery_id);
    c.attempts = static_cast<int>(rows.Int(row, attempts));
    c.event_id = rows.Text(row, event_id);
    c.type = rows.Text(row, type);
    c.created_at = rows.Text(row, created_at);
    c.payload_json = rows.Text(row, payload);
    c.target_id = rows.Text(row, target_id);
    c.channel_type = rows.OptionalText(row, channel_type).value_or("");
    c.url = rows.OptionalText(row, url).value_or("");  // none for an e-mail channel
    c.secret = rows.OptionalText(row, secret).value_or("");
    c.active = rows.Bool(row, active);
    c.tenant = rows.Text(row, tenant);
    c.traceparent = rows.OptionalText(row, traceparent).value_or("");
    c.channel_name = rows.OptionalText(row, channel_name).value_or("");
    c.address_id = rows.OptionalText(row, address_id).value_or("");
    c.address = rows.OptionalText(row, address).value_or("");
    c.address_state = rows.OptionalText(row, address_state).value_or("");
    claimed.push_back(std::move(c));
  }
  return claimed;
}

void KeepAddressTokens(Db& db, const std::string& tenant_id, const std::string& address_id,
                       const std::string& confirm_token, const std::string& unsubscribe_token) {
  db.BeginForTenant(tenant_id);
  // The portal hashes the token's bytes as the link carries them, base64url (handlers/auth/mail_addresses.cpp).
  auto hash = [](const std::string& token) { return ByteaHex(Sha256(Base64UrlDecode(token).value_or(""))); };
  db.Exec(kAddressTokens, {address_id, hash(confirm_token), hash(unsubscribe_token)});
  db.Commit();
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
  if (outcome.disable_subscription) db.Exec(kDisable, {delivery.target_id, "The receiver answered 410 Gone."});
  if (outcome.refused_for_good) {
    db.Exec(kChannelRefused, {delivery.target_id, kChannelRefusalsToDisable,
                              "The service refused " + std::to_string(kChannelRefusalsToDisable) +
                                  " messages in a row (last: " + outcome.error + ")."});
  } else if (outcome.succeeded && !delivery.channel_type.empty()) {
    db.Exec(kChannelDelivered, {delivery.target_id});
  }
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
