// CycloneDX 1.5 JSON documents (ingest/sbom_docs.cpp ParseCycloneDx): the schema check included.
#include "ingest/sbom_docs.hpp"
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  icat::fuzz::ExpectRefusalNamesFile(
      "sbom.cdx.json", [&] { (void)icat::ctl::ParseCycloneDx("sbom.cdx.json", icat::fuzz::Text(data, size)); });
  return 0;
}
