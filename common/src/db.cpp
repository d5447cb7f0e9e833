// Postgres: one connection, statements prepared at connect, one reconnect when the server went away,
// and no wait for the server without a deadline (docs/decisions.md, "Fail fast").
#include "icat/db.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "icat/crypto.hpp"
#include "icat/log.hpp"
#include "icat/metrics.hpp"

namespace icat {

namespace {
constexpr const char* kSetTenant = "icat_set_tenant";
}  // namespace

int Rows::Column(std::string_view name) const {
  int found = -1;
  for (int col = 0; col < PQnfields(result_.get()); col++) {
    if (name != PQfname(result_.get(), col)) continue;
    if (found >= 0) throw std::logic_error("two result columns are called " + std::string(name));
    found = col;
  }
  if (found < 0) throw std::logic_error("no result column is called " + std::string(name));
  return found;
}

std::optional<std::string> Rows::OptionalText(int row, int col) const {
  if (IsNull(row, col)) return std::nullopt;
  return std::string(Text(row, col));
}

long long Rows::Int(int row, int col) const {
  return IsNull(row, col) ? 0 : std::strtoll(PQgetvalue(result_.get(), row, col), nullptr, 10);
}

long Rows::affected() const { return std::strtol(PQcmdTuples(result_.get()), nullptr, 10); }

std::vector<std::string> ParseTextArray(std::string_view text) {
  std::vector<std::string> elements;
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return elements;
  text = text.substr(1, text.size() - 2);
  size_t i = 0;
  while (i < text.size()) {
    std::string element;
    if (text[i] == '"') {
      for (i++; i < text.size() && text[i] != '"'; i++) {
        if (text[i] == '\\' && i + 1 < text.size()) i++;
        element += text[i];
      }
      i++;  // closing quote
    } else {
      for (; i < text.size() && text[i] != ','; i++) element += text[i];
    }
    elements.push_back(std::move(element));
    if (i < text.size() && text[i] == ',') i++;
  }
  return elements;
}

std::string ByteaHex(std::string_view bytes) { return "\\x" + HexEncode(bytes); }

std::string TextArrayLiteral(const std::vector<std::string>& elements) {
  std::string literal = "{";
  for (size_t i = 0; i < elements.size(); i++) {
    if (i) literal += ',';
    literal += '"';
    for (char c : elements[i]) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    literal += '"';
  }
  return literal + "}";
}

Db::Db(std::string dsn, std::vector<Statement> statements, int statement_timeout_ms)
    : dsn_(std::move(dsn)), statements_(std::move(statements)), statement_timeout_ms_(statement_timeout_ms) {}

Db::~Db() { Disconnect(); }

void Db::Disconnect() {
  if (conn_) PQfinish(conn_);  // non-blocking: its goodbye never waits for a stalled server
  conn_ = nullptr;
}

void Db::StartBudget() {
  deadline_.reset();
  if (statement_timeout_ms_ > 0) {
    deadline_ = Clock::now() + std::chrono::milliseconds(statement_timeout_ms_) + kBudgetMargin;
  }
}

void Db::ShortenBudget(std::chrono::milliseconds within) {
  Clock::time_point end = Clock::now() + within;
  if (!deadline_ || end < *deadline_) deadline_ = end;
}

// Before anything is sent: fails at once while Postgres is known not to answer, and when the budget
// is spent (the connection is dropped then, with whatever transaction it held).
void Db::CheckTimeLeft() {
  Clock::time_point now = Clock::now();
  if (now < unavailable_until_) {
    throw DbError("postgres left a request unanswered less than " + std::to_string(kUnavailableFor.count()) +
                      " ms ago; not waiting again yet",
                  "", true);
  }
  if (deadline_ && now >= *deadline_) {
    Disconnect();
    throw DbError("the request's time for postgres is spent", "", true);
  }
}

// The latest a wait starting now may end: the budget's end, and one budget from now at most (the
// dispatcher and a pool's check at start run without a budget). None without a statement timeout.
std::optional<Db::Clock::time_point> Db::WaitLimit() const {
  std::optional<Clock::time_point> limit = deadline_;
  if (statement_timeout_ms_ > 0) {
    Clock::time_point one_budget = Clock::now() + std::chrono::milliseconds(statement_timeout_ms_) + kBudgetMargin;
    if (!limit || one_budget < *limit) limit = one_budget;
  }
  return limit;
}

// Waits until the socket is ready for `events`. When limit passes first, Postgres did not answer in
// time: the connection is dropped rather than cancelled (PQcancel connects anew to the same server,
// without a timeout), and this Db fails at once for kUnavailableFor.
void Db::WaitForSocket(short events, std::optional<Clock::time_point> limit) {
  pollfd socket{PQsocket(conn_), events, 0};
  if (socket.fd < 0) Fail(nullptr);
  while (true) {
    int wait_ms = -1;
    if (limit) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(*limit - Clock::now());
      wait_ms = static_cast<int>(std::max<long long>(0, left.count()));
    }
    int ready = poll(&socket, 1, wait_ms);
    if (ready > 0) return;
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) Fail(nullptr);
    break;
  }
  metrics::Add(metrics::Metric::kPostgresErrors);
  Disconnect();
  unavailable_until_ = Clock::now() + kUnavailableFor;
  throw DbError("postgres did not answer in time; the connection was dropped", "", true);
}

