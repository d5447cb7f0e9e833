// The SQL migrations compiled into icatctl (defined by tools/embed-sql from sql/V*.sql).
#pragma once

#include <string_view>
#include <vector>

namespace icat {

struct Migration {
  std::string_view file;  // e.g. V0001__init.sql; the number is the version
  std::string_view sql;
};

// Every migration, in file-name order.
const std::vector<Migration>& AllMigrations();

}  // namespace icat
