// What icatctl's commands share: the runtime-failure exception, the owner's database session,
// look-ups by the names operators type, and checks of the values they pass.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "icat/config.hpp"
#include "icat/db.hpp"
#include "icat/paging.hpp"

namespace icat::ctl {

// A failure at run time (not found, conflict, ...): main prints it as one line and exits 1.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The settings and a connection as the owner role (ICAT_PG_ADMIN_DSN), which bypasses
// row-level security: the operator acts for every tenant. Nothing connects until first use.
struct Session {
  Session();
  Config config;
  Db db;
};

// BEGIN now; ROLLBACK on destruction unless Commit() was called, so a throw never half-applies.
class Transaction {
 public:
  explicit Transaction(Db& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit();

 private:
  Db& db_;
  bool finished_ = false;
};

// After a commit that changed catalogue data (images, versions, scans, licences): tells the
// handlers' worker caches (common's worker_cache.hpp); warns when Redis cannot be told.
void NoteCachedDataChanged(const Session& session);

// Ids by the names operators type; a Failure ("tenant acme not found") when there is none.
std::string TenantId(Db& db, std::string_view subdomain);
std::string ImageId(Db& db, std::string_view name);

// Throws UsageError "--flag: 'value' <expectation>" unless value matches the ECMAScript pattern.
void RequireMatch(std::string_view flag, std::string_view value, const char* pattern, std::string_view expectation);

// An RFC 3339 timestamp with a real calendar date (common's ParseRfc3339); whether it lies in the
// past. Throws UsageError naming the flag otherwise.
bool TimestampIsPast(std::string_view flag, const std::string& value);

// Rows as columns aligned with two spaces (widths in characters); the first row is the heading.
void PrintTable(const std::vector<std::vector<std::string>>& table);

}  // namespace icat::ctl
