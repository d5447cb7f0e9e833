// Where a read-only request reads: a standby of ICAT_PG_READ_DSN when it is up, not lagging more
// than ICAT_PG_MAX_REPLICA_LAG_MS and has replayed the client's own last write; else the primary
// (docs/operations.md, "Replicas and failover").
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icat/config.hpp"
#include "icat/db.hpp"
#include "icat/redis.hpp"

namespace icat {

// A WAL position as Postgres prints it ("16/B374D848") as a number; nullopt when it is not one.
std::optional<uint64_t> ParseLsn(std::string_view text);

// The Redis keys under which a client's last write is remembered and looked up: its credential
// (an API key, a signed-in person) and its address, so that a sign-in (no credential yet) and the
// reads that follow it meet too. Empty parts are left out.
std::vector<std::string> ClientWriteKeys(std::string_view key_id, std::string_view user_id, std::string_view client_ip);

// A worker's standby connection and what it last saw of the standby.
class Replicas {
 public:
  Replicas(const Config& config, std::vector<Statement> statements);

  // The standby to read on for a client (its ClientWriteKeys), or nullptr for the primary; counts
  // the choice in the metrics. Never throws: a standby or Redis that fails means the primary.
  Db* StandbyFor(const std::vector<std::string>& client_keys, Redis& redis);
  // The standby failed during a read: skipped for a while; the read runs again on the primary.
  void MarkDown();
  // After a client's committed write: the primary's WAL position, remembered under its keys for a
  // while, so that its next reads go where the write is visible. Never throws.
  void RememberWrite(const std::vector<std::string>& client_keys, Db& primary, Redis& redis);

 private:
  using Clock = std::chrono::steady_clock;
  struct Seen {
    bool up = false;
    uint64_t replay_lsn = 0;
    long long lag_ms = 0;
    Clock::time_point until{};  // when to look again
  };
  const Seen& Look();
  std::optional<uint64_t> ClientWrite(const std::vector<std::string>& client_keys, Redis& redis);

  Db standby_;
  int max_lag_ms_;
  Seen seen_;
};

}  // namespace icat
