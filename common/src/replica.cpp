// Where a read-only request reads (replica.hpp): a standby, unless it is down, lags, or has not
// replayed the client's own last write.
#include "icat/replica.hpp"

#include <algorithm>
#include <charconv>

#include "icat/log.hpp"
#include "icat/metrics.hpp"

namespace icat {

namespace {
// How long a look at the standby holds: the replay position only grows, so an older one is a safe
// lower bound; a few ms save a round trip per read without hiding a lag for long.
constexpr std::chrono::milliseconds kLookHolds{20};
// After the standby failed: the primary serves reads this long before the standby is asked again.
constexpr std::chrono::milliseconds kDownFor{1000};
// A look at the standby waits this long at most: a stalled standby costs a read little.
constexpr std::chrono::milliseconds kLookWaits{250};
// How long a client's last write is remembered: far longer than any standby that is not skipped
// lags (ICAT_PG_MAX_REPLICA_LAG_MS), so a remembered write is never forgotten while it matters.
constexpr std::chrono::milliseconds kRememberWrite{60000};

// The replay position (the current position on a server that is no standby) and the lag: none while
// the standby has replayed all it received (an idle primary sends nothing, which is not a lag).
constexpr std::string_view kLookSql =
    "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END::text "
    "AS replay_lsn, CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() "
    "THEN 0 ELSE COALESCE((EXTRACT(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::bigint, "
    "0) END AS lag_ms";

// Keeps the larger of the stored and the given position: two workers' writes of one client may
// finish in either order.
constexpr const char* kKeepLaterWrite =
    "local old = redis.call('GET', KEYS[1]) "
    "if not old or tonumber(old) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 1";
}  // namespace

std::optional<uint64_t> ParseLsn(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
  uint32_t high = 0, low = 0;
  auto [high_end, high_error] = std::from_chars(text.data(), text.data() + slash, high, 16);
  auto [low_end, low_error] = std::from_chars(text.data() + slash + 1, text.data() + text.size(), low, 16);
  if (high_error != std::errc() || low_error != std::errc() || high_end != text.data() + slash ||
      low_end != text.data() + text.size()) {
    return std::nullopt;
  }
  return (static_cast<uint64_t>(high) << 32) | low;
}

std::vector<std::string> ClientWriteKeys(std::string_view key_id, std::string_view user_id,
                                         std::string_view client_ip) {
  std::vector<std::string> keys;
  if (!key_id.empty()) keys.push_back("icat:written:key:" + std::string(key_id));
  if (!user_id.empty()) keys.push_back("icat:written:user:" + std::string(user_id));
  if (!client_ip.empty()) keys.push_back("icat:written:address:" + std::string(client_ip));
  return keys;
}

Replicas::Replicas(const Config& config, std::vector<Statement> statements)
    : standby_(config.pg_read_dsn, std::move(statements), config.pg_statement_timeout_ms),
      max_lag_ms_(config.pg_max_replica_lag_ms) {}

const Replicas::Seen& Replicas::Look() {
  Clock::time_point now = Clock::now();
  if (now < seen_.until) return seen_;
  try {
    standby_.StartBudget();
    standby_.ShortenBudget(kLookWaits);
    Rows rows = standby_.RunSql(kLookSql);
    std::optional<uint64_t> replay = ParseLsn(rows.Text(0, rows.Column("replay_lsn")));
    if (!replay) throw DbError("the standby gave no replay position", "", false);
    seen_ = {true, *replay, rows.Int(0, rows.Column("lag_ms")), now + kLookHolds};
    metrics::Set(metrics::Metric::kReplicaLagMs, static_cast<uint64_t>(std::max(0LL, seen_.lag_ms)));
  } catch (const DbError& e) {
    if (seen_.up) LogWarn(std::string("standby unavailable; reading on the primary: ") + e.what());
    seen_ = {false, 0, 0, now + kDownFor};
  }
  return seen_;
}

std::optional<uint64_t> Replicas::ClientWrite(const std::vector<std::string>& client_keys, Redis& redis) {
  if (client_keys.empty()) return 0;
  std::vector<std::string> command = {"MGET"};
  command.insert(command.end(), client_keys.begin(), client_keys.end());
  std::optional<RedisReply> reply = redis.Command(command);
  if (!reply || reply->type != RedisReply::Type::kArray) return std::nullopt;
  uint64_t latest = 0;
  for (const RedisReply& element : reply->elements) {
    if (element.IsNil()) continue;
    uint64_t position = 0;
    auto [end, error] = std::from_chars(element.text.data(), element.text.data() + element.text.size(), position);
    if (error != std::errc()) return std::nullopt;
    latest = std::max(latest, position);
  }
  return latest;
}

Db* Replicas::StandbyFor(const std::vector<std::string>& client_keys, Redis& redis) {
  const Seen& seen = Look();
  if (!seen.up) {
    metrics::Add(metrics::Metric::kReadsOnPrimaryDown);
    return nullptr;
  }
  if (seen.lag_ms > max_lag_ms_) {
    metrics::Add(metrics::Metric::kReadsOnPrimaryLag);
    return nullptr;
  }
  // Redis unreachable: the client's last write is unknown, so only the primary is sure to show it.
  std::optional<uint64_t> written = ClientWrite(client_keys, redis);
  if (!written || *written > seen.replay_lsn) {
    metrics::Add(metrics::Metric::kReadsOnPrimaryBehind);
    return nullptr;
  }
  metrics::Add(metrics::Metric::kReadsOnStandby);
  return &standby_;
}

void Replicas::MarkDown() {
  LogWarn("standby lost during a read; reading on the primary");
  seen_ = {false, 0, 0, Clock::now() + kDownFor};
  metrics::Add(metrics::Metric::kReadsOnPrimaryDown);
}

void Replicas::RememberWrite(const std::vector<std::string>& client_keys, Db& primary, Redis& redis) {
  if (client_keys.empty()) return;
  std::optional<uint64_t> position;
  try {
    Rows rows = primary.RunSql("SELECT pg_current_wal_insert_lsn()::text AS lsn");
    position = ParseLsn(rows.Text(0, rows.Column("lsn")));
  } catch (const DbError& e) {
    LogWarn(std::string("cannot read the primary's WAL position after a write: ") + e.what());
  }
  // Unknown, the client's reads could go backwards on a standby: remember the largest position.
  std::string remembered = position ? std::to_string(*position) : std::to_string(UINT64_MAX >> 11);
  std::vector<std::vector<std::string>> commands;
  for (const std::string& key : client_keys) {
    commands.push_back({"EVAL", kKeepLaterWrite, "1", key, remembered, std::to_string(kRememberWrite.count())});
  }
  if (!redis.Pipeline(commands)) LogWarn("redis: cannot remember a write's WAL position; reads follow the lag only");
}

}  // namespace icat
