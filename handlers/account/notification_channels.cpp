// GET, POST /api/notification-channels and PUT, DELETE /api/notification-channels/:id: a tenant's
// Slack, Teams and e-mail channels (docs/notifications.md). Delivery is the dispatcher's; here the
// URL is checked like a webhook's and kept secret: no reply or audit entry ever holds more than its
// host. An e-mail channel's new addresses get their confirmation mail queued in the outbox.
#include <algorithm>

#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/outbox.hpp"
#include "icat/paging.hpp"
#include "icat/url_guard.hpp"
#include "icat/validate.hpp"
#include "icat/vocabulary.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxNameChars = 100;
constexpr size_t kMaxImages = 100;
constexpr size_t kMaxAddresses = 20;
constexpr size_t kMaxAddressChars = 254;

// The events a channel may choose: the webhooks' events but ping, which goes to one webhook.
std::vector<std::string_view> ChannelEvents() {
  std::vector<std::string_view> events;
  for (std::string_view e : kEventTypes) {
    if (e != "ping") events.push_back(e);
  }
  return events;
}

struct ChannelView {
  std::string id, type, name;
  std::optional<std::string> url_host;  // none for an e-mail channel
  std::vector<std::string> events, image_ids;
  std::optional<std::string> min_severity, disabled_reason, digest;
  std::string addresses_json;  // [{"address", "state"}]: an e-mail channel's
  bool active = true;
  std::string created_at, updated_at;
};

