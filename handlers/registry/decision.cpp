// Who may pull what (docs/registry.md): nginx asks before every /v2/ request reaches the registry.
#include <algorithm>
#include <cstdlib>

#include "icat/audit.hpp"
#include "icat/json.hpp"
#include "icat/registry.hpp"
#include "icat/worker_cache.hpp"
#include "queries.hpp"
#include "registry.hpp"

namespace icat::registry {

namespace {

// The image a tenant's repository name stands for ("" when it holds no licence for it), kept per
// worker until the catalogue changes (a licence granted or revoked bumps the cache generation), so a
// pull's many blob requests reach no Postgres.
std::optional<std::string> LicensedImage(Context& ctx, const std::string& name) {
  static WorkerCache<std::string> licensed(ctx.config.worker_cache_bytes, ctx.config.worker_cache_seconds);
  std::string key = ctx.principal.tenant_id + " " + name;
  std::optional<std::string> image_id = licensed.Find(key, ctx.cache_generation);
  if (!image_id) {
    Rows rows = ctx.db.Run(kLicensedImage, {CatalogueRepository(ctx.config.registry, name)});
    image_id = rows.empty() ? "" : std::string(rows.Text(0, rows.Column("id")));
    licensed.Store(key, ctx.cache_generation, *image_id, image_id->size());
  }
  if (image_id->empty()) return std::nullopt;
  return image_id;
}

// Every repository a tenant may not pull looks like one that does not exist: the same answer
// whether it exists or not, so nothing tells a tenant what others are licensed for.
[[noreturn]] void NameUnknown() { throw ApiError(Error::kNOT_FOUND, "repository name not known to registry"); }

// A manifest GET is a pull (blobs follow it, HEADs only check): counted for the tenant's version,
// and written to its audit log with the key that pulled.
void RecordPull(Context& ctx, const std::string& image_id, const RegistryRequest& asked) {
  ctx.db.BeginForTenant(ctx.principal.tenant_id);  // the decision's one write: in a transaction
  Rows pulled = ctx.db.Run(kCountPull, {ctx.principal.tenant_id, image_id, asked.reference});
  if (pulled.empty()) return;  // a platform manifest of an index, or a tag the catalogue does not know
  std::string digest(pulled.Text(0, pulled.Column("digest")));
  Audit(ctx, "image.pulled", CatalogueRepository(ctx.config.registry, asked.name) + "@" + digest,
        StringObjectJson({{"reference", asked.reference},
                          {"tag", std::string(pulled.Text(0, pulled.Column("tag")))},
                          {"versionId", std::string(pulled.Text(0, pulled.Column("id")))},
                          {"keyPrefix", ctx.principal.key_prefix}}));
}

Reply Allowed() { return Reply{204, {}, {}}; }

}  // namespace

Reply DecidePull(Context& ctx) {
  RegistryRequest asked = ParseRegistryRequest(ctx.request.Header("x-registry-method"),
                                               ctx.request.Header("x-registry-uri"));
  if (!ctx.principal.publisher.empty()) return Allowed();  // the vendor pushes and pulls everything
  if ((asked.method != "GET" && asked.method != "HEAD") || asked.target == Target::kUpload) {
    throw ApiError(Error::kFORBIDDEN, "Tenants pull; pushing and deleting images is the vendor's.");
  }
  if (asked.target == Target::kBase) return Allowed();
  if (asked.target == Target::kOther) NameUnknown();
  std::optional<std::string> image_id = LicensedImage(ctx, asked.name);
  if (!image_id) NameUnknown();
  if (asked.target == Target::kManifest && asked.method == "GET") RecordPull(ctx, *image_id, asked);
  return Allowed();
}

Reply ListRepositories(Context& ctx) {
  if (!ctx.principal.publisher.empty()) {
    throw ApiError(Error::kFORBIDDEN, "The catalogue lists a tenant's licensed repositories; a publisher has none.");
  }
  // ?n= is refused when read (routes.cpp): a publisher is refused first.
  long page = ctx.query.Number("n").value_or(kDefaultPage);
  std::string last = ctx.query.Text("last").value_or("");
  std::vector<std::string> names;
  Rows rows = ctx.db.Run(kLicensedRepositories);
  for (int i = 0; i < rows.size(); i++) {
    std::optional<std::string> name = RegistryName(ctx.config.registry, rows.Text(i, 0));
    if (name && *name > last) names.push_back(std::move(*name));
  }
  std::sort(names.begin(), names.end());
  bool more = names.size() > static_cast<size_t>(page);
  if (more) names.resize(static_cast<size_t>(page));

  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteStringArray(w, "repositories", names);
  w.EndObject();
  Reply reply = Reply::Json(200, buffer.GetString());
  reply.headers.push_back(kApiVersion);
  if (more && !names.empty()) {
    reply.headers.emplace_back("Link", "</v2/_catalog?last=" + UrlEncode(names.back()) + "&n=" + std::to_string(page) +
                                           ">; rel=\"next\"");
  }
  return reply;
}

}  // namespace icat::registry
