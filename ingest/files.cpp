// Durable files: see files.hpp.
#include "ingest/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ingest/session.hpp"

namespace icat::ctl {

void FailErrno(std::string_view context, const std::string& what, const std::string& path) {
  throw Failure(std::string(context) + ": cannot " + what + " " + path + ": " + std::strerror(errno));
}

std::string ParentDirectory(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

void FsyncDirectory(std::string_view context, const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) FailErrno(context, "open", path);
  int synced = fsync(fd);
  int saved = errno;
  close(fd);
  errno = saved;
  if (synced != 0) FailErrno(context, "fsync", path);
}

void WriteAll(std::string_view context, int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      FailErrno(context, "write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace icat::ctl
