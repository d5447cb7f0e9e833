// icat-gen: what is made from the route tables, read from the tables themselves (linked in), not
// from their source text. For now it prints the rows tools/gen turns into docs/routes.md, nginx
// configurations and the OpenAPI documents' security.
//
//   icat-gen routes   one line per route: METHOD PATH GROUP ACCESS SCOPE FUNCTION QUERY ("-" when empty)
#include <iostream>
#include <string>
#include <vector>

#include "../../handlers/account/account.hpp"
#include "../../handlers/admission/admission.hpp"
#include "../../handlers/auth/sessions.hpp"
#include "../../handlers/catalog/catalog.hpp"
#include "../../handlers/registry/registry.hpp"
#include "../../handlers/sbom/sbom.hpp"
#include "../../handlers/status/status.hpp"
#include "../../handlers/vulns/vulns.hpp"

namespace {

struct Group {
  std::string_view name;  // handlers/<name>/, icat-<name>
  const std::vector<icat::Route>& (*routes)();
};

// Every handler group; the Makefile's list of groups (handlers/*) is checked against it.
const std::vector<Group> kGroups = {
    {"account", icat::account::Routes}, {"admission", icat::admission::Routes}, {"auth", icat::auth::Routes},
    {"catalog", icat::catalog::Routes}, {"registry", icat::registry::Routes},   {"sbom", icat::sbom::Routes},
    {"status", icat::status::Routes},   {"vulns", icat::vulns::Routes},
};

std::string_view AccessName(icat::Access access) {
  switch (access) {
    case icat::Access::kPublic:
      return "Public";
    case icat::Access::kApiKey:
      return "ApiKey";
    case icat::Access::kPortal:
      return "Portal";
    case icat::Access::kPortalAdmin:
      return "PortalAdmin";
    case icat::Access::kPortalSelf:
      return "PortalSelf";
    case icat::Access::kRegistry:
      return "Registry";
  }
  throw std::logic_error("an Access without a name");
}

std::string OrDash(std::string_view text) { return text.empty() ? "-" : std::string(text); }

// The function's own name, without the namespace the row may have written.
std::string_view Bare(std::string_view function) {
  size_t colons = function.rfind("::");
  return colons == std::string_view::npos ? function : function.substr(colons + 2);
}

// The names of a route's query parameters, comma-separated, in its row's order.
std::string QueryList(const icat::Route& route) {
  std::string list;
  for (std::string_view name : icat::QueryNames(route)) list += (list.empty() ? "" : ",") + std::string(name);
  return list;
}

int PrintRoutes() {
  for (const Group& group : kGroups) {
    icat::CheckRouteTable(group.routes());
    for (const icat::Route& r : group.routes()) {
      std::cout << r.method << ' ' << r.pattern << ' ' << group.name << ' ' << AccessName(r.access) << ' '
                << (r.scope ? std::string(icat::NameOf(*r.scope)) : "-") << ' ' << Bare(r.handler.name) << ' '
                << OrDash(QueryList(r)) << '\n';
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "routes" && argc == 2) return PrintRoutes();
  } catch (const std::logic_error& e) {
    std::cerr << "icat-gen: route table: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "usage: icat-gen routes\n";
  return 2;
}