// Sends what libpq holds (the connection is non-blocking, so the send calls only queue).
void Db::Flush() {
  while (true) {
    int pending = PQflush(conn_);
    if (pending == 0) return;
    if (pending < 0) Fail(nullptr);
    WaitForSocket(POLLIN | POLLOUT, WaitLimit());
    if (!PQconsumeInput(conn_)) Fail(nullptr);  // the server may answer while we still send
  }
}

// PQgetResult without blocking beyond the wait limit.
PGresult* Db::NextResult() {
  while (PQisBusy(conn_)) {
    WaitForSocket(POLLIN, WaitLimit());
    if (!PQconsumeInput(conn_)) Fail(nullptr);
  }
  return PQgetResult(conn_);
}

// What PQexec returns for the command just sent (`sent`: the send call's result): its last result.
PGresult* Db::Await(int sent) {
  if (!sent) Fail(nullptr);
  Flush();
  PGresult* last = nullptr;
  while (PGresult* result = NextResult()) {
    if (last) PQclear(last);
    last = result;
  }
  return last;
}

PGresult* Db::Execute(const char* sql) { return Await(PQsendQuery(conn_, sql)); }

void Db::Connect() {
  Disconnect();
  CheckTimeLeft();
  Clock::time_point connect_limit = Clock::now() + kConnectTimeout;
  std::optional<Clock::time_point> limit = WaitLimit();
  if (!limit || connect_limit < *limit) limit = connect_limit;
  conn_ = PQconnectStart(dsn_.c_str());
  if (!conn_) throw DbError("cannot connect to Postgres: out of memory", "", true);
  // libpq's protocol: wait for writing first, then as each PQconnectPoll asks (its socket may change).
  PostgresPollingStatusType polling = PGRES_POLLING_WRITING;
  while (PQstatus(conn_) != CONNECTION_BAD && polling != PGRES_POLLING_OK && polling != PGRES_POLLING_FAILED) {
    WaitForSocket(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT, limit);
    polling = PQconnectPoll(conn_);
  }
  if (PQstatus(conn_) != CONNECTION_OK || PQsetnonblocking(conn_, 1) != 0) {
    std::string message = PQerrorMessage(conn_);
    Disconnect();
    metrics::Add(metrics::Metric::kPostgresErrors);
    throw DbError("cannot connect to Postgres: " + message, "", true);
  }
  if (statement_timeout_ms_ > 0) {
    Check(Execute(("SET statement_timeout = " + std::to_string(statement_timeout_ms_)).c_str()));
  }
  Check(Await(PQsendPrepare(conn_, kSetTenant, "SELECT set_config('app.tenant_id', $1, true)", 0, nullptr)));
  for (const Statement& s : statements_) {
    PGresult* result = Await(PQsendPrepare(conn_, std::string(s.name).c_str(), std::string(s.sql).c_str(), 0, nullptr));
    try {
      Check(result);
    } catch (const DbError& e) {
      if (e.connection_lost) throw;
      Disconnect();  // half prepared: the next use starts again
      throw DbError("statement " + std::string(s.name) + " does not prepare: " + e.what(), e.sqlstate, false);
    }
  }
}

bool Db::ConnectAtStart() {
  try {
    Connect();
    return true;
  } catch (const DbError& e) {
    if (e.connection_lost) return false;
    throw;
  }
}

