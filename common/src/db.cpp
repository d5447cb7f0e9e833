// Postgres: one connection, statements prepared at connect, one reconnect when the server went away.
#include "icat/db.hpp"

#include <cstdlib>

#include "icat/log.hpp"
#include "icat/paging.hpp"

namespace icat {


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
    throw DbError("cannot connect to Postgres: " + message, "", true);
  }
  if (statement_timeout_ms_ > 0) {
    Check(PQexec(conn_, ("SET statement_timeout = " + std::to_string(statement_timeout_ms_)).c_str()));
  }
  for (const Statement& s : statements_) {
    Check(PQprepare(conn_, std::string(s.name).c_str(), std::string(s.sql).c_str(), 0, nullptr));
  }
}

void Db::Fail(PGresult* result) {
  std::string sqlstate;
  std::string message = conn_ ? PQerrorMessage(conn_) : "no connection";
  if (result) {
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    if (state) sqlstate = state;
    message = PQresultErrorMessage(result);
    PQclear(result);
  }
  bool lost = !conn_ || PQstatus(conn_) != CONNECTION_OK;
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
}  // namespace

Rows Db::Run(std::string_view name, const std::vector<Param>& params) {
  if (!conn_) Connect();
  ParamArrays arrays(params);
  return Check(PQexecPrepared(conn_, std::string(name).c_str(), static_cast<int>(params.size()),
                              arrays.values.data(), nullptr, nullptr, 0));
}

Rows Db::RunSql(std::string_view sql, const std::vector<Param>& params) {
  if (!conn_) Connect();
  std::string text(sql);
  if (params.empty()) return Check(PQexec(conn_, text.c_str()));
  ParamArrays arrays(params);
  return Check(PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), nullptr, arrays.values.data(),
                            nullptr, nullptr, 0));
}

void Db::Begin() { BeginWith("BEGIN"); }

// Sends `sql` (starting with BEGIN) as one simple query, reconnecting once first if the server
// went away since the last request (a restarted Postgres is then invisible to clients).
void Db::BeginWith(const std::string& sql) {
  if (!conn_) Connect();
  PGresult* result = PQexec(conn_, sql.c_str());
  ExecStatusType status = PQresultStatus(result);
  PQclear(result);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  if (PQstatus(conn_) == CONNECTION_OK) {
    Rollback();  // a real error, not a lost connection: leave no transaction half open
    throw DbError("cannot begin: " + std::string(PQerrorMessage(conn_)), "", false);
  }
  LogWarn("postgres connection lost; reconnecting");
  Connect();
  Check(PQexec(conn_, sql.c_str()));
}

void Db::BeginForTenant(std::string_view tenant_id) {
  // One round trip for BEGIN and the tenant. The id is inlined, so it must be a canonical UUID
  // (it comes from our own key record or a token we signed; checked anyway).
  if (!IsUuid(tenant_id)) throw DbError("not a tenant id: " + std::string(tenant_id), "22P02", false);
  BeginWith("BEGIN; SELECT set_config('app.tenant_id', '" + std::string(tenant_id) + "', true)");
}

void Db::Commit() { Rows ignored = Check(PQexec(conn_, "COMMIT")); }

void Db::Rollback() {
  if (!conn_) return;
  PGresult* result = PQexec(conn_, "ROLLBACK");
  if (PQresultStatus(result) != PGRES_COMMAND_OK) Disconnect();
  PQclear(result);
}

bool Db::Ping() {
  try {
    if (!conn_) Connect();
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
