// The dispatcher's side of Postgres: which tenants have work, fan-out, claiming due deliveries
// under a lease, recording what happened, and its heartbeat. Everything runs as icat_app; tenants'
// rows only inside the tenant's transaction, so row-level security holds here too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icat/db.hpp"

namespace icat::dispatcher {

const std::vector<Statement>& OutboxStatements();

// Tenants with events to fan out or deliveries due, at most `limit`.
std::vector<std::string> TenantsWithWork(Db& db, int limit);

// Creates one delivery per active subscription (webhook or notification channel) whose events
// include the event's type, for the tenant's events not fanned out yet. Returns how many events it
// handled.
int FanOut(Db& db, const std::string& tenant_id);

struct Claimed {
  std::string delivery_id;
  int attempts = 0;  // before this one
  std::string event_id, type, created_at, payload_json;
  std::string target_id;     // the webhook subscription's or the notification channel's id
  std::string channel_type;  // slack, teams or email for a channel; empty for a webhook subscription
  std::string url, secret;   // secret: a webhook's (whsec_...); empty for a channel
  bool active = true;        // the subscription's
  std::string tenant;        // the tenant's subdomain (the console's links)
  std::string traceparent;   // of the request or ingest that caused the event; empty: none
  std::string channel_name;  // a channel's
  std::string address_id, address, address_state;  // an e-mail channel's address; empty otherwise
};

// The type of the event that carries an address's confirmation mail (outbox::kSetMailAddresses).
inline constexpr std::string_view kConfirmationEvent = "notification_address.confirm";

struct ClaimLimits {
  int most = 0;              // deliveries to claim at most (the tenant's and the dispatcher's free slots)
  int lease_seconds = 0;
  int per_subscription = 0;  // in flight at once per subscription, those of `in_flight` included
};

// Claims due deliveries of the tenant, oldest first, within `limits`; in_flight: the ids of the
// tenant's deliveries this dispatcher is sending now. Their next_attempt_at moves lease_seconds
// ahead and the claim commits at once, so a dispatcher that dies mid-send leaves them due again
// when the lease ends (at-least-once), and a second dispatcher skips them meanwhile.
std::vector<Claimed> ClaimDue(Db& db, const std::string& tenant_id, const ClaimLimits& limits,
                              const std::vector<std::string>& in_flight);

struct Outcome {
  std::optional<int> status;  // HTTP status, when a response came
  std::string error;          // why it failed, when it did
  bool succeeded = false;
  std::optional<int> retry_in_seconds;  // when it failed and the schedule allows another attempt
  bool disable_subscription = false;    // a webhook answered 410 Gone
  bool refused_for_good = false;        // a channel's service answered a 4xx: counts to its disabling
};

// How many refusals for good in a row disable a notification channel.
inline constexpr int kChannelRefusalsToDisable = 3;

// Keeps the SHA-256 of a pending address's confirm and unsubscribe tokens (before its confirmation mail).
void KeepAddressTokens(Db& db, const std::string& tenant_id, const std::string& address_id,
                       const std::string& confirm_token, const std::string& unsubscribe_token);

void Record(Db& db, const std::string& tenant_id, const Claimed& delivery, const Outcome& outcome);

// Deletes finished log rows older than `keep_days` and day-old heartbeats of dispatchers that died;
// returns how many deliveries went.
long Prune(Db& db, int keep_days);

// The dispatcher's heartbeat (dispatcher_heartbeats, read by GET /api/status): `dispatcher` names
// this process (host:pid); Stopped deletes its row at a clean stop.
void Beat(Db& db, const std::string& dispatcher, int every_seconds);
void Stopped(Db& db, const std::string& dispatcher);

// Events not fanned out and deliveries due, across tenants, and the oldest one's wait (metrics).
struct Backlog {
  long long waiting = 0, oldest_seconds = 0;
};
Backlog CurrentBacklog(Db& db);

}  // namespace icat::dispatcher
