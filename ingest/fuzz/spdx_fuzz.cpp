// SPDX 2.3 JSON documents (ingest/sbom_docs.cpp ParseSpdx): the schema check included.
#include "ingest/sbom_docs.hpp"
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  icat::fuzz::ExpectRefusalNamesFile(
      "sbom.spdx.json", [&] { (void)icat::ctl::ParseSpdx("sbom.spdx.json", icat::fuzz::Text(data, size)); });
  return 0;
}
