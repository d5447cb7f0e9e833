// GET, POST /api/api-keys and DELETE /api/api-keys/:id: the tenant's public-API keys, managed by
// its admins (SPEC.md 5). The full key is in the reply to its creation and nowhere else.
#include <ctime>

#include "account.hpp"
#include "icat/api_key.hpp"
#include "icat/audit.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/log.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxKeyNameChars = 100;

std::vector<std::string_view> ScopeNames() { return AllScopes(); }

// At most `count` rows of ICAT_KEY_COLUMNS (queries.hpp).
std::vector<ApiKeyView> KeysAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), name = rows.Column("name"), prefix = rows.Column("prefix"),
            scopes = rows.Column("scopes"), created_at = rows.Column("created_at"),
            expires_at = rows.Column("expires_at"), last_used_at = rows.Column("last_used_at"),
            state = rows.Column("state"), created_by = rows.Column("created_by");
  std::vector<ApiKeyView> keys;
  for (int row = 0; row < rows.size() && row < count; row++) {
    ApiKeyView& k = keys.emplace_back();
    k.id = rows.Text(row, id);
    k.name = rows.Text(row, name);
    k.prefix = rows.Text(row, prefix);
    k.scopes = ParseTextArray(rows.Text(row, scopes));
    k.created_at = rows.Text(row, created_at);
    k.expires_at = rows.OptionalText(row, expires_at);
    k.last_used_at = rows.OptionalText(row, last_used_at);
    k.state = rows.Text(row, state);
    k.created_by = rows.OptionalText(row, created_by);
  }
  return keys;
}

void WriteKeyFields(JsonWriter& w, const ApiKeyView& k) {
  w.StartObject();
  WriteString(w, "id", k.id);
  WriteString(w, "name", k.name);
  WriteString(w, "prefix", k.prefix);
  WriteStringArray(w, "scopes", k.scopes);
  WriteString(w, "createdAt", k.created_at);
  WriteOptionalString(w, "expiresAt", k.expires_at);
  WriteOptionalString(w, "lastUsedAt", k.last_used_at);
  WriteString(w, "state", k.state);
  WriteOptionalString(w, "createdBy", k.created_by);
  if (k.secret) WriteString(w, "secret", *k.secret);
  w.EndObject();
}

struct NewKeyInput {
  std::string name;
  std::vector<std::string> scopes;
  std::optional<std::string> expires_at;
};

NewKeyInput ReadNewKey(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  NewKeyInput in;
  in.name = body.String("name", Need::kRequired, kMaxKeyNameChars).value_or("");
  in.scopes =
      body.StringArray("scopes", Need::kRequired, 4, 20, false, ScopeNames()).value_or(std::vector<std::string>{});
  in.expires_at = body.String("expiresAt", Need::kOptional, 40);
  if (in.expires_at) {
    std::optional<long long> at = ParseRfc3339(*in.expires_at);
    if (!at) {
      body.Issue("expiresAt", "must be an RFC 3339 time such as 2027-01-01T00:00:00Z");
    } else if (*at <= std::time(nullptr)) {
      body.Issue("expiresAt", "must be in the future");
    }
  }
  body.CheckUnknown();
  ThrowIfIssues(issues);
  return in;
}

// Revokes the key and commits (a repeat announces it again, sql/V0026); returns its hash. A failure
// of the database is a 503 that says which way it went: before the COMMIT nothing changed and the
// key still works; a COMMIT without an answer may have taken effect.
std::string CommitRevoke(Context& ctx, const std::string& id) {
  bool committing = false;
  try {
    Rows found = ctx.db.Run(kKeyForRevoke, {ctx.principal.tenant_id, id});
    if (found.empty()) throw ApiError(Error::kNOT_FOUND, "No such API key.");
    ctx.db.Exec(kRevokeKey, {ctx.principal.tenant_id, id});
    if (!found.Bool(0, found.Column("revoked"))) {
      Audit(ctx, "key.revoked", id,
            StringObjectJson({{"name", std::string(found.Text(0, found.Column("name")))},
                              {"prefix", std::string(found.Text(0, found.Column("prefix")))}}));
    }
    committing = true;
    ctx.db.Commit();
    return std::string(found.Text(0, found.Column("key_hash_hex")));
  } catch (const DbError& e) {
    ApiError mapped = ErrorOfSqlState(e.sqlstate, e.connection_lost);
    bool unavailable = Describe(mapped.error()).status == 503;
    if (!committing && !unavailable) throw;  // a defect, not an outage: the pipeline answers it
    bool unknown = committing && !RevokeCommitRolledBack(e);
    LogWarn("rid=" + ctx.request.request_id + " key revoke " + id + (unknown ? " outcome unknown: " : " failed: ") +
            e.what());
    ApiError failed(unavailable ? mapped.error() : Error::kSERVICE_UNAVAILABLE,
                    unknown ? "Unknown whether the key is revoked: the database did not answer its commit. Repeat "
                              "the request until it answers 204."
                            : "Not revoked: the key still works. The database could not complete the revoke; repeat "
                              "the request.");
    failed.headers.emplace_back("Retry-After", "1");
    throw failed;
  }
}

}  // namespace

