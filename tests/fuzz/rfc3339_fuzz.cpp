// RFC 3339 date-times (common/src/validate.cpp ParseRfc3339): every accepted text is a real
// calendar time within the years 0000-9999 (give or take a day of offset).
#include "fuzz.hpp"
#include "icat/validate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<long long> seconds = icat::ParseRfc3339(icat::fuzz::Text(data, size));
  if (seconds) {
    constexpr long long kYear0 = -62167219200LL, kYear10000 = 253402300800LL, kDay = 86400;
    icat::fuzz::Expect(*seconds >= kYear0 - kDay && *seconds < kYear10000 + kDay, "a parsed time is in range");
  }
  return 0;
}
