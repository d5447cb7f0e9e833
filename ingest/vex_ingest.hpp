// VEX ingest (icatctl vex ingest, docs/vex.md): the vendor's VEX documents checked, their statements
// tied to catalogue images and versions, stored with the scans they touch recounted, all in one
// transaction (ingest/vex_ingest.cpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace icat::ctl {

// Reads and checks every file (a path or an https:// URL) before anything is written, then stores
// them and serves the VEX documents of the versions they apply to. Prints a line per document on
// out (and its notes), the statements it did not store on warnings; Failure naming the file otherwise.
void IngestVex(const std::vector<std::string>& paths, std::ostream& out, std::ostream& warnings);

}  // namespace icat::ctl
