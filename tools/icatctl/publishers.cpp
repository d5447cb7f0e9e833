// icatctl publisher create, revoke and list: the vendor's credentials for pushing images to the
// registry (docs/registry.md). The password is printed once, at creation, and never stored: the
// table publishers (sql/V0027) holds its SHA-256, as api_keys holds a key's. The registry's push
// decision reads the row on every request, so a revoke takes effect at once.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "icat/api_key.hpp"
#include "icat/crypto.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

// The rule of publishers.name's CHECK, so a bad name is a usage error.
constexpr const char* kPublisherName = "[a-z0-9][a-z0-9._-]{0,63}";

// "icatpub_" and 43 base64url characters (32 random bytes). Never a well-formed API key
// (api_key.hpp: "<prefix>_live_" and 49 base62 characters), whatever ICAT_KEY_PREFIX is: the
// registry's auth tells a publisher's password from a tenant's key by that.
std::string NewPublisherPassword() { return "icatpub_" + Base64UrlEncode(RandomBytes(32)); }

void RequirePublisherName(const std::string& name) {
  RequireMatch("NAME", name, kPublisherName, "is not a publisher name (a-z, 0-9, '._-', at most 64 characters)");
}

}  // namespace

void PublisherCreate(const Args& args) {
  const std::string& name = args.Positional(0);
  RequirePublisherName(name);
  Session session;
  std::string password = NewPublisherPassword();
  if (ApiKeyWellFormed(password, session.config.key_prefix)) throw Failure("generated password looks like an API key");
  // A revoked name may be given a new password (a new credential from now on); a live one is
  // refused, so a create never silently replaces a credential in use.
  Rows created = session.db.RunSql(
      "INSERT INTO publishers (name, secret_hash) VALUES ($1, $2::bytea) "
      "ON CONFLICT (name) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, created_at = now(), revoked_at = NULL "
      "WHERE publishers.revoked_at IS NOT NULL RETURNING id",
      {name, ByteaHex(Sha256(password))});
  if (created.empty()) throw Failure("publisher " + name + " exists and is live (revoke it first)");
  // The password alone on stdout, so `PASSWORD=$(icatctl publisher create ...)` captures exactly it.
  std::cout << password << '\n';
  std::cerr << "created publisher " << name << "; its password cannot be shown again\n";
}

void PublisherRevoke(const Args& args) {
  const std::string& name = args.Positional(0);
  RequirePublisherName(name);
  Session session;
  Rows revoked = session.db.RunSql(
      "UPDATE publishers SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING id", {name});
  if (!revoked.empty()) {
    std::cout << "revoked publisher " << name << '\n';
    return;
  }
  Rows existing = session.db.RunSql("SELECT id FROM publishers WHERE name = $1", {name});
  if (existing.empty()) throw Failure("publisher " + name + " not found");
  std::cout << "publisher " << name << " was already revoked\n";
}

void PublisherList(const Args&) {
  Session session;
  // Times in UTC with a Z, whatever the server's TimeZone.
  Rows publishers = session.db.RunSql(
      "SELECT name, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS created, "
      "to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS revoked "
      "FROM publishers ORDER BY name",
      {});
  std::vector<std::vector<std::string>> table = {{"NAME", "CREATED", "REVOKED"}};
  const int name = publishers.Column("name"), created = publishers.Column("created"),
            revoked = publishers.Column("revoked");
  for (int row = 0; row < publishers.size(); ++row) {
    table.push_back({std::string(publishers.Text(row, name)), std::string(publishers.Text(row, created)),
                     publishers.OptionalText(row, revoked).value_or("-")});
  }
  PrintTable(table);
}

}  // namespace icat::ctl
