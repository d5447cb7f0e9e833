// icat-dispatcher: delivers the outbox's events to tenants' webhook subscriptions, signed,
// retried on a schedule, at least once. Several can run side by side.
//
// The main thread owns the Postgres connection: it fans out, claims within the limits (all of the
// dispatcher, per tenant, per subscription), hands each claim to a worker thread (workers.hpp) and
// records what comes back. So one tenant's slow receiver or slow DNS holds its own slots only.
#include <curl/curl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <random>

#include "delivery_store.hpp"
#include "delivery_wire.hpp"
#include "mail.hpp"
#include "icat/config.hpp"
#include "icat/log.hpp"
#include "icat/metrics.hpp"
#include "workers.hpp"

namespace icat::dispatcher {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

volatile sig_atomic_t stop_requested = 0;
void OnStop(int) { stop_requested = 1; }

constexpr int kTenantsPerRound = 100;
constexpr auto kPruneEvery = std::chrono::hours(1);
// GET /api/status calls a dispatcher stale after three beats missed (sql/V0011).
constexpr int kBeatEverySeconds = 2;

struct Settings {
  std::vector<int> retry_schedule;  // ICAT_WEBHOOK_RETRY_SCHEDULE
  int timeout_seconds = 10;         // ICAT_WEBHOOK_TIMEOUT_SECONDS
  int keep_days = 30;               // ICAT_WEBHOOK_LOG_RETENTION_DAYS
  int poll_ms = 500;                // ICAT_DISPATCHER_POLL_MS
  int concurrency = 32;             // ICAT_WEBHOOK_CONCURRENCY: deliveries in flight at once
  int per_tenant = 8;               // ICAT_WEBHOOK_CONCURRENCY_PER_TENANT
  int per_subscription = 2;         // ICAT_WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION
  // A claimed delivery is due again after this, should this dispatcher die mid-send.
  int lease_seconds() const { return 2 * timeout_seconds + 5; }
};

Settings ReadSettings() {
  Settings s;
  s.retry_schedule = IntListSetting("ICAT_WEBHOOK_RETRY_SCHEDULE");
  s.timeout_seconds = IntSetting("ICAT_WEBHOOK_TIMEOUT_SECONDS");
  s.keep_days = IntSetting("ICAT_WEBHOOK_LOG_RETENTION_DAYS");
  s.poll_ms = IntSetting("ICAT_DISPATCHER_POLL_MS");
  s.concurrency = IntSetting("ICAT_WEBHOOK_CONCURRENCY");
  s.per_tenant = IntSetting("ICAT_WEBHOOK_CONCURRENCY_PER_TENANT");
  s.per_subscription = IntSetting("ICAT_WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION");
  return s;
}

// What happened to one attempt, by the rules of DESIGN.md section 7.
Outcome Judge(const Attempt& a, const Settings& settings, std::mt19937& random) {
  Outcome outcome;
  if (a.refused) {
    outcome.error = "not sent: " + *a.refused;
    outcome.retry_in_seconds = NextRetryDelay(settings.retry_schedule, a.delivery.attempts + 1, 0.5);
    return outcome;
  }
  if (a.mailed) {  // SMTP: a 5xx reply is the server's "never", like a channel's 4xx
    outcome.status = a.mailed->reply;
    outcome.error = a.mailed->error;
    outcome.succeeded = a.mailed->error.empty();
    outcome.refused_for_good = a.mailed->refused_for_good;
    if (!outcome.succeeded && !outcome.refused_for_good) {
      outcome.retry_in_seconds = NextRetryDelay(settings.retry_schedule, a.delivery.attempts + 1,
                                                std::uniform_real_distribution<>(0, 1)(random));
    }
    return outcome;
  }
  outcome.status = a.sent.status;
  outcome.error = a.sent.error;
  if (a.sent.status && *a.sent.status >= 200 && *a.sent.status < 300) {
    outcome.succeeded = true;
    return outcome;
  }
  if (a.sent.status) outcome.error = "HTTP " + std::to_string(*a.sent.status);
  if (a.sent.status == 410 && a.delivery.channel_type.empty()) {
    outcome.disable_subscription = true;  // the receiver says it is gone for good: no retries
    return outcome;
  }
  // Slack and Teams answer a 4xx for what will never go through (a revoked hook, invalid_token,
  // a deleted channel): no retries, and enough of them in a row disable the channel. 408 and 429
  // are about now, not for good.
  if (!a.delivery.channel_type.empty() && a.sent.status && *a.sent.status >= 400 && *a.sent.status < 500 &&
      *a.sent.status != 408 && *a.sent.status != 429) {
    outcome.refused_for_good = true;
    return outcome;
  }
  outcome.retry_in_seconds = NextRetryDelay(settings.retry_schedule, a.delivery.attempts + 1,
                                            std::uniform_real_distribution<>(0, 1)(random));
  return outcome;
}

std::string DispatcherName() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + std::to_string(getpid());
}

