// The error table as data, and the error body every failure is answered with.
#include "icat/errors.hpp"

#include "icat/json.hpp"

namespace icat {

const std::vector<ErrorInfo>& AllErrors() {
  static const std::vector<ErrorInfo> errors = {
#define ICAT_ERROR(name, status, message) {Error::k##name, #name, status, message},
#include "icat/errors.def"
#undef ICAT_ERROR
  };
  return errors;
}

const ErrorInfo& Describe(Error error) { return AllErrors().at(static_cast<size_t>(error)); }

namespace {

struct SqlStateRow {
  std::string_view code;  // five characters, or a two-character class
  Error error;
  std::string_view message;
};

constexpr SqlStateRow kSqlStates[] = {
#define ICAT_SQLSTATE(code, error, message) {code, Error::k##error, message},
#include "icat/sqlstates.def"
#undef ICAT_SQLSTATE
};

}  // namespace

ApiError ErrorOfSqlState(std::string_view sqlstate, bool connection_lost) {
  if (connection_lost) sqlstate = "08006";  // connection_failure, whatever libpq reported
  const SqlStateRow* best = nullptr;
  for (const SqlStateRow& row : kSqlStates) {
    if (sqlstate.substr(0, row.code.size()) == row.code && (!best || row.code.size() > best->code.size())) best = &row;
  }
  if (!best || sqlstate.size() != 5) return ApiError(Error::kINTERNAL_ERROR);
  ApiError error(best->error, std::string(best->message));
  if (Describe(best->error).status == 503) error.headers.emplace_back("Retry-After", "1");
  return error;
}

bool IsRetryableSqlState(std::string_view sqlstate) { return sqlstate == "40001" || sqlstate == "40P01"; }

void ThrowInvalid(std::string field, std::string issue) {
  std::string message = "Invalid " + field + ": " + issue + ".";
  throw ApiError(Error::kVALIDATION_ERROR, std::move(message), {{std::move(field), std::move(issue)}});
}

std::string ErrorBody(Error error, std::string_view message, const std::vector<FieldIssue>& details) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "error", Describe(error).name);
  WriteString(w, "message", message.empty() ? Describe(error).message : message);
  if (!details.empty()) {
    WriteKey(w, "details");
    WriteObjects(w, details, [&](JsonWriter& w, const FieldIssue& d) {
      WriteString(w, "field", d.field);
      WriteString(w, "issue", d.issue);
    });
  }
  w.EndObject();
  return buffer.GetString();
}

}  // namespace icat
