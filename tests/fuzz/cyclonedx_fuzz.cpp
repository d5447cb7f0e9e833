// CycloneDX 1.5 JSON documents (tools/icatctl/sbom_docs.cpp ParseCycloneDx).
#include "../../tools/icatctl/sbom_docs.hpp"
#include "../../tools/icatctl/session.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)icat::ctl::ParseCycloneDx("sbom.cdx.json", icat::fuzz::Text(data, size));
  } catch (const icat::ctl::Failure& e) {
    icat::fuzz::Expect(std::string_view(e.what()).rfind("sbom.cdx.json: ", 0) == 0, "a refusal names the file");
  }
  return 0;
}
