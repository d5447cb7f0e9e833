// The links of e-mail channels' mails (docs/notifications.md): confirming an address and one-click
// unsubscribe (RFC 8058). No session: the token in the path is the credential. Only its SHA-256 is
// stored (sql/V0035); the dispatcher makes the tokens and sends them (services/dispatcher).
#include "icat/audit.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"
#include "queries.hpp"
#include "sessions.hpp"

namespace icat::auth {

namespace {

constexpr size_t kTokenBytes = 32;

// The bytea literal of the token's SHA-256; NOT_FOUND for a path that holds no token.
std::string TokenHash(const Context& ctx) {
  std::optional<std::string> bytes = Base64UrlDecodeCanonical(ctx.request.PathParam("token"));
  if (!bytes || bytes->size() != kTokenBytes) throw ApiError(Error::kNOT_FOUND, "No such link, or it was used.");
  return ByteaHex(Sha256(*bytes));
}

// The tenant of the token's address, or NOT_FOUND: unknown, used, expired (confirm).
std::string TenantOf(Context& ctx, std::string_view kind, const std::string& token_hash) {
  Rows rows = ctx.db.Run(kAddressTenant, {std::string(kind), token_hash});
  std::optional<std::string> tenant = rows.OptionalText(0, 0);
  if (!tenant) throw ApiError(Error::kNOT_FOUND, "No such link, or it was used.");
  return *tenant;
}

// The audit log's record of a link used (a row of auth_confirm_address or auth_unsubscribe_address):
// no session, so its actor is "anonymous" (whoever holds the mail); the target is the channel.
void AuditLink(Context& ctx, std::string_view action, const Rows& rows) {
  Audit(ctx, action, rows.Text(0, rows.Column("channel_id")),
        StringObjectJson({{"address", std::string(rows.Text(0, rows.Column("address")))},
                          {"channel", std::string(rows.Text(0, rows.Column("channel")))}}));
}

// RFC 8058: the one-click POST carries List-Unsubscribe=One-Click as a form; an empty body (the
// console's button) will do too.
void RequireOneClickBody(const Request& request) {
  std::string_view body = Trim(request.body);
  if (body.empty() || body == "List-Unsubscribe=One-Click") return;
  ThrowInvalid("body", "must be empty or List-Unsubscribe=One-Click (a form)");
}

}  // namespace

// POST /api/notification-addresses/confirm/:token   (public; the console's confirm page posts it)
//   200 {"address", "channel", "state": "confirmed"}; 404 NOT_FOUND: unknown, used or expired token
Reply ConfirmAddress(Context& ctx) {
  std::string token_hash = TokenHash(ctx);
  TenantTransaction transaction(ctx, TenantOf(ctx, "confirm", token_hash));
  Rows rows = ctx.db.Run(kConfirmAddress, {ctx.principal.tenant_id, token_hash});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such link, or it was used.");
  AuditLink(ctx, "notification_address.confirmed", rows);
  transaction.Commit();
  return Reply::Json(200, StringObjectJson({{"address", std::string(rows.Text(0, rows.Column("address")))},
                                          {"channel", std::string(rows.Text(0, rows.Column("channel")))},
                                          {"state", "confirmed"}}));
}

// POST /api/notification-addresses/unsubscribe/:token   (public; List-Unsubscribe-Post, RFC 8058)
// body empty or List-Unsubscribe=One-Click
//   200 {"address", "state": "unsubscribed"}; 404 NOT_FOUND: unknown or used token; 400
Reply UnsubscribeAddress(Context& ctx) {
  std::string token_hash = TokenHash(ctx);
  RequireOneClickBody(ctx.request);
  TenantTransaction transaction(ctx, TenantOf(ctx, "unsubscribe", token_hash));
  Rows rows = ctx.db.Run(kUnsubscribeAddress, {ctx.principal.tenant_id, token_hash});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, "No such link, or it was used.");
  AuditLink(ctx, "notification_address.unsubscribed", rows);
  transaction.Commit();
  return Reply::Json(200, StringObjectJson({{"address", std::string(rows.Text(0, rows.Column("address")))},
                                          {"state", "unsubscribed"}}));
}

// GET /api/notification-addresses/unsubscribe/:token   (public)
//   303 to the console's page /notifications/unsubscribe/:token, whose button POSTs: opening a
//   link (a person, or a mail scanner that follows every link) never unsubscribes.
Reply UnsubscribePage(Context& ctx) {
  Reply reply;
  reply.status = 303;
  reply.headers.emplace_back("Location",
                             "/notifications/unsubscribe/" + UrlEncode(ctx.request.PathParam("token")));
  return reply;
}

}  // namespace icat::auth
