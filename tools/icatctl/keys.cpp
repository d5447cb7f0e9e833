// icatctl key create, list and revoke: API keys of a tenant. The full key is printed once, at
// creation, and never stored; lists show only its 14-character prefix.
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "icat/api_key.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "icat/redis.hpp"
#include "icat/validate.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

constexpr size_t kMaxKeyNameChars = 100;

// Times in UTC with a Z, the same in the table and the JSON, whatever the server's TimeZone.
constexpr std::string_view kListKeys = R"sql(
  SELECT id, name, prefix, scopes,
         to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created,
         to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires,
         to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_used,
         CASE WHEN revoked_at IS NOT NULL THEN 'revoked'
              WHEN expires_at <= now() THEN 'expired'
              ELSE 'active' END AS state
  FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id)sql";

std::string KnownScopes() {
  std::string known;
  for (std::string_view scope : AllScopes()) known += (known.empty() ? "" : ", ") + std::string(scope);
  return known;
}

// "read:catalog, read:sbom" -> each scope once, in the order given; any unknown one is refused.
std::vector<std::string> ParseScopes(const std::string& list) {
  std::vector<std::string> scopes;
  std::istringstream pieces(list);
  for (std::string scope; std::getline(pieces, scope, ',');) {
    scope.erase(0, scope.find_first_not_of(' '));
    scope.erase(scope.find_last_not_of(' ') + 1);
    if (scope.empty()) continue;
    if (!IsScope(scope)) throw UsageError("--scopes: unknown scope '" + scope + "' (known: " + KnownScopes() + ")");
    if (std::find(scopes.begin(), scopes.end(), scope) == scopes.end()) scopes.push_back(scope);
  }
  if (scopes.empty()) throw UsageError("--scopes needs at least one scope");
  return scopes;
}

void PrintKeysTable(const Rows& keys) {
  std::vector<std::vector<std::string>> table = {
      {"ID", "NAME", "PREFIX", "SCOPES", "CREATED", "EXPIRES", "LAST USED", "STATE"}};
  const int id = keys.Column("id"), name = keys.Column("name"), prefix = keys.Column("prefix"),
            scopes_col = keys.Column("scopes"), created = keys.Column("created"), expires = keys.Column("expires"),
            last_used = keys.Column("last_used"), state = keys.Column("state");
  for (int row = 0; row < keys.size(); ++row) {
    std::string scopes;
    for (const std::string& scope : ParseTextArray(keys.Text(row, scopes_col))) {
      scopes += (scopes.empty() ? "" : ",") + scope;
    }
    table.push_back({std::string(keys.Text(row, id)), std::string(keys.Text(row, name)),
                     std::string(keys.Text(row, prefix)), scopes, std::string(keys.Text(row, created)),
                     keys.OptionalText(row, expires).value_or("-"), keys.OptionalText(row, last_used).value_or("never"),
                     std::string(keys.Text(row, state))});
  }
  PrintTable(table);
}

using JsonOut = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void WriteText(JsonOut& json, std::string_view value) {
  json.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

// One column of a row as "key": "text", or "key": null for SQL NULL.
void WriteColumn(JsonOut& json, const char* key, const Rows& rows, int row, int col) {
  json.Key(key);
  if (rows.IsNull(row, col)) {
    json.Null();
  } else {
    WriteText(json, rows.Text(row, col));
  }
}

void PrintKeysJson(const Rows& keys) {
  rapidjson::StringBuffer buffer;
  JsonOut json(buffer);
  json.SetIndent(' ', 2);
  json.StartArray();
  const int id = keys.Column("id"), name = keys.Column("name"), prefix = keys.Column("prefix"),
            scopes = keys.Column("scopes"), created = keys.Column("created"), expires = keys.Column("expires"),
            last_used = keys.Column("last_used"), state = keys.Column("state");
  for (int row = 0; row < keys.size(); ++row) {
    json.StartObject();
    WriteColumn(json, "id", keys, row, id);
    WriteColumn(json, "name", keys, row, name);
    WriteColumn(json, "prefix", keys, row, prefix);
    json.Key("scopes");
    json.StartArray();
    for (const std::string& scope : ParseTextArray(keys.Text(row, scopes))) WriteText(json, scope);
    json.EndArray();
    WriteColumn(json, "createdAt", keys, row, created);
    WriteColumn(json, "expiresAt", keys, row, expires);
    WriteColumn(json, "lastUsedAt", keys, row, last_used);
    WriteColumn(json, "state", keys, row, state);
    json.EndObject();
  }
  json.EndArray();
  std::cout << buffer.GetString() << '\n';
}

// The key a revoke names: by id, or by the prefix `key list` shows (which two keys may share).
struct KeyToRevoke {
  std::string id;
  bool already_revoked;
  std::string hash_hex;  // what the Redis cache is keyed by
};

KeyToRevoke FindKeyToRevoke(Db& db, const std::string& tenant_id, const std::string& subdomain,
                            const std::string& id_or_prefix) {
  // FOR UPDATE: two concurrent revokes of one key write one audit entry, not two.
  Rows keys = db.RunSql(IsUuid(id_or_prefix)
                            ? "SELECT id, revoked_at IS NOT NULL AS revoked, encode(key_hash, 'hex') AS hash_hex "
                              "FROM api_keys WHERE tenant_id = $1 AND id = $2::uuid FOR UPDATE"
                            : "SELECT id, revoked_at IS NOT NULL AS revoked, encode(key_hash, 'hex') AS hash_hex "
                              "FROM api_keys "
                              "WHERE tenant_id = $1 AND prefix = $2 ORDER BY created_at FOR UPDATE",
                        {tenant_id, id_or_prefix});
  if (keys.empty()) throw Failure("tenant " + subdomain + " has no key " + id_or_prefix);
  if (keys.size() > 1) {
    std::string ids;
    const int id = keys.Column("id");
    for (int row = 0; row < keys.size(); ++row) ids += (row ? ", " : "") + std::string(keys.Text(row, id));
    throw Failure("prefix " + id_or_prefix + " matches several keys (" + ids + "); revoke one by its id");
  }
  return {std::string(keys.Text(0, keys.Column("id"))), keys.Bool(0, keys.Column("revoked")),
          std::string(keys.Text(0, keys.Column("hash_hex")))};
}

// Revokes the key and commits; a repeat announces it again to the handlers' poll (sql/V0026). A
// failure of the database says which way it went: before the COMMIT nothing changed; a COMMIT
// without an answer may have taken effect.
KeyToRevoke CommitRevoke(Db& db, const std::string& subdomain, const std::string& id_or_prefix) {
  std::string key_id = id_or_prefix;
  bool committing = false;
  try {
    std::string tenant_id = TenantId(db, subdomain);
    Transaction transaction(db);
    KeyToRevoke key = FindKeyToRevoke(db, tenant_id, subdomain, id_or_prefix);
    key_id = key.id;
    db.ExecSql(
        "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), revoke_announced_at = clock_timestamp() "
        "WHERE id = $1",
        {key.id});
    if (!key.already_revoked) {
      db.ExecSql("INSERT INTO audit_log (tenant_id, actor, action, target) VALUES ($1, 'operator', 'key.revoked', $2)",
                 {tenant_id, key.id});
    }
    committing = true;
    transaction.Commit();
    return key;
  } catch (const DbError& e) {
    if (committing && !RevokeCommitRolledBack(e)) {
      throw Failure("unknown whether key " + key_id + " is revoked: Postgres did not answer its COMMIT (" + e.what() +
                    "); run this command again");
    }
    throw Failure("not revoked: the key still works as before (" + std::string(e.what()) + ")");
  }
}

}  // namespace

