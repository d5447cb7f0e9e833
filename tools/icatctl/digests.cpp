// icatctl digests send: queues now the digests of e-mail channels that are due, whatever the hour
// (docs/notifications.md, "Digests"); the dispatcher sends them.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "icat/config.hpp"
#include "ingest/session.hpp"
#include "services/dispatcher/digest_job.hpp"

namespace icat::ctl {

void DigestsSend(const Args& args) {
  Session session;
  dispatcher::DigestRun run{session.config.console_url,     IntSetting("ICAT_DIGEST_HOUR"),
                            std::chrono::system_clock::now(), true,
                            args.Optional("tenant"),          args.Optional("channel")};
  if (run.tenant) (void)TenantId(session.db, *run.tenant);  // an unknown tenant is a Failure, not "0 queued"
  dispatcher::DigestsQueued queued = dispatcher::QueueDueDigests(session.db, run);
  std::cout << queued.sent << " digests queued, " << queued.empty << " empty (nothing to send)\n";
}

}  // namespace icat::ctl
