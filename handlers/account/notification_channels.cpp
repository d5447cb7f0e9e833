// GET, POST /api/notification-channels and PUT, DELETE /api/notification-channels/:id: a tenant's
// Slack and Teams channels (docs/notifications.md). Delivery is the dispatcher's; here the URL is
// checked like a webhook's and kept secret: no reply or audit entry ever holds more than its host.
#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/url_guard.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxNameChars = 100;
constexpr size_t kMaxImages = 100;

// The events a channel may choose: the webhooks' events but ping, which goes to one webhook.
std::vector<std::string_view> ChannelEvents() {
  std::vector<std::string_view> events;
  for (std::string_view e : kEventTypes) {
    if (e != "ping") events.push_back(e);
  }
  return events;
}

struct ChannelView {
  std::string id, type, name, url_host;
  std::vector<std::string> events, image_ids;
  std::optional<std::string> min_severity, disabled_reason;
  bool active = true;
  std::string created_at, updated_at;
};

// At most `count` rows of ICAT_CHANNEL_COLUMNS (queries.hpp).
std::vector<ChannelView> ChannelsAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), type = rows.Column("type"), name = rows.Column("name"),
            url_host = rows.Column("url_host"), events = rows.Column("events"),
            min_severity = rows.Column("min_severity"), image_ids = rows.Column("image_ids"),
            active = rows.Column("active"), disabled_reason = rows.Column("disabled_reason"),
            created_at = rows.Column("created_at"), updated_at = rows.Column("updated_at");
  std::vector<ChannelView> channels;
  for (int row = 0; row < rows.size() && row < count; row++) {
    ChannelView& c = channels.emplace_back();
    c.id = rows.Text(row, id);
    c.type = rows.Text(row, type);
    c.name = rows.Text(row, name);
    c.url_host = rows.OptionalText(row, url_host).value_or("");
    c.events = ParseTextArray(rows.Text(row, events));
    c.min_severity = rows.OptionalText(row, min_severity);
    c.image_ids = ParseTextArray(rows.Text(row, image_ids));
    c.active = rows.Bool(row, active);
    c.disabled_reason = rows.OptionalText(row, disabled_reason);
    c.created_at = rows.Text(row, created_at);
    c.updated_at = rows.Text(row, updated_at);
  }
  return channels;
}

void WriteChannel(JsonWriter& w, const ChannelView& c) {
  w.StartObject();
  WriteString(w, "id", c.id);
  WriteString(w, "type", c.type);
  WriteString(w, "name", c.name);
  WriteString(w, "urlHost", c.url_host);
  WriteStringArray(w, "events", c.events);
  WriteOptionalString(w, "minSeverity", c.min_severity);
  WriteStringArray(w, "imageIds", c.image_ids);
  WriteBool(w, "active", c.active);
  WriteOptionalString(w, "disabledReason", c.disabled_reason);
  WriteString(w, "createdAt", c.created_at);
  WriteString(w, "updatedAt", c.updated_at);
  w.EndObject();
}

std::string ChannelJson(const ChannelView& c) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteChannel(w, c);
  return buffer.GetString();
}

struct ChannelInput {
  std::string type, name;
  std::optional<std::string> url;  // normalised; nullopt on a PUT that keeps the stored one
  std::vector<std::string> events, image_ids;
  std::optional<std::string> min_severity;
  bool active = true;
};

// The image ids of a channel: UUIDs of images the tenant is licensed for.
std::vector<std::string> ReadImageIds(Context& ctx, FieldReader& body) {
  std::vector<std::string> ids =
      body.StringArray("imageIds", Need::kOptional, kMaxImages, 36, true).value_or(std::vector<std::string>{});
  for (const std::string& id : ids) {
    if (!IsUuid(id)) {
      body.Issue("imageIds", "must hold image ids (UUIDs)");
      return {};
    }
  }
  if (ids.empty()) return ids;
  Rows unlicensed = ctx.db.Run(kUnlicensedImages, {ctx.principal.tenant_id, TextArrayLiteral(ids)});
  if (!unlicensed.empty()) {
    body.Issue("imageIds", "names images this tenant holds no licence for: " + std::string(unlicensed.Text(0, 0)));
  }
  return ids;
}

