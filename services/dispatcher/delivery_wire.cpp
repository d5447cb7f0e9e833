// Delivery bodies, Standard Webhooks signatures and the retry schedule: pure functions.
#include "delivery_wire.hpp"

#include <cmath>
#include <stdexcept>

#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace icat::dispatcher {

std::string EventBody(std::string_view event_id, std::string_view type, std::string_view created_at,
                      std::string_view payload_json) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "id", event_id);
  WriteString(w, "type", type);
  WriteString(w, "createdAt", created_at);
  WriteKey(w, "data");
  w.RawValue(payload_json.data(), payload_json.size(), rapidjson::kObjectType);
  w.EndObject();
  return buffer.GetString();
}

std::optional<std::string> SignatureHeader(std::string_view secret, std::string_view id, long long timestamp,
                                           std::string_view body) {
  constexpr std::string_view kPrefix = "whsec_";
  if (secret.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::optional<std::string> key = Base64Decode(secret.substr(kPrefix.size()));
  if (!key || key->empty()) return std::nullopt;
  std::string signed_content = std::string(id) + "." + std::to_string(timestamp) + "." + std::string(body);
  return "v1," + Base64Encode(HmacSha256(*key, signed_content));
}

std::vector<std::pair<std::string, std::string>> DeliveryHeaders(std::string_view secret, std::string_view event_id,
                                                                 long long timestamp, std::string_view body) {
  std::optional<std::string> signature = SignatureHeader(secret, event_id, timestamp, body);
  if (!signature) throw std::invalid_argument("the subscription's secret is not a whsec_ secret");
  return {{"Content-Type", "application/json"},
          {"webhook-id", std::string(event_id)},
          {"webhook-timestamp", std::to_string(timestamp)},
          {"webhook-signature", *signature}};
}

std::optional<int> NextRetryDelay(const std::vector<int>& schedule, int attempts, double jitter) {
  if (attempts < 1 || attempts > static_cast<int>(schedule.size())) return std::nullopt;
  double base = schedule[static_cast<size_t>(attempts - 1)];
  // Spread -20%..+20% so that many deliveries failing together do not return together.
  return std::max(1, static_cast<int>(std::lround(base * (0.8 + 0.4 * jitter))));
}

}  // namespace icat::dispatcher
