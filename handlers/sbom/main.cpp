// icat-sbom: signed downloads (bytes served by nginx from the blob store) of SBOMs, of the VEX
// documents icatctl writes and of the attestations of both, and the signing keys.
#include "queries.hpp"
#include "sbom.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("sbom", icat::sbom::Routes(), icat::sbom::kStatements, argc, argv);
}
