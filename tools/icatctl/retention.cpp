// icatctl scans prune: the scan retention (ICAT_SCAN_RETENTION_DAYS, or --older-than-days) applied:
// the scans scanned more than N days ago go, except each version's latest, then the findings sets
// no scan points at any more, with their findings, the package sets no scan points at any more, with
// their packages, and the attestations of documents no longer served; one transaction per batch of
// versions.
#include <algorithm>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

constexpr std::string_view kSetting = "ICAT_SCAN_RETENTION_DAYS";
// Small enough that a batch's row locks keep an ingest of one of its versions waiting only briefly.
constexpr size_t kVersionsPerBatch = 100;

// ------------------------------------------------------------------ SQL (run as the owner role)

// A scan the retention removes ($1 the cutoff): scanned before it, and not its version's latest.
// The latest is the only scan whose SBOMs a tenant can download (sbom_of_version and
// sbom_of_latest_version read latest_scan_id), whose findings and counts are read, and whose
// CycloneDX SBOM the served VEX documents link into (vex_served.cpp, rewritten whenever the latest
// changes), so keeping it keeps all of those. A version without a latest scan loses nothing (the
// comparison with NULL is never true).
#define ICAT_REMOVABLE_SCAN "s.scanned_at < $1::timestamptz AND s.id <> v.latest_scan_id"

constexpr std::string_view kCutoff =
    "SELECT now() - make_interval(days => $1::int) AS cutoff, rfc3339(now() - make_interval(days => $1::int)) AS shown";
// The versions with a scan to remove ($2: only those of this image, or NULL), in lock order.
constexpr std::string_view kVersionsToPrune =
    "SELECT v.id, i.name, v.tag FROM image_versions v JOIN images i ON i.id = v.image_id "
    "WHERE ($2::text IS NULL OR i.name = $2) "
    "AND EXISTS (SELECT FROM scans s WHERE s.version_id = v.id AND " ICAT_REMOVABLE_SCAN ") ORDER BY v.id";
// A package set belongs to an image, not a version (sql/V0032), and every writer that points a scan at
// one (scan ingest, packages backfill) holds its image's row FOR UPDATE: SHARE keeps them waiting until
// the batch decides which sets no scan uses, and leaves the KEY SHARE of foreign keys alone. Taken
// before the versions, in the order ingest takes its image and then its version.
constexpr std::string_view kLockImages =
    "SELECT id FROM images WHERE id IN (SELECT image_id FROM image_versions WHERE id = ANY($1::uuid[])) "
    "ORDER BY id FOR SHARE";
// Ingest locks its version FOR UPDATE: the batch waits for an ingest of one of its versions, and
// such an ingest waits for the batch, so neither decides on a latest scan the other is changing.
// NO KEY UPDATE leaves the foreign-key share locks alone that an ingest of another version of the
// same image takes here when it rewrites the image's served VEX documents.
constexpr std::string_view kLockVersions =
    "SELECT id FROM image_versions WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE";
// Decided after the lock, from what is committed now. The statement still sees the SBOM records
// its cascade removes, so it counts them.
constexpr std::string_view kRemoveScans =
    "WITH gone AS (DELETE FROM scans s USING image_versions v WHERE v.id = s.version_id AND v.id = ANY($2::uuid[]) "
    "AND " ICAT_REMOVABLE_SCAN " RETURNING s.id, s.version_id) "
    "SELECT g.version_id, count(DISTINCT g.id) AS scans, count(b.id) AS sboms "
    "FROM gone g LEFT JOIN sboms b ON b.scan_id = g.id GROUP BY g.version_id";
// A set belongs to one version, so only the batch's versions can have lost their last scan of one.
// Its findings go with it (ON DELETE CASCADE); the statement still sees them, so it counts them.
constexpr std::string_view kRemoveUnusedSets =
    "WITH gone AS (DELETE FROM findings_sets fs WHERE fs.version_id = ANY($1::uuid[]) "
    "AND NOT EXISTS (SELECT FROM scans s WHERE s.findings_set_id = fs.id) RETURNING fs.id, fs.version_id) "
    "SELECT g.version_id, count(*) AS sets, sum((SELECT count(*) FROM vulnerabilities x WHERE x.set_id = g.id)) "
    "AS findings FROM gone g GROUP BY g.version_id";
