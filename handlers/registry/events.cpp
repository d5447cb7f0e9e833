// Publishing from pushes (docs/registry.md): the registry notifies each push of a tag; a push to a
// catalogue image's repository publishes a version (sql/V0027 publish_pushed_version), unless it is
// one of cosign's attachments (the attestations icatctl registry attach pushes) or an artifact.
// Notifications can be lost (the registry queues them in memory): icatctl registry reconcile catches up.
#include <algorithm>

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/log.hpp"
#include "icat/registry.hpp"
#include "icat/registry_client.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"
#include "registry.hpp"

namespace icat::registry {

namespace {

// The registry waits for this answer before it sends the next notification: keep it short.
constexpr long kManifestFetchMs = 2000;

// The notification carries the secret the registry's configuration holds (Authorization: Bearer).
void RequireRegistrySecret(const Context& ctx) {
  const std::string& secret = ctx.config.registry_events_secret;
  std::string authorization = ctx.request.Header("authorization");
  bool bearer = authorization.size() > 7 && Lower(authorization.substr(0, 7)) == "bearer ";
  if (secret.empty() || !bearer || !ConstantTimeEqual(authorization.substr(7), secret)) {
    ApiError error(Error::kUNAUTHENTICATED, "Only the registry sends notifications, with its secret.");
    error.headers.emplace_back("WWW-Authenticate", "Bearer");
    throw error;
  }
}

std::string_view Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject() || !object.HasMember(name) || !object[name].IsString()) return {};
  return {object[name].GetString(), object[name].GetStringLength()};
}

// A push of a manifest by tag, of a repository name and digest of the registry's grammar.
struct Push {
  std::string name, tag, digest;
};

std::optional<Push> PushOf(const rapidjson::Value& event) {
  if (Member(event, "action") != "push" || !event.HasMember("target")) return std::nullopt;
  const rapidjson::Value& target = event["target"];
  std::string_view media_type = Member(target, "mediaType");
  bool manifest = std::find(kManifestMediaTypes.begin(), kManifestMediaTypes.end(), media_type) !=
                  kManifestMediaTypes.end();
  Push push{std::string(Member(target, "repository")), std::string(Member(target, "tag")),
            std::string(Member(target, "digest"))};
  if (!manifest || push.tag.empty() || !IsRepositoryName(push.name) || !IsCleanText(push.tag) ||
      !push.digest.starts_with("sha256:")) {
    return std::nullopt;
  }
  return push;
}

// The pushed manifest, read back from the registry for the image's bytes and its config; nullopt
// when it cannot be read (the version is published all the same, its size unknown: a notification
// that always failed would hold up the registry's queue behind it).
std::optional<PushedManifest> ReadPushed(const Context& ctx, const Push& push) {
  try {
    return RegistryClient(ctx.config.registry_upstream, kManifestFetchMs).Manifest(push.name, push.digest);
  } catch (const std::runtime_error& e) {
    LogWarn("rid=" + ctx.request.request_id + " registry: cannot size " + push.name + "@" + push.digest + ": " + e.what());
    return std::nullopt;
  }
}

// Why a push names no version of the image ("" when it does): cosign's attachments (the .att tag
// icatctl registry attach pushes, .sig, .sbom) and artifacts, whose config is no image's.
std::string NotAVersion(const Push& push, const std::optional<PushedManifest>& manifest) {
  if (IsAttachmentTag(push.tag)) return "a cosign attachment tag";
  if (manifest && IsArtifactConfig(manifest->config_media_type)) {
    const std::string& type = manifest->config_media_type;  // the pusher's text: logged only if clean
    return "an artifact of config type " + (IsCleanText(type) ? type.substr(0, 100) : std::string("(not shown)"));
  }
  return "";
}

// Publishes the push as a version, unless it names none (ignored, one line at debug).
void Publish(Context& ctx, const Push& push) {
  std::string repository = CatalogueRepository(ctx.config.registry, push.name);
  std::optional<PushedManifest> manifest;
  if (!IsAttachmentTag(push.tag)) manifest = ReadPushed(ctx, push);
  if (std::string why = NotAVersion(push, manifest); !why.empty()) {
    Log(LogLevel::kDebug, "rid=" + ctx.request.request_id + " registry: push of " + repository + ":" + push.tag +
                              " ignored: " + why);
    return;
  }
  std::optional<long long> size;
  if (manifest) size = manifest->size_bytes;
  Rows rows = ctx.db.Run(kPublishPushed, {repository, push.tag, push.digest, size, ctx.trace.Traceparent()});
  std::string outcome(rows.Text(0, rows.Column("outcome")));
  if (outcome == "published") ctx.cached_data_changed = true;
  std::string line = "rid=" + ctx.request.request_id + " registry: push of " + repository + ":" + push.tag + " " +
                     push.digest + ": " + outcome;
  if (outcome == "conflict") {
    LogWarn(line + " (the tag names another digest in the catalogue; a version's digest never changes)");
  } else {
    LogInfo(line);
  }
}

}  // namespace

Reply ReceiveEvents(Context& ctx) {
  RequireRegistrySecret(ctx);
  rapidjson::Document envelope = ParseJson(ctx.request.body);
  if (!envelope.IsObject() || !envelope.HasMember("events") || !envelope["events"].IsArray()) {
    ThrowInvalid("events", "must be the registry's array of events");
  }
  for (const rapidjson::Value& event : envelope["events"].GetArray()) {
    if (std::optional<Push> push = PushOf(event)) Publish(ctx, *push);
  }
  return Reply{204, {}, {}};
}

}  // namespace icat::registry
