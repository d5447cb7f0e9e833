// The portal's view of the catalogue: GET /api/docker-images and /api/docker-images/:id.
#pragma once

#include <string>

#include "icat/pipeline.hpp"

namespace icat::catalog {

Reply ListPortalImages(Context& ctx);
Reply GetPortalImage(Context& ctx);

// The public detail (ImageDetailJson) with the portal's additions: "hardeningTags", the latest
// version's (empty before the first version). Pure; the input is a JSON object.
std::string PortalImageDetailJson(const std::string& detail_json);

}  // namespace icat::catalog
