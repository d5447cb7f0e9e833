// Queues the digests that are due (digest_job.hpp).
#include "digest_job.hpp"

#include <ctime>

#include "channel_messages.hpp"
#include "digest.hpp"
#include "icat/log.hpp"

namespace icat::dispatcher {

namespace {

using Clock = std::chrono::system_clock;

constexpr std::string_view kDigestChannels =
    "SELECT channel_id, tenant_id, subdomain, digest, extract(epoch FROM last_until)::bigint AS last_until "
    "FROM digest_channels()";
// Under the channel's row lock, so two dispatchers (or one and icatctl) never queue one period
// twice: the last period's end as of now, and the channel's filters.
constexpr std::string_view kLockChannel =
    "SELECT c.digest, coalesce(c.min_severity, 'high') AS min_severity, c.image_ids::text AS image_ids, "
    "(SELECT extract(epoch FROM max(d.until))::bigint FROM notification_digests d WHERE d.channel_id = c.id) AS last_until "
    "FROM notification_channels c WHERE c.id = $1 AND c.digest IS NOT NULL AND c.active FOR UPDATE";
// $1 tenant, $2 channel, $3 since, $4 until, $5 the payload or NULL for an empty digest, $6 kDigestEvent.
constexpr std::string_view kRecord =
    "WITH e AS (INSERT INTO events (tenant_id, type, payload, fanned_out_at) "
    "  SELECT $1, $6, $5::jsonb, now() WHERE $5 IS NOT NULL RETURNING id), "
    "d AS (INSERT INTO deliveries (tenant_id, event_id, channel_id, address_id) "
    "  SELECT $1, e.id, $2, a.id FROM e JOIN notification_addresses a ON a.channel_id = $2 AND a.state = 'confirmed') "
    "INSERT INTO notification_digests (channel_id, tenant_id, since, until, event_id) "
    "SELECT $2, $1, $3, $4, (SELECT id FROM e)";

std::string Rfc3339Of(Clock::time_point t) {
  std::time_t seconds = Clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::optional<Clock::time_point> EpochOf(const Rows& rows, int row, const char* column) {
  int col = rows.Column(column);
  if (rows.IsNull(row, col)) return std::nullopt;
  return Clock::time_point(std::chrono::seconds(rows.Int(row, col)));
}

// One channel's digest, if due, in a transaction of its tenant. True when one was queued or recorded.
std::optional<bool> QueueOne(Db& db, const DigestRun& run, const std::string& channel_id, const std::string& tenant_id,
                             const std::string& subdomain) {
  db.BeginForTenant(tenant_id);
  Rows channel = db.RunSql(kLockChannel, {channel_id});
  if (channel.empty()) {
    db.Rollback();
    return std::nullopt;
  }
  std::optional<Clock::time_point> last_until = EpochOf(channel, 0, "last_until");
  const std::string cadence(channel.Text(0, channel.Column("digest")));
  std::optional<DigestPeriod> period = DuePeriod(cadence, run.hour, run.now, last_until, run.by_hand);
  if (!period) {
    db.Rollback();
    return std::nullopt;
  }
  DigestScope scope{tenant_id,
                    cadence,
                    Rfc3339Of(period->since),
                    Rfc3339Of(period->until),
                    std::string(channel.Text(0, channel.Column("min_severity"))),
                    ParseTextArray(channel.Text(0, channel.Column("image_ids"))),
                    TenantConsole(run.console_url, subdomain)};
  Digest digest = ReadDigest(db, scope);
  std::optional<std::string> payload;
  if (!digest.empty()) payload = DigestPayload(digest);
  db.ExecSql(kRecord, {tenant_id, channel_id, scope.since, scope.until, payload, kDigestEvent});
  db.Commit();
  return !digest.empty();
}

}  // namespace

DigestsQueued QueueDueDigests(Db& db, const DigestRun& asked) {
  // Periods are recorded in whole seconds: a period shorter than one is none.
  DigestRun run = asked;
  run.now = std::chrono::floor<std::chrono::seconds>(asked.now);
  DigestsQueued queued;
  Rows channels = db.RunSql(kDigestChannels);
  for (int i = 0; i < channels.size(); i++) {
    const std::string channel_id(channels.Text(i, channels.Column("channel_id")));
    const std::string tenant_id(channels.Text(i, channels.Column("tenant_id")));
    const std::string subdomain(channels.Text(i, channels.Column("subdomain")));
    if ((run.tenant && *run.tenant != subdomain) || (run.channel_id && *run.channel_id != channel_id)) continue;
    // Most minutes nothing is due: no transaction for it (QueueOne asks again under the lock).
    if (!DuePeriod(channels.Text(i, channels.Column("digest")), run.hour, run.now, EpochOf(channels, i, "last_until"),
                   run.by_hand)) {
      continue;
    }
    try {
      std::optional<bool> sent = QueueOne(db, run, channel_id, tenant_id, subdomain);
      if (sent) (*sent ? queued.sent : queued.empty)++;
    } catch (const DbError& e) {
      db.Rollback();
      LogWarn("digest of channel " + channel_id + " not queued; postgres: " + e.what());
    }
  }
  return queued;
}

}  // namespace icat::dispatcher
