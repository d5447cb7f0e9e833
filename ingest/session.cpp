// The owner's database session and the look-ups and checks every icatctl command uses.
#include "ingest/session.hpp"

#include <algorithm>
#include <ctime>
#include <iostream>
#include <regex>

#include "icat/cli_args.hpp"
#include "icat/log.hpp"
#include "icat/redis.hpp"
#include "icat/validate.hpp"
#include "icat/worker_cache.hpp"

namespace icat::ctl {

Session::Session() : config(Config::FromEnvironment()), db(config.pg_admin_dsn, {}) {
  ConfigureLogs(config.log_level, config.log_format);
}

Transaction::Transaction(Db& db) : db_(db) { db_.Begin(); }

Transaction::~Transaction() {
  if (!finished_) db_.Rollback();
}

void Transaction::Commit() {
  db_.Commit();
  finished_ = true;
}

void NoteCachedDataChanged(const Session& session) {
  Redis redis(session.config.redis, session.config.redis_timeout_ms);
  if (!BumpCacheGeneration(redis)) {
    std::cerr << "icatctl: warning: Redis unreachable; handlers may serve the catalogue as it was for up to "
              << session.config.worker_cache_seconds << " s\n";
  }
}

std::string TenantId(Db& db, std::string_view subdomain) {
  Rows rows = db.RunSql("SELECT id FROM tenants WHERE subdomain = $1", {subdomain});
  if (rows.empty()) throw Failure("tenant " + std::string(subdomain) + " not found");
  return std::string(rows.Text(0, rows.Column("id")));
}

std::string ImageId(Db& db, std::string_view name) {
  Rows rows = db.RunSql("SELECT id FROM images WHERE name = $1", {name});
  if (rows.empty()) throw Failure("image " + std::string(name) + " not found");
  return std::string(rows.Text(0, rows.Column("id")));
}

void RequireMatch(std::string_view flag, std::string_view value, const char* pattern, std::string_view expectation) {
  if (!std::regex_match(value.begin(), value.end(), std::regex(pattern))) {
    throw UsageError(std::string(flag) + ": '" + std::string(value) + "' " + std::string(expectation));
  }
}

void PrintTable(const std::vector<std::vector<std::string>>& table) {
  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& row : table) {
    for (size_t col = 0; col < row.size(); ++col) widths[col] = std::max(widths[col], Utf8Chars(row[col]));
  }
  for (const auto& row : table) {
    std::string line;
    for (size_t col = 0; col < row.size(); ++col) {
      line += row[col];
      if (col + 1 < row.size()) line += std::string(widths[col] - Utf8Chars(row[col]) + 2, ' ');
    }
    std::cout << line << '\n';
  }
}

bool TimestampIsPast(std::string_view flag, const std::string& value) {
  std::optional<long long> seconds = ParseRfc3339(value);
  if (!seconds) {
    throw UsageError("--" + std::string(flag) + ": '" + value +
                     "' is not an RFC 3339 timestamp with a real date, such as 2027-01-31T12:00:00Z");
  }
  return *seconds <= std::time(nullptr);
}

}  // namespace icat::ctl
