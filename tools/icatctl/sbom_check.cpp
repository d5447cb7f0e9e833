// icatctl sbom check: what ingest would say of one SBOM file, without a database or a report, so
// an SBOM can be checked before it is ingested and a downloaded one checked after.
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_completeness.hpp"
#include "ingest/sbom_docs.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

void SbomCheck(const Args& args) {
  const std::string& path = args.Positional(0);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure(path + ": cannot read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string text = bytes.str();
  // The format from the content (a top-level spdxVersion), as ingest's --spdx and --cyclonedx
  // each require it; anything else gets the CycloneDX reader's refusal, which names what it is.
  rapidjson::Document json = ParseInputJson(path, text);
  bool spdx = json.IsObject() && Member(json, "spdxVersion");
  SbomDocument doc = spdx ? ParseSpdx(path, text) : ParseCycloneDx(path, text);
  RequireImageSbom(path, doc, args.Has("require-complete"));
  std::cout << path << ": valid " << (doc.format == "spdx" ? "SPDX 2.3" : "CycloneDX 1.5")
            << " (official schema), an SBOM of a container image\n"
            << "completeness: " << CompletenessLine(doc) << "\n";
}

}  // namespace icat::ctl
