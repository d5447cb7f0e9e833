// Postgres: one connection, statements prepared at connect, one reconnect when the server went away.
#include "icat/db.hpp"

#include <poll.h>

#include <cstdlib>
#include <iostream>
#include <utility>

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
    : dsn_(std::move(dsn)), statements_(std::move(statements)), statement_timeout_ms_(statement_timeout_ms) {
  // Without a connect timeout libpq waits for TCP forever, and a request would stall with it.
  if (dsn_.find("://") == std::string::npos && dsn_.find("connect_timeout") == std::string::npos) {
    dsn_ += " connect_timeout=3";
  }
}

Db::~Db() { Disconnect(); }

void Db::Disconnect() {
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
}

void Db::Connect() {
  Disconnect();
  conn_ = PQconnectdb(dsn_.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn_);
    Disconnect();
    metrics::Add(metrics::Metric::kPostgresErrors);
    throw DbError("cannot connect to Postgres: " + message, "", true);
  }
  if (statement_timeout_ms_ > 0) {
    Check(PQexec(conn_, ("SET statement_timeout = " + std::to_string(statement_timeout_ms_)).c_str()));
  }
  Check(PQprepare(conn_, kSetTenant, "SELECT set_config('app.tenant_id', $1, true)", 0, nullptr));
  for (const Statement& s : statements_) {
    PGresult* result = PQprepare(conn_, std::string(s.name).c_str(), std::string(s.sql).c_str(), 0, nullptr);
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
  if (!conn_) Connect();
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  return Check(PQexec(conn_, std::string(sql).c_str()));
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
// COMMIT (which may have taken effect).
std::vector<Rows> Db::Send(const std::vector<Step>& steps, bool commit) {
  bool first_of_request = scope_ == Scope::kPendingBegin || scope_ == Scope::kRead;
  if (conn_ && scope_ != Scope::kOpen && ServerHungUp()) {
    LogWarn("postgres closed the connection; reconnecting");
    Disconnect();
  }
  if (!conn_) Connect();
  try {
    return SendPipeline(steps, commit);
  } catch (const DbError& e) {
    if (!e.connection_lost || !first_of_request || commit) throw;
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
    sent = sent && (step.is_sql ? PQsendQueryParams(conn_, text.c_str(), count, nullptr, arrays.values.data(),
                                                    nullptr, nullptr, 0)
                                : PQsendQueryPrepared(conn_, text.c_str(), count, arrays.values.data(), nullptr,
                                                      nullptr, 0));
  }
  size_t epilogue = 0;
  if (commit && (scope_ == Scope::kPendingBegin || scope_ == Scope::kOpen)) {
    sent = sent && PQsendQueryParams(conn_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0);
    epilogue++;
  }
  if (!sent || !PQpipelineSync(conn_)) Fail(nullptr);
  metrics::Add(metrics::Metric::kPostgresRoundTrips);

  std::vector<Rows> rows;
  Result failure(nullptr, PQclear);
  for (size_t i = 0; i < prologue + steps.size() + epilogue; i++) {
    Result result(PQgetResult(conn_), PQclear);
    if (!result || PQstatus(conn_) != CONNECTION_OK) Fail(result.release());
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);  // each command's results end with NULL
    ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      if (!failure && status != PGRES_PIPELINE_ABORTED) failure = std::move(result);
    } else if (i >= prologue && i < prologue + steps.size()) {
      rows.emplace_back(result.release());
    }
  }
  Result sync(PQgetResult(conn_), PQclear);
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
  scope_ = Scope::kPendingBegin;
  tenant_.clear();
}

void Db::BeginForTenant(std::string_view tenant_id) {
  scope_ = Scope::kPendingBegin;
  tenant_ = tenant_id;
}

void Db::ReadAsTenant(std::string_view tenant_id) {
  scope_ = Scope::kRead;
  tenant_ = tenant_id;
}

void Db::Commit() {
  Scope scope = std::exchange(scope_, Scope::kNone);
  tenant_.clear();
  if (scope != Scope::kOpen) return;
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  (void)Check(PQexec(conn_, "COMMIT"));
}

void Db::Rollback() {
  Scope scope = std::exchange(scope_, Scope::kNone);
  tenant_.clear();
  if (scope != Scope::kOpen || !conn_) return;
  metrics::Add(metrics::Metric::kPostgresRoundTrips);
  PGresult* result = PQexec(conn_, "ROLLBACK");
  if (PQresultStatus(result) != PGRES_COMMAND_OK) Disconnect();
  PQclear(result);
}

bool Db::Ping() {
  try {
    if (!conn_) Connect();
    metrics::Add(metrics::Metric::kPostgresRoundTrips);
    PGresult* result = PQexec(conn_, "SELECT 1");
    bool ok = PQresultStatus(result) == PGRES_TUPLES_OK;
    PQclear(result);
    if (ok) return true;
    Connect();
    return Check(PQexec(conn_, "SELECT 1")).size() == 1;
  } catch (const DbError&) {
    return false;
  }
}

}  // namespace icat
