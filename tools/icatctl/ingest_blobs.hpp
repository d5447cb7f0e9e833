// The SBOM blob store: ICAT_BLOB_DIR/sha256/<first 2 hex>/<64 hex>, content-addressed, written
// so that a crash never leaves a partial file under a final name.
#pragma once

#include <string>
#include <string_view>

namespace icat::ctl {

// "sha256/ab/abcdef..." for a SHA-256 hex digest: the path under the blob directory, and under
// nginx's internal /_blobs/ location.
std::string BlobRelativePath(std::string_view sha256_hex);

// Stores bytes (whose SHA-256 hex is sha256_hex) unless a complete copy is already there: a temp
// file in the target directory, fsync, fchmod 0644, rename, fsync of the directory. Directories it
// creates are 0755 (nginx's workers read the blobs as another user). Returns true when it wrote
// the file. Throws Failure naming the path on any error, after removing its temp file.
bool StoreBlob(const std::string& blob_dir, std::string_view bytes, const std::string& sha256_hex);

}  // namespace icat::ctl
