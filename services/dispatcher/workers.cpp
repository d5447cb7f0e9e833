// Worker threads that attempt deliveries, and the two queues between them and the main thread.
#include "workers.hpp"

#include <ctime>

#include "delivery_wire.hpp"
#include "icat/trace.hpp"

namespace icat::dispatcher {

namespace {

// The guard again, at delivery: the name may resolve elsewhere than when it was saved. Then the
// POST, to the addresses the guard approved.
void Deliver(Attempt& attempt, const WebhookUrlPolicy& policy, int timeout_seconds) {
  const Claimed& d = attempt.delivery;
  UrlVerdict target = CheckWebhookUrl(d.url, policy);
  attempt.host = target.host;
  if (!target.ok) {
    attempt.refused = target.reason;
    return;
  }
  std::string body = EventBody(d.event_id, d.type, d.created_at, d.payload_json);
  auto headers = DeliveryHeaders(d.secret, d.event_id, std::time(nullptr), body);
  // The receiver continues the trace of what caused the event, in a span of this attempt.
  if (!d.traceparent.empty()) headers.emplace_back("traceparent", ContinueTrace(d.traceparent).Traceparent());
  attempt.sent = Send({std::move(target), std::move(headers), std::move(body)}, timeout_seconds);
}

}  // namespace

Workers::Workers(int threads, WebhookUrlPolicy policy, int timeout_seconds)
    : policy_(std::move(policy)), timeout_seconds_(timeout_seconds) {
  for (int i = 0; i < threads; i++) threads_.emplace_back([this] { Loop(); });
}

Workers::~Workers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void Workers::Start(std::string tenant_id, Claimed delivery) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(tenant_id), std::move(delivery), {}, {}, {}});
  }
  queued_.notify_one();
}

std::vector<Attempt> Workers::Finished(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  finished_.wait_for(lock, wait, [&] { return !done_.empty(); });
  std::vector<Attempt> done;
  done.swap(done_);
  return done;
}

void Workers::Loop() {
  while (true) {
    Attempt attempt;
    {
      std::unique_lock lock(mutex_);
      queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing claimed is left unsent
      attempt = std::move(queue_.front());
      queue_.pop_front();
    }
    Deliver(attempt, policy_, timeout_seconds_);
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(attempt));
    }
    finished_.notify_one();
  }
}

}  // namespace icat::dispatcher
