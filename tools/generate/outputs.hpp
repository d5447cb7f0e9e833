// Each file icat-gen writes, as a function of the route tables (and of the sources it names).
// Every path is relative to the repository's top directory, where icat-gen runs.
#pragma once

#include <string>
#include <string_view>

namespace icat::gen {

std::string RoutesMd();         // docs/routes.md (routes_md.cpp)
std::string NginxLocal();       // nginx/icat.conf.in, the template tools/stack renders (nginx.cpp)
std::string NginxSystemd();     // deploy/systemd/nginx-icat.conf
std::string NginxKubernetes();  // deploy/kubernetes/nginx/nginx.conf
std::string Readme();           // README.md with its route and settings tables (readme.cpp)
std::string SettingsTable();    // README's settings table, from the settings table (config.cpp)

// The served OpenAPI document of /v1 or /api (openapi.cpp, docs/openapi.md): `source` with the
// error and event enums filled, each operation's security from its route and what is derived added.
std::string OpenApi(std::string_view prefix, const std::string& source);

}  // namespace icat::gen
