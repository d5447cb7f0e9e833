// icatctl license grant and revoke: which tenant may see which catalogue image. Both are
// idempotent, so provisioning scripts can simply run them again.
#include <iostream>

#include "commands.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

void LicenseGrant(const Args& args) {
  const std::string& subdomain = args.Value("tenant");
  const std::string& image = args.Value("image");
  Session session;
  std::string tenant_id = TenantId(session.db, subdomain);
  std::string image_id = ImageId(session.db, image);
  Rows granted = session.db.RunSql(
      "INSERT INTO licenses (tenant_id, image_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1",
      {tenant_id, image_id});
  NoteCachedDataChanged(session);
  if (granted.empty()) {
    std::cout << "tenant " << subdomain << " was already licensed for " << image << '\n';
  } else {
    std::cout << "licensed tenant " << subdomain << " for " << image << '\n';
  }
}

void LicenseRevoke(const Args& args) {
  const std::string& subdomain = args.Value("tenant");
  const std::string& image = args.Value("image");
  Session session;
  std::string tenant_id = TenantId(session.db, subdomain);
  std::string image_id = ImageId(session.db, image);
  Rows revoked = session.db.RunSql("DELETE FROM licenses WHERE tenant_id = $1 AND image_id = $2 RETURNING 1",
                                   {tenant_id, image_id});
  NoteCachedDataChanged(session);
  if (revoked.empty()) {
    std::cout << "tenant " << subdomain << " was not licensed for " << image << '\n';
  } else {
    std::cout << "revoked the licence of tenant " << subdomain << " for " << image << '\n';
  }
}

}  // namespace icat::ctl
