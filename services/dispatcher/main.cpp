// icat-dispatcher: delivers the outbox's events to tenants' webhook subscriptions, signed,
// retried on a schedule, at least once. Several can run side by side.
#include <curl/curl.h>
#include <signal.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <random>
#include <thread>

#include "icat/config.hpp"
#include "icat/log.hpp"
#include "outbox.hpp"
#include "sender.hpp"
#include "signing.hpp"

namespace icat::dispatcher {
namespace {

volatile sig_atomic_t stop_requested = 0;
void OnStop(int) { stop_requested = 1; }

constexpr int kBatch = 32;
constexpr int kTenantsPerRound = 100;
constexpr auto kPruneEvery = std::chrono::hours(1);

struct Settings {
  std::vector<int> retry_schedule;  // ICAT_WEBHOOK_RETRY_SCHEDULE
  int timeout_seconds = 10;         // ICAT_WEBHOOK_TIMEOUT_SECONDS
  int keep_days = 30;               // ICAT_WEBHOOK_LOG_RETENTION_DAYS
  int poll_ms = 500;                // ICAT_DISPATCHER_POLL_MS
  // A claimed delivery is due again after this, should this dispatcher die mid-send.
  int lease_seconds() const { return 2 * timeout_seconds + 5; }
};

Settings ReadSettings() {
  Settings s;
  s.retry_schedule = IntListSetting("ICAT_WEBHOOK_RETRY_SCHEDULE");
  s.timeout_seconds = IntSetting("ICAT_WEBHOOK_TIMEOUT_SECONDS");
  s.keep_days = IntSetting("ICAT_WEBHOOK_LOG_RETENTION_DAYS");
  s.poll_ms = IntSetting("ICAT_DISPATCHER_POLL_MS");
  return s;
}

// What happened to one attempt, by the rules of DESIGN.md section 7.
Outcome Judge(const Claimed& d, const Sent& sent, const Settings& settings, std::mt19937& random) {
  Outcome outcome;
  outcome.status = sent.status;
  outcome.error = sent.error;
  if (sent.status && *sent.status >= 200 && *sent.status < 300) {
    outcome.succeeded = true;
    return outcome;
  }
  if (sent.status) outcome.error = "HTTP " + std::to_string(*sent.status);
  if (sent.status == 410) {
    outcome.disable_subscription = true;  // the receiver says it is gone for good: no retries
    return outcome;
  }
  outcome.retry_in_seconds =
      NextRetryDelay(settings.retry_schedule, d.attempts + 1, std::uniform_real_distribution<>(0, 1)(random));
  return outcome;
}

// Claims the tenant's due deliveries, sends them together, records each outcome.
int DeliverDue(Db& db, const std::string& tenant_id, const Config& config, const Settings& settings,
               std::mt19937& random) {
  std::vector<Claimed> claimed = ClaimDue(db, tenant_id, kBatch, settings.lease_seconds());
  std::vector<Outgoing> outgoing;
  std::vector<const Claimed*> sent_for;
  for (const Claimed& d : claimed) {
    Outcome refused;
    if (!d.webhook_active) {
      refused.error = "the subscription is disabled";
      Record(db, tenant_id, d, refused);
      continue;
    }
    // The guard again, at delivery: the name may resolve elsewhere than when it was saved.
    UrlVerdict target = CheckWebhookUrl(d.url, config.webhook_policy);
    if (!target.ok) {
      refused.error = "not sent: " + target.reason;
      refused.retry_in_seconds = NextRetryDelay(settings.retry_schedule, d.attempts + 1, 0.5);
      LogWarn("delivery " + d.delivery_id + " " + refused.error);
      Record(db, tenant_id, d, refused);
      continue;
    }
    std::string body = EventBody(d.event_id, d.type, d.created_at, d.payload_json);
    auto headers = DeliveryHeaders(d.secret, d.event_id, std::time(nullptr), body);
    outgoing.push_back({std::move(target), std::move(headers), std::move(body)});
    sent_for.push_back(&d);
  }
  std::vector<Sent> results = SendAll(outgoing, settings.timeout_seconds);
  for (size_t i = 0; i < results.size(); i++) {
    const Claimed& d = *sent_for[i];
    Outcome outcome = Judge(d, results[i], settings, random);
    LogInfo("delivery " + d.delivery_id + " event=" + d.event_id + " type=" + d.type + " attempt=" +
            std::to_string(d.attempts + 1) + " host=" + outgoing[i].target.host + " result=" +
            (outcome.succeeded ? "delivered" : outcome.error) +
            (outcome.retry_in_seconds ? " retry_in=" + std::to_string(*outcome.retry_in_seconds) + "s" : ""));
    Record(db, tenant_id, d, outcome);
  }
  return static_cast<int>(claimed.size());
}

// One pass over every tenant with work; returns how much it did.
int RunOnce(Db& db, const Config& config, const Settings& settings, std::mt19937& random) {
  int work = 0;
  for (const std::string& tenant_id : TenantsWithWork(db, kTenantsPerRound)) {
    if (stop_requested) break;
    work += FanOut(db, tenant_id);
    work += DeliverDue(db, tenant_id, config, settings, random);
  }
  return work;
}

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
  struct sigaction action {};
  action.sa_handler = OnStop;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  curl_global_init(CURL_GLOBAL_DEFAULT);

  Db db(config.pg_dsn, OutboxStatements(), config.pg_statement_timeout_ms);
  std::mt19937 random(std::random_device{}());
  auto last_prune = std::chrono::steady_clock::now() - kPruneEvery;
  LogInfo("delivering webhooks");
  while (!stop_requested) {
    int work = 0;
    try {
      work = RunOnce(db, config, settings, random);
      if (std::chrono::steady_clock::now() - last_prune >= kPruneEvery) {
        long pruned = Prune(db, settings.keep_days);
        if (pruned > 0) LogInfo("pruned " + std::to_string(pruned) + " old deliveries");
        last_prune = std::chrono::steady_clock::now();
      }
    } catch (const DbError& e) {
      db.Rollback();  // the claims made so far stay valid: their leases expire and they come back
      LogWarn(std::string("postgres: ") + e.what());
    } catch (const std::exception& e) {
      db.Rollback();
      LogError(std::string("unexpected: ") + e.what());
    }
    if (work == 0 && !stop_requested) std::this_thread::sleep_for(std::chrono::milliseconds(settings.poll_ms));
  }
  LogInfo("stopped");
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
