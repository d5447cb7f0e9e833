// icatctl's one writer of attestations (docs/attestations.md): every document served now (the SBOMs
// of each version's latest scan, its served VEX documents) that has no attestation yet gets one,
// signed with the P-256 key, its bundle in the blob store, in the caller's transaction. Scan ingest
// and vex ingest call it for the image they changed, icatctl attest for every image.
#pragma once

#include <optional>
#include <string>

#include "icat/db.hpp"
#include "ingest/signing.hpp"

namespace icat::ctl {

// Attests the served documents of image image_id (every image when nullopt) that have no
// attestation: reads each document back from the blob store, writes the bundle there, records it,
// holding the blob lock (shared) until the caller's commit. Returns how many it made.
long long AttestServedDocuments(Db& db, const std::string& blob_dir, const SigningKey& key,
                                const std::optional<std::string>& image_id);

}  // namespace icat::ctl
