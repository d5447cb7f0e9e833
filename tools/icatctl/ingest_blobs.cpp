// Durable, atomic writes into the content-addressed blob store.
#include "ingest_blobs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "icat/crypto.hpp"
#include "session.hpp"

namespace icat::ctl {

namespace {

[[noreturn]] void FailErrno(const std::string& what, const std::string& path) {
  throw Failure("blob store: cannot " + what + " " + path + ": " + std::strerror(errno));
}

void FsyncPath(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) FailErrno("open", path);
  int synced = fsync(fd);
  int saved = errno;
  close(fd);
  errno = saved;
  if (synced != 0) FailErrno("fsync", path);
}

std::string Parent(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

// mkdir -p with mode 0755 whatever the umask; a directory it creates is made durable in its parent.
void EnsureDirectory(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw Failure("blob store: " + path + " is not a directory");
    return;
  }
  if (errno != ENOENT) FailErrno("inspect", path);
  std::string parent = Parent(path);
  if (parent != path) EnsureDirectory(parent);
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) FailErrno("create directory", path);
  if (chmod(path.c_str(), 0755) != 0) FailErrno("chmod", path);
  FsyncPath(parent);
}

void WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      FailErrno("write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace

std::string BlobRelativePath(std::string_view sha256_hex) {
  return "sha256/" + std::string(sha256_hex.substr(0, 2)) + "/" + std::string(sha256_hex);
}

bool StoreBlob(const std::string& blob_dir, std::string_view bytes, const std::string& sha256_hex) {
  std::string final_path = blob_dir + "/" + BlobRelativePath(sha256_hex);
  std::string dir = Parent(final_path);
  struct stat st {};
  // Content-addressed: a file of the right size under this name already holds these bytes.
  if (stat(final_path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) == bytes.size()) {
    return false;
  }
  EnsureDirectory(dir);
  std::string temp_path = dir + "/.tmp-" + HexEncode(RandomBytes(8));
  int fd = open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) FailErrno("create", temp_path);
  try {
    WriteAll(fd, bytes, temp_path);
    if (fsync(fd) != 0) FailErrno("fsync", temp_path);
    if (fchmod(fd, 0644) != 0) FailErrno("chmod", temp_path);
    if (close(fd) != 0) {
      fd = -1;
      FailErrno("close", temp_path);
    }
    fd = -1;
    if (rename(temp_path.c_str(), final_path.c_str()) != 0) FailErrno("rename into", final_path);
  } catch (...) {
    if (fd >= 0) close(fd);
    unlink(temp_path.c_str());
    throw;
  }
  FsyncPath(dir);
  return true;
}

}  // namespace icat::ctl
