// Sending digests (docs/notifications.md, "Digests"): for each e-mail channel with a daily or weekly
// digest that is due, its digest is read and queued in one transaction: the period recorded
// (notification_digests, sql/V0036), and, unless it is empty, an event of type "digest" with a
// delivery per confirmed address, which the dispatcher then sends like any other (claims, retries,
// the SMTP send, List-Unsubscribe). Run by the dispatcher each minute and by `icatctl digests send`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "icat/db.hpp"

namespace icat::dispatcher {

// The type of a digest's outbox event: born fanned out, with one delivery per confirmed address.
inline constexpr std::string_view kDigestEvent = "digest";

struct DigestRun {
  std::string console_url;  // ICAT_CONSOLE_URL
  int hour = 7;             // ICAT_DIGEST_HOUR
  std::chrono::system_clock::time_point now;
  bool by_hand = false;                  // the period ends now, whatever the hour (icatctl digests send)
  std::optional<std::string> tenant;     // only this tenant's channels (its subdomain)
  std::optional<std::string> channel_id; // only this channel
};

struct DigestsQueued {
  int sent = 0;   // digests queued for their addresses
  int empty = 0;  // periods recorded with nothing to say: no mail
};

// Queues the digests due; a channel that fails (Postgres) is left for the next run. Throws DbError
// when the channels cannot be read.
DigestsQueued QueueDueDigests(Db& db, const DigestRun& run);

}  // namespace icat::dispatcher