void Db::Fail(PGresult* result) {
  metrics::Add(metrics::Metric::kPostgresErrors);
  std::string sqlstate;
  std::string message = conn_ ? PQerrorMessage(conn_) : "no connection";
  if (result) {
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    if (state) sqlstate = state;
    message = PQresultErrorMessage(result);
    PQclear(result);
  }
  // A connection left mid-pipeline is in an unknown state: dropped like a lost one.
  bool lost = !conn_ || PQstatus(conn_) != CONNECTION_OK || PQpipelineStatus(conn_) != PQ_PIPELINE_OFF;
  if (lost) Disconnect();
  while (!message.empty() && message.back() == '\n') message.pop_back();
  throw DbError(message, sqlstate, lost);
}

Rows Db::Check(PGresult* result) {
  ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) Fail(result);
  return Rows(result);
}

namespace {
struct ParamArrays {
  std::vector<const char*> values;
  explicit ParamArrays(const std::vector<Param>& params) {
    for (const Param& p : params) values.push_back(p.value() ? p.value()->c_str() : nullptr);
  }
};

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;
}  // namespace

bool StatementsPrepareAtStart(std::string_view program, const std::string& dsn,
                              const std::vector<Statement>& statements, int statement_timeout_ms) {
  try {
    if (!Db(dsn, statements, statement_timeout_ms).ConnectAtStart()) {
      LogWarn("postgres unreachable at start; statements are prepared when it answers");
    }
    return true;
  } catch (const DbError& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return false;
  }
}

Rows Db::Run(const Statement& statement, const std::vector<Param>& params) {
  return std::move(Send({{statement.name, false, &params}}).front());
}

std::vector<Rows> Db::RunAll(const std::vector<Call>& calls) {
  std::vector<Step> steps;
  for (const Call& call : calls) steps.push_back({call.statement.name, false, &call.params});
  return Send(steps);
}

void Db::ExecAllThenCommit(const std::vector<Call>& calls) {
  std::vector<Step> steps;
  for (const Call& call : calls) steps.push_back({call.statement.name, false, &call.params});
  (void)Send(steps, true);
}

Rows Db::RunSql(std::string_view sql, const std::vector<Param>& params) {
  if (!params.empty() || scope_ == Scope::kRead) return std::move(Send({{sql, true, &params}}).front());
  // A simple query may hold several statements, which a pipeline cannot carry: open the
  // transaction first when one is pending.
  if (scope_ == Scope::kPendingBegin) Send({});
  CheckTimeLeft();
  if (!conn_) Connect();
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  return Check(Execute(std::string(sql).c_str()));
}

// An idle connection has nothing to read unless the server closed it (a restart, or an operator
// terminating backends): it then sent its goodbye and hung up.
bool Db::ServerHungUp() const {
  pollfd socket{PQsocket(conn_), POLLIN, 0};
  return poll(&socket, 1, 0) != 0;
}

// Sends the steps in one round trip. Outside an open transaction it reconnects first when the
// server hung up since the last round trip (a restarted Postgres is then invisible to clients;
// inside one, the transaction is gone and the request fails). When the connection turns out lost
// on the way, a round trip that opens the request's scope is sent again once, unless it carried a
// COMMIT (which may have taken effect), or Postgres did not answer in time (it would not now either).
std::vector<Rows> Db::Send(const std::vector<Step>& steps, bool commit) {
  if (reads_on_) return reads_on_->Send(steps, commit);
  bool first_of_request = scope_ == Scope::kPendingBegin || scope_ == Scope::kRead;
  CheckTimeLeft();
  if (conn_ && scope_ != Scope::kOpen && ServerHungUp()) {
    LogWarn("postgres closed the connection; reconnecting");
    Disconnect();
  }
  if (!conn_) Connect();
  try {
    return SendPipeline(steps, commit);
  } catch (const DbError& e) {
    if (!e.connection_lost || !first_of_request || commit || Clock::now() < unavailable_until_) throw;
    LogWarn("postgres connection lost; reconnecting");
  }
  Connect();
  return SendPipeline(steps, commit);
}

