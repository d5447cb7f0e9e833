// icatctl tenant create: a new tenant, addressed by its subdomain.
#include <iostream>

#include "commands.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

void TenantCreate(const Args& args) {
  const std::string& subdomain = args.Positional(0);
  // The same rule as the tenants table's CHECK, so a bad name is a usage error, not a DB error.
  RequireMatch("SUBDOMAIN", subdomain, "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?",
               "is not a DNS label (a-z, 0-9 and inner '-', at most 63 characters)");
  std::string name = args.Optional("name").value_or(subdomain);

  Session session;
  Rows created = session.db.RunSql(
      "INSERT INTO tenants (subdomain, name) VALUES ($1, $2) ON CONFLICT (subdomain) DO NOTHING RETURNING id",
      {subdomain, name});
  if (created.empty()) throw Failure("tenant " + subdomain + " exists");
  std::cout << created.Text(0, created.Column("id")) << '\n';
}

}  // namespace icat::ctl
