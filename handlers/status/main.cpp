// icat-status: GET /api/status, the public health probe.
#include "icat/pipeline.hpp"
#include "status.hpp"

int main(int argc, char** argv) {
  static const std::vector<icat::Route> routes = {
      {"GET", "/api/status", icat::Access::kPublic, "", icat::status::GetStatus},
  };
  return icat::ServeGroup("status", routes, {}, argc, argv);
}
