// The tenant's audit log: what a request writes to it, beside what it does.
#pragma once

#include <string_view>
#include <vector>

#include "icat/db.hpp"
#include "icat/pipeline.hpp"

namespace icat {

// The prepared statements below, for every handler's Db.
const std::vector<Statement>& AuditStatements();

// Appends to the tenant's audit log inside the request's transaction: the actor comes from
// ctx.principal, the client address and request id from the request. detail_json is an object.
void Audit(Context& ctx, std::string_view action, std::string_view target, std::string_view detail_json = "{}");

// A role denial is a security event: recorded as role.denied in a transaction of its own, after
// the request's was rolled back. A failure to record it is logged, never thrown.
void AuditRoleDenial(Context& ctx);

}  // namespace icat
