// icat-vulns: the findings of a version's latest scan, and which licensed images carry a CVE.
#include "queries.hpp"
#include "vulns.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  // The /v1 reads are cached (the last flag): their replies depend on catalogue data only.
  static const std::vector<icat::Route> routes = {
      {"GET", "/v1/images/{id}/vulnerabilities", Access::kApiKey, "read:vulns", "severity,fixState,limit,cursor",
       icat::vulns::ListImageVulnerabilities, false, true},
      {"GET", "/v1/images/{id}/versions/{versionId}/vulnerabilities", Access::kApiKey, "read:vulns",
       "severity,fixState,limit,cursor", icat::vulns::ListImageVersionVulnerabilities, false, true},
      {"GET", "/v1/cve/{cveId}", Access::kApiKey, "read:vulns", "versions", icat::vulns::LookUpCve, false, true},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/vulnerabilities", Access::kPortal, "",
       "severity,fixState,limit,cursor", icat::vulns::ListVersionVulnerabilities},
      {"GET", "/api/cve/{cveId}", Access::kPortal, "", "versions", icat::vulns::LookUpCve},
  };
  return icat::ServeGroup("vulns", routes, icat::vulns::kStatements, argc, argv);
}
