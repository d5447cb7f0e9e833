// icatctl image create and version add: the vendor's catalogue, which only the operator writes.
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "icat/db.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

// The same rules as the catalogue tables' CHECKs, so bad input is a usage error naming its flag.
constexpr const char* kImageName = "[a-z0-9][a-z0-9._/-]{0,127}";
constexpr const char* kTag = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
constexpr const char* kDigest = "sha256:[0-9a-f]{64}";

std::string DefaultRepository(std::string registry, const std::string& name) {
  while (!registry.empty() && registry.back() == '/') registry.pop_back();
  return registry.empty() ? name : registry + "/" + name;
}

// A name and a repository are each unique; say which one the new image collided with.
std::string ImageConflict(Db& db, const std::string& name, const std::string& repository) {
  Rows existing = db.RunSql("SELECT name FROM images WHERE name = $1 OR repository = $2", {name, repository});
  const int existing_name = existing.Column("name");
  for (int row = 0; row < existing.size(); ++row) {
    if (existing.Text(row, existing_name) == name) return "image " + name + " exists";
  }
  if (!existing.empty()) {
    return "repository " + repository + " already belongs to image " + std::string(existing.Text(0, existing_name));
  }
  return "image " + name + " conflicts with an existing image";
}

}  // namespace

void ImageCreate(const Args& args) {
  const std::string& name = args.Value("name");
  RequireMatch("--name", name, kImageName, "is not an image name (a-z, 0-9, '._/-', at most 128 characters)");

  Session session;
  std::string repository = args.Optional("repository").value_or(DefaultRepository(session.config.registry, name));
  Rows created = session.db.RunSql(
      "INSERT INTO images (name, description, base_os, repository) VALUES ($1, $2, $3, $4) "
      "ON CONFLICT DO NOTHING RETURNING id",
      {name, args.Optional("description").value_or(""), args.Optional("base-os"), repository});
  if (created.empty()) throw Failure(ImageConflict(session.db, name, repository));
  NoteCachedDataChanged(session);
  std::cout << created.Text(0, created.Column("id")) << '\n';
}

void VersionAdd(const Args& args) {
  const std::string& image = args.Value("image");
  const std::string& tag = args.Value("tag");
  const std::string& digest = args.Value("digest");
  RequireMatch("--tag", tag, kTag, "is not an image tag");
  RequireMatch("--digest", digest, kDigest, "is not sha256: followed by 64 lower-case hex digits");
  std::optional<long long> size = args.Count("size", "bytes");
  std::optional<std::string> published = args.Optional("published");

  Session session;
  if (published) (void)TimestampIsPast("published", *published);
  Transaction transaction(session.db);
  // Locking the image serialises concurrent adds, so latest_version_id ends up the newest.
  Rows images = session.db.RunSql("SELECT id FROM images WHERE name = $1 FOR UPDATE", {image});
  if (images.empty()) throw Failure("image " + image + " not found");
  std::string image_id(images.Text(0, images.Column("id")));
  Rows created = session.db.RunSql(
      "INSERT INTO image_versions (image_id, tag, digest, size_bytes, base_os, hardening_tags, published_at) "
      "VALUES ($1, $2, $3, $4, $5, $6::text[], COALESCE($7::timestamptz, now())) "
      "ON CONFLICT (image_id, tag) DO NOTHING RETURNING id",
      {image_id, tag, digest, size, args.Optional("base-os"), TextArrayLiteral(args.All("hardening-tag")), published});
  if (created.empty()) throw Failure("image " + image + " already has version " + tag);
  session.db.ExecSql("UPDATE images SET latest_version_id = (SELECT id FROM image_versions WHERE image_id = $1 "
       "ORDER BY published_at DESC, created_at DESC, id LIMIT 1) WHERE id = $1",
       {image_id});
  transaction.Commit();
  NoteCachedDataChanged(session);
  std::cout << created.Text(0, created.Column("id")) << '\n';
}

}  // namespace icat::ctl
