// Versions of a package compared, and the version ranges of the package look-up
// (GET /v1/packages?name=…&versionRange=…, docs/compare.md), unit-tested on their own
// (tests/unit/version_range_test.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat::vulns {

// <0, 0 or >0 as version a sorts before, with or after b. One order for every ecosystem, Debian's
// (dpkg): an optional numeric epoch ("1:"), then runs of digits compared as numbers and runs of
// other characters compared character by character, where '~' sorts before the end of the text,
// the end before letters, letters before other characters. Two additions so that semver, Maven,
// PyPI and apk pre-releases sort before their release: a pre-release word (alpha, beta, rc, pre,
// preview, snapshot, dev; any case) after a separator or a digit counts as '~' followed by the
// word, and a leading "v" before a digit (Go) is ignored.
int VersionOrder(std::string_view a, std::string_view b);

// One bound of a range: an operator and a version.
struct VersionBound {
  enum class Op { kLess, kLessOrEqual, kEqual, kGreaterOrEqual, kGreater } op;
  std::string version;
};

// "a range" is bounds separated by commas, all of which a version must meet: ">=2.0.0,<2.17.1",
// "=1.2.3", "<3". Each bound is an operator (>=, >, <=, <, =) then a version; spaces around either
// are ignored. nullopt when the text is not such a range.
std::optional<std::vector<VersionBound>> ParseVersionRange(std::string_view text);

// Whether the version meets every bound.
bool InVersionRange(const std::vector<VersionBound>& range, std::string_view version);

}  // namespace icat::vulns
