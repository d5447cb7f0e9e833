// A webhook receiver for the tests: a tiny HTTP/1.1 server on a loopback address that records every
// request and answers with the statuses a test scripts. Test code only; the product sends with libcurl.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace icat::test {

struct ReceivedRequest {
  std::string method, target;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// The whole reply (status line, headers and body) to one request, for a test that answers more
// than a scripted status (a proxy in front of the stack). Called on the receiver's thread.
using Responder = std::function<std::string(const ReceivedRequest&)>;

class Receiver {
 public:
  explicit Receiver(const std::string& address = "127.0.0.1", Responder responder = {});
  ~Receiver();
  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;

  std::string Url() const;      // http://address:port/hook
  std::string BaseUrl() const;  // http://address:port
  // http://address:port/<type>: a notification channel's URL (slack, teams), whose messages the
  // receiver records for tools/channel-messages.js to check.
  std::string ChannelUrl(const std::string& type) const;
  // Statuses for the next requests, in order; afterwards 200.
  void Script(std::vector<int> statuses);
  // Holds the next reply this long (a delivery in flight).
  void DelayNext(std::chrono::milliseconds delay);
  // Holds the next reply until Release (or the destructor): a receiver slow for exactly as long
  // as the test wants. The request is recorded (WaitFor sees it) before the hold.
  void HoldNext();
  void Release();
  // Waits until at least n requests arrived or timeout passed; returns what arrived.
  std::vector<ReceivedRequest> WaitFor(size_t n, std::chrono::milliseconds timeout);
  std::vector<ReceivedRequest> Received();

 private:
  void Serve();
  void Answer(int fd);

  std::string address_;
  Responder responder_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<ReceivedRequest> received_;
  std::deque<int> statuses_;
  std::chrono::milliseconds delay_next_{0};
  bool hold_next_ = false;
  bool released_ = false;
  std::condition_variable release_;
  std::thread thread_;
};

}  // namespace icat::test
