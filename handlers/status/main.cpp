// icat-status: GET /api/status, the public health probe.
#include <iostream>

#include "icat/pipeline.hpp"
#include "pools.hpp"
#include "queries.hpp"
#include "status.hpp"

int main(int argc, char** argv) {
  // Checked here, at start, rather than at the first probe: the setting only this group reads.
  if (auto problem = icat::status::PoolAddressProblem(icat::TextSetting("ICAT_POOL_ADDRESS"))) {
    std::cerr << "icat-status: ICAT_POOL_ADDRESS " << *problem << "\n";
    return 2;
  }
  return icat::ServeGroup("status", icat::status::Routes(), icat::status::kStatements, argc, argv);
}
