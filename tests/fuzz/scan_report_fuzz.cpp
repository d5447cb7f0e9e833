// Trivy and Grype JSON reports (tools/icatctl/reports.cpp): detected from their content, read into
// findings, or refused with a Failure naming the file.
#include "../../tools/icatctl/reports.hpp"
#include "../../tools/icatctl/session.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    icat::ctl::ScanReport report = icat::ctl::ParseReport("report.json", icat::fuzz::Text(data, size));
    icat::ctl::SortFindings(report.findings);
    (void)icat::ctl::CountFindings(report.findings);
  } catch (const icat::ctl::Failure& e) {
    icat::fuzz::Expect(std::string_view(e.what()).rfind("report.json: ", 0) == 0, "a refusal names the file");
  }
  return 0;
}
