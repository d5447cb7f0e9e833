// The status group's named SQL.
#pragma once

#include <vector>

#include "icat/db.hpp"

namespace icat::status {

// Each statement reads as SQL, a line per clause.
// clang-format off
// NULL: no dispatcher row (none runs, or each stopped cleanly); true: one beat within three of
// its intervals; false: every row is older (dispatchers that died or hang). sql/V0011.
inline constexpr Statement kDispatcherFresh{"status_dispatcher_fresh",
    "SELECT bool_or(beat_at >= now() - make_interval(secs => 3 * every_seconds)) AS fresh FROM dispatcher_heartbeats"};

// The group's statements, each prepared when a worker connects.
inline const std::vector<Statement> kStatements = {
    kDispatcherFresh,
};
// clang-format on

}  // namespace icat::status