// The same rule for package sets, by image: a set the kept scans of any version of the image point at
// stays. Their packages go with them (ON DELETE CASCADE); the statement still sees them, so it counts them.
constexpr std::string_view kRemoveUnusedPackageSets =
    "WITH gone AS (DELETE FROM package_sets ps WHERE ps.image_id IN "
    "(SELECT image_id FROM image_versions WHERE id = ANY($1::uuid[])) "
    "AND NOT EXISTS (SELECT FROM scans s WHERE s.package_set_id = ps.id) RETURNING ps.id, ps.image_id) "
    "SELECT i.name, count(*) AS sets, sum((SELECT count(*) FROM packages p WHERE p.set_id = g.id)) AS packages "
    "FROM gone g JOIN images i ON i.id = g.image_id GROUP BY i.name ORDER BY i.name";
// The attestations of the batch's versions whose document is no longer served (served_attestations,
// sql/V0028): those of the removed scans' SBOMs, and of older scans' and replaced VEX documents, which
// no route serves either. Their bundles are left to gc, as SBOM blobs are. An attestation a running
// vex ingest adds is not committed, so not seen here.
constexpr std::string_view kRemoveUnservedAttestations =
    "WITH gone AS (DELETE FROM attestations a WHERE a.version_id = ANY($1::uuid[]) AND NOT EXISTS ("
    "SELECT FROM served_attestations s WHERE s.version_id = a.version_id AND s.type = a.type "
    "AND s.document_sha256 = a.document_sha256) RETURNING a.version_id) "
    "SELECT version_id, count(*) AS attestations FROM gone GROUP BY version_id";
// The scans older than the cutoff that stay: each the latest of its version.
constexpr std::string_view kKeptOldScans =
    "SELECT count(*) AS kept FROM scans s JOIN image_versions v ON v.id = s.version_id "
    "JOIN images i ON i.id = v.image_id WHERE s.scanned_at < $1::timestamptz AND s.id = v.latest_scan_id "
    "AND ($2::text IS NULL OR i.name = $2)";

#undef ICAT_REMOVABLE_SCAN

// ------------------------------------------------------------------ the run

struct Removed {
  long long scans = 0, sboms = 0, sets = 0, findings = 0, attestations = 0;
  long long package_sets = 0, packages = 0;  // per image, not per version
  void Add(const Removed& other) {
    scans += other.scans;
    sboms += other.sboms;
    sets += other.sets;
    findings += other.findings;
    attestations += other.attestations;
    package_sets += other.package_sets;
    packages += other.packages;
  }
};

struct Version {
  std::string id, name;  // name: "<image> <tag>"
};

// The days of --older-than-days, else of the setting; 0 keeps every scan. The flag is held to the
// setting's range, so both say the same.
int RetentionDays(const Args& args) {
  std::optional<long long> flag = args.Count("older-than-days", "days");
  if (!flag) return IntSetting(kSetting);
  const auto& rows = AllSettings();
  const Setting& row = *std::find_if(rows.begin(), rows.end(), [](const Setting& s) { return s.name == kSetting; });
  if (*flag > row.max) {
    throw UsageError("--older-than-days: at most " + std::to_string(row.max) + " (as " + std::string(kSetting) + ")");
  }
  return static_cast<int>(*flag);
}

std::vector<Version> VersionsToPrune(Db& db, const std::string& cutoff, const std::optional<std::string>& image) {
  std::vector<Version> versions;
  Rows rows = db.RunSql(kVersionsToPrune, {cutoff, image});
  const int id = rows.Column("id"), name = rows.Column("name"), tag = rows.Column("tag");
  for (int i = 0; i < rows.size(); ++i) {
    versions.push_back({std::string(rows.Text(i, id)), std::string(rows.Text(i, name)) + " " + std::string(rows.Text(i, tag))});
  }
  return versions;
}

std::string RemovedText(const Removed& r) {
  return std::to_string(r.scans) + " scans (" + std::to_string(r.sboms) + " SBOM records), " + std::to_string(r.sets) +
         " findings sets (" + std::to_string(r.findings) + " findings), " + std::to_string(r.attestations) +
         " attestations";
}

std::string PackageSetsText(const Removed& r) {
  return std::to_string(r.package_sets) + " package sets (" + std::to_string(r.packages) + " packages)";
}

