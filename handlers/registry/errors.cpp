// The registry's error shape, for clients that read no other (docker, skopeo, containerd, crane).
#include "icat/json.hpp"
#include "icat/registry.hpp"
#include "registry.hpp"

namespace icat::registry {

namespace {

// The challenge a registry client answers with Basic credentials; the realm names the service.
std::string Challenge(const Context& ctx) {
  return "Basic realm=\"" + std::string(RegistryHost(ctx.config.registry)) + "\"";
}

// Retry-After of a 429 or 503, the one header of the API's that a registry client reads too.
std::optional<std::string> RetryAfter(const ApiError& error) {
  for (const auto& [name, value] : error.headers) {
    if (name == "Retry-After") return value;
  }
  return std::nullopt;
}

}  // namespace

std::string RegistryErrorBody(std::string_view code, std::string_view message) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, "errors");
  w.StartArray();
  w.StartObject();
  WriteString(w, "code", code);
  WriteString(w, "message", message);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

std::string_view RegistryCode(const ApiError& error) {
  switch (Describe(error.error()).status) {
    case 400: return "UNSUPPORTED";
    case 401: return "UNAUTHORIZED";
    case 403: return "DENIED";
    case 404: return "NAME_UNKNOWN";
    case 405: return "UNSUPPORTED";
    case 429: return "TOOMANYREQUESTS";
    case 503: return "UNAVAILABLE";
    default: return "UNKNOWN";
  }
}

std::optional<Reply> ErrorAsRegistry(const Context& ctx, const ApiError& error) {
  int status = Describe(error.error()).status;
  Reply reply = Reply::Json(status, RegistryErrorBody(RegistryCode(error), error.what()));
  reply.headers.push_back(kApiVersion);
  if (status == 401) reply.headers.emplace_back("WWW-Authenticate", Challenge(ctx));
  if (std::optional<std::string> retry = RetryAfter(error)) reply.headers.emplace_back("Retry-After", *retry);
  return reply;
}

std::optional<Reply> ErrorAsAuthDecision(const Context& ctx, const ApiError& error) {
  Reply client = *ErrorAsRegistry(ctx, error);
  Reply decision{client.status == 401 ? 401 : 403, {}, {}};
  decision.headers = std::move(client.headers);
  decision.headers.emplace_back("X-Registry-Status", std::to_string(client.status));
  decision.headers.emplace_back("X-Registry-Error", client.body);
  return decision;
}

}  // namespace icat::registry
