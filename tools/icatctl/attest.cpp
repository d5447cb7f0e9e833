// icatctl attest: the attestations of every served document that has none (ingest/attest.cpp).
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "ingest/attest.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

// The backfill: for installs that ingested before attestations existed, or after a restore. Safe to
// run again: what has its attestation is skipped.
void Attest(const Args& args) {
  Session session;
  SigningKey key = LoadAttestationKey(session.config);
  std::optional<std::string> image_id;
  if (std::optional<std::string> image = args.Optional("image")) image_id = ImageId(session.db, *image);
  Transaction transaction(session.db);
  long long made = AttestServedDocuments(session.db, session.config.blob_dir, key, image_id);
  transaction.Commit();
  if (made > 0) NoteCachedDataChanged(session);
  std::cout << "attest: " << made << " attestations made, signed with key " << key.id << "\n";
}

}  // namespace icat::ctl