std::string ApiKeyJson(const ApiKeyView& key) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteKeyFields(w, key);
  return buffer.GetString();
}

std::string ApiKeyListJson(const std::vector<ApiKeyView>& keys, const std::optional<std::string>& next_cursor) {
  return ListJson("apiKeys", keys, next_cursor, WriteKeyFields);
}

// GET /api/api-keys?limit=&cursor=   (portal; admin only)
//   200 {"apiKeys": [{id, name, prefix, scopes, createdAt, expiresAt, lastUsedAt, state, createdBy}],
//        "nextCursor"}: newest first, revoked and expired keys included
//   400 VALIDATION_ERROR (limit, cursor, headers); 401; 403 FORBIDDEN (not an admin)
Reply ListApiKeys(Context& ctx) {
  Page page = ReadPage(ctx.query);
  Rows rows = ctx.db.Run(kListKeys, {ctx.principal.tenant_id, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, ApiKeyListJson(KeysAt(rows, page.limit), NextCursor(rows, page.limit)));
}

// POST /api/api-keys {"name", "scopes": [...], "expiresAt"?}   (portal; admin)
//   201 the key with "secret": the full key, shown this once (Cache-Control: no-store)
//   400 VALIDATION_ERROR (name 1-100 characters, scopes known and at least one, expiresAt RFC 3339
//       in the future, unknown fields); 401; 403 FORBIDDEN; 415; MALFORMED_JSON
Reply CreateApiKey(Context& ctx) {
  NewKeyInput in = ReadNewKey(ctx);
  NewApiKey key = GenerateApiKey(ctx.config.key_prefix);
  Rows rows = ctx.db.Run(kInsertKey, {ctx.principal.tenant_id, in.name, key.prefix, ByteaHex(key.hash),
                                      TextArrayLiteral(in.scopes), in.expires_at, ctx.principal.user_id});
  ApiKeyView view = KeysAt(rows, 1).at(0);
  view.secret = key.secret;
  Audit(ctx, "key.created", view.id, StringObjectJson({{"name", view.name}, {"prefix", view.prefix}}));
  return JsonReply(201, ApiKeyJson(view), true);
}

// DELETE /api/api-keys/:id   (portal; admin)
//   204: revoked (also when it already was) once committed: refused at once where Redis took the
//        tombstone, and by every node within a second in any case (docs/security.md, wall 3)
//   404 NOT_FOUND: unknown, malformed or another tenant's id; 401; 403 FORBIDDEN
//   503 with Retry-After: "Not revoked: the key still works", or "Unknown whether the key is
//       revoked" when the database did not answer its commit; repeat until 204
Reply RevokeApiKey(Context& ctx) {
  std::string id = PathId(ctx, "API key");
  std::string key_hash_hex = CommitRevoke(ctx, id);
  // After the commit: a cache fill racing with it reads the revoked row or meets the tombstone, and
  // a revoke that did not commit leaves no tombstone behind to refuse a key that still works.
  if (!MarkApiKeyRevoked(ctx.redis, ctx.config, key_hash_hex)) {
    LogWarn("rid=" + ctx.request.request_id + " key " + id +
            " revoked; redis took no tombstone: every node refuses the key within a second all the same "
            "(each worker polls Postgres for revokes)");
  }
  return NoContent();
}

}  // namespace icat::account
