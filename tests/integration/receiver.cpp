// The test receiver: accept, read one request, record it, answer, close.
#include "receiver.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <stdexcept>

#include "icat/json.hpp"
#include "support.hpp"

namespace icat::test {

Receiver::Receiver(const std::string& address, Responder responder)
    : address_(address), responder_(std::move(responder)) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = 0;
  inet_pton(AF_INET, address.c_str(), &sa.sin_addr);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(listen_fd_, 64) != 0) {
    throw std::runtime_error("receiver cannot listen on " + address);
  }
  socklen_t length = sizeof sa;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&sa), &length);
  port_ = ntohs(sa.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

Receiver::~Receiver() {
  Release();
  stop_ = true;
  thread_.join();
  close(listen_fd_);
}

std::string Receiver::Url() const { return BaseUrl() + "/hook"; }

std::string Receiver::BaseUrl() const { return "http://" + address_ + ":" + std::to_string(port_); }

std::string Receiver::ChannelUrl(const std::string& type) const { return BaseUrl() + "/" + type; }

void Receiver::Script(std::vector<int> statuses) {
  std::lock_guard lock(mutex_);
  statuses_.assign(statuses.begin(), statuses.end());
}

void Receiver::DelayNext(std::chrono::milliseconds delay) {
  std::lock_guard lock(mutex_);
  delay_next_ = delay;
}

void Receiver::HoldNext() {
  std::lock_guard lock(mutex_);
  hold_next_ = true;
  released_ = false;
}

void Receiver::Release() {
  {
    std::lock_guard lock(mutex_);
    released_ = true;
  }
  release_.notify_all();
}

std::vector<ReceivedRequest> Receiver::WaitFor(size_t n, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  arrived_.wait_for(lock, timeout, [&] { return received_.size() >= n; });
  return received_;
}

std::vector<ReceivedRequest> Receiver::Received() {
  std::lock_guard lock(mutex_);
  return received_;
}

void Receiver::Serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    Answer(fd);
    close(fd);
  }
}

namespace {
// Reads until the headers are complete and Content-Length bytes of body followed.
bool ReadRequest(int fd, std::string& head, std::string& body) {
  std::string data;
  char chunk[8192];
  size_t header_end = std::string::npos;
  size_t content_length = 0;
  while (true) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) return false;
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) return false;
    data.append(chunk, static_cast<size_t>(n));
    if (header_end == std::string::npos && (header_end = data.find("\r\n\r\n")) != std::string::npos) {
      std::string lower = data.substr(0, header_end);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      size_t at = lower.find("content-length:");
      if (at != std::string::npos) content_length = std::stoul(lower.substr(at + 15));
    }
    if (header_end != std::string::npos && data.size() >= header_end + 4 + content_length) break;
  }
  head = data.substr(0, header_end);
  body = data.substr(header_end + 4, content_length);
  return true;
}
}  // namespace

namespace {
// The channel a message was posted to, when the receiver stands for one: its URL's path names the
// service (ChannelUrl), "" otherwise.
std::string ChannelOf(const ReceivedRequest& request) {
  for (std::string type : {"slack", "teams"}) {
    if (request.target == "/" + type) return type;
  }
  return "";
}

// A webhook delivery (it carries webhook-id) goes to the replies log, so its body is checked
// against the OpenAPI description of the event: {"webhook": true, "headers", "body"}; a channel's
// message, so it is checked against its service's rules (tools/channel-messages.js):
// {"channel": "slack"|"teams", "body"}.
void RecordDelivery(const ReceivedRequest& request) {
  std::string channel = ChannelOf(request);
  if (request.headers.count("webhook-id") == 0 && channel.empty()) return;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (!channel.empty()) {
    WriteString(w, "channel", channel);
  } else {
    WriteBool(w, "webhook", true);
    WriteKey(w, "headers");
    w.StartObject();
    for (const auto& [name, value] : request.headers) WriteString(w, name, value);
    w.EndObject();
  }
  WriteString(w, "body", request.body);
  w.EndObject();
  RecordReply(buffer.GetString());
}
}  // namespace

void Receiver::Answer(int fd) {
  ReceivedRequest request;
  std::string head;
  if (!ReadRequest(fd, head, request.body)) return;
  size_t line_end = head.find("\r\n");
  std::string request_line = head.substr(0, line_end);
  request.method = request_line.substr(0, request_line.find(' '));
  request.target = request_line.substr(request.method.size() + 1, request_line.rfind(' ') - request.method.size() - 1);
  size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    if (end == std::string::npos) end = head.size();
    std::string line = head.substr(pos, end - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      size_t value = line.find_first_not_of(' ', colon + 1);
      request.headers[name] = value == std::string::npos ? "" : line.substr(value);
    }
    pos = end + 2;
  }
  RecordDelivery(request);
  if (responder_) {
    std::string reply = responder_(request);
    {
      std::lock_guard lock(mutex_);
      received_.push_back(std::move(request));
    }
    arrived_.notify_all();
    for (size_t sent = 0; sent < reply.size();) {
      ssize_t n = write(fd, reply.data() + sent, reply.size() - sent);
      if (n <= 0) return;
      sent += static_cast<size_t>(n);
    }
    return;
  }
  int status = 200;
  std::chrono::milliseconds delay{0};
  bool hold = false;
  {
    std::lock_guard lock(mutex_);
    if (!statuses_.empty()) {
      status = statuses_.front();
      statuses_.pop_front();
    }
    std::swap(delay, delay_next_);
    std::swap(hold, hold_next_);
    received_.push_back(std::move(request));
  }
  arrived_.notify_all();
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  if (hold) {
    std::unique_lock lock(mutex_);
    release_.wait(lock, [&] { return released_; });
  }
  std::string reply = "HTTP/1.1 " + std::to_string(status) + " Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  ssize_t ignored = write(fd, reply.data(), reply.size());
  (void)ignored;
}

}  // namespace icat::test
