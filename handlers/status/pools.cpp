// The pools check: one minimal FastCGI request to each pool, with a deadline.
//
// The request (GET kPoolProbePath, request id "pool-probe") is answered 204 by a worker's pipeline
// before anything else: no Postgres, no Redis, no log line, no metric. The answer proves what
// nginx needs: a worker accepts and runs requests. A lone FCGI_GET_VALUES management record, which
// would not reach the pipeline, went unanswered by Debian 12's libfcgi 2.4.2 (docs/decisions.md, "Health").
#include "pools.hpp"

#include <future>

#include "icat/fastcgi_client.hpp"
#include "icat/router.hpp"

namespace icat::status {

std::string PoolAddress(std::string_view pattern, std::string_view group) {
  std::string address(pattern);
  for (size_t at = address.find("{group}"); at != std::string::npos; at = address.find("{group}", at + group.size())) {
    address.replace(at, 7, group);
  }
  return address;
}

std::optional<std::string> PoolAddressProblem(std::string_view pattern) {
  if (pattern.find("{group}") == std::string_view::npos) return "must contain {group}, the pool's name";
  if (!ParseFastCgiAddress(PoolAddress(pattern, "status"))) {
    return "must be unix:/absolute/path or host:port (with {group} in it)";
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, bool>> ProbePools(std::string_view pattern, std::string_view self,
                                                     std::chrono::milliseconds timeout) {
  std::vector<std::future<bool>> probes;
  for (const std::string& group : kPoolGroups) {
    std::optional<FastCgiEndpoint> endpoint = ParseFastCgiAddress(PoolAddress(pattern, group));
    probes.push_back(std::async(std::launch::async, [endpoint, timeout, is_self = group == self] {
      return is_self || (endpoint && FastCgiGet(*endpoint, kPoolProbePath, "pool-probe", timeout).has_value());
    }));
  }
  std::vector<std::pair<std::string, bool>> pools;
  for (size_t i = 0; i < kPoolGroups.size(); i++) pools.emplace_back(kPoolGroups[i], probes[i].get());
  return pools;
}

}  // namespace icat::status