// {"type", "name", "url", "events", "minSeverity"?, "imageIds"?, "active"?}: one detail per
// problem; a refused URL names its reason. On a PUT (`creating` false) the type is the stored one
// and may be sent unchanged, and a missing url keeps the stored one.
ChannelInput ReadChannel(Context& ctx, bool creating) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  ChannelInput in;
  in.type = body.Enum("type", creating ? Need::kRequired : Need::kOptional, AsList(kChannelTypes)).value_or("");
  in.name = body.String("name", Need::kRequired, kMaxNameChars).value_or("");
  if (std::optional<std::string> url = body.String("url", creating ? Need::kRequired : Need::kOptional,
                                                   kMaxWebhookUrlChars)) {
    UrlVerdict verdict = CheckWebhookUrl(*url, ctx.config.webhook_policy);
    if (verdict.ok)
      in.url = verdict.url;
    else
      body.Issue("url", verdict.reason);
  }
  const std::vector<std::string_view> events = ChannelEvents();
  in.events = body.StringArray("events", Need::kRequired, events.size(), 40, false, events)
                  .value_or(std::vector<std::string>{});
  in.min_severity = body.Enum("minSeverity", Need::kOptional, AsList(kSeverities));
  in.image_ids = ReadImageIds(ctx, body);
  in.active = body.Bool("active", Need::kOptional).value_or(true);
  body.CheckUnknown();
  ThrowIfIssues(issues);
  return in;
}

std::vector<Param> ChannelParams(const ChannelInput& in) {
  return {in.name,
          in.url,
          TextArrayLiteral(in.events),
          in.min_severity,
          TextArrayLiteral(in.image_ids),
          in.active};
}

// What the audit log keeps: never the URL, which is a secret.
std::string AuditOf(const ChannelView& c) {
  std::string events;
  for (const std::string& e : c.events) events += (events.empty() ? "" : ",") + e;
  return StringObjectJson({{"type", c.type},
                           {"name", c.name},
                           {"urlHost", c.url_host},
                           {"events", events},
                           {"active", c.active ? "true" : "false"}});
}

}  // namespace

// GET /api/notification-channels?limit=&cursor=   (portal; admin)
//   200 {"channels": [{id, type, name, urlHost, events, minSeverity, imageIds, active,
//   disabledReason, createdAt, updatedAt}], "nextCursor"} (never the URL); 400; 401; 403
Reply ListChannels(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListChannels, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, ListJson("channels", ChannelsAt(rows, page.limit), NextCursor(rows, page.limit), WriteChannel));
}

// POST /api/notification-channels {"type", "name", "url", "events", "minSeverity"?, "imageIds"?,
// "active"?}   (portal; admin)
//   201 the channel (its URL's host only); 400 VALIDATION_ERROR: type not slack or teams, url
//   refused (not https, a private address ...), events empty or unknown (ping is a webhook's),
//   minSeverity not a severity, imageIds not UUIDs of licensed images, unknown fields; 401; 403; 415
Reply CreateChannel(Context& ctx) {
  ChannelInput in = ReadChannel(ctx, true);
  std::vector<Param> params = ChannelParams(in);
  params.insert(params.begin(), in.type);
  params.insert(params.begin(), ctx.principal.tenant_id);
  ChannelView view = ChannelsAt(ctx.db.Run(kInsertChannel, params), 1).at(0);
  Audit(ctx, "notification_channel.created", view.id, AuditOf(view));
  return JsonReply(201, ChannelJson(view));
}

// PUT /api/notification-channels/:id {"name", "url"?, "events", "minSeverity"?, "imageIds"?,
// "active"?, "type"?}   (portal; admin) — the whole channel; without url the stored one stays
//   200 the channel; active true enables it again (clears disabledReason and its refusals)
//   400 as for POST, and a type other than the stored one; 404 NOT_FOUND; 401; 403; 415
Reply UpdateChannel(Context& ctx) {
  std::string id = PathId(ctx, "notification channel");
  ChannelInput in = ReadChannel(ctx, false);
  std::vector<Param> params = ChannelParams(in);
  params.insert(params.begin(), id);
  params.insert(params.begin(), ctx.principal.tenant_id);
  Rows rows = ctx.db.Run(kUpdateChannel, params);
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such notification channel.");
  ChannelView view = ChannelsAt(rows, 1).at(0);
  if (!in.type.empty() && in.type != view.type) {  // rolled back with the update
    ThrowInvalid("type", "is " + view.type + " and cannot change: create a new channel");
  }
  Audit(ctx, "notification_channel.updated", id, AuditOf(view));
  return JsonReply(200, ChannelJson(view));
}

// DELETE /api/notification-channels/:id   (portal; admin)
//   204; 404 NOT_FOUND: unknown, malformed or another tenant's id; 401; 403
Reply DeleteChannel(Context& ctx) {
  std::string id = PathId(ctx, "notification channel");
  Rows rows = ctx.db.Run(kDeleteChannel, {ctx.principal.tenant_id, id});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such notification channel.");
  Audit(ctx, "notification_channel.deleted", id,
        StringObjectJson({{"type", std::string(rows.Text(0, 0))},
                          {"urlHost", std::string(rows.OptionalText(0, 1).value_or(""))}}));
  return NoContent();
}

}  // namespace icat::account
