// Attestations of the served documents, made where the key is.
#include "ingest/attest.hpp"

#include <iostream>

#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

// $1 image id or NULL (every image): each served document without its attestation, with the subject
// it is about. Which documents are served is served_attestations' rule (sql/V0028), read the other way.
constexpr std::string_view kUnattested =
    "SELECT v.id AS version_id, i.repository, v.digest, doc.type, doc.sha256 FROM images i "
    "JOIN image_versions v ON v.image_id = i.id "
    "JOIN LATERAL (SELECT b.format AS type, b.sha256 FROM sboms b WHERE b.scan_id = v.latest_scan_id "
    "  UNION ALL SELECT CASE d.format WHEN 'openvex' THEN 'openvex' ELSE 'cyclonedx-vex' END, d.sha256 "
    "  FROM vex_served_documents d WHERE d.version_id = v.id) doc ON true "
    "WHERE ($1::uuid IS NULL OR i.id = $1::uuid) AND v.digest IS NOT NULL AND NOT EXISTS ("
    "  SELECT 1 FROM attestations a WHERE a.version_id = v.id AND a.type = doc.type AND a.document_sha256 = doc.sha256) "
    "ORDER BY v.id, doc.type";
constexpr std::string_view kStoreAttestation =
    "INSERT INTO attestations (version_id, type, document_sha256, predicate_type, subject_name, subject_digest, "
    "sha256, size_bytes, signing_key_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING";

}  // namespace

long long AttestServedDocuments(Db& db, const std::string& blob_dir, const SigningKey& key,
                                const std::optional<std::string>& image_id) {
  RememberSigningKey(db, key);  // first: a retired key is refused even when there is nothing to sign
  Rows rows = db.RunSql(kUnattested, {image_id});
  if (rows.empty()) return 0;
  db.ExecSql(kShareBlobLock, {kBlobLockId});  // gc removes no blob written here before the commit
  for (int i = 0; i < rows.size(); ++i) {
    std::string document_sha256(rows.Text(i, rows.Column("sha256")));
    const AttestationType* type = FindAttestationType(rows.Text(i, rows.Column("type")));
    std::string name(rows.Text(i, rows.Column("repository"))), digest(rows.Text(i, rows.Column("digest")));
    std::string statement =
        InTotoStatement(name, digest, type->predicate_type, ReadBlob(blob_dir, document_sha256));
    std::string bundle = SignedBundle(key.private_pem, key.id, statement);
    std::string bundle_sha256 = Sha256Hex(bundle);
    (void)StoreBlob(blob_dir, bundle, bundle_sha256);
    db.ExecSql(kStoreAttestation, {std::string(rows.Text(i, rows.Column("version_id"))), std::string(type->name),
                                   document_sha256, std::string(type->predicate_type), name, digest, bundle_sha256,
                                   static_cast<long long>(bundle.size()), key.id});
  }
  return rows.size();
}

}  // namespace icat::ctl
