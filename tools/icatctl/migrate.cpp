// icatctl migrate: applies the embedded sql/V*.sql in order, each once and in its own
// transaction, recording its checksum; forward-only, so an edited applied migration is an error.
#include <charconv>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "icat/crypto.hpp"
#include "ingest/session.hpp"
#include "migrations.hpp"

namespace icat::ctl {
namespace {

// Held for the whole run (session-level), so two migrators, even on two hosts, never interleave.
constexpr long long kMigrationLockId = 0x6963617400000001;  // "icat" and 1

constexpr std::string_view kCreateLedger = R"sql(
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer PRIMARY KEY,
    file        text NOT NULL,
    checksum    text NOT NULL,         -- SHA-256 hex of the migration's SQL
    applied_at  timestamptz NOT NULL DEFAULT now()
  ))sql";

struct Applied {
  std::string file;
  std::string checksum;
};

// "V0001__init.sql" -> 1. A malformed name is a build mistake, caught before anything runs.
int VersionOf(std::string_view file) {
  size_t separator = file.find("__");
  int version = 0;
  bool named_well = !file.empty() && file[0] == 'V' && separator != std::string_view::npos && separator > 1;
  if (named_well) {
    auto [end, error] = std::from_chars(file.data() + 1, file.data() + separator, version);
    named_well = error == std::errc() && end == file.data() + separator && version > 0;
  }
  if (!named_well) throw Failure("embedded migration " + std::string(file) + " is not named V<number>__<name>.sql");
  return version;
}

std::map<int, Applied> AppliedMigrations(Db& db) {
  std::map<int, Applied> applied;
  Rows rows = db.RunSql("SELECT version, file, checksum FROM schema_migrations ORDER BY version", {});
  const int version = rows.Column("version"), file = rows.Column("file"), checksum = rows.Column("checksum");
  for (int row = 0; row < rows.size(); ++row) {
    applied[static_cast<int>(rows.Int(row, version))] = {std::string(rows.Text(row, file)),
                                                         std::string(rows.Text(row, checksum))};
  }
  return applied;
}

// An applied migration must be byte for byte what this icatctl embeds: databases that ran
// different SQL under the same version would silently differ.
void CheckUnchanged(const Migration& migration, const Applied& applied, const std::string& checksum) {
  if (applied.checksum != checksum) {
    throw Failure("migration " + std::string(migration.file) + " was changed after it was applied (checksum " +
                  applied.checksum + " in the database, " + checksum +
                  " embedded); migrations are forward-only: restore it and add a new one");
  }
}

void Apply(Db& db, int version, const Migration& migration, const std::string& checksum) {
  Transaction transaction(db);
  db.ExecSql(migration.sql);  // no parameters: a simple query, which may hold many statements
  db.ExecSql("INSERT INTO schema_migrations (version, file, checksum) VALUES ($1, $2, $3)",
       {version, migration.file, checksum});
  transaction.Commit();
}

}  // namespace

void Migrate(const Args&) {
  Session session;
  // Keeps the server's NOTICEs ("already exists, skipping") out of the operator's terminal.
  session.db.ExecSql("SET client_min_messages TO warning");
  session.db.ExecSql("SELECT pg_advisory_lock($1)", {kMigrationLockId});
  session.db.ExecSql(kCreateLedger);  // after the lock: concurrent CREATE IF NOT EXISTS can collide
  std::map<int, Applied> applied = AppliedMigrations(session.db);
  int newest_applied = applied.empty() ? 0 : applied.rbegin()->first;
  int previous = 0;
  int count = 0;
  for (const Migration& migration : AllMigrations()) {
    int version = VersionOf(migration.file);
    if (version <= previous) throw Failure("embedded migrations repeat or skip back at " + std::string(migration.file));
    previous = version;
    std::string checksum = Sha256Hex(migration.sql);
    auto done = applied.find(version);
    if (done != applied.end()) {
      CheckUnchanged(migration, done->second, checksum);
      continue;
    }
    if (version < newest_applied) {
      throw Failure("migration " + std::string(migration.file) + " is older than the applied version " +
                    std::to_string(newest_applied) + "; migrations apply in order only");
    }
    Apply(session.db, version, migration, checksum);
    std::cout << "applied " << migration.file << std::endl;  // flushed: progress shows while the next one runs
    ++count;
  }
  if (newest_applied > previous) {
    std::cerr << "icatctl: warning: the database has migration " << newest_applied
              << ", newer than this icatctl knows; use the newer icatctl\n";
  }
  if (count == 0) std::cout << "schema up to date\n";
  else NoteCachedDataChanged(session);  // a migration may reshape what the handlers answer
  // The advisory lock goes with the connection when the session ends.
}

}  // namespace icat::ctl