// One batch in one transaction: committed, or rolled back in a dry run. Prints a line per version,
// then one per image that lost package sets.
Removed PruneBatch(Db& db, const std::string& cutoff, const std::vector<Version>& batch, bool dry_run) {
  std::vector<std::string> ids;
  for (const Version& v : batch) ids.push_back(v.id);
  std::string id_array = TextArrayLiteral(ids);
  std::map<std::string, Removed> by_version;
  Transaction transaction(db);
  db.ExecSql(kLockImages, {id_array});
  db.ExecSql(kLockVersions, {id_array});
  Rows scans = db.RunSql(kRemoveScans, {cutoff, id_array});
  for (int i = 0; i < scans.size(); ++i) {
    Removed& r = by_version[std::string(scans.Text(i, scans.Column("version_id")))];
    r.scans = scans.Int(i, scans.Column("scans"));
    r.sboms = scans.Int(i, scans.Column("sboms"));
  }
  Rows sets = db.RunSql(kRemoveUnusedSets, {id_array});
  for (int i = 0; i < sets.size(); ++i) {
    Removed& r = by_version[std::string(sets.Text(i, sets.Column("version_id")))];
    r.sets = sets.Int(i, sets.Column("sets"));
    r.findings = sets.Int(i, sets.Column("findings"));
  }
  Rows package_sets = db.RunSql(kRemoveUnusedPackageSets, {id_array});
  Rows attestations = db.RunSql(kRemoveUnservedAttestations, {id_array});
  for (int i = 0; i < attestations.size(); ++i) {
    by_version[std::string(attestations.Text(i, attestations.Column("version_id")))].attestations =
        attestations.Int(i, attestations.Column("attestations"));
  }
  if (!dry_run) transaction.Commit();  // else the destructor rolls back: nothing changed

  Removed total;
  for (const Version& v : batch) {
    auto found = by_version.find(v.id);
    if (found == by_version.end()) continue;  // another run removed them after the listing
    std::cout << (dry_run ? "would remove " : "removed ") << RemovedText(found->second) << " of " << v.name << "\n";
    total.Add(found->second);
  }
  for (int i = 0; i < package_sets.size(); ++i) {
    Removed image;
    image.package_sets = package_sets.Int(i, package_sets.Column("sets"));
    image.packages = package_sets.Int(i, package_sets.Column("packages"));
    std::cout << (dry_run ? "would remove " : "removed ") << PackageSetsText(image) << " of "
              << package_sets.Text(i, package_sets.Column("name")) << "\n";
    total.Add(image);
  }
  return total;
}

}  // namespace

void ScansPrune(const Args& args) {
  Session session;  // every setting checked first, as for every command
  int days = RetentionDays(args);
  bool dry_run = args.Has("dry-run");
  std::optional<std::string> image = args.Optional("image");
  if (days == 0) {
    std::cout << "scans prune: retention 0 days (" << kSetting << " unset or 0, or --older-than-days 0): every scan is kept\n";
    return;
  }
  if (image) (void)ImageId(session.db, *image);  // "image NAME not found" rather than nothing to do
  Rows cutoff_row = session.db.RunSql(kCutoff, {days});
  std::string cutoff(cutoff_row.Text(0, cutoff_row.Column("cutoff")));
  std::string shown(cutoff_row.Text(0, cutoff_row.Column("shown")));

  std::vector<Version> versions = VersionsToPrune(session.db, cutoff, image);
  Removed removed;
  for (size_t start = 0; start < versions.size(); start += kVersionsPerBatch) {
    std::vector<Version> batch(versions.begin() + static_cast<long>(start),
                               versions.begin() + static_cast<long>(std::min(versions.size(), start + kVersionsPerBatch)));
    Removed batch_removed = PruneBatch(session.db, cutoff, batch, dry_run);
    removed.Add(batch_removed);
    // As every icatctl write of catalogue data. No cached reply reads a scan prune removes today (the
    // /v1 reads show latest scans only), so this keeps a later cached read of the history right.
    if (!dry_run && batch_removed.scans > 0) NoteCachedDataChanged(session);
  }
  Rows kept = session.db.RunSql(kKeptOldScans, {cutoff, image});

  std::cout << (dry_run ? "scans prune (dry run): would remove " : "scans prune: removed ") << RemovedText(removed)
            << ", " << PackageSetsText(removed) << "; kept " << kept.Int(0, kept.Column("kept")) << " scans scanned before " << shown
            << " (" << days << " days), each the latest of its version; SBOM blobs no row names any more are left to "
            << "icatctl gc\n";
}

}  // namespace icat::ctl
