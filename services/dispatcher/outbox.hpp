// The dispatcher's side of Postgres: which tenants have work, fan-out, claiming due deliveries
// under a lease, and recording what happened. Everything runs as icat_app inside a tenant's
// transaction, so row-level security holds here too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icat/db.hpp"

namespace icat::dispatcher {

const std::vector<Statement>& OutboxStatements();

// Tenants with events to fan out or deliveries due, at most `limit`.
std::vector<std::string> TenantsWithWork(Db& db, int limit);

// Creates one delivery per active subscription whose events include the event's type, for the
// tenant's events not fanned out yet. Returns how many events it handled.
int FanOut(Db& db, const std::string& tenant_id);

struct Claimed {
  std::string delivery_id;
  int attempts = 0;  // before this one
  std::string event_id, type, created_at, payload_json;
  std::string webhook_id, url, secret;
  bool webhook_active = true;
};

// Claims up to `batch` due deliveries of the tenant: their next_attempt_at moves `lease_seconds`
// ahead and the claim commits at once, so a dispatcher that dies mid-send leaves them due again
// when the lease ends (at-least-once), and a second dispatcher skips them meanwhile.
std::vector<Claimed> ClaimDue(Db& db, const std::string& tenant_id, int batch, int lease_seconds);

struct Outcome {
  std::optional<int> status;  // HTTP status, when a response came
  std::string error;          // why it failed, when it did
  bool succeeded = false;
  std::optional<int> retry_in_seconds;  // when it failed and the schedule allows another attempt
  bool disable_subscription = false;    // 410 Gone
};

void Record(Db& db, const std::string& tenant_id, const Claimed& delivery, const Outcome& outcome);

// Deletes finished log rows older than `keep_days`; returns how many deliveries went.
long Prune(Db& db, int keep_days);

}  // namespace icat::dispatcher
