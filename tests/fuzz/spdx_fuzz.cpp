// SPDX 2.3 JSON documents (tools/icatctl/sbom_docs.cpp ParseSpdx).
#include "../../tools/icatctl/sbom_docs.hpp"
#include "../../tools/icatctl/session.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)icat::ctl::ParseSpdx("sbom.spdx.json", icat::fuzz::Text(data, size));
  } catch (const icat::ctl::Failure& e) {
    icat::fuzz::Expect(std::string_view(e.what()).rfind("sbom.spdx.json: ", 0) == 0, "a refusal names the file");
  }
  return 0;
}
