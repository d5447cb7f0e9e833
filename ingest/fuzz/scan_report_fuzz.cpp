// Trivy and Grype JSON reports (ingest/reports.cpp): detected from their content, read into
// findings and sorted, or refused with a Failure naming the file.
#include "icat/json.hpp"
#include "ingest/reports.hpp"
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  icat::fuzz::ExpectRefusalNamesFile("report.json", [&] {
    icat::ctl::ScanReport report = icat::ctl::ParseReport("report.json", icat::fuzz::Text(data, size));
    icat::ctl::SortFindings(report.findings);
    for (const icat::ctl::Finding& f : report.findings) {
      // The listings send the stored sources as they are: they must be one JSON array.
      icat::JsonRead stored = icat::ReadJson(icat::ctl::SeveritySourcesJson(f.severity_sources), icat::kMaxBodyDepth);
      icat::fuzz::Expect(stored.error.empty() && stored.document.IsArray(), "severity sources are a JSON array");
      bool ranked_first = !f.severity_source ||
                          (!f.severity_sources.empty() && f.severity_sources[0].source == *f.severity_source &&
                           (!f.severity_sources[0].cvss_score || f.severity_sources[0].cvss_score == f.cvss_score));
      icat::fuzz::Expect(ranked_first, "the rating ranked by comes first and gives the finding's score when it has one");
    }
  });
  return 0;
}
