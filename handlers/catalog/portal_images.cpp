// GET /api/docker-images and GET /api/docker-images/:id: the catalogue as the portal shows it, the
// same licensed images and versions as /v1/images, authenticated by a login instead of a key.
#include "portal_images.hpp"

#include "catalog.hpp"
#include "icat/json.hpp"

namespace icat::catalog {

std::string PortalImageDetailJson(const std::string& detail_json) {
  JsonRead read = ReadJson(detail_json, kMaxDocumentDepth);  // the detail reply, read back
  rapidjson::Document& d = read.document;
  if (!d.IsObject()) return detail_json;
  auto& allocator = d.GetAllocator();
  rapidjson::Value tags(rapidjson::kArrayType);
  if (d.HasMember("latestVersion") && d["latestVersion"].IsObject() && d["latestVersion"].HasMember("hardeningTags")) {
    tags.CopyFrom(d["latestVersion"]["hardeningTags"], allocator);
  }
  d.AddMember("hardeningTags", tags, allocator);
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  d.Accept(w);
  return buffer.GetString();
}

// GET /api/docker-images?limit=&cursor=&q=   (portal: X-Tenant + Bearer, any role)
//   200 {"images": [...], "nextCursor"}: licensed images by name, each with its latest version
//   400 VALIDATION_ERROR (limit, cursor, q, X-Tenant, Authorization); 401 UNAUTHENTICATED
Reply ListPortalImages(Context& ctx) { return ListImages(ctx); }

// GET /api/docker-images/:id   (portal: X-Tenant + Bearer, any role)
//   200 the image: base OS, size, vulnerabilityCounts and hardeningTags of the latest version, and
//       every version with tag, digest, size, published time, hardening tags, severity counts and
//       the tenant's pullCount and lastPulledAt
//   404 NOT_FOUND: unknown, malformed or unlicensed id, alike; 400 VALIDATION_ERROR (headers); 401
Reply GetPortalImage(Context& ctx) {
  Reply reply = GetImage(ctx);
  reply.body = PortalImageDetailJson(reply.body);
  return reply;
}

}  // namespace icat::catalog
