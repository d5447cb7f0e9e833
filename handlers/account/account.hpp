// The account group: a tenant's API keys, CVE watches, feature requests, webhook subscriptions
// and their delivery logs, admission policy and decisions, and audit log, as the portal manages
// them. Endpoint functions, the views their rows become and the pure functions that shape the
// JSON replies.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "icat/pipeline.hpp"
#include "icat/vocabulary.hpp"

namespace icat::account {

// The group's route table (routes.cpp), served by main.cpp and read by the generator (tools/generate).
const std::vector<Route>& Routes();

// ------------------------------------------------------------------ endpoints

Reply ListApiKeys(Context& ctx);  // api_keys.cpp
Reply CreateApiKey(Context& ctx);
Reply RevokeApiKey(Context& ctx);
Reply ListCveWatches(Context& ctx);  // cve_watches.cpp
Reply CreateCveWatch(Context& ctx);
Reply DeleteCveWatch(Context& ctx);
Reply ListFeatureRequests(Context& ctx);  // feature_requests.cpp
Reply CreateFeatureRequest(Context& ctx);
Reply ListWebhooks(Context& ctx);  // webhooks.cpp
Reply UpsertWebhook(Context& ctx);
Reply UpdateWebhook(Context& ctx);
Reply DeleteWebhook(Context& ctx);
Reply ListChannels(Context& ctx);  // notification_channels.cpp
Reply CreateChannel(Context& ctx);
Reply UpdateChannel(Context& ctx);
Reply DeleteChannel(Context& ctx);
Reply ListWebhookDeliveries(Context& ctx);  // webhook_deliveries.cpp
Reply PingWebhook(Context& ctx);
Reply ListChannelDeliveries(Context& ctx);  // webhook_deliveries.cpp: a channel's log, as a webhook's
Reply GetAdmissionPolicy(Context& ctx);  // admission.cpp
Reply PutAdmissionPolicy(Context& ctx);
Reply ListAdmissionDecisions(Context& ctx);
Reply ListAuditLog(Context& ctx);  // audit_log.cpp
Reply ListUsers(Context& ctx);     // users.cpp
Reply CreateUser(Context& ctx);
Reply UpdateUser(Context& ctx);
Reply DeleteUser(Context& ctx);
Reply IssueSetupToken(Context& ctx);
Reply ResetUserTotp(Context& ctx);
Reply GetSignInPolicy(Context& ctx);  // sign_in_policy.cpp
Reply PutSignInPolicy(Context& ctx);
Reply GetSso(Context& ctx);  // sso.cpp
Reply PutSso(Context& ctx);
Reply DeleteSso(Context& ctx);

// ------------------------------------------------------------------ shared by the endpoints (support.cpp)

// The longest ?action= of the audit log.
inline constexpr size_t kMaxActionChars = 100;

// A page of a list sorted newest first by (created_at, id): ?limit= and ?cursor= (routes.cpp
// PageCursor), as the pipeline parsed them.
struct Page {
  int limit = 0;
  std::optional<std::string> after_time, after_id;  // the last row of the previous page
};
Page ReadPage(const QueryValues& query);  // 400 VALIDATION_ERROR naming limit or cursor when they are RefusedOnRead
// The cursor after row limit-1 when the query (LIMIT limit+1) returned more rows than shown: its
// columns cursor_time and id.
std::optional<std::string> NextCursor(const Rows& rows, int limit);

// The :id path parameter; 404 NOT_FOUND (with `what` in the message) when it is not a UUID.
std::string PathId(const Context& ctx, std::string_view what);
// A POST that takes no input (a ping, a new set-up token): no body, or an empty JSON object (so
// clients that always send JSON work). Route.json_body is off, so an empty POST needs no
// Content-Type; a body that is sent must be `{}` (else 400 MALFORMED_JSON or VALIDATION_ERROR).
void RequireNoInput(const Request& request);
// A reply with a JSON body and, for secrets shown once, Cache-Control: no-store.
Reply JsonReply(int status, std::string body, bool no_store = false);
Reply NoContent();

// ------------------------------------------------------------------ views and shapes

struct ApiKeyView {
  std::string id, name, prefix;
  std::vector<std::string> scopes;
  std::string created_at;
  std::optional<std::string> expires_at, last_used_at, created_by;
  std::string state;                  // one of kKeyStates
  std::optional<std::string> secret;  // only in the reply to its creation
};
std::string ApiKeyJson(const ApiKeyView& key);
std::string ApiKeyListJson(const std::vector<ApiKeyView>& keys, const std::optional<std::string>& next_cursor);

struct WatchedImage {
  std::string image_id, name, version_id, tag;
  std::vector<std::string> packages;
};
struct CveWatchView {
  std::string id, cve_id;
  std::optional<std::string> note, created_by;
  std::string created_at;
  std::vector<WatchedImage> images;  // the tenant's images whose latest version carries the CVE now
};
std::string CveWatchJson(const CveWatchView& watch);
std::string CveWatchListJson(const std::vector<CveWatchView>& watches, const std::optional<std::string>& next_cursor);

struct FeatureRequestView {
  std::string id, type, title, description, status, created_at, updated_at;
  std::optional<std::string> image_id, image_name, cve_id, package_name;
  std::optional<std::string> created_by_id, created_by_email;  // who filed it (null once the user is gone)
};
std::string FeatureRequestJson(const FeatureRequestView& request);
std::string FeatureRequestListJson(const std::vector<FeatureRequestView>& requests,
                                   const std::optional<std::string>& next_cursor);

struct WebhookView {
  std::string id, url;
  std::vector<std::string> events;
  bool active = true;
  std::optional<std::string> disabled_reason;
  std::string created_at, updated_at;
  std::optional<std::string> secret;  // only in the reply to its creation
};
std::string WebhookJson(const WebhookView& webhook);
std::string WebhookListJson(const std::vector<WebhookView>& webhooks, const std::optional<std::string>& next_cursor);

// One row of a subscription's delivery log: an event, and how its delivery went so far.
struct DeliveryView {
  std::string id, event_id, event_type, state;  // state: one of kDeliveryStates
  long long attempts = 0;
  std::optional<long long> last_status;  // HTTP status of the last attempt, when one came
  std::optional<std::string> last_error;
  std::optional<std::string> next_attempt_at;  // only while pending
  std::string created_at, updated_at;
  std::optional<std::string> address;  // a channel's: the e-mail address it goes to
};
// A webhook's delivery log; a channel's (`to_channel`) adds each delivery's `address` (null but for e-mail).
std::string DeliveryListJson(const std::vector<DeliveryView>& deliveries, const std::optional<std::string>& next_cursor,
                             bool to_channel = false);
// The `data` of a ping event: {"webhook": {"id", "url"}}.
std::string PingDataJson(const std::string& webhook_id, const std::string& url);
// The 202 of a ping: {"eventId", "deliveryId"}.
std::string PingAcceptedJson(const std::string& event_id, const std::string& delivery_id);

struct DecisionView {
  std::string id, created_at, request_uid, operation, kind, mode;
  std::optional<std::string> namespace_name, name;
  std::optional<std::string> key_prefix;  // the listed prefix of the key that asked; none on older rows
  std::string images_json, reasons_json;  // stored JSON, passed through
  bool allowed = false, dry_run = false;
};
std::string DecisionListJson(const std::vector<DecisionView>& decisions, const std::optional<std::string>& next_cursor);

struct AuditEntryView {
  long long id = 0;
  std::string at, actor;
  std::optional<std::string> actor_email;  // the person's, at the time; none for keys and the operator
  std::string action;
  std::optional<std::string> target, client_ip, request_id;
  std::string detail_json;              // stored JSON object, passed through
  std::optional<std::string> trace_id;  // the W3C trace of the request; none on entries older than it
};
std::string AuditLogJson(const std::vector<AuditEntryView>& entries, const std::optional<std::string>& next_cursor);

// A portal user as admins manage them (GET/POST/PUT /api/users).
struct UserView {
  std::string id, email, role;
  std::string state;  // active, pending_setup (no password yet), disabled
  std::string created_at;
  std::optional<std::string> disabled_at, last_login_at;
  bool totp = false;  // has a confirmed second factor
  bool sso = false;   // signs in with the tenant's identity provider (has an identity)
  // Only in the reply that issues it: the one-time set-up token and until when it is good.
  std::optional<std::string> setup_token, setup_expires_at;
};
std::string UserJson(const UserView& user);
std::string UserListJson(const std::vector<UserView>& users, const std::optional<std::string>& next_cursor);
// The detail of user.updated: {"email", "role": {"from", "to"}?, "disabled": {"from", "to"}?,
// "sessionsRevoked"?}, each change only when it is one.
struct UserChange {
  std::string email;
  std::string old_role, new_role;
  bool was_disabled = false, disabled = false;
  std::optional<long long> sessions_revoked;  // refresh-token families ended by disabling
};
std::string UserChangeJson(const UserChange& change);

}  // namespace icat::account
