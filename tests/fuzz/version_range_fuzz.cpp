// The package look-up's version ranges and version order (handlers/vulns/version_range.cpp) and the
// e-mail channels' address check (common/src/validate.cpp NormaliseMailAddress), from raw text: the
// input is a range, a line end, a version, a line end, another version. The order must be an order
// (a version equals itself, swapping two flips the sign), a range's "=" bound must hold its own
// version, and an accepted address must be accepted again as it was returned.
#include "fuzz.hpp"
#include "handlers/vulns/version_range.hpp"
#include "icat/validate.hpp"

namespace {
int Sign(int order) { return (order > 0) - (order < 0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  size_t first = text.find('\n');
  size_t second = first == std::string_view::npos ? first : text.find('\n', first + 1);
  std::string_view range_text = text.substr(0, first);
  std::string_view a = first == std::string_view::npos ? text : text.substr(first + 1, second - first - 1);
  std::string_view b = second == std::string_view::npos ? a : text.substr(second + 1);

  icat::fuzz::Expect(icat::vulns::VersionOrder(a, a) == 0, "a version sorts equal to itself");
  icat::fuzz::Expect(Sign(icat::vulns::VersionOrder(a, b)) == -Sign(icat::vulns::VersionOrder(b, a)),
                     "swapping two versions flips their order");
  if (auto range = icat::vulns::ParseVersionRange(range_text)) {
    (void)icat::vulns::InVersionRange(*range, a);
    for (const icat::vulns::VersionBound& bound : *range) {
      if (bound.op == icat::vulns::VersionBound::Op::kEqual) {
        icat::fuzz::Expect(icat::vulns::InVersionRange({bound}, bound.version), "an = bound holds its own version");
      }
    }
  }
  if (auto address = icat::NormaliseMailAddress(text)) {
    icat::fuzz::Expect(icat::NormaliseMailAddress(*address) == address, "an accepted address is accepted as returned");
  }
  return 0;
}
