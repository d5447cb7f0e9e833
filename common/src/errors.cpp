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
    w.StartArray();
    for (const FieldIssue& d : details) {
      w.StartObject();
      WriteString(w, "field", d.field);
      WriteString(w, "issue", d.issue);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return buffer.GetString();
}

}  // namespace icat
