// Whether each handler pool nginx routes to is up: a FastCGI connection accepted and answered.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icat::status {

// The handler groups, one pool each (handlers/<group>/; a unit test holds this list to that folder).
inline const std::vector<std::string> kPoolGroups = {"account", "admission", "auth",  "catalog",
                                                     "registry", "sbom",     "status", "vulns"};

// ICAT_POOL_ADDRESS with {group} replaced: "unix:/run/icat/{group}.sock" -> "unix:/run/icat/sbom.sock".
std::string PoolAddress(std::string_view pattern, std::string_view group);

// Why ICAT_POOL_ADDRESS cannot work, or nullopt when it can.
std::optional<std::string> PoolAddressProblem(std::string_view pattern);

// Every pool but `self` (the one answering: its own reply proves it up), probed side by side;
// (group, up) in kPoolGroups order, `self` included as up.
std::vector<std::pair<std::string, bool>> ProbePools(std::string_view pattern, std::string_view self,
                                                     std::chrono::milliseconds timeout);

}  // namespace icat::status
