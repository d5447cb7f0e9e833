// What a delivery looks like on the wire: the body, the Standard Webhooks headers, the retry plan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icat::dispatcher {

// {"id", "type", "createdAt", "data"}: the same bytes on every attempt, so receivers can de-duplicate
// by id and signatures stay comparable. payload_json is the stored `data` object.
std::string EventBody(std::string_view event_id, std::string_view type, std::string_view created_at,
                      std::string_view payload_json);

// "v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">" keyed with the secret's bytes: the part
// after "whsec_", base64-decoded (Standard Webhooks). nullopt for a secret of another form.
std::optional<std::string> SignatureHeader(std::string_view secret, std::string_view id, long long timestamp,
                                           std::string_view body);

// webhook-id, webhook-timestamp, webhook-signature and the content type.
std::vector<std::pair<std::string, std::string>> DeliveryHeaders(std::string_view secret, std::string_view event_id,
                                                                 long long timestamp, std::string_view body);

// After attempt number `attempts` (1 = the first) failed: seconds until the next one by `schedule`
// (ICAT_WEBHOOK_RETRY_SCHEDULE), with `jitter` in [0, 1) spreading it by -20%..+20%; nullopt when
// the schedule is spent (failed).
std::optional<int> NextRetryDelay(const std::vector<int>& schedule, int attempts, double jitter);

}  // namespace icat::dispatcher
