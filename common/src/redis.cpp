// Redis: short timeouts and a back-off after failures, so a dead Redis never stalls a request.
#include "icat/redis.hpp"

#include <hiredis/hiredis.h>

#include <cerrno>

#include "icat/log.hpp"
#include "icat/metrics.hpp"
#include "icat/tls_tunnel.hpp"

namespace icat {

namespace {
constexpr auto kReconnectBackoff = std::chrono::seconds(1);

RedisReply Convert(const redisReply* reply) {
  RedisReply out;
  switch (reply->type) {
    case REDIS_REPLY_STRING: out.type = RedisReply::Type::kString; out.text.assign(reply->str, reply->len); break;
    case REDIS_REPLY_STATUS: out.type = RedisReply::Type::kStatus; out.text.assign(reply->str, reply->len); break;
    case REDIS_REPLY_ERROR: out.type = RedisReply::Type::kError; out.text.assign(reply->str, reply->len); break;
    case REDIS_REPLY_INTEGER: out.type = RedisReply::Type::kInteger; out.integer = reply->integer; break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      for (size_t i = 0; i < reply->elements; i++) out.elements.push_back(Convert(reply->element[i]));
      break;
    default: out.type = RedisReply::Type::kNil;
  }
  return out;
}

void AppendCommand(redisContext* context, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  redisAppendCommandArgv(context, static_cast<int>(args.size()), argv.data(), lengths.data());
}
}  // namespace


Redis::Redis(RedisEndpoint endpoint, int timeout_ms) : endpoint_(std::move(endpoint)), timeout_ms_(timeout_ms) {}

Redis::~Redis() { Disconnect(); }

void Redis::Disconnect() {
  if (context_) redisFree(context_);  // closes the tunnel's plain end, which ends its thread
  context_ = nullptr;
  tunnel_.reset();
}

// A TLS connection's plain end as hiredis' socket; null, after a warning, when there is none.
redisContext* Redis::ConnectTls(const timeval& timeout) {
  std::string error;
  tunnel_ = TlsTunnel::Open(endpoint_.host, endpoint_.port, endpoint_.tls_ca_file, timeout_ms_, &error);
  if (!tunnel_) {
    LogWarn("redis unreachable: " + error);
    return nullptr;
  }
  redisContext* context = redisConnectFd(tunnel_->TakePlainEnd());
  if (context && !context->err) redisSetTimeout(context, timeout);
  return context;
}

bool Redis::SignIn() {
  std::vector<std::vector<std::string>> commands;
  if (!endpoint_.password.empty()) {
    if (endpoint_.username.empty())
      commands.push_back({"AUTH", endpoint_.password});
    else
      commands.push_back({"AUTH", endpoint_.username, endpoint_.password});
  }
  if (endpoint_.db != 0) commands.push_back({"SELECT", std::to_string(endpoint_.db)});
  for (const auto& args : commands) AppendCommand(context_, args);
  for (size_t i = 0; i < commands.size(); i++) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK || !raw) return false;
    RedisReply reply = Convert(static_cast<redisReply*>(raw));
    freeReplyObject(raw);
    if (reply.type != RedisReply::Type::kStatus) {
      LogWarn("redis refused " + commands[i][0] + (reply.IsError() ? ": " + reply.text : ""));
      return false;
    }
  }
  return true;
}

bool Redis::EnsureConnected() {
  if (context_) return true;
  if (std::chrono::steady_clock::now() < retry_after_) return false;
  timeval timeout{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  const std::string& host = endpoint_.host;
  context_ = endpoint_.tls                 ? ConnectTls(timeout)
             : host.rfind('/', 0) == 0   ? redisConnectUnixWithTimeout(host.c_str(), timeout)
                                         : redisConnectWithTimeout(host.c_str(), endpoint_.port, timeout);
  bool connected = context_ && !context_->err && redisSetTimeout(context_, timeout) == REDIS_OK;
  if (!connected && (!endpoint_.tls || context_)) {
    LogWarn(std::string("redis unreachable: ") + (context_ ? context_->errstr : "out of memory"));
  }
  if (!connected || !SignIn()) {
    metrics::Add(metrics::Metric::kRedisErrors);
    Disconnect();
    retry_after_ = std::chrono::steady_clock::now() + kReconnectBackoff;
    return false;
  }
  return true;
}

std::optional<std::vector<RedisReply>> Redis::Pipeline(const std::vector<std::vector<std::string>>& commands) {
  for (int attempt = 1; attempt <= 2; attempt++) {
    if (!EnsureConnected()) return std::nullopt;
    metrics::Add(metrics::Metric::kRedisRoundTrips);
    for (const auto& args : commands) AppendCommand(context_, args);
    std::vector<RedisReply> replies;
    for (size_t i = 0; i < commands.size(); i++) {
      void* raw = nullptr;
      if (redisGetReply(context_, &raw) != REDIS_OK || !raw) break;
      replies.push_back(Convert(static_cast<redisReply*>(raw)));
      freeReplyObject(raw);
    }
    if (replies.size() == commands.size()) return replies;
    // A connection the server closed (Redis restarted since the last request) never ran the
    // commands: reconnect and send them once more. Anything else (a timeout) may have run them.
    bool closed_by_server = context_->err == REDIS_ERR_EOF ||
                            (context_->err == REDIS_ERR_IO && (errno == ECONNRESET || errno == EPIPE));
    metrics::Add(metrics::Metric::kRedisErrors);
    LogWarn(std::string("redis failed: ") + context_->errstr);
    Disconnect();  // the stream is out of step now; start over
    if (!closed_by_server || attempt == 2 || !replies.empty()) break;
  }
  retry_after_ = std::chrono::steady_clock::now() + kReconnectBackoff;
  return std::nullopt;
}

std::optional<RedisReply> Redis::Command(const std::vector<std::string>& args) {
  auto replies = Pipeline({args});
  if (!replies) return std::nullopt;
  return std::move(replies->front());
}

bool Redis::Ping() {
  auto reply = Command({"PING"});
  return reply && reply->type == RedisReply::Type::kStatus;
}

}  // namespace icat
