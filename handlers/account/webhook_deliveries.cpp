// GET /api/webhooks/:id/deliveries and POST /api/webhooks/:id/ping: a subscription's delivery log
// (what icat-dispatcher did with each event) and a test event sent to that subscription alone; and
// GET /api/notification-channels/:id/deliveries, a channel's delivery log, the same list.
#include <algorithm>

#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {


// At most `count` rows of kListDeliveries (queries.hpp).
std::vector<DeliveryView> DeliveriesAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), event_id = rows.Column("event_id"), event_type = rows.Column("event_type"),
            state = rows.Column("state"), attempts = rows.Column("attempts"), last_status = rows.Column("last_status"),
            last_error = rows.Column("last_error"), next_attempt_at = rows.Column("next_attempt_at"),
            created_at = rows.Column("created_at"), updated_at = rows.Column("updated_at"),
            address = rows.Column("address");
  std::vector<DeliveryView> deliveries;
  for (int row = 0; row < rows.size() && row < count; row++) {
    DeliveryView& d = deliveries.emplace_back();
    d.id = rows.Text(row, id);
    d.event_id = rows.Text(row, event_id);
    d.event_type = rows.Text(row, event_type);
    d.state = rows.Text(row, state);
    d.attempts = rows.Int(row, attempts);
    if (!rows.IsNull(row, last_status)) d.last_status = rows.Int(row, last_status);
    d.last_error = rows.OptionalText(row, last_error);
    d.next_attempt_at = rows.OptionalText(row, next_attempt_at);
    d.created_at = rows.Text(row, created_at);
    d.updated_at = rows.Text(row, updated_at);
    d.address = rows.OptionalText(row, address);
  }
  return deliveries;
}

void WriteDeliveryMembers(JsonWriter& w, const DeliveryView& d) {
  WriteString(w, "id", d.id);
  WriteString(w, "eventId", d.event_id);
  WriteString(w, "eventType", d.event_type);
  WriteString(w, "state", d.state);
  WriteInt(w, "attempts", d.attempts);
  WriteKey(w, "lastStatus");
  if (d.last_status)
    w.Int64(*d.last_status);
  else
    w.Null();
  WriteOptionalString(w, "lastError", d.last_error);
  WriteOptionalString(w, "nextAttemptAt", d.state == "pending" ? d.next_attempt_at : std::nullopt);
  WriteString(w, "createdAt", d.created_at);
  WriteString(w, "updatedAt", d.updated_at);
}

void WriteDelivery(JsonWriter& w, const DeliveryView& d) {
  w.StartObject();
  WriteDeliveryMembers(w, d);
  w.EndObject();
}

void WriteChannelDelivery(JsonWriter& w, const DeliveryView& d) {
  w.StartObject();
  WriteDeliveryMembers(w, d);
  WriteOptionalString(w, "address", d.address);
  w.EndObject();
}

// Why a ping is refused: the dispatcher's reason (a 410 Gone) when it disabled the subscription.
std::string DisabledMessage(const std::optional<std::string>& reason) {
  std::string why = reason ? *reason : "Its \"active\" flag is false.";
  return "This webhook subscription is disabled: " + why +
         " Save it with \"active\": true (PUT /api/webhooks/:id) to enable it, then ping again.";
}

// The delivery log of one webhook or channel (`what`), newest first; 404 for an id the tenant has none of.
Reply ListDeliveries(Context& ctx, const std::string& what, const Statement& exists, const Statement& list,
                     bool to_channel) {
  std::string id = PathId(ctx, what);
  // Its query values are refused when read (routes.cpp): a malformed id is a 404 first.
  std::optional<std::string> state = ctx.query.Text("state");
  Page page = ReadPage(ctx.query);
  if (ctx.db.Run(exists, {ctx.principal.tenant_id, id}).empty()) {
    throw ApiError(Error::kNOT_FOUND, "No such " + what + ".");
  }
  Rows rows = ctx.db.Run(list, {ctx.principal.tenant_id, id, state, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, DeliveryListJson(DeliveriesAt(rows, page.limit), NextCursor(rows, page.limit), to_channel));
}

}  // namespace

std::string DeliveryListJson(const std::vector<DeliveryView>& deliveries, const std::optional<std::string>& next_cursor,
                             bool to_channel) {
  return ListJson("deliveries", deliveries, next_cursor, to_channel ? WriteChannelDelivery : WriteDelivery);
}

std::string PingDataJson(const std::string& webhook_id, const std::string& url) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, "webhook");
  w.StartObject();
  WriteString(w, "id", webhook_id);
  WriteString(w, "url", url);
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

std::string PingAcceptedJson(const std::string& event_id, const std::string& delivery_id) {
  return StringObjectJson({{"eventId", event_id}, {"deliveryId", delivery_id}});
}

// GET /api/webhooks/:id/deliveries?state=&limit=&cursor=   (portal; every role)
//   200 {"deliveries": [{id, eventId, eventType, state, attempts, lastStatus, lastError,
//        nextAttemptAt (null unless pending), createdAt, updatedAt}], "nextCursor"}: newest first
//   400 VALIDATION_ERROR (state: pending|succeeded|failed, limit, cursor, headers); 401
//   404 NOT_FOUND: unknown, malformed or another tenant's webhook id
Reply ListWebhookDeliveries(Context& ctx) {
  return ListDeliveries(ctx, "webhook", kWebhookExists, kListDeliveries, false);
}

// GET /api/notification-channels/:id/deliveries?state=&limit=&cursor=   (portal; admin)
//   200 as for a webhook's, each delivery with "address": the e-mail address it goes to (null for
//   Slack and Teams); 400, 401 as for a webhook's; 403; 404 NOT_FOUND: unknown, malformed or another tenant's channel id
Reply ListChannelDeliveries(Context& ctx) {
  return ListDeliveries(ctx, "notification channel", kChannelExists, kListChannelDeliveries, true);
}

// POST /api/webhooks/:id/ping   (portal; admin) — no body, or {}
//   202 {"eventId", "deliveryId"}: a `ping` event ({"webhook": {id, url}}) with one pending delivery
//       to this subscription only (whatever its events), sent by icat-dispatcher within its poll interval
//   400 MALFORMED_JSON / VALIDATION_ERROR: a body other than {}; 401; 403 FORBIDDEN
//   404 NOT_FOUND: unknown, malformed or another tenant's webhook id
//   409 CONFLICT: the subscription is disabled (active false), with the reason when the dispatcher gave one
Reply PingWebhook(Context& ctx) {
  std::string id = PathId(ctx, "webhook");
  RequireNoInput(ctx.request);
  Rows hook = ctx.db.Run(kWebhookForPing, {ctx.principal.tenant_id, id});
  if (hook.empty()) throw ApiError(Error::kNOT_FOUND, "No such webhook.");
  std::string url(hook.Text(0, hook.Column("url")));
  if (!hook.Bool(0, hook.Column("active"))) {
    throw ApiError(Error::kCONFLICT, DisabledMessage(hook.OptionalText(0, hook.Column("disabled_reason"))));
  }
  Rows rows = ctx.db.Run(outbox::kInsertPing, {ctx.principal.tenant_id, id, PingDataJson(id, url), ctx.trace.Traceparent()});
  std::string event_id(rows.Text(0, rows.Column("event_id"))), delivery_id(rows.Text(0, rows.Column("delivery_id")));
  Audit(ctx, "webhook.pinged", id, StringObjectJson({{"url", url}, {"eventId", event_id}, {"deliveryId", delivery_id}}));
  return JsonReply(202, PingAcceptedJson(event_id, delivery_id));
}

}  // namespace icat::account
