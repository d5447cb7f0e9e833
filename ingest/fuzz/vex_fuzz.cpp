// VEX documents (ingest/vex_docs.cpp ParseVex): OpenVEX 0.2.0 and CycloneDX 1.5, the schema
// checks included, the accepted deviations, products read as images. An accepted document has what
// ingest stores: statements each with an id, a status of the four, a time and at least one product.
#include "icat/vocabulary.hpp"
#include "ingest/vex_docs.hpp"
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  icat::fuzz::ExpectRefusalNamesFile("vex.json", [&] {
    icat::ctl::VexDocument doc = icat::ctl::ParseVex("vex.json", icat::fuzz::Text(data, size));
    icat::fuzz::Expect(!doc.statements.empty() && !doc.author.empty(), "a document has statements and an author");
    for (const icat::ctl::VexStatement& s : doc.statements) {
      icat::fuzz::Expect(!s.vuln_id.empty() && !s.products.empty() && !s.time.empty(), "a statement is complete");
      icat::fuzz::Expect(icat::IsOneOf(s.status, icat::kVexStatuses), "a status is one of the four");
      icat::fuzz::Expect(!s.justification || icat::IsOneOf(*s.justification, icat::kVexJustifications),
                         "a justification is one of OpenVEX's");
    }
  });
  return 0;
}
