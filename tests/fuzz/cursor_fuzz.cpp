// Paging cursors (common/src/paging.cpp DecodeCursor) and the query values of a list
// (common/src/query.cpp) from a raw query string; a cursor it accepts must encode back to one that
// decodes to the same fields.
#include "fuzz.hpp"
#include "icat/errors.hpp"
#include "icat/paging.hpp"
#include "icat/query.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t field_count = data[0] % 4 + 1;  // the lists use one to three fields; four is never issued
  std::string text(icat::fuzz::Text(data + 1, size - 1));
  std::optional<std::vector<std::string>> fields = icat::DecodeCursor(text, field_count);
  if (fields) {
    icat::fuzz::Expect(fields->size() == field_count, "a cursor has the fields asked for");
    icat::fuzz::Expect(icat::DecodeCursor(icat::EncodeCursor(*fields), field_count) == fields,
                       "an encoded cursor decodes to its fields");
  }
  icat::Request request;
  request.query = "cursor=" + text + "&limit=" + text;
  std::vector<icat::QueryParam> params = {
      icat::query::Limit(), icat::query::Cursor(std::vector<icat::CursorField>(field_count, icat::CursorField::kText))};
  icat::QueryValues values(params, request.QueryParameters());
  for (auto read :
       {+[](const icat::QueryValues& v) { (void)v.Limit(); }, +[](const icat::QueryValues& v) { (void)v.Cursor(); },
        +[](const icat::QueryValues& v) { v.RefuseInvalid(); }}) {
    try {
      read(values);
    } catch (const icat::ApiError& e) {
      icat::fuzz::Expect(e.error() == icat::Error::kVALIDATION_ERROR, "a bad cursor or limit is VALIDATION_ERROR");
    }
  }
  return 0;
}
