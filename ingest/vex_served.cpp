// The served VEX documents of an image recomputed and stored (vex_served.hpp).
#include "ingest/vex_served.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "icat/crypto.hpp"
#include "icat/vocabulary.hpp"
#include "ingest/attest.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_schema.hpp"
#include "ingest/session.hpp"
#include "ingest/vex_served_docs.hpp"

namespace icat::ctl {
namespace {

// ------------------------------------------------------------------ SQL (run as the owner role)

// Serialises the writers of one image's documents: a version or statement another transaction adds
// is committed and read here, or that transaction waits for this one and then reads ours (each
// statement reads anew under READ COMMITTED). Scan ingest holds FOR UPDATE on the row already; NO KEY
// UPDATE leaves alone the KEY SHARE that vex ingest's statements took through their foreign key, so
// two vex ingests queue instead of deadlocking.
constexpr std::string_view kLockImage = "SELECT name FROM images WHERE id = $1 FOR NO KEY UPDATE";
constexpr std::string_view kVersions =
    "SELECT v.id, v.tag, v.digest, i.repository, b.sha256 AS cyclonedx_sbom FROM image_versions v "
    "JOIN images i ON i.id = v.image_id "
    "LEFT JOIN sboms b ON b.scan_id = v.latest_scan_id AND b.format = 'cyclonedx' WHERE v.image_id = $1 ORDER BY v.id";
// Per version of image $1, the statements that apply to it in vex_statement_for's order (sql/V0017):
// the latest statement time first, then the version's own, then those naming packages, then the later ingested.
constexpr std::string_view kStatements =
    "SELECT v.id AS version_id, st.id, st.vuln_id, st.aliases, st.subcomponents, st.status, st.justification, "
    "st.impact_statement, st.action_statement, rfc3339(st.statement_time) AS time, d.author "
    "FROM image_versions v JOIN vex_statements st ON st.image_id = v.image_id "
    "AND (st.version_id IS NULL OR st.version_id = v.id) JOIN vex_documents d ON d.id = st.document_id "
    "WHERE v.image_id = $1 "
    "ORDER BY v.id, st.statement_time DESC, st.version_id IS NULL, st.subcomponent_keys = '{}', st.id DESC";
constexpr std::string_view kServed =
    "SELECT s.version_id, s.format, s.document_version, s.sha256 FROM vex_served_documents s "
    "JOIN image_versions v ON v.id = s.version_id WHERE v.image_id = $1";
constexpr std::string_view kStoreServed =
    "INSERT INTO vex_served_documents (version_id, format, document_version, sha256, size_bytes, signature, "
    "signing_key_id) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (version_id, format) DO UPDATE SET "
    "document_version = EXCLUDED.document_version, sha256 = EXCLUDED.sha256, size_bytes = EXCLUDED.size_bytes, "
    "signature = EXCLUDED.signature, signing_key_id = EXCLUDED.signing_key_id, generated_at = now()";
constexpr std::string_view kRemoveServed = "DELETE FROM vex_served_documents WHERE version_id = $1";
// The documents this transaction stored have its start time, now(), as ingested_at.
constexpr std::string_view kImagesOfIngestedDocuments =
    "SELECT DISTINCT st.image_id FROM vex_statements st JOIN vex_documents d ON d.id = st.document_id "
    "WHERE d.ingested_at = now() ORDER BY st.image_id";

// ------------------------------------------------------------------ one image

struct Served {
  long long document_version = 0;
  std::string sha256;
};

// A version of the image, and the blob of its latest scan's CycloneDX SBOM (the BOM-Links' target).
struct VersionToServe {
  VexSubject subject;
  std::optional<std::string> cyclonedx_sbom;
};

// An image's versions, statements and stored documents, and what storing has done so far.
struct ImageState {
  std::string name;
  std::map<std::string, std::vector<ServedStatement>> statements;  // by version id, in preference order
  std::map<std::pair<std::string, std::string>, Served> served;    // by version id and format
  bool locked_blobs = false;
  long long written = 0, unchanged = 0, removed = 0;
};

std::map<std::string, std::vector<ServedStatement>> StatementsByVersion(Db& db, const std::string& image_id) {
  std::map<std::string, std::vector<ServedStatement>> by_version;
  Rows rows = db.RunSql(kStatements, {image_id});
  const int version_id = rows.Column("version_id"), id = rows.Column("id"), vuln_id = rows.Column("vuln_id"),
            aliases = rows.Column("aliases"), subcomponents = rows.Column("subcomponents"),
            status = rows.Column("status"), justification = rows.Column("justification"),
            impact = rows.Column("impact_statement"), action = rows.Column("action_statement"),
            time = rows.Column("time"), author = rows.Column("author");
  for (int i = 0; i < rows.size(); ++i) {
    by_version[std::string(rows.Text(i, version_id))].push_back(
        {rows.Int(i, id), std::string(rows.Text(i, vuln_id)), ParseTextArray(rows.Text(i, aliases)),
         ParseTextArray(rows.Text(i, subcomponents)), std::string(rows.Text(i, status)),
         rows.OptionalText(i, justification), rows.OptionalText(i, impact), rows.OptionalText(i, action),
         std::string(rows.Text(i, time)), std::string(rows.Text(i, author))});
  }
  return by_version;
}

std::vector<VersionToServe> Versions(Db& db, const std::string& image_id) {
  std::vector<VersionToServe> versions;
  Rows rows = db.RunSql(kVersions, {image_id});
  for (int i = 0; i < rows.size(); ++i) {
    versions.push_back(
        {{std::string(rows.Text(i, rows.Column("id"))), std::string(rows.Text(i, rows.Column("repository"))),
          std::string(rows.Text(i, rows.Column("tag"))), std::string(rows.Text(i, rows.Column("digest")))},
         rows.OptionalText(i, rows.Column("cyclonedx_sbom"))});
  }
  return versions;
}

std::map<std::pair<std::string, std::string>, Served> ServedDocuments(Db& db, const std::string& image_id) {
  std::map<std::pair<std::string, std::string>, Served> served;
  Rows rows = db.RunSql(kServed, {image_id});
  for (int i = 0; i < rows.size(); ++i) {
    served[{std::string(rows.Text(i, rows.Column("version_id"))), std::string(rows.Text(i, rows.Column("format")))}] = {
        rows.Int(i, rows.Column("document_version")), std::string(rows.Text(i, rows.Column("sha256")))};
  }
  return served;
}

// The links of the version's CycloneDX SBOM, read from the blob store; nullopt without one.
std::optional<SbomLinks> LinksOfSbom(const std::string& blob_dir, const std::optional<std::string>& sha256) {
  if (!sha256) return std::nullopt;
  std::string path = blob_dir + "/" + BlobRelativePath(*sha256);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (!(in && bytes << in.rdbuf())) throw Failure("blob store: cannot read the SBOM " + path);
  return SbomLinksOf(bytes.str());
}

// Validated, written to the blob store, signed and recorded: one document, its bytes new.
void StoreDocument(Db& db, const std::string& blob_dir, const SigningKey& key, ImageState& image,
                   const std::string& version_id, const std::string& format, long long document_version,
                   const std::string& bytes, const std::string& what) {
  ValidateAgainstSchema(format == "openvex" ? OfficialSchema::kOpenVex020 : OfficialSchema::kCycloneDx15, what,
                        ParseInputJson(what, bytes));
  if (!image.locked_blobs) {
    db.ExecSql(kShareBlobLock, {kBlobLockId});
    RememberSigningKey(db, key);
    image.locked_blobs = true;
  }
  std::string sha256 = Sha256Hex(bytes);
  (void)StoreBlob(blob_dir, bytes, sha256);
  db.ExecSql(kStoreServed, {version_id, format, document_version, sha256, static_cast<long long>(bytes.size()),
                            Base64Encode(Ed25519Sign(key.private_pem, bytes)), key.id});
  image.written++;
}

// One version: its two documents from the statements that apply to it, or none.
void ServeVersion(Db& db, const std::string& blob_dir, const SigningKey& key, ImageState& image,
                  const VersionToServe& version) {
  const VexSubject& subject = version.subject;
  std::vector<ServedStatement> statements = StatementsToServe(image.statements[subject.version_id]);
  if (statements.empty()) {
    long long stored = 0;
    for (std::string_view format : kVexFormats) stored += image.served.count({subject.version_id, std::string(format)});
    if (stored > 0) db.ExecSql(kRemoveServed, {subject.version_id});
    image.removed += stored;
    return;
  }
  std::optional<SbomLinks> links = LinksOfSbom(blob_dir, version.cyclonedx_sbom);
  for (std::string_view format_view : kVexFormats) {
    std::string format(format_view);
    auto write = [&](long long document_version) {
      return format == "openvex" ? OpenVexDocument(subject, statements, document_version)
                                 : CycloneDxVexDocument(subject, statements, document_version, links);
    };
    auto stored = image.served.find({subject.version_id, format});
    // The same statements give the same bytes at the same document version: then nothing changed.
    std::string bytes = write(stored == image.served.end() ? 1 : stored->second.document_version);
    if (stored != image.served.end() && Sha256Hex(bytes) == stored->second.sha256) {
      image.unchanged++;
      continue;
    }
    long long document_version = stored == image.served.end() ? 1 : stored->second.document_version + 1;
    if (document_version > 1) bytes = write(document_version);
    StoreDocument(db, blob_dir, key, image, subject.version_id, format, document_version, bytes,
                  "the served " + format + " VEX document of " + image.name + " " + subject.tag);
  }
}

}  // namespace

std::string ServeVexDocuments(Db& db, const std::string& blob_dir, const SigningKey& key, const std::string& image_id) {
  Rows locked = db.RunSql(kLockImage, {image_id});
  if (locked.empty()) return "";
  ImageState image;
  image.name = locked.Text(0, locked.Column("name"));
  image.statements = StatementsByVersion(db, image_id);
  image.served = ServedDocuments(db, image_id);
  if (image.statements.empty() && image.served.empty()) return "";  // most images: no VEX at all
  for (const VersionToServe& version : Versions(db, image_id)) ServeVersion(db, blob_dir, key, image, version);
  if (image.written + image.removed == 0) return "";
  return "served vex documents of " + image.name + ": " + std::to_string(image.written) + " written, " +
         std::to_string(image.removed) + " removed, " + std::to_string(image.unchanged) + " unchanged";
}

std::string ServeVexOfIngestedDocuments(Session& session) {
  Rows images = session.db.RunSql(kImagesOfIngestedDocuments);
  if (images.empty()) return "";  // the files were ingested before: nothing changed
  SigningKey key = LoadSigningKey(session.config);
  SigningKey attestation_key = LoadAttestationKey(session.config);
  std::string lines;
  long long attested = 0;
  for (int i = 0; i < images.size(); ++i) {
    std::string image_id(images.Text(i, images.Column("image_id")));
    std::string line = ServeVexDocuments(session.db, session.config.blob_dir, key, image_id);
    if (!line.empty()) lines += line + "\n";
    attested += AttestServedDocuments(session.db, session.config.blob_dir, attestation_key, image_id);
  }
  if (attested > 0) lines += "attestations: " + std::to_string(attested) + " signed with key " + attestation_key.id + "\n";
  return lines;
}

}  // namespace icat::ctl
