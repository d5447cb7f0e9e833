// The status group's named SQL.
#pragma once

#include <vector>

#include "icat/db.hpp"

namespace icat::status {

inline const std::vector<Statement> kStatements = {
    // NULL: no dispatcher row (none runs, or each stopped cleanly); true: one beat within three of
    // its intervals; false: every row is older (dispatchers that died or hang). sql/V0011.
    {"status_dispatcher_fresh",
     "SELECT bool_or(beat_at >= now() - make_interval(secs => 3 * every_seconds)) FROM dispatcher_heartbeats"},
};

}  // namespace icat::status
