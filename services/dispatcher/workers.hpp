// The dispatcher's sending threads. Each attempt (the URL guard's DNS look-up, signing, the POST)
// runs on a worker thread of its own, so a slow name server or a slow receiver holds one thread and
// nothing else; Postgres stays on the main thread (a Db connection is not thread-safe), which hands
// claims in through Start and takes outcomes back through Finished.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "delivery_store.hpp"
#include "icat/url_guard.hpp"
#include "mail.hpp"
#include "sender.hpp"

namespace icat::dispatcher {

struct Attempt {
  std::string tenant_id;
  Claimed delivery;
  std::string host;                    // the URL's host, for the log
  std::optional<std::string> refused;  // why the URL guard refused it: not sent
  Sent sent;                           // what came back, when it was sent
  std::optional<MailSent> mailed;      // an e-mail channel's: what the SMTP server said
};

class Workers {
 public:
  // `threads` is the dispatcher's global limit: the main thread claims no more than are free;
  // console_url: ICAT_CONSOLE_URL, which channels' messages link to; smtp: e-mail channels' server.
  Workers(int threads, WebhookUrlPolicy policy, int timeout_seconds, std::string console_url, SmtpSettings smtp);
  ~Workers();  // lets the attempts under way finish (each bounded by the timeout), then joins
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  void Start(std::string tenant_id, Claimed delivery);
  // The attempts finished since the last call; waits up to `wait` for the first when there is none.
  std::vector<Attempt> Finished(std::chrono::milliseconds wait);

 private:
  void Loop();

  const WebhookUrlPolicy policy_;
  const int timeout_seconds_;
  const std::string console_url_;
  const SmtpSettings smtp_;
  std::mutex mutex_;
  std::condition_variable queued_, finished_;
  std::deque<Attempt> queue_;
  std::vector<Attempt> done_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace icat::dispatcher
