// Redis: short timeouts and a back-off after failures, so a dead Redis never stalls a request.
#include "icat/redis.hpp"

#include <hiredis/hiredis.h>

#include <cerrno>

#include "icat/http.hpp"
#include "icat/log.hpp"
#include "icat/paging.hpp"

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

namespace {
// "[user]:password@" or "user@" (the password from a file) before the host or path; false when malformed.
bool TakeCredentials(std::string_view& rest, RedisEndpoint& endpoint) {
  size_t at = rest.find('@');
  if (at == std::string_view::npos) return true;
  std::string_view credentials = rest.substr(0, at);
  size_t colon = credentials.find(':');
  endpoint.username = UrlDecode(credentials.substr(0, colon));
  if (colon != std::string_view::npos) endpoint.password = UrlDecode(credentials.substr(colon + 1));
  rest.remove_prefix(at + 1);
  return colon == std::string_view::npos ? !endpoint.username.empty() : !endpoint.password.empty();
}

std::optional<int> Number(std::string_view digits, int max) {
  if (!IsDigits(digits, 5)) return std::nullopt;
  int value = std::stoi(std::string(digits));
  if (value > max) return std::nullopt;
  return value;
}
}  // namespace

std::optional<RedisEndpoint> ParseRedisUrl(std::string_view url) {
  constexpr std::string_view kTcp = "redis://", kUnix = "unix://";
  RedisEndpoint endpoint;
  if (url.rfind(kUnix, 0) == 0) {
    std::string_view rest = url.substr(kUnix.size());
    if (!TakeCredentials(rest, endpoint)) return std::nullopt;
    size_t question = rest.find('?');
    endpoint.host = std::string(rest.substr(0, question));  // the socket's path
    std::string_view query = question == std::string_view::npos ? "db=0" : rest.substr(question + 1);
    std::optional<int> db = query.rfind("db=", 0) == 0 ? Number(query.substr(3), 99999) : std::nullopt;
    if (endpoint.host.empty() || endpoint.host[0] != '/' || !db) return std::nullopt;
    endpoint.db = *db;
    return endpoint;
  }
  if (url.rfind(kTcp, 0) != 0) return std::nullopt;
  std::string_view rest = url.substr(kTcp.size());
  if (!TakeCredentials(rest, endpoint)) return std::nullopt;
  std::string_view db = "0";
  if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
    db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  size_t colon = rest.rfind(':');
  endpoint.host = std::string(rest.substr(0, colon));
  std::optional<int> port = colon == std::string_view::npos ? 6379 : Number(rest.substr(colon + 1), 65535);
  std::optional<int> db_number = Number(db, 99999);
  if (endpoint.host.empty() || endpoint.host.find_first_of(":@/") != std::string::npos || !port || *port < 1 ||
      !db_number) {
    return std::nullopt;
  }
  endpoint.port = *port;
  endpoint.db = *db_number;
  return endpoint;
}

Redis::Redis(RedisEndpoint endpoint, int timeout_ms) : endpoint_(std::move(endpoint)), timeout_ms_(timeout_ms) {}

Redis::~Redis() { Disconnect(); }

void Redis::Disconnect() {
  if (context_) redisFree(context_);
  context_ = nullptr;
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
  context_ = host.rfind('/', 0) == 0 ? redisConnectUnixWithTimeout(host.c_str(), timeout)
                                     : redisConnectWithTimeout(host.c_str(), endpoint_.port, timeout);
  bool connected = context_ && !context_->err && redisSetTimeout(context_, timeout) == REDIS_OK;
  if (!connected) LogWarn(std::string("redis unreachable: ") + (context_ ? context_->errstr : "out of memory"));
  if (!connected || !SignIn()) {
    Disconnect();
    retry_after_ = std::chrono::steady_clock::now() + kReconnectBackoff;
    return false;
  }
  return true;
}

std::optional<std::vector<RedisReply>> Redis::Pipeline(const std::vector<std::vector<std::string>>& commands) {
  for (int attempt = 1; attempt <= 2; attempt++) {
    if (!EnsureConnected()) return std::nullopt;
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
