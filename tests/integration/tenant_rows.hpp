// A tenant with a row in every tenant table and an image of its own: the data of the tests that
// check, wall by wall, that one tenant never sees another's rows.
#pragma once

#include <string>

#include "support.hpp"

namespace icat::test {

struct TenantRows {
  TenantRows();  // writes everything as the owner role

  Tenant tenant;
  Image image;  // licensed to this tenant only, with one version
  std::string version_id, scan_id;
  std::string cve;    // the id of the scan's one finding, found in no other image
  std::string alias;  // that finding's alias, as unique
  // A row of the image in every catalogue table a tenant reaches through its licence: the scan's
  // SBOM record, the finding's first-seen time, and a vendor VEX document with a statement on the
  // finding (by its alias) and the document served for the version (small blobs behind the two).
  std::string sbom_sha256, vex_document_id, vex_statement_id, served_vex_sha256;
  std::string user_id, key_id;
  std::string refresh_id, refresh_family, refresh_hash;  // refresh_hash: bytea hex literal
  std::string pending_user_id, setup_hash;  // a user without a password, with a set-up token (bytea hex)
  std::string watch_id, request_id, webhook_id, event_id, delivery_id, decision_id;
  std::string marker;  // in the tenant's admission policy and audit entry: "rows-<tenant id>"
};

}  // namespace icat::test
