// Scan ingest: one scanner run of one image version (a Trivy or Grype report and the SBOMs of that
// run) checked, signed and stored as one unit (ingest/scan_ingest.cpp, docs/scans.md). icatctl
// ingest reads the request from its flags (tools/icatctl/ingest.cpp).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "icat/db.hpp"
#include "ingest/ingest_model.hpp"

namespace icat::ctl {

// What icatctl ingest's flags name; checked there, so only the files' contents are checked here.
struct ScanIngestRequest {
  std::string image, tag, digest;
  std::string report_path;
  std::optional<std::string> spdx_path, cyclonedx_path;
  std::optional<std::string> repository, base_os, published;
  std::optional<long long> size;
  std::optional<std::vector<std::string>> hardening_tags;  // set when any --hardening-tag was given
  bool require_complete = false;                           // --require-complete: SBOMs below rule 3 are refused
};

// Checks every input before anything is written, then stores the SBOM blobs and, in one transaction,
// the version, scan, SBOM records, findings, counts, first-seen times, served VEX documents,
// attestations and outbox events. Prints what it did on out (a same-files rerun changes nothing);
// throws Failure naming the input otherwise.
void IngestScan(const ScanIngestRequest& request, std::ostream& out);

// The packages of a scan's SBOM documents as store_packages (sql/V0032) takes them: one
// {"purl", "name", "version"} per distinct purl, in purl order.
std::string PackagesJson(const std::vector<const SbomDocument*>& docs);

// The id of image_id's package set listing exactly the documents' packages (made when new); nullopt
// without documents. Ingest and `icatctl packages backfill` store packages through it.
std::optional<std::string> StorePackageSet(Db& db, const std::string& image_id,
                                           const std::vector<const SbomDocument*>& docs);

}  // namespace icat::ctl
