// Login limits (DESIGN.md section 4), counted in Redis: attempts per client IP and failed attempts
// per account (tenant and email), each in a window that starts with its first count. Only attempts
// Postgres judged count. Redis being unreachable is reported to the caller, which fails closed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "icat/redis.hpp"

namespace icat {

// The defaults are the settings table's (config.cpp), the one place they are written.
struct LoginLimits {
  int ip_attempts = 0;       // ICAT_LOGIN_LIMIT_IP_ATTEMPTS: every attempt counts
  int account_failures = 0;  // ICAT_LOGIN_LIMIT_ACCOUNT_FAILURES: only failed attempts count
  int window_seconds = 0;    // ICAT_LOGIN_LIMIT_WINDOW_SECONDS
};

struct LoginVerdict {
  bool allowed = true;
  long long retry_after = 0;  // seconds, when refused
  bool by_ip = false;         // which limit refused it (for the log line)
};

// Redis keys. The account key holds a hash of tenant and lower-cased email, never the email.
std::string LoginIpKey(std::string_view client_ip);
std::string LoginAccountKey(std::string_view tenant_subdomain, std::string_view email);

// Pure: the verdict from this attempt's IP count (this attempt included) and the account's failures
// so far, with the keys' remaining lifetimes (Redis TTL: -1 none, -2 missing).
LoginVerdict DecideLogin(long long ip_count, long long ip_ttl, long long account_failures, long long account_ttl,
                         const LoginLimits& limits);

// Counts this attempt against the IP and reads the account's failures, in one round trip.
// nullopt when Redis cannot be reached.
std::optional<LoginVerdict> AdmitLogin(Redis& redis, std::string_view ip_key, std::string_view account_key,
                                       const LoginLimits& limits);
// After an attempt that Postgres never judged (it was down or too slow): takes back its count
// against the IP, so an outage does not lock people out. False when Redis cannot be reached.
bool GiveBackLoginAttempt(Redis& redis, std::string_view ip_key);
// After a failed attempt: counts it against the account. False when Redis cannot be reached.
bool RecordLoginFailure(Redis& redis, std::string_view account_key, const LoginLimits& limits);
// After a successful one: the account's failures are forgotten.
void ClearLoginFailures(Redis& redis, std::string_view account_key);

}  // namespace icat