// The main thread's state: the connection, what is in flight, when the next chores are due.
class Dispatcher {
 public:
  Dispatcher(const Config& config, const Settings& settings)
      : settings_(settings),
        db_(config.pg_dsn, OutboxStatements(), config.pg_statement_timeout_ms),
        workers_(settings.concurrency, config.webhook_policy, settings.timeout_seconds, config.console_url,
                 config.smtp),
        smtp_(config.smtp),
        random_(std::random_device{}()),
        name_(DispatcherName()) {}

  // One pass: the heartbeat and pruning when due, then fan-out and claims for every tenant with
  // work. Returns how much it started.
  int Round() {
    // The next time is set first: a beat or prune that fails (Postgres down) is tried again a
    // period later, and the main loop's wait, bounded by the next beat, stays a wait.
    if (Clock::now() >= next_beat_) {
      next_beat_ = Clock::now() + std::chrono::seconds(kBeatEverySeconds);
      Beat(db_, name_, kBeatEverySeconds);
      Backlog backlog = CurrentBacklog(db_);
      metrics::Set(metrics::Metric::kWebhookBacklog, static_cast<uint64_t>(backlog.waiting));
      metrics::Set(metrics::Metric::kWebhookBacklogAgeSeconds, static_cast<uint64_t>(backlog.oldest_seconds));
    }
    if (Clock::now() >= next_prune_) {
      next_prune_ = Clock::now() + kPruneEvery;
      long pruned = Prune(db_, settings_.keep_days);
      if (pruned > 0) LogInfo("pruned " + std::to_string(pruned) + " old deliveries");
    }
    int work = 0;
    for (const std::string& tenant_id : TenantsWithWork(db_, kTenantsPerRound)) {
      if (stop_requested) break;
      work += FanOut(db_, tenant_id);
      work += Claim(tenant_id);
    }
    return work;
  }

  // Records the attempts that finished, waiting up to `wait` for one (never past the next beat).
  void RecordFinished(milliseconds wait) {
    auto until_beat = std::chrono::duration_cast<milliseconds>(next_beat_ - Clock::now());
    for (Attempt& a : workers_.Finished(std::clamp(until_beat, milliseconds(0), wait))) {
      Release(a.tenant_id, a.delivery.delivery_id);
      RecordAttempt(a);
    }
  }

  // At a stop: claims nothing more, records what is in flight, and takes its heartbeat away.
  void Finish() {
    while (in_flight_count_ > 0) RecordFinished(milliseconds(200));
    try {
      Stopped(db_, name_);
    } catch (const DbError& e) {
      LogWarn(std::string("postgres: ") + e.what());
    }
  }

  void Rollback() { db_.Rollback(); }

 private:
  // Claims as many of the tenant's due deliveries as the limits leave room for, and starts them.
  int Claim(const std::string& tenant_id) {
    auto found = in_flight_.find(tenant_id);
    std::vector<std::string> mine = found == in_flight_.end() ? std::vector<std::string>() : found->second;
    int room = std::min(settings_.concurrency - in_flight_count_, settings_.per_tenant - static_cast<int>(mine.size()));
    if (room <= 0) return 0;
    std::vector<Claimed> claimed =
        ClaimDue(db_, tenant_id, {room, settings_.lease_seconds(), settings_.per_subscription}, mine);
    for (Claimed& d : claimed) {
      if (std::optional<std::string> reason = NotToSend(d)) {
        Outcome refused;
        refused.error = *reason;
        Record(db_, tenant_id, d, refused);
        continue;
      }
      // A confirmation mail's link must work when the mail arrives: its token's hash is kept first.
      if (d.type == kConfirmationEvent && !smtp_.token_key.empty()) {
        KeepAddressTokens(db_, tenant_id, d.address_id, MailToken(smtp_.token_key, "confirm", d.address_id),
                          MailToken(smtp_.token_key, "unsubscribe", d.address_id));
      }
      in_flight_[tenant_id].push_back(d.delivery_id);
      in_flight_count_++;
      workers_.Start(tenant_id, std::move(d));
    }
    return static_cast<int>(claimed.size());
  }

  // Why a claimed delivery goes nowhere: a disabled subscription; an address whose confirmation
  // is no longer wanted (confirmed or unsubscribed since), or that is not confirmed (now) for an
  // event's mail.
  static std::optional<std::string> NotToSend(const Claimed& d) {
    if (!d.active) return "the subscription is disabled";
    if (d.channel_type != "email") return std::nullopt;
    if (d.type == kConfirmationEvent) {
      if (d.address_state != "pending") return "the address is " + d.address_state + ": no confirmation";
    } else if (d.address_state != "confirmed") {
      return "the address is " + d.address_state + ", not confirmed";
    }
    return std::nullopt;
  }

