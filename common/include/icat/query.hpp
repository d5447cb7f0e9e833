// Query parameters as data: a route's row declares each query parameter it reads with the check its
// value must pass (Route::query). The pipeline refuses other names before authentication, parses
// every value once, and refuses an invalid one just before the handler (after authentication and
// authorisation); the handler reads the parsed values from ctx.query.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "icat/errors.hpp"
#include "icat/http.hpp"
#include "icat/image_reference.hpp"

namespace icat {

// What a query parameter's value must be; each kind refuses with its own detail (query.cpp).
enum class QueryKind {
  kLimit,      // "limit": a page's size, 1 to kMaxLimit, kDefaultLimit when absent
  kCursor,     // "cursor": one this list issued (EncodeCursor), its fields of the forms `fields` names
  kWord,       // one of `words`; `problem` is the refusal's detail
  kWords,      // one or more of `words`, comma-separated
  kTime,       // an RFC 3339 time, not before the one `not_before` names when both are given
  kText,       // any text of min_chars to max_chars bytes (max_chars 0: no bound)
  kDigest,     // sha256: and 64 lower-case hexadecimal digits
  kReference,  // an image reference (ParseImageReference)
  kNumber,     // a decimal number from 0 to `max`
  kFraction,   // a decimal fraction from 0 to 1, such as 0.5 (an EPSS probability); read with Text
};

// The form of one field of a cursor: what the list wrote there, so a forged cursor is refused
// before it reaches a cast in SQL.
enum class CursorField {
  kText,    // any clean text (a scan id the handler compares)
  kDigits,  // 1 to 18 decimal digits (epoch microseconds, row ids)
  kUuid,
  kTime,  // an RFC 3339 time
  kTag,   // an image tag
};

// One query parameter of a route's row, made by the functions of icat::query below.
struct QueryParam {
  std::string_view name;
  QueryKind kind;
  std::vector<std::string_view> words;  // kWord, kWords
  std::string problem;                  // kWord: the detail of a refusal, as the spec words it
  std::vector<CursorField> fields;      // kCursor
  size_t min_chars = 0, max_chars = 0;  // kText
  long max = 0;                         // kNumber
  std::string_view not_before;          // kTime: an earlier kTime parameter of the row
  // The value is parsed before the handler, but refused only when the handler reads it: for a
  // route that answers some other refusal first (a 404 of an unknown image whatever the cursor).
  bool refused_on_read = false;
};

// The declarations a row writes, e.g. .query = {query::Text("q", 0, 200), query::Limit(), query::Cursor({...})}.
namespace query {
QueryParam Limit();
QueryParam Cursor(std::vector<CursorField> fields);
QueryParam Word(std::string_view name, std::vector<std::string_view> words, std::string problem);
// A word refused as a body field's Enum is: "must be one of a, b, c" (OneOf).
QueryParam Word(std::string_view name, std::vector<std::string_view> words);
QueryParam Words(std::string_view name, std::vector<std::string_view> words);
QueryParam Time(std::string_view name, std::string_view not_before = {});
QueryParam Text(std::string_view name, size_t min_chars = 0, size_t max_chars = 0);
QueryParam Digest(std::string_view name);
QueryParam Reference(std::string_view name);
QueryParam Number(std::string_view name, long max);
QueryParam Fraction(std::string_view name);
// The same parameter, refused when the handler reads it rather than before the handler runs.
QueryParam RefusedOnRead(QueryParam param);
}  // namespace query

// Empty when the declarations are sound, else what is wrong with the first that is not (for
// CheckRouteTable): a name of letters, digits and '_' given once, and what its kind needs.
std::string QueryDeclarationProblem(const std::vector<QueryParam>& params);

// The values of a request's declared query parameters, parsed (ctx.query). A parameter not sent,
// or not declared, reads as nullopt. Reading an invalid value of a RefusedOnRead parameter throws
// its 400 VALIDATION_ERROR; every other invalid value was refused before the handler ran.
class QueryValues {
 public:
  QueryValues() = default;
  // Parses the first value of each declared parameter in `sent` (Request::QueryParameters).
  QueryValues(const std::vector<QueryParam>& params, const QueryPairs& sent);

  // 400 VALIDATION_ERROR naming the first declared parameter (in the row's order) whose value is
  // invalid, RefusedOnRead ones aside.
  void RefuseInvalid() const;

  bool Has(std::string_view name) const;  // sent, valid or not
  int Limit() const;
  std::optional<std::vector<std::string>> Cursor() const;
  // The value as sent (kWord, kTime, kText, kDigest, kReference).
  std::optional<std::string> Text(std::string_view name) const;
  std::optional<std::vector<std::string>> Words(std::string_view name) const;
  std::optional<long> Number(std::string_view name) const;
  std::optional<ImageReference> Reference(std::string_view name) const;

 private:
  struct Value {
    const QueryParam* param;
    std::string text;                // as sent
    std::vector<std::string> items;  // a cursor's fields, kWords' words
    long long number = 0;            // kLimit, kNumber; kTime: seconds since the epoch
    std::optional<ImageReference> reference;
    std::optional<FieldIssue> issue;  // why the value is refused
  };
  const Value* Find(std::string_view name) const;  // throws the value's issue
  std::vector<Value> values_;                      // the declared parameters sent, in the row's order
};

}  // namespace icat
