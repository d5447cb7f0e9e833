// Worker threads that attempt deliveries, and the two queues between them and the main thread.
#include "workers.hpp"

#include <ctime>
#include <stdexcept>

#include "channel_messages.hpp"
#include "delivery_wire.hpp"
#include "icat/trace.hpp"

namespace icat::dispatcher {

namespace {

// What goes on the wire: to a webhook subscription the event itself, signed (Standard Webhooks);
// to a Slack or Teams channel the message people read, which links to the tenant's console.
Outgoing Message(const Claimed& d, UrlVerdict target, const std::string& console_url) {
  if (d.channel_type.empty()) {
    std::string body = EventBody(d.event_id, d.type, d.created_at, d.payload_json);
    auto headers = DeliveryHeaders(d.secret, d.event_id, std::time(nullptr), body);
    return {std::move(target), std::move(headers), std::move(body)};
  }
  Notice notice = NoticeOf(d.type, d.payload_json, TenantConsole(console_url, d.tenant));
  std::string body = d.channel_type == "teams" ? TeamsMessage(notice) : SlackMessage(notice);
  return {std::move(target), {{"Content-Type", "application/json"}}, std::move(body)};
}

// The guard again, at delivery: the name may resolve elsewhere than when it was saved. Then the
// POST, to the addresses the guard approved.
void Deliver(Attempt& attempt, const WebhookUrlPolicy& policy, int timeout_seconds, const std::string& console_url) {
  const Claimed& d = attempt.delivery;
  UrlVerdict target = CheckWebhookUrl(d.url, policy);
  attempt.host = target.host;
  if (!target.ok) {
    attempt.refused = target.reason;
    return;
  }
  Outgoing out;
  try {
    out = Message(d, std::move(target), console_url);
  } catch (const std::invalid_argument& e) {  // a stored secret or event of another form: never sendable
    attempt.refused = std::string("the delivery could not be written: ") + e.what();
    return;
  }
  // The receiver continues the trace of what caused the event, in a span of this attempt.
  if (!d.traceparent.empty()) out.headers.emplace_back("traceparent", ContinueTrace(d.traceparent).Traceparent());
  attempt.sent = Send(out, timeout_seconds);
}

// An e-mail channel's delivery: the confirmation mail of a pending address, or the event's mail
// to a confirmed one, with its one-click unsubscribe link (the tenant's host). Both links are the
// tenant's console's, so without ICAT_CONSOLE_URL nothing is sent.
void Mail(Attempt& attempt, const SmtpSettings& smtp, int timeout_seconds, const std::string& console_url) {
  const Claimed& d = attempt.delivery;
  attempt.host = d.address.substr(d.address.rfind('@') + 1);
  std::string console = TenantConsole(console_url, d.tenant);
  if (smtp.url.empty() || console.empty() || smtp.token_key.empty()) {
    attempt.refused = "e-mail needs ICAT_SMTP_URL, ICAT_CONSOLE_URL and ICAT_MAIL_TOKEN_KEY_FILE";
    return;
  }
  std::string message;
  try {
    if (d.type == kConfirmationEvent) {
      std::string confirm_url = console + "/notifications/confirm/" + MailToken(smtp.token_key, "confirm", d.address_id);
      message = ConfirmationMail(d.channel_name, d.tenant, confirm_url, EnvelopeTo(smtp, d.address, ""));
    } else {
      std::string unsubscribe_url = console + "/api/notification-addresses/unsubscribe/" +
                                    MailToken(smtp.token_key, "unsubscribe", d.address_id);
      message = MailMessage(NoticeOf(d.type, d.payload_json, console), EnvelopeTo(smtp, d.address, unsubscribe_url));
    }
  } catch (const std::invalid_argument& e) {
    attempt.refused = std::string("the mail could not be written: ") + e.what();
    return;
  }
  attempt.mailed = SendMail(smtp, message, d.address, timeout_seconds);
}

}  // namespace

Workers::Workers(int threads, WebhookUrlPolicy policy, int timeout_seconds, std::string console_url, SmtpSettings smtp)
    : policy_(std::move(policy)),
      timeout_seconds_(timeout_seconds),
      console_url_(std::move(console_url)),
      smtp_(std::move(smtp)) {
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
    if (attempt.delivery.channel_type == "email")
      Mail(attempt, smtp_, timeout_seconds_, console_url_);
    else
      Deliver(attempt, policy_, timeout_seconds_, console_url_);
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(attempt));
    }
    finished_.notify_one();
  }
}

}  // namespace icat::dispatcher
