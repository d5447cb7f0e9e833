// Login limits in Redis: INCR with an expiry set only by the first count (EXPIRE NX), so a window
// runs from the first attempt and more attempts never extend it. An attempt reserves its place
// before it is judged and gives it back when Postgres could not judge it: counting only after the
// judgement would let a burst of concurrent guesses all pass the check before any of them counted.
#include "icat/login_limit.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "icat/crypto.hpp"
#include "icat/text.hpp"

namespace icat {

namespace {

long long Remaining(long long ttl, const LoginLimits& limits) { return ttl > 0 ? ttl : limits.window_seconds; }

long long IntegerOf(const RedisReply& reply) {
  if (reply.type == RedisReply::Type::kInteger) return reply.integer;
  if (reply.type == RedisReply::Type::kString) return std::atoll(reply.text.c_str());
  return 0;
}

}  // namespace

std::string LoginIpKey(std::string_view client_ip) { return "icat:login:ip:" + std::string(client_ip); }

std::string LoginAccountKey(std::string_view tenant_subdomain, std::string_view email) {
  std::string account = Lower(std::string(tenant_subdomain) + "\n" + std::string(email));
  return "icat:login:account:" + Sha256Hex(account);
}

LoginVerdict DecideLogin(long long ip_count, long long ip_ttl, long long account_failures, long long account_ttl,
                         const LoginLimits& limits) {
  LoginVerdict verdict;
  if (ip_count > limits.ip_attempts) {
    verdict.allowed = false;
    verdict.by_ip = true;
    verdict.retry_after = Remaining(ip_ttl, limits);
  }
  if (account_failures >= limits.account_failures) {
    verdict.allowed = false;
    verdict.retry_after = std::max(verdict.retry_after, Remaining(account_ttl, limits));
  }
  return verdict;
}

std::optional<LoginVerdict> AdmitLogin(Redis& redis, std::string_view ip_key, std::string_view account_key,
                                       const LoginLimits& limits) {
  std::string ip(ip_key), account(account_key), window = std::to_string(limits.window_seconds);
  auto replies =
      redis.Pipeline({{"INCR", ip}, {"EXPIRE", ip, window, "NX"}, {"TTL", ip}, {"GET", account}, {"TTL", account}});
  if (!replies) return std::nullopt;
  for (const RedisReply& reply : *replies) {
    if (reply.IsError()) return std::nullopt;
  }
  return DecideLogin(IntegerOf((*replies)[0]), IntegerOf((*replies)[2]), IntegerOf((*replies)[3]),
                     IntegerOf((*replies)[4]), limits);
}

bool GiveBackLoginAttempt(Redis& redis, std::string_view ip_key) {
  // Only while the window lives: a DECR after it ended would leave a key without an expiry.
  static const std::string kDecrementIfPresent =
      "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0";
  auto reply = redis.Command({"EVAL", kDecrementIfPresent, "1", std::string(ip_key)});
  return reply && !reply->IsError();
}

bool RecordLoginFailure(Redis& redis, std::string_view account_key, const LoginLimits& limits) {
  std::string account(account_key);
  auto replies = redis.Pipeline({{"INCR", account}, {"EXPIRE", account, std::to_string(limits.window_seconds), "NX"}});
  return replies && !(*replies)[0].IsError();
}

void ClearLoginFailures(Redis& redis, std::string_view account_key) {
  (void)redis.Command({"DEL", std::string(account_key)});
}

}  // namespace icat
