// icat-vulns: the findings of a version's latest scan, and which licensed images carry a CVE.
#include "queries.hpp"
#include "vulns.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  static const std::vector<icat::Route> routes = {
      {"GET", "/v1/images/{id}/vulnerabilities", Access::kApiKey, "read:vulns", icat::vulns::ListImageVulnerabilities},
      {"GET", "/v1/cve/{cveId}", Access::kApiKey, "read:vulns", icat::vulns::LookUpCve},
      {"GET", "/api/docker-images/{imageId}/versions/{versionId}/vulnerabilities", Access::kPortal, "",
       icat::vulns::ListVersionVulnerabilities},
      {"GET", "/api/cve/{cveId}", Access::kPortal, "", icat::vulns::LookUpCve},
  };
  return icat::ServeGroup("vulns", routes, icat::vulns::kStatements, argc, argv);
}
