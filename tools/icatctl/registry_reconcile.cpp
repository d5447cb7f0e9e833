// icatctl registry reconcile: publishes what the registry's push notifications missed (they are
// queued in the registry's memory and can be lost, docs/registry.md). For every catalogue image on
// ICAT_REGISTRY's host it reads the registry's tags and each tag's manifest, and hands each to
// publish_pushed_version (sql/V0027), as the notification handler does: both are idempotent, so a
// tag seen twice changes nothing. Like the handler, it skips cosign's attachment tags and artifacts.
// Then it runs icatctl registry attach's pass (registry_attach.hpp), so the versions' attestations
// follow them. With --every it runs as a daemon until SIGTERM or SIGINT.
#include <signal.h>

#include <ctime>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "icat/registry.hpp"
#include "icat/registry_client.hpp"
#include "ingest/session.hpp"
#include "registry_attach.hpp"

namespace icat::ctl {
namespace {

struct Outcomes {
  int images = 0, tags = 0;  // tags of images: cosign's attachments and artifacts are not counted
  int published = 0, known = 0, conflicts = 0;
  int not_pushed = 0;  // catalogue images the registry has no repository for (yet)
  int errors = 0;      // repositories whose answers could not be used
};

// One tag's manifest, published or found known (an artifact's is skipped); a conflict is named on stderr.
void ReconcileTag(Session& session, RegistryClient& registry, const std::string& repository, const std::string& name,
                  const std::string& tag, Outcomes& outcomes) {
  PushedManifest manifest = registry.Manifest(name, tag);
  if (IsArtifactConfig(manifest.config_media_type)) return;
  outcomes.tags++;
  Rows rows = session.db.RunSql("SELECT outcome, version_id FROM publish_pushed_version($1, $2, $3, $4)",
                                {repository, tag, manifest.digest, manifest.size_bytes});
  std::string outcome(rows.Text(0, rows.Column("outcome")));
  if (outcome == "published") {
    outcomes.published++;
    std::cerr << "published " << repository << ":" << tag << " " << manifest.digest << '\n';
  } else if (outcome == "known") {
    outcomes.known++;
  } else if (outcome == "conflict") {
    outcomes.conflicts++;
    Rows version = session.db.RunSql("SELECT digest FROM image_versions WHERE id = $1",
                                     {std::string(rows.Text(0, rows.Column("version_id")))});
    std::cerr << "conflict: " << repository << ":" << tag << " is " << manifest.digest
              << " in the registry, but the catalogue's version " << tag << " is "
              << (version.empty() ? "gone" : std::string(version.Text(0, 0)))
              << " (a version's digest never changes: push the rebuild under a new tag)\n";
  } else {  // no-image: the image was deleted while we walked
    outcomes.not_pushed++;
  }
}

// Whether SIGTERM or SIGINT (blocked by the caller) is waiting: the walk stops between requests.
bool StopRequested() {
  sigset_t pending;
  sigpending(&pending);
  return sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGINT) == 1;
}

// One walk over the registry, counted into outcomes; a RegistryUnreachable or DbError ends it early.
void ReconcileOnce(Session& session, Outcomes& outcomes) {
  RegistryClient registry(session.config.registry_upstream);
  registry.Probe();
  Rows images = session.db.RunSql("SELECT repository FROM images ORDER BY repository", {});
  const int repository_col = images.Column("repository");
  for (int row = 0; row < images.size() && !StopRequested(); ++row) {
    std::string repository(images.Text(row, repository_col));
    std::optional<std::string> name = RegistryName(session.config.registry, repository);
    if (!name) continue;  // an image of another registry
    outcomes.images++;
    try {
      std::optional<std::vector<std::string>> tags = registry.Tags(*name);
      if (!tags) {
        outcomes.not_pushed++;
        continue;
      }
      for (const std::string& tag : *tags) {
        if (StopRequested()) break;
        if (IsAttachmentTag(tag)) continue;  // cosign's .att, .sig, .sbom: no version, no request
        ReconcileTag(session, registry, repository, *name, tag, outcomes);
      }
    } catch (const RegistryAnswerError& error) {
      outcomes.errors++;
      std::cerr << "icatctl: " << error.what() << '\n';
    }
  }
}

void PrintSummary(const Outcomes& o) {
  std::cout << "registry reconcile: " << o.images << " images, " << o.tags << " tags: published " << o.published
            << ", known " << o.known << ", conflicts " << o.conflicts << ", not pushed " << o.not_pushed << ", errors "
            << o.errors << '\n'
            << std::flush;
}

// One pass with its own connection, then the attach pass; true when it read everything (conflicts
// are the catalogue's business, not the walk's).
bool RunPass() {
  Session session;
  RequireRegistryUpstream(session.config);
  Outcomes outcomes;
  try {
    ReconcileOnce(session, outcomes);
  } catch (...) {
    if (outcomes.published > 0) NoteCachedDataChanged(session);  // what was published before the failure
    throw;
  }
  PrintSummary(outcomes);
  if (outcomes.published > 0) NoteCachedDataChanged(session);
  if (StopRequested()) return outcomes.errors == 0;
  RegistryClient registry(session.config.registry_upstream);
  AttachOutcomes attached = AttachAttestations(session, registry, std::nullopt, StopRequested);
  PrintAttachSummary(attached);
  return outcomes.errors == 0 && attached.errors == 0;
}

// Waits up to seconds for SIGTERM or SIGINT (blocked); true when one came.
bool WaitForStop(long long seconds) {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  timespec timeout{static_cast<time_t>(seconds), 0};
  return sigtimedwait(&stop, nullptr, &timeout) > 0;
}

}  // namespace

// Once: exit 0 when every repository was read, 1 otherwise (an unreachable registry, a database
// error, an answer that is no registry's). --every: a pass, then a wait, until SIGTERM or SIGINT
// (exit 0); a failed pass is one line on stderr and the next pass comes all the same.
void RegistryReconcile(const Args& args) {
  std::optional<long long> every = args.Count("every", "seconds");
  if (every && *every < 1) throw UsageError("--every: at least 1 second");
  if (!every) {
    try {
      if (!RunPass()) throw Failure("some repositories could not be read (see above)");
    } catch (const RegistryUnreachable& error) {
      throw Failure(std::string("the registry cannot be read: ") + error.what());
    }
    return;
  }
  // Blocked, so they wait for a point where stopping leaves nothing half-done (between requests).
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  sigprocmask(SIG_BLOCK, &stop, nullptr);
  do {
    try {
      RunPass();
    } catch (const RegistryUnreachable& error) {
      std::cerr << "icatctl: the registry cannot be read: " << error.what() << '\n';
    } catch (const UsageError&) {
      throw;  // a bad setting stays bad: exit 2
    } catch (const SettingError&) {
      throw;
    } catch (const std::exception& error) {
      std::string message = error.what();  // libpq's messages span lines
      for (char& c : message) c = c == '\n' ? ' ' : c;
      std::cerr << "icatctl: registry reconcile: " << message << '\n';
    }
  } while (!StopRequested() && !WaitForStop(*every));
  std::cerr << "icatctl: registry reconcile stopped\n";
}

}  // namespace icat::ctl