  void Release(const std::string& tenant_id, const std::string& delivery_id) {
    std::vector<std::string>& mine = in_flight_[tenant_id];
    mine.erase(std::remove(mine.begin(), mine.end(), delivery_id), mine.end());
    if (mine.empty()) in_flight_.erase(tenant_id);
    in_flight_count_--;
  }

  // A failure to record leaves the delivery claimed until its lease ends; then it is sent again.
  void RecordAttempt(const Attempt& a) {
    const Claimed& d = a.delivery;
    Outcome outcome = Judge(a, settings_, random_);
    std::string line = "delivery " + d.delivery_id + " event=" + d.event_id + " type=" + d.type +
                       " attempt=" + std::to_string(d.attempts + 1) + " host=" + a.host +
                       " result=" + (outcome.succeeded ? "delivered" : outcome.error) +
                       (outcome.retry_in_seconds ? " retry_in=" + std::to_string(*outcome.retry_in_seconds) + "s" : "");
    if (a.refused) LogWarn(line); else LogInfo(line);
    metrics::Add(outcome.succeeded         ? metrics::Metric::kWebhookDelivered
                 : outcome.retry_in_seconds ? metrics::Metric::kWebhookFailed
                                            : metrics::Metric::kWebhookAbandoned);
    try {
      Record(db_, a.tenant_id, d, outcome);
    } catch (const DbError& e) {
      db_.Rollback();
      LogWarn("delivery " + d.delivery_id + " not recorded; postgres: " + e.what());
    }
  }

  const Settings settings_;
  Db db_;
  Workers workers_;
  const SmtpSettings smtp_;
  std::mt19937 random_;
  const std::string name_;
  std::map<std::string, std::vector<std::string>> in_flight_;  // delivery ids by tenant
  int in_flight_count_ = 0;
  Clock::time_point next_beat_{}, next_prune_{};
};

int Run() {
  SetLogProgram("icat-dispatcher");
  Config config;
  Settings settings;
  try {
    config = Config::FromEnvironment();
    settings = ReadSettings();
  } catch (const std::exception& e) {
    std::cerr << "icat-dispatcher: " << e.what() << "\n";
    return 2;
  }
  ConfigureLogs(config.log_level, config.log_format);
  if (!StatementsPrepareAtStart("icat-dispatcher", config.pg_dsn, OutboxStatements(), config.pg_statement_timeout_ms)) {
    return 2;
  }
  try {
    metrics::Open(config.metrics_dir, "dispatcher", {});
  } catch (const std::runtime_error& e) {
    std::cerr << "icat-dispatcher: " << e.what() << "\n";
    return 2;
  }
  struct sigaction action {};
  action.sa_handler = OnStop;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  curl_global_init(CURL_GLOBAL_DEFAULT);  // before any thread

  {
    Dispatcher dispatcher(config, settings);
    LogInfo("delivering webhooks (" + std::to_string(settings.concurrency) + " at once, " +
            std::to_string(settings.per_tenant) + " per tenant, " + std::to_string(settings.per_subscription) +
            " per subscription)");
    while (!stop_requested) {
      int work = 0;
      try {
        work = dispatcher.Round();
      } catch (const DbError& e) {
        dispatcher.Rollback();  // the claims made so far stay valid: their leases expire and they come back
        LogWarn(std::string("postgres: ") + e.what());
      } catch (const std::exception& e) {
        dispatcher.Rollback();
        LogError(std::string("unexpected: ") + e.what());
      }
      // After a round that started something, look again at once; a finished attempt wakes it too.
      dispatcher.RecordFinished(milliseconds(work > 0 ? 0 : settings.poll_ms));
    }
    LogInfo("stopping: recording the deliveries in flight");
    dispatcher.Finish();
  }
  LogInfo("stopped");
  metrics::Close();
  curl_global_cleanup();
  return 0;
}

}  // namespace
}  // namespace icat::dispatcher

int main(int argc, char** argv) {
  if (argc > 1) {
    std::string_view arg = argv[1];
    std::ostream& out = (arg == "--help" || arg == "-h") ? std::cout : std::cerr;
    out << "usage: icat-dispatcher\n"
        << "Delivers webhook events from the outbox until SIGTERM. Configuration comes from ICAT_* variables\n"
        << "(ICAT_PG_DSN, ICAT_WEBHOOK_RETRY_SCHEDULE, ICAT_WEBHOOK_TIMEOUT_SECONDS, ...; see README.md).\n";
    return (arg == "--help" || arg == "-h") ? 0 : 2;
  }
  return icat::dispatcher::Run();
}
