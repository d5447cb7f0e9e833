// GET /api/docker-images/:id/versions/:vid/scan-history: one point per scan of the version, oldest
// first, with the counts stored at ingest.
#include "scan_history.hpp"

#include <regex>

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"

namespace icat::catalog {

namespace {

constexpr std::array<std::string_view, 5> kSeverities = {"critical", "high", "medium", "low", "unknown"};

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
long long DaysFromCivil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = static_cast<unsigned>(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

// ?from= / ?to=: an RFC 3339 time, passed on as given; 400 naming the parameter otherwise.
std::optional<std::string> TimeParameter(const Request& request, const char* name, std::optional<long long>& seconds) {
  std::optional<std::string> text = request.Query(name);
  if (!text) return std::nullopt;
  seconds = Rfc3339Seconds(*text);
  if (!seconds) ThrowInvalid(name, "must be an RFC 3339 time such as 2026-01-31T12:00:00Z");
  return text;
}

ScanPoint PointAt(const Rows& rows, int row) {
  ScanPoint p;
  p.scan_id = rows.Text(row, 0);
  p.scanned_at = rows.Text(row, 1);
  p.scanner = rows.Text(row, 2);
  p.scanner_version = rows.OptionalText(row, 3);
  p.vulndb_updated_at = rows.OptionalText(row, 4);
  for (int i = 0; i < 5; i++) p.counts[i] = rows.Int(row, 5 + i);
  p.fixable = rows.Int(row, 10);
  return p;
}

}  // namespace

std::optional<long long> Rfc3339Seconds(std::string_view text) {
  static const std::regex kShape(
      R"((\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(([Zz])|([+-])(\d{2}):(\d{2})))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(text.begin(), text.end(), m, kShape)) return std::nullopt;
  auto number = [&](int group) { return std::stoi(m[group].str()); };
  int year = number(1), month = number(2), day = number(3), hour = number(4), minute = number(5), second = number(6);
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > kDays[month - 1] + (month == 2 && leap))
    return std::nullopt;
  if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  long long offset = 0;
  if (m[10].matched) {
    if (number(11) > 23 || number(12) > 59) return std::nullopt;
    offset = (number(11) * 3600LL + number(12) * 60LL) * (m[10].str() == "-" ? -1 : 1);
  }
  return DaysFromCivil(year, month, day) * 86400 + hour * 3600LL + minute * 60LL + second - offset;
}

std::string ScanHistoryJson(const HistorySubject& subject, const std::vector<ScanPoint>& points,
                            const std::optional<std::string>& next_cursor) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, "image");
  w.StartObject();
  WriteString(w, "id", subject.image_id);
  WriteString(w, "name", subject.image_name);
  w.EndObject();
  WriteKey(w, "version");
  w.StartObject();
  WriteString(w, "id", subject.version_id);
  WriteString(w, "tag", subject.tag);
  w.EndObject();
  WriteKey(w, "points");
  w.StartArray();
  for (const ScanPoint& p : points) {
    w.StartObject();
    WriteString(w, "scanId", p.scan_id);
    WriteString(w, "scannedAt", p.scanned_at);
    WriteString(w, "scanner", p.scanner);
    WriteOptionalString(w, "scannerVersion", p.scanner_version);
    WriteOptionalString(w, "vulnDbUpdatedAt", p.vulndb_updated_at);
    WriteKey(w, "vulnerabilityCounts");
    w.StartObject();
    for (size_t i = 0; i < kSeverities.size(); i++) WriteInt(w, kSeverities[i], p.counts[i]);
    w.EndObject();
    WriteInt(w, "fixableCount", p.fixable);
    w.EndObject();
  }
  w.EndArray();
  WriteOptionalString(w, "nextCursor", next_cursor);
  w.EndObject();
  return buffer.GetString();
}

// GET /api/docker-images/:id/versions/:vid/scan-history?from=&to=&limit=&cursor=   (portal: token + X-Tenant)
//   200 {"image", "version", "points": [...], "nextCursor"}: one point per scan, oldest first, with
//       from <= scannedAt < to (each bound optional)
//   400 VALIDATION_ERROR (from, to, limit, cursor, X-Tenant, Authorization); 401
//   404 NOT_FOUND: unknown, malformed or unlicensed image, or a version not of that image
Reply GetScanHistory(Context& ctx) {
  std::optional<long long> from_seconds, to_seconds;
  std::optional<std::string> from = TimeParameter(ctx.request, "from", from_seconds);
  std::optional<std::string> to = TimeParameter(ctx.request, "to", to_seconds);
  if (from && to && *to_seconds < *from_seconds) ThrowInvalid("to", "must not be before from");
  int limit = ParseLimit(ctx.request);
  std::optional<std::vector<std::string>> after = ParseCursor(ctx.request, 3);
  if (after && (!IsDigits((*after)[0], 18) || !IsDigits((*after)[1], 18) || !IsUuid((*after)[2]))) {
    ThrowInvalid("cursor", "is not a cursor returned by this list");
  }
  std::string image_id = ctx.request.PathParam("id"), version_id = ctx.request.PathParam("vid");
  if (!IsUuid(image_id) || !IsUuid(version_id)) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  Rows version = ctx.db.Run("scan_history_version", {ctx.principal.tenant_id, image_id, version_id});
  if (version.empty()) throw ApiError(Error::kNOT_FOUND, "No such image or version.");
  auto cursor = [&](int i) { return after ? std::optional((*after)[i]) : std::nullopt; };
  Rows rows = ctx.db.Run("scan_history",
                         {ctx.principal.tenant_id, version_id, from, to, cursor(0), cursor(1), cursor(2), limit + 1});
  std::vector<ScanPoint> points;
  for (int row = 0; row < rows.size() && row < limit; row++) points.push_back(PointAt(rows, row));
  std::optional<std::string> next;
  if (rows.size() > limit) {
    int last = limit - 1;
    next = EncodeCursor({std::string(rows.Text(last, 11)), std::string(rows.Text(last, 12)), points.back().scan_id});
  }
  HistorySubject subject{std::string(version.Text(0, 0)), std::string(version.Text(0, 1)),
                         std::string(version.Text(0, 2)), std::string(version.Text(0, 3))};
  return Reply::Json(200, ScanHistoryJson(subject, points, next));
}

}  // namespace icat::catalog
