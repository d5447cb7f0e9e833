// The registry group (docs/registry.md): the pull decision nginx asks before it lets a /v2/ request
// through to the Distribution registry, the tenant's own catalogue of repositories, and the
// registry's push notifications, which publish versions. Endpoint functions, and their pure pieces.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "icat/errors.hpp"
#include <vector>

#include "icat/pipeline.hpp"

namespace icat::registry {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

Reply DecidePull(Context& ctx);        // GET /_registry/auth: nginx's auth_request of every /v2/ request
Reply ListRepositories(Context& ctx);  // GET /v2/_catalog?n=&last=
Reply ReceiveEvents(Context& ctx);     // POST /_registry/events: the registry's notifications

// What a /v2/ request asks for, read from its method and raw URI (nginx's $request_uri: as the
// client sent it, as the registry receives it).
enum class Target {
  kBase,      // /v2/: "is this a registry, and may I sign in"
  kTags,      // /v2/<name>/tags/list
  kManifest,  // /v2/<name>/manifests/<tag or digest>
  kBlob,      // /v2/<name>/blobs/<digest>
  kUpload,    // /v2/<name>/blobs/uploads/...: pushing
  kOther,     // anything else, or a name outside the registry's grammar
};

struct RegistryRequest {
  std::string method;
  Target target = Target::kOther;
  std::string name;       // the repository name, for every target but kBase and kOther
  std::string reference;  // kManifest: the tag or digest
};

RegistryRequest ParseRegistryRequest(std::string_view method, std::string_view uri);

// Docker and containerd look for this header on every answer to know they talk to a v2 registry.
// The most repositories one /v2/_catalog page lists (?n=), and how many without ?n=.
inline constexpr long kMaxPage = 1000;
inline constexpr long kDefaultPage = 100;

inline const Header kApiVersion{"Docker-Distribution-Api-Version", "registry/2.0"};

// {"errors":[{"code":..., "message":...}]}, the registry's error body (Distribution's API spec).
std::string RegistryErrorBody(std::string_view code, std::string_view message);

// The registry's code of an API error (401 UNAUTHORIZED, 403 DENIED, 404 NAME_UNKNOWN, 429
// TOOMANYREQUESTS, 503 UNAVAILABLE, ...).
std::string_view RegistryCode(const ApiError& error);

// Route::refusal of /v2/_catalog: every error in the registry's shape, with a Basic challenge on 401.
std::optional<Reply> ErrorAsRegistry(const Context& ctx, const ApiError& error);

// Route::refusal of the pull decision. nginx's auth_request passes 2xx, 401 and 403 only, so every
// refusal is a 401 or 403 that carries the status and body the client gets in X-Registry-Status and
// X-Registry-Error (nginx's /_registry/refused answers with them).
std::optional<Reply> ErrorAsAuthDecision(const Context& ctx, const ApiError& error);

}  // namespace icat::registry
