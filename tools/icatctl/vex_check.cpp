// icatctl vex check: what vex ingest would say of VEX files (the official schema, the statements it
// could store), without a database, so a vendor's document can be checked before it is ingested and
// a served one (GET .../vex) checked after it is downloaded.
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "ingest/session.hpp"
#include "ingest/vex_docs.hpp"

namespace icat::ctl {

void VexCheck(const Args& args) {
  for (const std::string& path : args.Positionals()) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    if (!(in && bytes << in.rdbuf())) throw Failure(path + ": cannot read");
    VexDocument doc = ParseVex(path, bytes.str());
    std::cout << path << ": valid " << (doc.format == "openvex" ? "OpenVEX 0.2.0" : "CycloneDX 1.5")
              << " (official schema), " << doc.statements.size() << " statements by " << doc.author << "\n";
    for (const std::string& note : doc.notes) std::cout << "note: " << path << ": " << note << "\n";
  }
}

}  // namespace icat::ctl
