// Inputs of icatctl ingest and vex ingest: a file, or an https:// URL (an artifact store, a
// pre-signed object URL), so a Job or a unit can ingest without anyone copying files into its pod
// or host.
#pragma once

#include <string>

#include "icat/config.hpp"

namespace icat::ctl {

// One input's bytes and their SHA-256 (hex); path as messages show it.
struct InputFile {
  std::string path, bytes, sha256_hex;
};

// A regular file, or an https:// URL fetched (FetchHttps, shown by its URL without the query), of at
// most ICAT_INGEST_MAX_BYTES; Failure "<path>: ..." otherwise.
InputFile ReadInput(const std::string& path, const Config& config);

// The body of GET url: https only (redirects too, at most 3), the server's certificate checked
// against ca_file (the system's CAs when empty), `Authorization: Bearer token` when token is not
// empty, at most max_bytes, within 5 minutes. Failure naming the URL without its query (which may
// hold a pre-signed credential) otherwise.
std::string FetchHttps(const std::string& url, long max_bytes, const std::string& ca_file, const std::string& token);

// The URL as messages and logs may show it: without its query and fragment.
std::string ShownUrl(const std::string& url);

}  // namespace icat::ctl
