// icatctl vex ingest: the vendor's VEX documents (OpenVEX 0.2.0, CycloneDX 1.5) checked, their
// statements tied to catalogue images and versions, stored with the counts of the scans they touch
// recounted and a vex.updated event for every tenant licensed for an image they name, all in one
// transaction. Every file is read and checked before anything is written. docs/vex.md has the rules.
#include "ingest/vex_ingest.hpp"

#include <cstdlib>
#include <iostream>
#include <set>

#include "icat/outbox.hpp"
#include "icat/trace.hpp"
#include "ingest/fetch.hpp"
#include "ingest/session.hpp"
#include "ingest/vex_docs.hpp"
#include "ingest/vex_served.hpp"

namespace icat::ctl {
namespace {

// ------------------------------------------------------------------ SQL (run as the owner role)

// No row when these exact bytes were ingested before: then nothing changes.
constexpr std::string_view kInsertDocument =
    "INSERT INTO vex_documents (format, document_ref, author, role, issued_at, updated_at, version, sha256) "
    "VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $7, $8) ON CONFLICT (sha256) DO NOTHING RETURNING id";
constexpr std::string_view kDocumentOfBytes = "SELECT id FROM vex_documents WHERE sha256 = $1";
// One row per catalogue image or version the product matches ($2 digest, $3 repository, $4 tag; an
// ImageProduct): a digest matches the versions of that digest (in repository $3 when given), a tag
// the version of that tag in the repository, a repository alone the image itself (every version).
constexpr std::string_view kInsertStatements =
    "INSERT INTO vex_statements (document_id, image_id, version_id, product, vuln_id, aliases, subcomponents, status, "
    "justification, impact_statement, action_statement, statement_time) "
    "SELECT $1, m.image_id, m.version_id, $5, $6, $7::text[], $8::text[], $9, $10, $11, $12, $13::timestamptz FROM ("
    "  SELECT v.image_id, v.id AS version_id FROM image_versions v JOIN images i ON i.id = v.image_id "
    "  WHERE v.digest = $2 AND ($3::text IS NULL OR i.repository = $3) "
    "  UNION ALL SELECT i.id, v.id FROM images i JOIN image_versions v ON v.image_id = i.id AND v.tag = $4 "
    "  WHERE $2::text IS NULL AND i.repository = $3 "
    "  UNION ALL SELECT i.id, NULL FROM images i WHERE $2::text IS NULL AND $4::text IS NULL AND i.repository = $3"
    ") m RETURNING image_id";
// The stored counts of every scan holding a finding a statement of document $1 may apply to (of its
// vulnerability, on a version it covers), recounted by the one counting rule.
constexpr std::string_view kRecountTouchedScans =
    "SELECT count(scan_recount(t.scan_id)) AS scans FROM (SELECT DISTINCT s.id AS scan_id FROM vex_statements st "
    "JOIN vulnerabilities x ON x.vuln_id = ANY (st.vuln_ids) OR x.aliases && st.vuln_ids "
    "JOIN scans s ON s.findings_set_id = x.set_id "
    "JOIN image_versions v ON v.id = s.version_id AND v.image_id = st.image_id "
    "AND (st.version_id IS NULL OR st.version_id = v.id) WHERE st.document_id = $1) t";
// vex.updated's data for each image of document $1 (docs/webhooks.md): the image, its versions the
// statements apply to (all of them when one is about every version), the document and its statements.
constexpr std::string_view kEventData =
    "WITH per_image AS (SELECT st.image_id, bool_or(st.version_id IS NULL) AS every_version, "
    "  array_agg(st.version_id) AS version_ids, jsonb_agg(jsonb_build_object('vulnerability', st.vuln_id, "
    "  'aliases', to_jsonb(st.aliases), 'status', st.status, 'justification', st.justification, 'version', "
    "  (SELECT jsonb_build_object('id', v.id, 'tag', v.tag) FROM image_versions v WHERE v.id = st.version_id)) "
    "  ORDER BY st.id) AS statements FROM vex_statements st WHERE st.document_id = $1 GROUP BY st.image_id) "
    "SELECT p.image_id, jsonb_build_object('image', jsonb_build_object('id', i.id, 'name', i.name), "
    "  'versions', (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', v.id, 'tag', v.tag, 'digest', v.digest) "
    "    ORDER BY v.published_at DESC, v.tag DESC), '[]'::jsonb) FROM image_versions v "
    "    WHERE v.image_id = p.image_id AND (p.every_version OR v.id = ANY (p.version_ids))), "
    "  'document', jsonb_build_object('id', d.id, 'format', d.format, 'author', d.author), "
    "  'statements', p.statements)::text AS data "
    "FROM per_image p JOIN images i ON i.id = p.image_id JOIN vex_documents d ON d.id = $1 ORDER BY i.name";
constexpr std::string_view kLicensees = "SELECT count(*) AS n FROM licenses WHERE image_id = $1";

// ------------------------------------------------------------------ one document

struct LoadedVex {
  InputFile input;
  VexDocument doc;
};

// What storing one document did, for the operator.
struct Stored {
  std::string line;                   // the summary
  std::vector<std::string> warnings;  // products left out, each "<where> (<id>): product <name> ..."
  bool changed = false;
};

// What storing the statements did: document statements stored (for some image), the images, and
// the products that matched nothing.
struct Tally {
  size_t statements = 0;
  std::set<std::string> images;
  std::vector<std::string> unknown;  // one warning each
};

// The product's ImageProduct as $2..$4 of insert_statements.
std::vector<Param> MatchParams(const ImageProduct& image) { return {image.digest, image.repository, image.tag}; }

Tally StoreStatements(Db& db, const std::string& document_id, const LoadedVex& file) {
  Tally tally;
  for (const VexStatement& s : file.doc.statements) {
    bool stored = false;
    for (const VexProduct& product : s.products) {
      std::string said = s.where + " (" + s.vuln_id + "): product " + product.name;
      if (!product.image) {
        tally.unknown.push_back(said + " is not a container image");
        continue;
      }
      std::vector<Param> params = {document_id};
      for (Param& p : MatchParams(*product.image)) params.push_back(std::move(p));
      for (Param p : {Param(product.name), Param(s.vuln_id), Param(TextArrayLiteral(s.aliases)),
                      Param(TextArrayLiteral(product.subcomponents)), Param(s.status), Param(s.justification),
                      Param(s.impact_statement), Param(s.action_statement), Param(s.time)}) {
        params.push_back(std::move(p));
      }
      Rows rows = db.RunSql(kInsertStatements, params);
      if (rows.empty()) tally.unknown.push_back(said + " matches no catalogue image");
      for (int i = 0; i < rows.size(); ++i) tally.images.insert(std::string(rows.Text(i, rows.Column("image_id"))));
      stored = stored || !rows.empty();
    }
    if (stored) tally.statements++;
  }
  return tally;
}

// vex.updated for every tenant licensed for an image of the document; returns how many events.
long long WriteEvents(Db& db, const std::string& document_id, const std::string& traceparent) {
  Rows images = db.RunSql(kEventData, {document_id});
  long long events = 0;
  for (int i = 0; i < images.size(); ++i) {
    std::string image_id(images.Text(i, images.Column("image_id")));
    db.ExecSql(outbox::kEventPerLicensee.sql,
               {image_id, "vex.updated", images.Text(i, images.Column("data")), traceparent});
    Rows licensees = db.RunSql(kLicensees, {image_id});
    events += licensees.Int(0, licensees.Column("n"));
  }
  return events;
}

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

Stored StoreDocument(Db& db, const LoadedVex& file, const std::string& traceparent) {
  const VexDocument& doc = file.doc;
  Rows inserted = db.RunSql(kInsertDocument, {doc.format, doc.ref, doc.author, doc.role, doc.issued_at, doc.updated_at,
                                              doc.version, file.input.sha256_hex});
  if (inserted.empty()) {
    Rows existing = db.RunSql(kDocumentOfBytes, {file.input.sha256_hex});
    return {"vex document " + std::string(existing.Text(0, existing.Column("id"))) +
                " already ingested: " + file.input.path + " holds exactly its bytes; nothing changed",
            {},
            false};
  }
  std::string id(inserted.Text(0, inserted.Column("id")));
  Tally tally = StoreStatements(db, id, file);
  if (tally.statements == 0) {
    throw Failure(file.input.path + ": no statement names a catalogue image (" +
                  Plural(tally.unknown.size(), "product", "products") +
                  " unknown, the first: " + tally.unknown.front() + "); nothing was stored");
  }
  Rows recounted = db.RunSql(kRecountTouchedScans, {id});
  long long scans = recounted.Int(0, recounted.Column("scans"));
  long long events = WriteEvents(db, id, traceparent);
  std::string line =
      "vex document " + id + " ingested from " + file.input.path + " (" + doc.format + ", " + doc.author +
      "): " + Plural(tally.statements, "statement", "statements") + " of " + std::to_string(doc.statements.size()) +
      " stored for " + Plural(tally.images.size(), "image", "images") + ", " +
      Plural(tally.unknown.size(), "product", "products") + " unknown; " + Plural(scans, "scan", "scans") +
      " recounted; " + Plural(events, "vex.updated event", "vex.updated events");
  return {line, tally.unknown, true};
}

}  // namespace

void IngestVex(const std::vector<std::string>& paths, std::ostream& out, std::ostream& warnings) {
  Session session;
  std::vector<LoadedVex> files;
  for (const std::string& path : paths) {
    InputFile input = ReadInput(path, session.config);
    VexDocument doc = ParseVex(input.path, input.bytes);
    files.push_back({std::move(input), std::move(doc)});
  }
  // The trace of a pipeline's step (TRACEPARENT) continues in the events' deliveries, as ingest's.
  const char* pipeline_trace = std::getenv("TRACEPARENT");
  std::string traceparent = ContinueTrace(pipeline_trace ? pipeline_trace : "").Traceparent();
  std::vector<Stored> results;
  Transaction transaction(session.db);
  for (const LoadedVex& file : files) results.push_back(StoreDocument(session.db, file, traceparent));
  std::string served = ServeVexOfIngestedDocuments(session);  // the signed documents of the versions they apply to
  transaction.Commit();

  bool changed = false;
  for (const Stored& r : results) changed = changed || r.changed;
  if (changed) NoteCachedDataChanged(session);
  for (size_t i = 0; i < files.size(); ++i) {
    out << results[i].line << "\n";
    for (const std::string& note : files[i].doc.notes) out << "note: " << files[i].input.path << ": " << note << "\n";
    for (const std::string& warning : results[i].warnings) {
      warnings << "icatctl: warning: " << files[i].input.path << ": " << warning << "; not stored\n";
    }
  }
  out << served;
}

}  // namespace icat::ctl