// At most `count` rows of ICAT_CHANNEL_COLUMNS (queries.hpp).
std::vector<ChannelView> ChannelsAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), type = rows.Column("type"), name = rows.Column("name"),
            url_host = rows.Column("url_host"), events = rows.Column("events"),
            min_severity = rows.Column("min_severity"), image_ids = rows.Column("image_ids"),
            active = rows.Column("active"), disabled_reason = rows.Column("disabled_reason"),
            digest = rows.Column("digest"), addresses = rows.Column("addresses"), created_at = rows.Column("created_at"), updated_at = rows.Column("updated_at");
  std::vector<ChannelView> channels;
  for (int row = 0; row < rows.size() && row < count; row++) {
    ChannelView& c = channels.emplace_back();
    c.id = rows.Text(row, id);
    c.type = rows.Text(row, type);
    c.name = rows.Text(row, name);
    c.url_host = rows.OptionalText(row, url_host);
    c.events = ParseTextArray(rows.Text(row, events));
    c.min_severity = rows.OptionalText(row, min_severity);
    c.image_ids = ParseTextArray(rows.Text(row, image_ids));
    c.active = rows.Bool(row, active);
    c.disabled_reason = rows.OptionalText(row, disabled_reason);
    c.digest = rows.OptionalText(row, digest);
    c.addresses_json = rows.Text(row, addresses);
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
  WriteOptionalString(w, "urlHost", c.url_host);
  WriteStringArray(w, "events", c.events);
  WriteOptionalString(w, "minSeverity", c.min_severity);
  WriteStringArray(w, "imageIds", c.image_ids);
  WriteBool(w, "active", c.active);
  WriteOptionalString(w, "disabledReason", c.disabled_reason);
  WriteKey(w, "addresses");
  w.RawValue(c.addresses_json.data(), c.addresses_json.size(), rapidjson::kArrayType);
  WriteOptionalString(w, "digest", c.digest);
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
  std::optional<std::string> url;  // normalised; nullopt on a PUT that keeps the stored one, and for e-mail
  std::vector<std::string> events, image_ids;
  std::optional<std::string> min_severity;
  bool active = true;
  std::vector<std::string> addresses;  // an e-mail channel's, normalised (NormaliseMailAddress)
  std::optional<std::string> digest;   // an e-mail channel's: daily, weekly, or none (a mail per event)
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

// An e-mail channel's addresses: 1 to kMaxAddresses addr-specs, the same one (its domain in any
// case) kept once.
std::vector<std::string> ReadAddresses(FieldReader& body) {
  std::vector<std::string> addresses;
  std::optional<std::vector<std::string>> sent =
      body.StringArray("addresses", Need::kRequired, kMaxAddresses, kMaxAddressChars, false);
  for (const std::string& text : sent.value_or(std::vector<std::string>{})) {
    std::optional<std::string> address = NormaliseMailAddress(text);
    if (!address) {
      body.Issue("addresses", "must hold mail addresses (name@example.com, no display name): not " + text);
      return {};
    }
    if (std::find(addresses.begin(), addresses.end(), *address) == addresses.end()) addresses.push_back(*address);
  }
  return addresses;
}

// Where an e-mail channel's messages go: the addresses, never a URL; and how often, when in a digest.
void ReadMailTarget(Context& ctx, FieldReader& body, ChannelInput& in) {
  if (body.Has("url")) body.Issue("url", "is not taken by an email channel: send addresses");
  in.addresses = ReadAddresses(body);
  in.digest = body.Enum("digest", Need::kOptional, AsList(kDigestPeriods));
  if (ctx.config.smtp.url.empty()) {
    throw ApiError(Error::kCONFLICT, "E-mail channels need a mail server: the operator has not set ICAT_SMTP_URL.");
  }
}

// Where a Slack or Teams channel's messages go: its URL, checked like a webhook's.
void ReadUrlTarget(Context& ctx, FieldReader& body, ChannelInput& in, bool creating) {
  if (body.Has("addresses")) body.Issue("addresses", "is an email channel's: send url");
  if (body.Has("digest")) body.Issue("digest", "is an email channel's: must be null");
  if (std::optional<std::string> url = body.String("url", creating ? Need::kRequired : Need::kOptional,
                                                   kMaxWebhookUrlChars)) {
    UrlVerdict verdict = CheckWebhookUrl(*url, ctx.config.webhook_policy);
    if (verdict.ok)
      in.url = verdict.url;
    else
      body.Issue("url", verdict.reason);
  }
}

// {"type", "name", "url" | "addresses", "events", "minSeverity"?, "imageIds"?, "active"?,
// "digest"?}: one detail per problem; a refused URL or address names its reason. On a PUT
// (`stored_type` set) the type is the stored one and may be sent unchanged, and a missing url keeps
// the stored one. A digest channel sends no mail per event: its events are stored empty, and its
// minimum severity (the digest's findings) is high unless sent.
ChannelInput ReadChannel(Context& ctx, const std::optional<std::string>& stored_type) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  ChannelInput in;
  std::optional<std::string> type =
      body.Enum("type", stored_type ? Need::kOptional : Need::kRequired, AsList(kChannelTypes));
  if (stored_type && type && *type != *stored_type) {
    body.Issue("type", "is " + *stored_type + " and cannot change: create a new channel");
  }
  in.type = stored_type ? *stored_type : type.value_or("");
  in.name = body.String("name", Need::kRequired, kMaxNameChars).value_or("");
  if (in.type == "email")
    ReadMailTarget(ctx, body, in);
  else if (!in.type.empty())
    ReadUrlTarget(ctx, body, in, !stored_type);
  const std::vector<std::string_view> events = ChannelEvents();
  in.events = body.StringArray("events", in.digest ? Need::kOptional : Need::kRequired, events.size(), 40,
                               in.digest.has_value(), events)
                  .value_or(std::vector<std::string>{});
  if (in.digest) in.events.clear();
  in.min_severity = body.Enum("minSeverity", Need::kOptional, AsList(kSeverities));
  if (in.digest && !in.min_severity) in.min_severity = "high";
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
          in.active,
          in.digest};
}

