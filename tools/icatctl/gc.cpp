// icatctl gc: removes from the blob store what no row refers to (the SBOMs of scans that never
// committed, VEX documents no longer served, attestation bundles whose row is gone, a killed
// writer's temp files), keeping whatever a running ingest may still need.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <set>

#include "commands.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

constexpr long long kDefaultGraceSeconds = 3600;

// Exclusive against every ingest between its first blob write and its commit. gc does not wait for
// it: a waiting exclusive request would queue every new ingest behind a long one.
constexpr std::string_view kTryBlobLock = "SELECT pg_try_advisory_xact_lock($1) AS locked";
// gc must see every row that names a blob, or it would remove blobs in use. sboms and
// vex_served_documents force row-level security on their owner too (sql/V0024), so `row_security =
// off` is refused there; the owner's own policy (owner_sees_all(), V0009) shows it every row in its
// own sessions. So gc reads only as the tables' owner with that policy in force, or stops: as any
// other role (a DSN of the handlers', say) the policies would show it no reference at all.
constexpr std::string_view kSeesEveryRow =
    "SELECT current_user = (SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = 'sboms') "
    "AND public.owner_sees_all() AS sees_every_row";
// Every blob a row names: the SBOMs, the served VEX documents and the attestations' bundles (every
// row's, served or not: scans prune removes the rows of documents no longer served).
constexpr std::string_view kReferencedBlobs =
    "SELECT sha256 FROM sboms UNION SELECT sha256 FROM vex_served_documents UNION SELECT sha256 FROM attestations";

struct Tally {
  long long files = 0, bytes = 0;
  void Add(long long size) {
    files++;
    bytes += size;
  }
};

struct Outcome {
  Tally removed, referenced, young, in_use;  // in_use: temp files a running writer holds
};

// A blob's name: 64 lower-case hex digits, in the directory of its first two.
bool IsBlobName(const std::string& dir, const std::string& name) {
  return name.size() == 64 && name.find_first_not_of("0123456789abcdef") == std::string::npos &&
         name.compare(0, 2, dir) == 0;
}

std::set<std::string> ReferencedBlobs(Db& db) {
  std::set<std::string> referenced;
  Rows rows = db.RunSql(kReferencedBlobs);
  const int sha256 = rows.Column("sha256");
  for (int i = 0; i < rows.size(); ++i) referenced.emplace(rows.Text(i, sha256));
  return referenced;
}

// Regular files under sha256/<2 hex>/, as paths relative to the blob directory.
std::vector<std::string> StoredFiles(const std::string& blob_dir) {
  std::vector<std::string> files;
  std::filesystem::path root = std::filesystem::path(blob_dir) / "sha256";
  if (!std::filesystem::is_directory(root)) return files;
  for (const auto& dir : std::filesystem::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
      if (file.is_regular_file() && !file.is_symlink()) {
        files.push_back("sha256/" + dir.path().filename().string() + "/" + file.path().filename().string());
      }
    }
  }
  return files;
}

// Removes (or, in a dry run, lists) each file under sha256/ that no row names and that is older than
// the cutoff. Anything else there (a temp file of an older ingest) is as unreferenced as an orphan.
void SweepStoredFiles(const std::string& blob_dir, const std::set<std::string>& referenced, time_t cutoff, bool dry_run,
                      Outcome& outcome) {
  for (const std::string& relative : StoredFiles(blob_dir)) {
    std::string path = blob_dir + "/" + relative;
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) continue;  // gone since the listing
    std::string dir = relative.substr(7, 2);
    std::string name = relative.substr(relative.rfind('/') + 1);
    if (IsBlobName(dir, name) && referenced.count(name)) {
      outcome.referenced.Add(st.st_size);
    } else if (st.st_mtime > cutoff) {
      outcome.young.Add(st.st_size);
    } else {
      if (!dry_run && unlink(path.c_str()) != 0 && errno != ENOENT) {
        throw Failure("blob store: cannot remove " + path + ": " + std::strerror(errno));
      }
      outcome.removed.Add(st.st_size);
      std::cout << (dry_run ? "would remove " : "removed ") << relative << " (" << st.st_size << " bytes)\n";
    }
  }
}

void SweepTempFiles(const std::string& blob_dir, bool dry_run, Outcome& outcome) {
  TempFiles temp = RemoveDeadTempFiles(blob_dir, dry_run);
  for (const BlobFile& file : temp.dead) {
    outcome.removed.Add(file.bytes);
    std::cout << (dry_run ? "would remove " : "removed ") << file.relative_path << " (" << file.bytes << " bytes)\n";
  }
  for (const BlobFile& file : temp.in_use) outcome.in_use.Add(file.bytes);
}

}  // namespace

void Gc(const Args& args) {
  long long grace = args.Count("grace", "seconds").value_or(kDefaultGraceSeconds);
  bool dry_run = args.Has("dry-run");
  Session session;
  const std::string& blob_dir = session.config.blob_dir;
  Transaction transaction(session.db);  // the lock goes with it
  Rows lock = session.db.RunSql(kTryBlobLock, {kBlobLockId});
  if (!lock.Bool(0, lock.Column("locked"))) {
    throw Failure("an ingest is storing SBOMs or VEX documents right now; run gc again when it has finished");
  }
  Rows sees = session.db.RunSql(kSeesEveryRow, {});
  if (!sees.Bool(0, sees.Column("sees_every_row"))) {
    throw Failure(
        "gc must run as the owner role of the database (ICAT_PG_ADMIN_DSN), which sees every SBOM and "
        "VEX document; it removed nothing");
  }
  Outcome outcome;
  time_t now = std::time(nullptr);
  time_t cutoff = grace >= now ? 0 : now - grace;  // modified after it: young, kept
  SweepStoredFiles(blob_dir, ReferencedBlobs(session.db), cutoff, dry_run, outcome);
  SweepTempFiles(blob_dir, dry_run, outcome);
  transaction.Commit();

  const Outcome& o = outcome;
  long long kept_files = o.referenced.files + o.young.files + o.in_use.files;
  long long kept_bytes = o.referenced.bytes + o.young.bytes + o.in_use.bytes;
  std::cout << (dry_run ? "gc (dry run): would remove " : "gc: removed ") << o.removed.files << " files ("
            << o.removed.bytes << " bytes); kept " << kept_files << " files (" << kept_bytes
            << " bytes): " << o.referenced.files << " referenced, " << o.young.files << " younger than " << grace
            << " s, " << o.in_use.files << " temp files in use\n";
}

}  // namespace icat::ctl
