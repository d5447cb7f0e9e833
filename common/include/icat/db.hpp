// Postgres through libpq: one connection per worker, named prepared statements, reconnect.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

// A named SQL statement, prepared once per connection (a schema drift fails at connect). Each is a
// constant beside its SQL (`inline constexpr Statement kGetMe{"auth_get_me", "SELECT ..."}`) that
// the call site passes, so a misspelt statement is a compile error (docs/decisions.md).
struct Statement {
  std::string_view name;
  std::string_view sql;
};

// How long a request may wait for Postgres past the statement timeout: the server's own timeout
// error arrives as an error, not as a missed deadline (docs/decisions.md, "Fail fast").
inline constexpr std::chrono::milliseconds kBudgetMargin{500};
// After Postgres left a wait unanswered, how long a Db fails at once instead of waiting again.
inline constexpr std::chrono::milliseconds kUnavailableFor{1000};
// Connecting waits at most this long (libpq's connect_timeout, which PQconnectPoll does not apply).
inline constexpr std::chrono::milliseconds kConnectTimeout{3000};

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

// A result set in text format. Cells are read by row and column index; the index of a column is
// found by its name once per result (Column), never written as a number.
class Rows {
 public:
  explicit Rows(PGresult* result) : result_(result, PQclear) {}
  int size() const { return PQntuples(result_.get()); }
  // The index of the one column called name; throws std::logic_error when there is none or two
  // (a statement and its reader that disagree are a defect, whichever request meets it).
  int Column(std::string_view name) const;
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

// A prepared statement and its parameters: one step of Db::RunAll.
struct Call {
  Statement statement;
  std::vector<Param> params;
};

// A program's check at start (a pool's parent before it forks, the dispatcher): connects once and
// prepares the statements. False, after "<program>: statement NAME does not prepare: ..." on
// stderr, when one does not (a typo, a schema drift): the program exits 2 rather than fail its first
// requests. Postgres unreachable is an outage, not a defect: a warning, true, and the first use
// connects and prepares again.
bool StatementsPrepareAtStart(std::string_view program, const std::string& dsn,
                              const std::vector<Statement>& statements, int statement_timeout_ms);

// Parses a Postgres text array such as {a,b,"c d"} into its elements.
std::vector<std::string> ParseTextArray(std::string_view text);
// Renders elements as a Postgres text array literal.
std::string TextArrayLiteral(const std::vector<std::string>& elements);
// Raw bytes as a bytea parameter in Postgres's hex format ("\\x..."): hashes, sealed secrets.
std::string ByteaHex(std::string_view bytes);

// One connection, in non-blocking mode: every wait for the server is a poll() with a deadline.
// Statements go out as libpq pipelines: a transaction's BEGIN and the tenant travel
// in the round trip of its first statement, and RunAll sends several statements in one round trip.
// The transaction scope is virtual: the seam where the pipeline's unit tests watch what it opens,
// commits and rolls back (tests/unit/pipeline_test.cpp), without a Postgres.
class Db {
 public:
  // Nothing connects here; the first use does, or ConnectAtStart.
  Db(std::string dsn, std::vector<Statement> statements, int statement_timeout_ms = 0);
  virtual ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Connects now and prepares every statement, so that a statement that does not prepare (a typo,
  // a column the schema lacks) stops a program at start. Returns false when Postgres cannot be
  // reached: an outage, not a defect, and the first use connects again. Throws DbError naming the
  // statement that does not prepare.
  bool ConnectAtStart();

  // Runs a prepared statement. Virtual: the pipeline's unit tests answer the statements the pipeline
  // itself runs (the signed-in person) without a Postgres.
  [[nodiscard]] virtual Rows Run(const Statement& statement, const std::vector<Param>& params = {});
  // The same for a statement whose rows nobody reads (an INSERT or UPDATE without RETURNING).
  void Exec(const Statement& statement, const std::vector<Param>& params = {}) { (void)Run(statement, params); }
  // Runs a handful of independent prepared statements in one round trip; their rows in order.
  // The first failure throws; the statements after it do not run.
  [[nodiscard]] std::vector<Rows> RunAll(const std::vector<Call>& calls);
  // RunAll of statements whose rows nobody reads, then COMMIT in the same round trip: for a
  // transaction's last writes. On a failure the transaction stays open for Rollback.
  void ExecAllThenCommit(const std::vector<Call>& calls);
  // Runs SQL text (icatctl, migrations): with parameters when given, else as a simple query,
  // which may hold several statements.
  [[nodiscard]] Rows RunSql(std::string_view sql, const std::vector<Param>& params = {});
  void ExecSql(std::string_view sql, const std::vector<Param>& params = {}) { (void)RunSql(sql, params); }

  // Opens a transaction. Nothing is sent yet: BEGIN goes with the first statement, which
  // reconnects once first if the server went away since the last request (a restarted
  // Postgres is then invisible to clients). Throws DbError when unreachable.
  void Begin();
  // Begin, then set_config('app.tenant_id', tenant, true) for row-level security.
  virtual void BeginForTenant(std::string_view tenant_id);
  // For read-only requests: no BEGIN and no COMMIT. Each round trip is its own implicit
  // transaction that sets the tenant first; under READ COMMITTED every statement takes its own
  // snapshot inside an explicit transaction too, so reads see what they would see there.
  virtual void ReadAsTenant(std::string_view tenant_id);
  // ReadAsTenant on `standby` (a Db of ICAT_PG_READ_DSN) instead: until Commit or Rollback, this
  // Db's statements run there, within this request's budget (common/src/replica.cpp chooses).
  void ReadAsTenantOn(Db& standby, std::string_view tenant_id);
  bool reads_on_standby() const { return reads_on_ != nullptr; }
  virtual void Commit();    // COMMIT when a statement ran since Begin; ends a read scope
  virtual void Rollback();  // never throws; a broken connection is reset on the next Begin

  // SELECT 1, on a new connection when the server hung up; false when Postgres is unreachable or
  // does not answer within the budget.
  bool Ping();

  // A request's budget: from now until the next StartBudget, no wait for Postgres lasts past the
  // statement timeout plus kBudgetMargin, however many round trips the request makes. A wait that
  // reaches the deadline is abandoned: the connection is dropped (the server rolls back what it
  // held), DbError is thrown, and for kUnavailableFor this Db fails at once without waiting. Without
  // a budget each wait is bounded alone; without a statement timeout (icatctl, migrations) only
  // connecting is (kConnectTimeout).
  void StartBudget();
  // Ends the budget sooner: `within` from now at the latest (a health check, the API server's timeout).
  void ShortenBudget(std::chrono::milliseconds within);

 private:
  using Clock = std::chrono::steady_clock;
  // What the next round trip must open first.
  enum class Scope { kNone, kPendingBegin, kOpen, kRead };
  struct Step {  // a prepared statement (by name) or SQL text, and its parameters
    std::string_view name_or_sql;
    bool is_sql;
    const std::vector<Param>* params;
  };

  void Connect();
  void Disconnect();
  bool ServerHungUp() const;
  void CheckTimeLeft();
  std::optional<Clock::time_point> WaitLimit() const;
  void WaitForSocket(short events, std::optional<Clock::time_point> limit);
  void Flush();
  PGresult* NextResult();
  PGresult* Await(int sent);
  PGresult* Execute(const char* sql);
  std::vector<Rows> Send(const std::vector<Step>& steps, bool commit = false);
  std::vector<Rows> SendPipeline(const std::vector<Step>& steps, bool commit);
  [[noreturn]] void Fail(PGresult* result);
  Rows Check(PGresult* result);

  std::string dsn_;
  std::vector<Statement> statements_;
  int statement_timeout_ms_;
  PGconn* conn_ = nullptr;
  std::optional<Clock::time_point> deadline_;  // the running budget's end
  Clock::time_point unavailable_until_{};      // set when Postgres left a wait unanswered
  Scope scope_ = Scope::kNone;
  std::string tenant_;      // set first in each round trip that opens a scope
  Db* reads_on_ = nullptr;  // the standby of this read scope (ReadAsTenantOn); none: this connection
};

}  // namespace icat
