// Reading the enrichment feeds' files (docs/feeds.md, "Formats"): nothing here touches a database.
#include "ingest/feeds.hpp"

#include <zlib.h>

#include <cstdlib>
#include <regex>
#include <set>

#include "icat/json.hpp"

namespace icat::ctl {

namespace {

const std::regex kCveId("CVE-[0-9]{4}-[0-9]{4,}");
const std::regex kDate("[0-9]{4}-[0-9]{2}-[0-9]{2}");
// score_date and dateReleased: a date and time with a zone, as both publishers write it (EPSS
// "+0000" or "Z", KEV fractions of a second).
const std::regex kTimestamp(
    "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})");
// An EPSS probability or percentile: a decimal, perhaps with an exponent (4e-05).
const std::regex kDecimal("[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

bool Matches(std::string_view text, const std::regex& pattern) {
  return std::regex_match(text.begin(), text.end(), pattern);
}

bool IsProbability(const std::string& text) {
  if (!Matches(text, kDecimal)) return false;
  double value = std::strtod(text.c_str(), nullptr);
  return value >= 0 && value <= 1;
}

// The next line of text from pos (without its \n or \r\n); pos moves past it.
std::string_view NextLine(std::string_view text, size_t& pos) {
  size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::vector<std::string> Split(std::string_view line, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t comma; (comma = line.find(separator, start)) != std::string_view::npos; start = comma + 1) {
    parts.emplace_back(line.substr(start, comma - start));
  }
  parts.emplace_back(line.substr(start));
  return parts;
}

// "#model_version:v2025.03.14,score_date:2025-08-25T12:55:00Z", then "cve,epss,percentile", then rows.
Feed ParseEpss(std::string_view text) {
  Feed feed{.kind = kEpss};
  size_t pos = 0;
  std::string_view first = NextLine(text, pos);
  for (const std::string& pair : Split(first.substr(1), ',')) {
    size_t colon = pair.find(':');
    std::string key = pair.substr(0, colon), value = colon == std::string::npos ? "" : pair.substr(colon + 1);
    if (key == "model_version") feed.version = value;
    if (key == "score_date") feed.published_at = value;
  }
  if (feed.version.empty()) throw FeedError("EPSS: the first line has no model_version");
  if (!Matches(feed.published_at, kTimestamp)) {
    throw FeedError("EPSS: the first line's score_date is not a date and time such as 2025-08-25T00:00:00Z");
  }
  feed.score_date = feed.published_at.substr(0, 10);
  if (NextLine(text, pos) != "cve,epss,percentile")
    throw FeedError("EPSS: line 2 is not the header cve,epss,percentile");
  std::set<std::string> seen;
  for (size_t line_number = 3; pos < text.size(); line_number++) {
    std::string_view line = NextLine(text, pos);
    if (line.empty() && pos >= text.size()) break;  // the newline that ends the last row
    std::vector<std::string> cells = Split(line, ',');
    std::string where = "EPSS line " + std::to_string(line_number) + ": ";
    if (cells.size() != 3) throw FeedError(where + "not three cells cve,epss,percentile");
    if (!Matches(cells[0], kCveId)) throw FeedError(where + "'" + cells[0].substr(0, 40) + "' is not a CVE id");
    if (!IsProbability(cells[1]) || !IsProbability(cells[2])) {
      throw FeedError(where + "epss and percentile must be decimals from 0 to 1");
    }
    if (!seen.insert(cells[0]).second) throw FeedError(where + cells[0] + " appears twice");
    feed.epss.push_back({cells[0], cells[1], cells[2]});
  }
  if (feed.epss.empty()) throw FeedError("EPSS: no rows after the header");
  return feed;
}

// A required string member of a KEV object; FeedError naming it otherwise.
std::string Member(const rapidjson::Value& object, const char* name, const std::string& where) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) throw FeedError(where + name + " is not a string");
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

std::optional<std::string> OptionalMember(const rapidjson::Value& object, const char* name, const std::string& where) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return std::nullopt;
  return Member(object, name, where);
}

std::string DateMember(const rapidjson::Value& object, const char* name, const std::string& where) {
  std::string value = Member(object, name, where);
  if (!Matches(value, kDate)) throw FeedError(where + name + " is not a date YYYY-MM-DD");
  return value;
}

KevEntry KevEntryOf(const rapidjson::Value& v, const std::string& where) {
  if (!v.IsObject()) throw FeedError(where + "not an object");
  KevEntry e;
  e.cve_id = Member(v, "cveID", where);
  if (!Matches(e.cve_id, kCveId)) throw FeedError(where + "cveID '" + e.cve_id.substr(0, 40) + "' is not a CVE id");
  e.vendor_project = Member(v, "vendorProject", where);
  e.product = Member(v, "product", where);
  e.vulnerability_name = Member(v, "vulnerabilityName", where);
  e.date_added = DateMember(v, "dateAdded", where);
  e.short_description = Member(v, "shortDescription", where);
  e.required_action = Member(v, "requiredAction", where);
  e.due_date = DateMember(v, "dueDate", where);
  e.known_ransomware_campaign_use = OptionalMember(v, "knownRansomwareCampaignUse", where);
  e.notes = OptionalMember(v, "notes", where);
  auto cwes = v.FindMember("cwes");
  if (cwes != v.MemberEnd()) {
    if (!cwes->value.IsArray()) throw FeedError(where + "cwes is not an array");
    for (const rapidjson::Value& cwe : cwes->value.GetArray()) {
      if (!cwe.IsString()) throw FeedError(where + "cwes holds a non-string");
      e.cwes.emplace_back(cwe.GetString(), cwe.GetStringLength());
    }
  }
  return e;
}

// CISA's catalogue: {"catalogVersion", "dateReleased", "count", "vulnerabilities": [...]} (its schema's
// required members; ../shared/fixtures/feeds/cisa-kev-schema.json).
Feed ParseKev(std::string_view text) {
  JsonRead read = ReadJson(text, 16);
  if (!read.error.empty()) throw FeedError("KEV: not JSON: " + read.error);
  const rapidjson::Value& doc = read.document;
  if (!doc.IsObject()) throw FeedError("KEV: not a JSON object");
  Feed feed{.kind = kKev};
  feed.version = Member(doc, "catalogVersion", "KEV: ");
  feed.published_at = Member(doc, "dateReleased", "KEV: ");
  if (!Matches(feed.published_at, kTimestamp)) throw FeedError("KEV: dateReleased is not a date and time");
  auto list = doc.FindMember("vulnerabilities");
  if (list == doc.MemberEnd() || !list->value.IsArray()) throw FeedError("KEV: vulnerabilities is not an array");
  auto count = doc.FindMember("count");
  if (count == doc.MemberEnd() || !count->value.IsInt64() || count->value.GetInt64() != list->value.Size()) {
    throw FeedError("KEV: count is not the number of vulnerabilities");
  }
  std::set<std::string> seen;
  for (rapidjson::SizeType i = 0; i < list->value.Size(); i++) {
    std::string where = "KEV vulnerabilities[" + std::to_string(i) + "]: ";
    KevEntry entry = KevEntryOf(list->value[i], where);
    if (!seen.insert(entry.cve_id).second) throw FeedError(where + entry.cve_id + " appears twice");
    feed.kev.push_back(std::move(entry));
  }
  return feed;
}

}  // namespace

bool IsGzip(std::string_view bytes) { return bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b'; }

std::string Gunzip(std::string_view bytes, size_t max_bytes) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw FeedError("gzip: cannot start zlib");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[1 << 16];
  int status = Z_OK;
  for (;;) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) break;
    out.append(chunk, sizeof chunk - stream.avail_out);
    if (out.size() > max_bytes) break;
    if (status == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      inflateReset(&stream);  // a further member follows
      continue;
    }
    if (stream.avail_in == 0 && stream.avail_out != 0) break;  // the input ends inside a member
  }
  inflateEnd(&stream);
  if (out.size() > max_bytes) throw FeedError("gzip: more than " + std::to_string(max_bytes) + " bytes decompressed");
  if (status != Z_STREAM_END || stream.avail_in != 0) throw FeedError("gzip: corrupt or truncated");
  return out;
}

Feed ParseFeed(std::string_view text) {
  if (text.starts_with("#model_version:")) return ParseEpss(text);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return ParseKev(text);
  throw FeedError("neither an EPSS CSV (first line #model_version:...) nor a KEV catalogue (a JSON object)");
}

}  // namespace icat::ctl
