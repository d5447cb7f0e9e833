// bench-constant: the ceilings of `make bench` that are FastCGI handlers, through the same
// pre-forking pool, pipeline and nginx hop as the real groups, so the difference to them is what
// the real handlers' own work costs:
// - /bench/fastcgi answers a constant: the bare FastCGI ceiling;
// - /bench/fastcgi-pg is the floor of a cold read (issue 33): the API key checked as every /v1
//   read checks it (the key's Redis round trip, its scope, the rate limit), one prepared statement
//   in the tenant's read transaction returning a constant row, and a fixed body. A cold read can
//   come close to it, never above it.
#include "icat/pipeline.hpp"

namespace {

constexpr icat::Statement kConstantRow{"bench_constant_row", "SELECT 1 AS one"};

icat::Reply Constant(icat::Context&) { return icat::Reply::Json(200, R"({"status":"ok"})"); }

icat::Reply ConstantRow(icat::Context& ctx) {
  ctx.db.Run(kConstantRow);
  return icat::Reply::Json(200, R"({"status":"ok"})");
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<icat::Route> routes = {
      {.method = "GET",
       .pattern = "/bench/fastcgi",
       .access = icat::Access::kPublic,
       .handler = ICAT_HANDLER(Constant)},
      {.method = "GET",
       .pattern = "/bench/fastcgi-pg",
       .access = icat::Access::kApiKey,
       .scope = icat::Scope::kReadCatalog,
       .handler = ICAT_HANDLER(ConstantRow)},
  };
  return icat::ServeGroup("bench", routes, {kConstantRow}, argc, argv);
}
