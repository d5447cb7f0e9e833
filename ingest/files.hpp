// Files written to survive a crash, the pieces the blob store and the key files share. Each error is
// a Failure "<context>: cannot <what> <path>: <the system's reason>", context naming whose file it is
// ("blob store", a setting's name).
#pragma once

#include <string>
#include <string_view>

namespace icat::ctl {

[[noreturn]] void FailErrno(std::string_view context, const std::string& what, const std::string& path);

// The directory a path is in: "." for a bare name, "/" for a name at the root.
std::string ParentDirectory(const std::string& path);

// Makes the directory's entries (a rename, a new file) durable.
void FsyncDirectory(std::string_view context, const std::string& path);

// Writes all of bytes to fd, again after EINTR.
void WriteAll(std::string_view context, int fd, std::string_view bytes, const std::string& path);

}  // namespace icat::ctl
