// icatctl's one writer of the VEX documents the service serves (docs/vex-documents.md): for an image,
// every version's OpenVEX and CycloneDX documents recomputed from the statements that apply to it,
// checked against the official schemas, stored in the blob store and signed, in the caller's
// transaction. vex ingest calls it for the images its documents name, scan ingest for the image it
// adds a version or scan to (a statement about every version applies to a new one; the CycloneDX
// document links into the version's latest SBOM).
#pragma once

#include <string>

#include "icat/db.hpp"
#include "ingest/signing.hpp"

namespace icat::ctl {

struct Session;

// Recomputes the documents of every version of image image_id. A document whose bytes changed is
// validated against its official schema (Failure otherwise: an invalid one is never stored), written
// to the blob store, signed with key and stored with its document version counted up; unchanged
// bytes change nothing; a version no statement applies to any more loses its documents. Holds the
// image's row lock and the blob lock (shared) until the caller's commit. Returns what it did for the
// operator, "served vex documents of IMAGE: N written, N removed, N unchanged", or "" when it wrote
// and removed nothing.
std::string ServeVexDocuments(Db& db, const std::string& blob_dir, const SigningKey& key, const std::string& image_id);

// vex ingest's last step before its commit: ServeVexDocuments, with the key of ICAT_SIGNING_KEY_FILE,
// for every image a statement of a document stored in this transaction is about. Returns their
// lines, each ending in a newline.
std::string ServeVexOfIngestedDocuments(Session& session);

}  // namespace icat::ctl