void KeyCreate(const Args& args) {
  const std::string& subdomain = args.Value("tenant");
  const std::string& name = args.Value("name");
  if (Utf8Chars(name) > kMaxKeyNameChars) throw UsageError("--name: at most 100 characters");
  std::vector<std::string> scopes = ParseScopes(args.Value("scopes"));
  std::optional<std::string> expires = args.Optional("expires");

  Session session;
  if (expires && TimestampIsPast("expires", *expires)) {
    throw UsageError("--expires: " + *expires + " is in the past");
  }
  std::string tenant_id = TenantId(session.db, subdomain);
  NewApiKey key = GenerateApiKey(session.config.key_prefix);
  Transaction transaction(session.db);
  Rows created = session.db.RunSql(
      "INSERT INTO api_keys (tenant_id, name, prefix, key_hash, scopes, expires_at) "
      "VALUES ($1, $2, $3, $4::bytea, $5::text[], $6::timestamptz) RETURNING id",
      {tenant_id, name, key.prefix, ByteaHex(key.hash), TextArrayLiteral(scopes), expires});
  std::string key_id(created.Text(0, created.Column("id")));
  session.db.ExecSql(
      "INSERT INTO audit_log (tenant_id, actor, action, target, detail) VALUES ($1, 'operator', 'key.created', $2, "
      "jsonb_build_object('name', $3::text, 'prefix', $4::text, 'scopes', $5::text[]))",
      {tenant_id, key_id, name, key.prefix, TextArrayLiteral(scopes)});
  transaction.Commit();
  // The key alone on stdout, so `KEY=$(icatctl key create ...)` captures exactly it.
  std::cout << key.secret << '\n';
  std::cerr << "created key " << key_id << " (" << key.prefix << "); it cannot be shown again\n";
}

void KeyList(const Args& args) {
  Session session;
  std::string tenant_id = TenantId(session.db, args.Value("tenant"));
  Rows keys = session.db.RunSql(kListKeys, {tenant_id});
  if (args.Has("json")) {
    PrintKeysJson(keys);
  } else {
    PrintKeysTable(keys);
  }
}

// Exit 0 once the revoke committed: refused at once where Redis took the tombstone, and by every
// node within a second in any case (docs/security.md, wall 3). Exit 1 when it did not commit (the
// key still works) or when Postgres did not answer its COMMIT (unknown: run it again).
void KeyRevoke(const Args& args) {
  const std::string& subdomain = args.Value("tenant");
  const std::string& id_or_prefix = args.Positional(0);
  if (!IsUuid(id_or_prefix) && id_or_prefix.size() != kKeyListedPrefixChars) {
    throw UsageError("'" + id_or_prefix + "' is neither a key id nor a 14-character key prefix");
  }
  Session session;
  KeyToRevoke key = CommitRevoke(session.db, subdomain, id_or_prefix);
  // After the commit, so a cache fill that races with us reads the revoked row or meets the
  // tombstone. Left again for an already revoked key, in case Redis lost it.
  Redis redis(session.config.redis, session.config.redis_timeout_ms);
  if (!MarkApiKeyRevoked(redis, session.config, key.hash_hex)) {
    std::cerr << "icatctl: warning: Redis took no tombstone for key " << key.id
              << "; every node refuses the key within a second all the same (each worker polls Postgres for "
                 "revokes)\n";
  }
  std::cout << (key.already_revoked ? "already revoked " : "revoked ") << key.id << '\n';
}

}  // namespace icat::ctl
