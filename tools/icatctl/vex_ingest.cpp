// icatctl vex ingest FILE...: the vendor's VEX documents, ingested by ingest/vex_ingest.cpp.
#include "ingest/vex_ingest.hpp"

#include <iostream>

#include "commands.hpp"

namespace icat::ctl {

void VexIngest(const Args& args) { IngestVex(args.Positionals(), std::cout, std::cerr); }

}  // namespace icat::ctl