// An e-mail channel's addresses from now on, the new ones' confirmation mails queued; then the
// channel as replies show it.
ChannelView StoreAddressesAndRead(Context& ctx, const ChannelInput& in, const std::string& id) {
  if (in.type == "email") {
    ctx.db.Run(outbox::kSetMailAddresses,
               {ctx.principal.tenant_id, id, TextArrayLiteral(in.addresses), ctx.trace.Traceparent()});
  }
  return ChannelsAt(ctx.db.Run(kChannelById, {ctx.principal.tenant_id, id}), 1).at(0);
}

// What the audit log keeps: never the URL, which is a secret.
std::string AuditOf(const ChannelView& c) {
  std::string events;
  for (const std::string& e : c.events) events += (events.empty() ? "" : ",") + e;
  return StringObjectJson({{"type", c.type},
                           {"name", c.name},
                           {"urlHost", c.url_host.value_or("")},
                           {"addresses", c.addresses_json},
                           {"digest", c.digest.value_or("")},
                           {"events", events},
                           {"active", c.active ? "true" : "false"}});
}

}  // namespace

// GET /api/notification-channels?limit=&cursor=   (portal; admin)
//   200 {"channels": [{id, type, name, urlHost, events, minSeverity, imageIds, active,
//   disabledReason, addresses, digest, createdAt, updatedAt}], "nextCursor"} (never the URL); 400; 401; 403
Reply ListChannels(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListChannels, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, ListJson("channels", ChannelsAt(rows, page.limit), NextCursor(rows, page.limit), WriteChannel));
}

// POST /api/notification-channels {"type", "name", "url" | "addresses", "events", "minSeverity"?,
// "imageIds"?, "active"?, "digest"?}   (portal; admin)
//   201 the channel (its URL's host only; an e-mail channel's addresses, each pending: each gets
//   its confirmation mail); 400 VALIDATION_ERROR: type not slack, teams or email, url refused (not
//   https, a private address ...) or sent for email, addresses not 1..20 mail addresses or sent for
//   slack/teams, digest not daily/weekly/null or sent for slack/teams, events empty (but for a
//   digest) or unknown (ping is a webhook's), minSeverity not a severity, imageIds not UUIDs of
//   licensed images, unknown fields; 409 CONFLICT: email without ICAT_SMTP_URL; 401; 403; 415
Reply CreateChannel(Context& ctx) {
  ChannelInput in = ReadChannel(ctx, std::nullopt);
  std::vector<Param> params = ChannelParams(in);
  params.insert(params.begin(), in.type);
  params.insert(params.begin(), ctx.principal.tenant_id);
  std::string id(ctx.db.Run(kInsertChannel, params).Text(0, 0));
  ChannelView view = StoreAddressesAndRead(ctx, in, id);
  Audit(ctx, "notification_channel.created", view.id, AuditOf(view));
  return JsonReply(201, ChannelJson(view));
}

// PUT /api/notification-channels/:id {"name", "url"? | "addresses", "events", "minSeverity"?,
// "imageIds"?, "active"?, "digest"?, "type"?}   (portal; admin) — the whole channel; without url
// the stored one stays; addresses replace the list (kept ones keep their state, new ones are
// pending and get their confirmation mail)
//   200 the channel; active true enables it again (clears disabledReason and its refusals)
//   400 as for POST, and a type other than the stored one; 404 NOT_FOUND; 409; 401; 403; 415
Reply UpdateChannel(Context& ctx) {
  std::string id = PathId(ctx, "notification channel");
  Rows stored = ctx.db.Run(kChannelTypeForUpdate, {ctx.principal.tenant_id, id});
  if (stored.empty()) throw ApiError(Error::kNOT_FOUND, "No such notification channel.");
  ChannelInput in = ReadChannel(ctx, std::string(stored.Text(0, 0)));
  std::vector<Param> params = ChannelParams(in);
  params.insert(params.begin(), id);
  params.insert(params.begin(), ctx.principal.tenant_id);
  ctx.db.Run(kUpdateChannel, params);
  ChannelView view = StoreAddressesAndRead(ctx, in, id);
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
