// API errors: the enum from errors.def, and the exception a handler throws to answer with one.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icat {

enum class Error {
#define ICAT_ERROR(name, status, message) k##name,
#include "icat/errors.def"
#undef ICAT_ERROR
};

struct ErrorInfo {
  Error error;
  std::string_view name;     // the stable `error` value, e.g. "NOT_FOUND"
  int status;                // HTTP status
  std::string_view message;  // default human-readable message
};

// Every row of errors.def, in table order.
const std::vector<ErrorInfo>& AllErrors();
const ErrorInfo& Describe(Error error);

// One entry of `details`: which field, and what is wrong with it.
struct FieldIssue {
  std::string field;
  std::string issue;
};

// Thrown by handlers (and the pipeline) to answer with an error body; caught in one place.
class ApiError : public std::runtime_error {
 public:
  explicit ApiError(Error error, std::string message = {}, std::vector<FieldIssue> details = {})
      : std::runtime_error(message.empty() ? std::string(Describe(error).message) : message),
        error_(error),
        details_(std::move(details)) {}
  Error error() const { return error_; }
  const std::vector<FieldIssue>& details() const { return details_; }
  // Extra response headers, e.g. Allow, Retry-After, WWW-Authenticate.
  std::vector<std::pair<std::string, std::string>> headers;

 private:
  Error error_;
  std::vector<FieldIssue> details_;
};

// A Postgres failure as an API error (sqlstates.def): a lost, refused or timed-out connection or the
// database's own trouble is 503 DATABASE_UNAVAILABLE with Retry-After, a request that breaks a
// constraint 409 or 400, anything else 500.
ApiError ErrorOfSqlState(std::string_view sqlstate, bool connection_lost);
// True for the failures a transaction may simply be run again after (40001, 40P01).
bool IsRetryableSqlState(std::string_view sqlstate);

// 400 VALIDATION_ERROR naming one field.
[[noreturn]] void ThrowInvalid(std::string field, std::string issue);

// The error body: {"error": NAME, "message": ..., "details": [...]} (details only when present).
std::string ErrorBody(Error error, std::string_view message, const std::vector<FieldIssue>& details = {});

}  // namespace icat
