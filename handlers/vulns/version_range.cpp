// Versions compared by Debian's order with pre-release words, and version ranges (version_range.hpp).
#include "version_range.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace icat::vulns {

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The words that mark a version before its release, longest first where one begins another.
constexpr std::array<std::string_view, 7> kPreReleaseWords = {"preview", "snapshot", "alpha", "beta",
                                                              "pre",     "dev",      "rc"};

// The pre-release word at `at` (followed by a non-letter or the end), or "".
std::string_view PreReleaseWordAt(std::string_view text, size_t at) {
  std::string rest = Lower(text.substr(at));
  for (std::string_view word : kPreReleaseWords) {
    if (rest.compare(0, word.size(), word) == 0 && (rest.size() == word.size() || !IsLetter(rest[word.size()]))) {
      return word;
    }
  }
  return "";
}

// The text compared after the epoch: a leading "v" before a digit dropped, each pre-release word
// after a separator or a digit written as '~' and the word (its separator dropped).
std::string Normalized(std::string_view text) {
  if (text.size() > 1 && (text[0] == 'v' || text[0] == 'V') && IsDigit(text[1])) text.remove_prefix(1);
  std::string out;
  for (size_t i = 0; i < text.size(); i++) {
    const bool separator = text[i] == '-' || text[i] == '_' || text[i] == '.' || text[i] == '+';
    const size_t word_at = separator ? i + 1 : i;
    const bool after_boundary = separator || (i > 0 && IsDigit(text[i - 1]));
    std::string_view word = after_boundary && word_at < text.size() ? PreReleaseWordAt(text, word_at) : "";
    if (!word.empty()) {
      out += '~';
      out += word;
      i = word_at + word.size() - 1;
    } else {
      out += text[i];
    }
  }
  return out;
}

// dpkg's weight of a character in a non-digit run: '~' first, then the end (0), letters, the rest.
int Weight(char c) {
  if (c == '~') return -1;
  if (IsLetter(c)) return static_cast<unsigned char>(c);
  return static_cast<unsigned char>(c) + 256;
}

// dpkg's verrevcmp.
int CompareRuns(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    while ((i < a.size() && !IsDigit(a[i])) || (j < b.size() && !IsDigit(b[j]))) {
      const int wa = i < a.size() && !IsDigit(a[i]) ? Weight(a[i]) : 0;
      const int wb = j < b.size() && !IsDigit(b[j]) ? Weight(b[j]) : 0;
      if (wa != wb) return wa < wb ? -1 : 1;
      if (i < a.size() && !IsDigit(a[i])) i++;
      if (j < b.size() && !IsDigit(b[j])) j++;
    }
    while (i < a.size() && a[i] == '0') i++;
    while (j < b.size() && b[j] == '0') j++;
    size_t digits_a = 0, digits_b = 0;
    while (i + digits_a < a.size() && IsDigit(a[i + digits_a])) digits_a++;
    while (j + digits_b < b.size() && IsDigit(b[j + digits_b])) digits_b++;
    if (digits_a != digits_b) return digits_a < digits_b ? -1 : 1;
    if (int c = a.substr(i, digits_a).compare(b.substr(j, digits_b)); c != 0) return c < 0 ? -1 : 1;
    i += digits_a;
    j += digits_b;
  }
  return 0;
}

// The epoch ("1:" of "1:2.0") and the rest; no epoch is 0.
std::pair<std::string_view, std::string_view> SplitEpoch(std::string_view version) {
  size_t colon = version.find(':');
  if (colon == std::string_view::npos || colon == 0) return {"0", version};
  for (size_t i = 0; i < colon; i++) {
    if (!IsDigit(version[i])) return {"0", version};
  }
  return {version.substr(0, colon), version.substr(colon + 1)};
}

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

int VersionOrder(std::string_view a, std::string_view b) {
  auto [epoch_a, rest_a] = SplitEpoch(a);
  auto [epoch_b, rest_b] = SplitEpoch(b);
  if (int c = CompareRuns(epoch_a, epoch_b); c != 0) return c;
  return CompareRuns(Normalized(rest_a), Normalized(rest_b));
}

std::optional<std::vector<VersionBound>> ParseVersionRange(std::string_view text) {
  using Op = VersionBound::Op;
  // Two-character operators first: ">=" is not ">" and a version "=…".
  static constexpr std::array<std::pair<std::string_view, Op>, 5> kOps = {{{">=", Op::kGreaterOrEqual},
                                                                           {"<=", Op::kLessOrEqual},
                                                                           {">", Op::kGreater},
                                                                           {"<", Op::kLess},
                                                                           {"=", Op::kEqual}}};
  std::vector<VersionBound> bounds;
  for (;;) {
    size_t comma = text.find(',');
    std::string_view part = Trimmed(text.substr(0, comma));
    const auto* op =
        std::find_if(kOps.begin(), kOps.end(), [&](const auto& entry) { return part.starts_with(entry.first); });
    if (op == kOps.end()) return std::nullopt;
    std::string_view version = Trimmed(part.substr(op->first.size()));
    if (version.empty() || version.find_first_of("<>= ") != std::string_view::npos) return std::nullopt;
    bounds.push_back({op->second, std::string(version)});
    if (comma == std::string_view::npos) return bounds;
    text.remove_prefix(comma + 1);
  }
}

bool InVersionRange(const std::vector<VersionBound>& range, std::string_view version) {
  using Op = VersionBound::Op;
  for (const VersionBound& bound : range) {
    const int order = VersionOrder(version, bound.version);
    const bool meets = bound.op == Op::kLess             ? order < 0
                       : bound.op == Op::kLessOrEqual    ? order <= 0
                       : bound.op == Op::kEqual          ? order == 0
                       : bound.op == Op::kGreaterOrEqual ? order >= 0
                                                         : order > 0;
    if (!meets) return false;
  }
  return true;
}

}  // namespace icat::vulns
