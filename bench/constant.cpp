// bench-constant: the bare FastCGI ceiling of `make bench`. A handler group of one public route
// answering a constant, through the same pre-forking pool, pipeline and nginx hop as the real ones,
// so the difference to it is what the real handlers' own work costs.
#include "icat/pipeline.hpp"

namespace {
icat::Reply Constant(icat::Context&) { return icat::Reply::Json(200, R"({"status":"ok"})"); }
}  // namespace

int main(int argc, char** argv) {
  static const std::vector<icat::Route> routes = {
      {.method = "GET",
       .pattern = "/bench/fastcgi",
       .access = icat::Access::kPublic,
       .handler = ICAT_HANDLER(Constant)},
  };
  return icat::ServeGroup("bench", routes, {}, argc, argv);
}
