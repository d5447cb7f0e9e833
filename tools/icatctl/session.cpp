// The owner's database session and the look-ups and checks every icatctl command uses.
#include "session.hpp"

#include <regex>

#include "args.hpp"
#include "icat/log.hpp"

namespace icat::ctl {

Session::Session() : config(Config::FromEnvironment()), db(config.pg_admin_dsn, {}) {
  SetLogLevel(config.log_level);
}

Transaction::Transaction(Db& db) : db_(db) { db_.Begin(); }

Transaction::~Transaction() {
  if (!finished_) db_.Rollback();
}

void Transaction::Commit() {
  db_.Commit();
  finished_ = true;
}

void Exec(Db& db, std::string_view sql, const std::vector<Param>& params) {
  Rows ignored = db.RunSql(sql, params);
  (void)ignored;
}

std::string TenantId(Db& db, std::string_view subdomain) {
  Rows rows = db.RunSql("SELECT id FROM tenants WHERE subdomain = $1", {subdomain});
  if (rows.empty()) throw Failure("tenant " + std::string(subdomain) + " not found");
  return std::string(rows.Text(0, 0));
}

std::string ImageId(Db& db, std::string_view name) {
  Rows rows = db.RunSql("SELECT id FROM images WHERE name = $1", {name});
  if (rows.empty()) throw Failure("image " + std::string(name) + " not found");
  return std::string(rows.Text(0, 0));
}

void RequireMatch(std::string_view flag, std::string_view value, const char* pattern, std::string_view expectation) {
  if (!std::regex_match(value.begin(), value.end(), std::regex(pattern))) {
    throw UsageError(std::string(flag) + ": '" + std::string(value) + "' " + std::string(expectation));
  }
}

bool TimestampIsPast(Db& db, std::string_view flag, const std::string& value) {
  RequireMatch("--" + std::string(flag), value, R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d))",
               "is not an RFC 3339 timestamp such as 2027-01-31T12:00:00Z");
  try {
    Rows rows = db.RunSql("SELECT $1::timestamptz <= now()", {value});
    return rows.Bool(0, 0);
  } catch (const DbError& error) {
    // Class 22 is "data exception": a well-shaped but impossible date such as month 13.
    if (error.sqlstate.rfind("22", 0) != 0) throw;
    throw UsageError("--" + std::string(flag) + ": '" + value + "' is not a valid time");
  }
}

bool IsUuid(std::string_view text) {
  static const std::regex kUuid("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  return std::regex_match(text.begin(), text.end(), kUuid);
}

size_t Utf8Length(std::string_view text) {
  size_t count = 0;
  for (unsigned char byte : text) {
    if ((byte & 0xC0) != 0x80) ++count;  // continuation bytes belong to the character before
  }
  return count;
}

}  // namespace icat::ctl
