// Trivy and Grype JSON reports (tools/icatctl/reports.cpp): detected from their content, read into
// findings and sorted, or refused with a Failure naming the file.
#include "../../tools/icatctl/reports.hpp"
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  icat::fuzz::ExpectRefusalNamesFile("report.json", [&] {
    icat::ctl::ScanReport report = icat::ctl::ParseReport("report.json", icat::fuzz::Text(data, size));
    icat::ctl::SortFindings(report.findings);
  });
  return 0;
}