// One pipeline: what the scope must open first (BEGIN, the tenant), the steps, COMMIT when asked
// (and a transaction is open), then a sync. The first failure is thrown once the whole pipeline
// has been read, so the connection stays usable.
std::vector<Rows> Db::SendPipeline(const std::vector<Step>& steps, bool commit) {
  if (!PQenterPipelineMode(conn_)) Fail(nullptr);
  size_t prologue = 0;
  bool sent = true;
  if (scope_ == Scope::kPendingBegin) {
    sent = sent && PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0);
    prologue++;
  }
  if ((scope_ == Scope::kPendingBegin || scope_ == Scope::kRead) && !tenant_.empty()) {
    const char* tenant = tenant_.c_str();
    sent = sent && PQsendQueryPrepared(conn_, kSetTenant, 1, &tenant, nullptr, nullptr, 0);
    prologue++;
  }
  for (const Step& step : steps) {
    ParamArrays arrays(*step.params);
    int count = static_cast<int>(arrays.values.size());
    std::string text(step.name_or_sql);
    sent =
        sent &&
        (step.is_sql ? PQsendQueryParams(conn_, text.c_str(), count, nullptr, arrays.values.data(), nullptr, nullptr, 0)
                     : PQsendQueryPrepared(conn_, text.c_str(), count, arrays.values.data(), nullptr, nullptr, 0));
  }
  size_t epilogue = 0;
  if (commit && (scope_ == Scope::kPendingBegin || scope_ == Scope::kOpen)) {
    sent = sent && PQsendQueryParams(conn_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0);
    epilogue++;
  }
  if (!sent || !PQpipelineSync(conn_)) Fail(nullptr);
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  Flush();

  std::vector<Rows> rows;
  Result failure(nullptr, PQclear);
  for (size_t i = 0; i < prologue + steps.size() + epilogue; i++) {
    Result result(NextResult(), PQclear);
    if (!result || PQstatus(conn_) != CONNECTION_OK) Fail(result.release());
    while (PGresult* extra = NextResult()) PQclear(extra);  // each command's results end with NULL
    ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      if (!failure && status != PGRES_PIPELINE_ABORTED) failure = std::move(result);
    } else if (i >= prologue && i < prologue + steps.size()) {
      rows.emplace_back(result.release());
    }
  }
  Result sync(NextResult(), PQclear);
  if (!sync || PQresultStatus(sync.get()) != PGRES_PIPELINE_SYNC || !PQexitPipelineMode(conn_)) Fail(sync.release());
  if (scope_ == Scope::kPendingBegin) scope_ = Scope::kOpen;  // BEGIN ran, whatever followed it
  if (failure) Fail(failure.release());
  if (epilogue) {
    scope_ = Scope::kNone;
    tenant_.clear();
  }
  return rows;
}

void Db::Begin() {
  reads_on_ = nullptr;
  scope_ = Scope::kPendingBegin;
  tenant_.clear();
}

void Db::BeginForTenant(std::string_view tenant_id) {
  reads_on_ = nullptr;
  scope_ = Scope::kPendingBegin;
  tenant_ = tenant_id;
}

void Db::ReadAsTenant(std::string_view tenant_id) {
  reads_on_ = nullptr;
  scope_ = Scope::kRead;
  tenant_ = tenant_id;
}

void Db::ReadAsTenantOn(Db& standby, std::string_view tenant_id) {
  ReadAsTenant(tenant_id);
  standby.deadline_ = deadline_;  // the request's budget, whichever server answers
  standby.ReadAsTenant(tenant_id);
  reads_on_ = &standby;
}

void Db::Commit() {
  if (reads_on_) std::exchange(reads_on_, nullptr)->Commit();
  Scope scope = std::exchange(scope_, Scope::kNone);
  tenant_.clear();
  if (scope != Scope::kOpen) return;
  CheckTimeLeft();
  if (!conn_) Fail(nullptr);
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  (void)Check(Execute("COMMIT"));
}

void Db::Rollback() {
  if (reads_on_) std::exchange(reads_on_, nullptr)->Rollback();
  Scope scope = std::exchange(scope_, Scope::kNone);
  tenant_.clear();
  if (scope != Scope::kOpen || !conn_) return;
  try {
    CheckTimeLeft();
    metrics::Add(metrics::Metric::kPostgresRoundTrips);
    PGresult* result = Execute("ROLLBACK");
    if (PQresultStatus(result) != PGRES_COMMAND_OK) Disconnect();
    PQclear(result);
  } catch (const DbError&) {
    Disconnect();  // the server rolls back what a dropped connection held
  }
}

bool Db::Ping() {
  try {
    if (conn_ && ServerHungUp()) Disconnect();  // a restarted server: a new connection answers
    CheckTimeLeft();
    if (!conn_) Connect();
    metrics::Add(metrics::Metric::kPostgresRoundTrips);
    return Check(Execute("SELECT 1")).size() == 1;
  } catch (const DbError&) {
    return false;
  }
}

}  // namespace icat
