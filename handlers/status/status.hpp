// The status group: health of the service and each dependency.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "icat/pipeline.hpp"

namespace icat::status {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

Reply GetStatus(Context& ctx);

struct Health {
  bool postgres = false;
  bool redis = false;
  std::vector<std::pair<std::string, bool>> pools;  // (group, up)
  std::string dispatcher;  // "ok", "stale", "down", or "unknown" while Postgres cannot tell
};

// {"status": "ok"|"degraded"|"unavailable", "checks": {"postgres", "redis", "pools": {group: "ok"|"down"},
// "dispatcher"}} (+ error/message when unavailable): unavailable without Postgres, degraded when
// anything else is not ok.
std::string StatusJson(const Health& health);

}  // namespace icat::status
