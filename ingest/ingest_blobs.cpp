// Durable, atomic writes into the content-addressed blob store, and removal of a killed writer's temp files.
#include "ingest/ingest_blobs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "icat/crypto.hpp"
#include "ingest/files.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

constexpr std::string_view kContext = "blob store";

[[noreturn]] void FailErrno(const std::string& what, const std::string& path) { ctl::FailErrno(kContext, what, path); }

// mkdir -p, the last directory with mode, its parents 0755, whatever the umask; a directory it
// creates is made durable in its parent.
void EnsureDirectory(const std::string& path, mode_t mode) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw Failure("blob store: " + path + " is not a directory");
    return;
  }
  if (errno != ENOENT) FailErrno("inspect", path);
  std::string parent = ParentDirectory(path);
  if (parent != path) EnsureDirectory(parent, 0755);
  if (mkdir(path.c_str(), mode) != 0 && errno != EEXIST) FailErrno("create directory", path);
  if (chmod(path.c_str(), mode) != 0) FailErrno("chmod", path);
  FsyncDirectory(kContext, parent);
}

// A new temp file in tmp_dir, created, then locked for as long as this process holds it open. A
// sweeper that locked it in the instant between the two has unlinked it (no link is left): that
// name is given up for another.
int CreateLockedTemp(const std::string& tmp_dir, std::string& path) {
  for (;;) {
    path = tmp_dir + "/" + HexEncode(RandomBytes(8));
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) FailErrno("create", path);
    struct stat st {};
    if (flock(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0) {
      int saved = errno;
      close(fd);
      unlink(path.c_str());
      errno = saved;
      FailErrno("lock", path);
    }
    if (st.st_nlink > 0) return fd;
    close(fd);
  }
}

enum class TempState { kInUse, kDead, kGone };

// One temp file: still held by its writer, or dead (removed unless dry_run), or not there any more
// (renamed into place since the listing) or not a file at all. Sets bytes to its size.
TempState SweepTempFile(const std::string& path, bool dry_run, long long& bytes) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return TempState::kGone;
    FailErrno("open", path);
  }
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) FailErrno("inspect", path);
  if (!S_ISREG(st.st_mode)) return TempState::kGone;
  bytes = st.st_size;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return TempState::kInUse;
    FailErrno("lock", path);
  }
  // Locked by us: its writer is gone, or has just renamed it into place (unlink then finds nothing).
  if (dry_run || unlink(path.c_str()) == 0) return TempState::kDead;
  if (errno == ENOENT) return TempState::kGone;
  FailErrno("remove", path);
}

}  // namespace

std::string BlobRelativePath(std::string_view sha256_hex) {
  return "sha256/" + std::string(sha256_hex.substr(0, 2)) + "/" + std::string(sha256_hex);
}

bool StoreBlob(const std::string& blob_dir, std::string_view bytes, const std::string& sha256_hex) {
  std::string final_path = blob_dir + "/" + BlobRelativePath(sha256_hex);
  std::string dir = ParentDirectory(final_path);
  struct stat st {};
  // Content-addressed: a file of the right size under this name already holds these bytes.
  if (stat(final_path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) == bytes.size()) {
    return false;
  }
  EnsureDirectory(dir, 0755);
  std::string tmp_dir = blob_dir + "/tmp";
  EnsureDirectory(tmp_dir, 0700);
  std::string temp_path;
  int fd = CreateLockedTemp(tmp_dir, temp_path);
  try {
    WriteAll(kContext, fd, bytes, temp_path);
    if (fsync(fd) != 0) FailErrno("fsync", temp_path);
    if (fchmod(fd, 0644) != 0) FailErrno("chmod", temp_path);
    if (rename(temp_path.c_str(), final_path.c_str()) != 0) FailErrno("rename into", final_path);
  } catch (...) {
    close(fd);
    unlink(temp_path.c_str());
    throw;
  }
  // Closing releases the lock, only now that the name is gone from tmp/. fsync has already
  // reported any write error, so close has nothing left to say.
  close(fd);
  FsyncDirectory(kContext, dir);
  return true;
}

TempFiles RemoveDeadTempFiles(const std::string& blob_dir, bool dry_run) {
  TempFiles found;
  std::string tmp_dir = blob_dir + "/tmp";
  DIR* dir = opendir(tmp_dir.c_str());
  if (dir == nullptr) {
    if (errno == ENOENT) return found;
    FailErrno("open", tmp_dir);
  }
  std::vector<std::string> names;
  while (const dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(dir);
  for (const std::string& name : names) {
    BlobFile file{"tmp/" + name, 0};
    TempState state = SweepTempFile(tmp_dir + "/" + name, dry_run, file.bytes);
    if (state == TempState::kDead) found.dead.push_back(file);
    if (state == TempState::kInUse) found.in_use.push_back(file);
  }
  return found;
}

std::string ReadBlob(const std::string& blob_dir, const std::string& sha256_hex) {
  std::string path = blob_dir + "/" + BlobRelativePath(sha256_hex);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (!(in && bytes << in.rdbuf())) throw Failure("blob store: cannot read " + path);
  if (Sha256Hex(bytes.str()) != sha256_hex) throw Failure("blob store: " + path + " does not hold the bytes of its name");
  return bytes.str();
}

}  // namespace icat::ctl
