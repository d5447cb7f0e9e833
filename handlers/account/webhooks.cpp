// GET, POST /api/webhooks and PUT, DELETE /api/webhooks/:id: webhook subscriptions (DESIGN.md
// section 7). Delivery is the dispatcher's; here the URL is checked (https, public addresses) and
// the signing secret is made, shown once at creation.
#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/url_guard.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

const std::vector<std::string_view> kEvents = AsList(kEventTypes);
constexpr size_t kSecretBytes = 32;

// At most `count` rows of ICAT_WEBHOOK_COLUMNS (queries.hpp).
std::vector<WebhookView> WebhooksAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), url = rows.Column("url"), events = rows.Column("events"),
            active = rows.Column("active"), disabled_reason = rows.Column("disabled_reason"),
            created_at = rows.Column("created_at"), updated_at = rows.Column("updated_at");
  std::vector<WebhookView> hooks;
  for (int row = 0; row < rows.size() && row < count; row++) {
    WebhookView& h = hooks.emplace_back();
    h.id = rows.Text(row, id);
    h.url = rows.Text(row, url);
    h.events = ParseTextArray(rows.Text(row, events));
    h.active = rows.Bool(row, active);
    h.disabled_reason = rows.OptionalText(row, disabled_reason);
    h.created_at = rows.Text(row, created_at);
    h.updated_at = rows.Text(row, updated_at);
  }
  return hooks;
}

void WriteWebhook(JsonWriter& w, const WebhookView& h) {
  w.StartObject();
  WriteString(w, "id", h.id);
  WriteString(w, "url", h.url);
  WriteStringArray(w, "events", h.events);
  WriteBool(w, "active", h.active);
  WriteOptionalString(w, "disabledReason", h.disabled_reason);
  WriteString(w, "createdAt", h.created_at);
  WriteString(w, "updatedAt", h.updated_at);
  if (h.secret) WriteString(w, "secret", *h.secret);
  w.EndObject();
}

struct Subscription {
  std::string url;  // normalised
  std::vector<std::string> events;
  bool active = true;
};

// {"url", "events", "active"?}: one detail per problem; a refused URL names its reason.
Subscription ReadSubscription(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  Subscription in;
  std::optional<std::string> url = body.String("url", Need::kRequired, kMaxWebhookUrlChars);
  if (url) {
    UrlVerdict verdict = CheckWebhookUrl(*url, ctx.config.webhook_policy);
    if (verdict.ok)
      in.url = verdict.url;
    else
      body.Issue("url", verdict.reason);
  }
  in.events = body.StringArray("events", Need::kRequired, kEvents.size(), 40, false, kEvents)
                  .value_or(std::vector<std::string>{});
  in.active = body.Bool("active", Need::kOptional).value_or(true);
  body.CheckUnknown();
  ThrowIfIssues(issues);
  return in;
}

std::string AuditOf(const WebhookView& h) {
  std::string events;
  for (const std::string& e : h.events) events += (events.empty() ? "" : ",") + e;
  return StringObjectJson({{"url", h.url}, {"events", events}, {"active", h.active ? "true" : "false"}});
}

}  // namespace

std::string WebhookJson(const WebhookView& webhook) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteWebhook(w, webhook);
  return buffer.GetString();
}

std::string WebhookListJson(const std::vector<WebhookView>& webhooks, const std::optional<std::string>& next_cursor) {
  return ListJson("webhooks", webhooks, next_cursor, WriteWebhook);
}

// GET /api/webhooks?limit=&cursor=   (portal)
//   200 {"webhooks": [{id, url, events, active, disabledReason, createdAt, updatedAt}], "nextCursor"}
//   (never the secret); 400 VALIDATION_ERROR (limit, cursor, headers); 401
Reply ListWebhooks(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListWebhooks, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, WebhookListJson(WebhooksAt(rows, page.limit), NextCursor(rows, page.limit)));
}

// POST /api/webhooks {"url", "events": [...], "active"?}   (portal; admin) — upsert by URL
//   201 created, with "secret" (whsec_..., shown this once; Cache-Control: no-store)
//   200 the URL was already subscribed: its events and active flag replaced, secret unchanged, not shown
//   400 VALIDATION_ERROR: url refused (reason in details: not https, resolves to a loopback,
//       private, link-local, CGNAT, metadata ... address, does not resolve), events empty or
//       unknown, unknown fields; 401; 403 FORBIDDEN; 415; MALFORMED_JSON
Reply UpsertWebhook(Context& ctx) {
  Subscription in = ReadSubscription(ctx);
  std::string secret = "whsec_" + Base64Encode(RandomBytes(kSecretBytes));
  Rows rows =
      ctx.db.Run(kUpsertWebhook, {ctx.principal.tenant_id, in.url, TextArrayLiteral(in.events), in.active, secret});
  WebhookView view = WebhooksAt(rows, 1).at(0);
  bool created = rows.Bool(0, rows.Column("created"));
  if (created) view.secret = std::string(rows.Text(0, rows.Column("secret")));
  Audit(ctx, created ? "webhook.created" : "webhook.updated", view.id, AuditOf(view));
  return JsonReply(created ? 201 : 200, WebhookJson(view), created);
}

// PUT /api/webhooks/:id {"url", "events": [...], "active"?}   (portal; admin) — the whole subscription
//   200 the subscription (secret unchanged, not shown); active true clears disabledReason
//   400 VALIDATION_ERROR as for POST; 404 NOT_FOUND: unknown, malformed or another tenant's id
//   409 CONFLICT: another subscription of the tenant has this URL; 401; 403 FORBIDDEN; 415
Reply UpdateWebhook(Context& ctx) {
  std::string id = PathId(ctx, "webhook");
  Subscription in = ReadSubscription(ctx);
  if (!ctx.db.Run(kWebhookUrlTaken, {ctx.principal.tenant_id, in.url, id}).empty()) {
    throw ApiError(Error::kCONFLICT, "Another webhook subscription already has this URL.");
  }
  Rows rows = ctx.db.Run(kUpdateWebhook, {ctx.principal.tenant_id, id, in.url, TextArrayLiteral(in.events), in.active});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such webhook.");
  WebhookView view = WebhooksAt(rows, 1).at(0);
  Audit(ctx, "webhook.updated", id, AuditOf(view));
  return JsonReply(200, WebhookJson(view));
}

// DELETE /api/webhooks/:id   (portal; admin)
//   204; 404 NOT_FOUND: unknown, malformed or another tenant's id; 401; 403 FORBIDDEN
Reply DeleteWebhook(Context& ctx) {
  std::string id = PathId(ctx, "webhook");
  Rows rows = ctx.db.Run(kDeleteWebhook, {ctx.principal.tenant_id, id});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such webhook.");
  Audit(ctx, "webhook.deleted", id, StringObjectJson({{"url", std::string(rows.Text(0, rows.Column("url")))}}));
  return NoContent();
}

}  // namespace icat::account
