// Paging cursors (common/src/paging.cpp ParseCursor) from a raw query string; a cursor it accepts
// must encode back to one that parses to the same fields.
#include "fuzz.hpp"
#include "icat/errors.hpp"
#include "icat/paging.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t field_count = data[0] % 4 + 1;  // the lists use one to three fields; four is never issued
  icat::Request request;
  request.query = "cursor=" + std::string(icat::fuzz::Text(data + 1, size - 1));
  try {
    std::optional<std::vector<std::string>> fields = icat::ParseCursor(request, field_count);
    if (!fields) return 0;
    icat::fuzz::Expect(fields->size() == field_count, "a cursor has the fields asked for");
    icat::Request again;
    again.query = "cursor=" + icat::EncodeCursor(*fields);
    icat::fuzz::Expect(icat::ParseCursor(again, field_count) == fields, "an encoded cursor parses to its fields");
  } catch (const icat::ApiError& e) {
    icat::fuzz::Expect(e.error() == icat::Error::kVALIDATION_ERROR, "a bad cursor is VALIDATION_ERROR");
  }
  try {
    (void)icat::ParseLimit(request);
  } catch (const icat::ApiError&) {
  }
  return 0;
}
