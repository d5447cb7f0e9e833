// Field-by-field checks of JSON request bodies: every problem becomes one `details` entry, so a
// client learns all that is wrong with a body in one round trip.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "icat/errors.hpp"

namespace icat {

enum class Need { kRequired, kOptional };  // kOptional also accepts an explicit null

// "must be one of a, b, c": the issue of a body field or query parameter that is none of `allowed`.
std::string OneOf(const std::vector<std::string_view>& allowed);

// Reads the members of one JSON object. Each accessor marks its member as known and records an
// issue when the member is missing (kRequired), null (kRequired) or of the wrong shape; it returns
// nullopt then. CheckUnknown() records one issue per member no accessor asked for.
// Nested objects (arrays of objects) get a reader of their own sharing the same issue list, with
// field names such as "exceptions[2].cveId".
class FieldReader {
 public:
  // A body that is not a JSON object is one issue on the field "body".
  FieldReader(const rapidjson::Value& object, std::vector<FieldIssue>& issues, std::string path = "");

  // A string of min_chars to max_chars characters (UTF-8), without NUL or other control
  // characters except, when multiline, newline, carriage return and tab. Leading and trailing
  // white space is trimmed before counting.
  std::optional<std::string> String(std::string_view name, Need need, size_t max_chars, size_t min_chars = 1,
                                    bool multiline = false);
  // One of the allowed values.
  std::optional<std::string> Enum(std::string_view name, Need need, const std::vector<std::string_view>& allowed);
  std::optional<bool> Bool(std::string_view name, Need need);
  std::optional<long long> Int(std::string_view name, Need need, long long min, long long max);
  // An array of strings (each 1 to max_chars characters, no control characters); duplicates are
  // dropped, first occurrence kept. allowed, when not empty, lists the only values accepted.
  std::optional<std::vector<std::string>> StringArray(std::string_view name, Need need, size_t max_items,
                                                      size_t max_chars, bool allow_empty,
                                                      const std::vector<std::string_view>& allowed = {});
  // The member for checks of its own (nested objects): nullptr when absent or null (an issue when
  // required). The member counts as known.
  const rapidjson::Value* Member(std::string_view name, Need need);
  // True when the member is present and not null (the member counts as known).
  bool Has(std::string_view name);

  void Issue(std::string_view name, std::string issue);  // on path.name
  std::string Field(std::string_view name) const;        // path.name as details show it
  void CheckUnknown();
  bool ok() const { return issues_.empty(); }

 private:
  const rapidjson::Value* Find(std::string_view name, Need need);
  const rapidjson::Value& object_;
  std::vector<FieldIssue>& issues_;
  std::string path_;
  std::set<std::string, std::less<>> known_;
  bool is_object_;
};

// Reads a whole request body: CheckUnknown() and, when anything is wrong, 400 VALIDATION_ERROR
// with every issue (extra issues, such as a header's, may be passed in first).
[[noreturn]] void ThrowIssues(std::vector<FieldIssue> issues);
void ThrowIfIssues(std::vector<FieldIssue>& issues);

// True for valid UTF-8: shortest forms, no surrogates, at most U+10FFFF.
bool IsValidUtf8(std::string_view text);

// True for valid UTF-8 (IsValidUtf8) without characters no
// client text can mean: C0 controls (newline, carriage return and tab allowed when multiline),
// DEL, C1 controls and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069)
// that make a name read differently from what it is. Every text of a request passes here once:
// query parameters, path segments, headers and cursors at the pipeline's edge, body strings in
// FieldReader.
bool IsCleanText(std::string_view text, bool multiline = false);

// Characters of UTF-8 text (as Postgres' length() counts them).
size_t Utf8Chars(std::string_view text);

// The form the CHECK on users.email holds (sql/V0001): one @, something on each side, no white
// space. The portal (POST /api/users) and icatctl user create both ask it before Postgres does.
bool IsEmailAddress(std::string_view text);

// An address mail may be sent to (e-mail channels, docs/notifications.md): an RFC 5322 addr-spec in
// its dot-atom form only (no display name, no quoted local part, no comments, no IP literal), at
// most 254 characters, the local part at most 64, the domain's labels letters, digits and hyphens
// with at least one dot. Returns it with the domain in lower case (the local part is the
// receiver's, kept as sent); nullopt when it is none.
std::optional<std::string> NormaliseMailAddress(std::string_view text);

// The password rules of every way to set one (icatctl user create, the portal's set-up and
// password change): at least kMinPasswordChars UTF-8 characters, at most kMaxPasswordBytes bytes,
// taken exactly as sent (never trimmed). Hashing: HashPassword (crypto.hpp).
inline constexpr size_t kMinPasswordChars = 12;
inline constexpr size_t kMaxPasswordBytes = 1024;
// What is wrong with a new password ("must have at least 12 characters"), nullopt when nothing.
std::optional<std::string> PasswordIssue(std::string_view password);

// An RFC 3339 date-time ("2027-01-01T00:00:00Z", "...T00:00:00.5+02:00") with a real calendar
// date; nullopt otherwise. Returns seconds since the epoch (fractions dropped).
std::optional<long long> ParseRfc3339(std::string_view text);

// A CVE (CVE-2024-3094) or GitHub advisory (GHSA-xxxx-xxxx-xxxx) id, matched case-insensitively
// and returned in upper case (DESIGN.md section 3); nullopt when it is neither.
std::optional<std::string> NormaliseVulnId(std::string_view text);

}  // namespace icat
