// icat-vulns: the findings of a version's latest scan, and which licensed images carry a CVE.
#include "queries.hpp"
#include "vulns.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("vulns", icat::vulns::Routes(), icat::vulns::kStatements, argc, argv);
}
