// Postgres through libpq: one connection per worker, named prepared statements, reconnect.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

// A named SQL statement, prepared once per connection (a schema drift fails at connect).
struct Statement {
  std::string_view name;
  std::string_view sql;
};

// A failure reported by libpq or the server. sqlstate is empty when the connection failed.
class DbError : public std::runtime_error {
 public:
  DbError(std::string message, std::string sqlstate, bool connection_lost)
      : std::runtime_error(std::move(message)), sqlstate(std::move(sqlstate)), connection_lost(connection_lost) {}
  std::string sqlstate;  // e.g. "23505" unique_violation
  bool connection_lost;
};

// A statement parameter: text, or SQL NULL.
class Param {
 public:
  Param(std::nullopt_t) {}
  Param(const char* text) : value_(std::string(text)) {}
  Param(std::string_view text) : value_(std::string(text)) {}
  Param(const std::string& text) : value_(text) {}
  Param(std::string&& text) : value_(std::move(text)) {}
  Param(int number) : value_(std::to_string(number)) {}
  Param(long number) : value_(std::to_string(number)) {}
  Param(long long number) : value_(std::to_string(number)) {}
  Param(bool flag) : value_(flag ? "true" : "false") {}
  template <typename T>
  Param(const std::optional<T>& maybe) {
    if (maybe) value_ = Param(*maybe).value_;
  }
  const std::optional<std::string>& value() const { return value_; }

 private:
  std::optional<std::string> value_;
};

// A result set in text format. Cells are read by row and column index.
class Rows {
 public:
  explicit Rows(PGresult* result) : result_(result, PQclear) {}
  int size() const { return PQntuples(result_.get()); }
  bool empty() const { return size() == 0; }
  bool IsNull(int row, int col) const { return PQgetisnull(result_.get(), row, col) != 0; }
  std::string_view Text(int row, int col) const {
    return {PQgetvalue(result_.get(), row, col), static_cast<size_t>(PQgetlength(result_.get(), row, col))};
  }
  std::optional<std::string> OptionalText(int row, int col) const;
  long long Int(int row, int col) const;  // 0 for NULL
  bool Bool(int row, int col) const { return Text(row, col) == "t"; }
  long affected() const;  // rows changed by INSERT/UPDATE/DELETE

 private:
  std::shared_ptr<PGresult> result_;
};

// Parses a Postgres text array such as {a,b,"c d"} into its elements.
std::vector<std::string> ParseTextArray(std::string_view text);
// Renders elements as a Postgres text array literal.
std::string TextArrayLiteral(const std::vector<std::string>& elements);

class Db {
 public:
  // Nothing connects here; the first use does.
  Db(std::string dsn, std::vector<Statement> statements, int statement_timeout_ms = 0);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs a prepared statement by name.
  [[nodiscard]] Rows Run(std::string_view name, const std::vector<Param>& params = {});
  // Runs SQL text (icatctl, migrations): with parameters when given, else as a simple query,
  // which may hold several statements.
  [[nodiscard]] Rows RunSql(std::string_view sql, const std::vector<Param>& params = {});

  // BEGIN, reconnecting once first if the server went away since the last request
  // (a restarted Postgres is then invisible to clients). Throws DbError when unreachable.
  void Begin();
  void Commit();
  void Rollback();  // never throws; a broken connection is reset on the next Begin
  // BEGIN, then set_config('app.tenant_id', tenant, true) for row-level security.
  void BeginForTenant(std::string_view tenant_id);

  bool Ping();  // SELECT 1, reconnecting if needed; false when Postgres is unreachable

 private:
  void Connect();
  void Disconnect();
  void BeginWith(const std::string& sql);
  [[noreturn]] void Fail(PGresult* result);
  Rows Check(PGresult* result);

  std::string dsn_;
  std::vector<Statement> statements_;
  int statement_timeout_ms_;
  PGconn* conn_ = nullptr;
};

}  // namespace icat
