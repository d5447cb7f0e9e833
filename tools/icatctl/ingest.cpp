// icatctl ingest: the flags of one scan ingest, checked, then the ingest itself (ingest/scan_ingest.cpp).
#include <iostream>

#include "commands.hpp"
#include "ingest/ingest_model.hpp"
#include "ingest/scan_ingest.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

// The same rules as the catalogue tables' CHECKs.
constexpr const char* kImageName = "[a-z0-9][a-z0-9._/-]{0,127}";
constexpr const char* kTag = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
constexpr const char* kDigest = "sha256:[0-9a-f]{64}";
constexpr const char* kRepository = "[a-z0-9][a-z0-9._-]*(:[0-9]+)?(/[a-z0-9._-]+)+";

ScanIngestRequest ParseRequest(const Args& args) {
  ScanIngestRequest r;
  r.image = args.Value("image");
  r.tag = args.Value("version");
  r.digest = args.Value("digest");
  RequireMatch("--image", r.image, kImageName, "is not an image name (a-z, 0-9, '._/-', at most 128 characters)");
  RequireMatch("--version", r.tag, kTag, "is not an image tag");
  RequireMatch("--digest", r.digest, kDigest, "is not sha256: followed by 64 lower-case hex digits");
  r.report_path = args.Value("report");
  r.spdx_path = args.Optional("spdx");
  r.cyclonedx_path = args.Optional("cyclonedx");
  if (!r.spdx_path && !r.cyclonedx_path) {
    throw UsageError("give the run's SBOMs: --spdx FILE and/or --cyclonedx FILE (at least one)");
  }
  r.repository = args.Optional("repository");
  if (r.repository) RequireMatch("--repository", *r.repository, kRepository, "is not a registry host and path");
  r.base_os = args.Optional("base-os");
  r.published = args.Optional("published");
  if (r.published && !IsRfc3339(*r.published)) {
    throw UsageError("--published: '" + *r.published + "' is not an RFC 3339 time such as 2027-01-31T12:00:00Z");
  }
  r.size = args.Count("size", "bytes");
  if (args.Has("hardening-tag")) r.hardening_tags = args.All("hardening-tag");
  r.require_complete = args.Has("require-complete");
  return r;
}

}  // namespace

void Ingest(const Args& args) { IngestScan(ParseRequest(args), std::cout); }

}  // namespace icat::ctl
