// The SBOM blob store: ICAT_BLOB_DIR/sha256/<first 2 hex>/<64 hex>, content-addressed, written
// so that a crash never leaves a partial file under a final name, and whatever a killed writer
// leaves in ICAT_BLOB_DIR/tmp/ is found and removed later.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace icat::ctl {

// A Postgres advisory lock (migrate's key space, "icat" and 2): ingest holds it shared from its
// first blob write to its commit, gc exclusively while it decides, so gc never removes a blob whose
// row is about to commit.
constexpr long long kBlobLockId = 0x6963617400000002;
// Taken by a writer (ingest, vex ingest) before its first blob write and held until its commit, so
// icatctl gc (which takes it exclusively) never sees its blobs unreferenced.
constexpr std::string_view kShareBlobLock = "SELECT pg_advisory_xact_lock_shared($1)";

// "sha256/ab/abcdef..." for a SHA-256 hex digest: the path under the blob directory, and under
// nginx's internal /_blobs/ location.
std::string BlobRelativePath(std::string_view sha256_hex);

// Stores bytes (whose SHA-256 hex is sha256_hex) unless a complete copy is already there: a temp
// file in tmp/ (same filesystem, so the rename is atomic; the directory is 0700, nginx never reads
// it), locked with flock while it is written, fsync, fchmod 0644, rename, fsync of the directory.
// Directories under sha256/ are 0755 (nginx's workers read the blobs as another user). Returns true
// when it wrote the file. Throws Failure naming the path on any error, after removing its temp file.
bool StoreBlob(const std::string& blob_dir, std::string_view bytes, const std::string& sha256_hex);

// The bytes of the blob named sha256_hex; Failure naming the path when it cannot be read or does not
// hold the bytes of its name.
std::string ReadBlob(const std::string& blob_dir, const std::string& sha256_hex);

struct BlobFile {
  std::string relative_path;  // under the blob directory, e.g. "tmp/0123abcd"
  long long bytes = 0;
};

struct TempFiles {
  std::vector<BlobFile> dead;    // removed (or, in a dry run, to be removed)
  std::vector<BlobFile> in_use;  // locked by a writer that is still running
};

// The temp files in tmp/: those no process holds locked belong to a killed writer and are removed
// (unless dry_run); locked ones are left alone. A missing tmp/ holds none.
TempFiles RemoveDeadTempFiles(const std::string& blob_dir, bool dry_run);

}  // namespace icat::ctl
