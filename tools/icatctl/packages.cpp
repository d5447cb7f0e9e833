// icatctl packages backfill: the packages of scans ingested before they were stored (sql/V0032,
// docs/compare.md "Older scans"), read from their stored SBOM blobs with ingest's document model.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/sbom_docs.hpp"
#include "ingest/scan_ingest.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

constexpr std::string_view kScansWithout =
    "SELECT s.id, s.image_id FROM scans s WHERE s.package_set_id IS NULL "
    "AND EXISTS (SELECT FROM sboms b WHERE b.scan_id = s.id) ORDER BY s.created_at, s.id";
// The image's row lock, as ingest takes it: two writers never race to create the same package set.
constexpr std::string_view kLockImage = "SELECT id FROM images WHERE id = $1 FOR UPDATE";
constexpr std::string_view kSbomsOf = "SELECT format, sha256 FROM sboms WHERE scan_id = $1 ORDER BY format";
constexpr std::string_view kSetPackages =
    "UPDATE scans SET package_set_id = $2 WHERE id = $1 AND package_set_id IS NULL";

// One scan's packages, in its own transaction: a blob that no longer parses stops the run there,
// naming the scan, with every scan before it done.
void BackfillScan(Session& session, const std::string& scan_id, const std::string& image_id) {
  Transaction transaction(session.db);
  session.db.RunSql(kLockImage, {image_id});
  Rows sboms = session.db.RunSql(kSbomsOf, {scan_id});
  std::vector<SbomDocument> docs;
  for (int i = 0; i < sboms.size(); i++) {
    std::string format(sboms.Text(i, sboms.Column("format"))), sha256(sboms.Text(i, sboms.Column("sha256")));
    std::string bytes = ReadBlob(session.config.blob_dir, sha256);
    std::string label = "scan " + scan_id + " " + format + " SBOM " + sha256;
    docs.push_back(format == "spdx" ? ParseSpdx(label, bytes) : ParseCycloneDx(label, bytes));
  }
  std::vector<const SbomDocument*> pointers;
  for (const SbomDocument& doc : docs) pointers.push_back(&doc);
  session.db.ExecSql(kSetPackages, {scan_id, StorePackageSet(session.db, image_id, pointers)});
  transaction.Commit();
}

}  // namespace

void PackagesBackfill(const Args&) {
  Session session;
  Rows scans = session.db.RunSql(kScansWithout, {});
  for (int i = 0; i < scans.size(); i++) {
    BackfillScan(session, std::string(scans.Text(i, scans.Column("id"))),
                 std::string(scans.Text(i, scans.Column("image_id"))));
  }
  if (scans.size() > 0) NoteCachedDataChanged(session);
  std::cout << "packages backfill: " << scans.size() << " scans given the packages of their stored SBOMs\n";
}

}  // namespace icat::ctl
