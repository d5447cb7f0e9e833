// The status group: health of the service and each dependency.
#pragma once

#include <string>

#include "icat/pipeline.hpp"

namespace icat::status {

Reply GetStatus(Context& ctx);

// {"status": "ok"|"degraded"|"unavailable", "checks": {...}} (+ error/message when unavailable).
std::string StatusJson(bool postgres_ok, bool redis_ok);

}  // namespace icat::status
