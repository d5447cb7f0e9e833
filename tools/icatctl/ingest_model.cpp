// The pure rules of ingest: counting, ordering, agreement between documents, the input digest,
// repositories of image references, RFC 3339 checks and the outbox events' data.
#include "ingest_model.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <map>
#include <regex>

#include "icat/crypto.hpp"

namespace icat::ctl {

int SeverityRank(std::string_view severity) {
  for (size_t i = 0; i < kSeverities.size(); ++i) {
    if (kSeverities[i] == severity) return static_cast<int>(i);
  }
  return static_cast<int>(kSeverities.size()) - 1;  // unknown
}

ScanCounts CountFindings(const std::vector<Finding>& findings) {
  ScanCounts counts;
  std::map<std::string, int> highest;  // vulnerability id -> best (lowest) rank
  std::set<std::string> fixable;
  for (const Finding& f : findings) {
    if (f.fix_state == "not-affected") continue;
    int rank = SeverityRank(f.severity);
    counts.findings[rank]++;
    auto [it, inserted] = highest.emplace(f.vuln_id, rank);
    if (!inserted) it->second = std::min(it->second, rank);
    if (f.fix_state == "fixed") fixable.insert(f.vuln_id);
  }
  for (const auto& [id, rank] : highest) counts.vulnerabilities[rank]++;
  counts.fixable = static_cast<long long>(fixable.size());
  return counts;
}

void SortFindings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    int rank_a = SeverityRank(a.severity), rank_b = SeverityRank(b.severity);
    if (rank_a != rank_b) return rank_a < rank_b;
    if (a.vuln_id != b.vuln_id) return a.vuln_id < b.vuln_id;
    if (a.package_name != b.package_name) return a.package_name < b.package_name;
    return a.package_version.value_or("") < b.package_version.value_or("");
  });
}

namespace {

std::string Joined(const std::set<std::string>& values, size_t at_most = 2) {
  std::string out;
  size_t shown = 0;
  for (const std::string& v : values) {
    if (shown++ == at_most) return out + ", ...";
    out += (out.empty() ? "" : ", ") + v;
  }
  return out;
}

bool Disjoint(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const std::string& v : a) {
    if (b.count(v)) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> IdentityConflict(const ImageIdentity& a, std::string_view a_name, const ImageIdentity& b,
                                            std::string_view b_name) {
  std::string names = std::string(a_name) + " and " + std::string(b_name);
  if (a.image_id && b.image_id && *a.image_id != *b.image_id) {
    return names + " describe different images (image id " + *a.image_id + " vs " + *b.image_id + ")";
  }
  if (!a.repo_digests.empty() && !b.repo_digests.empty() && Disjoint(a.repo_digests, b.repo_digests)) {
    return names + " describe different images (repo digest " + Joined(a.repo_digests) + " vs " +
           Joined(b.repo_digests) + ")";
  }
  if (!a.diff_ids.empty() && !b.diff_ids.empty() && a.diff_ids != b.diff_ids) {
    return names + " describe different images (their layers differ: " + std::to_string(a.diff_ids.size()) + " vs " +
           std::to_string(b.diff_ids.size()) + " layer digests, not the same set)";
  }
  return std::nullopt;
}

std::string InputDigest(std::string_view report, const std::optional<std::string>& spdx,
                        const std::optional<std::string>& cyclonedx) {
  std::string manifest = "report " + Sha256Hex(report) + "\nspdx " + (spdx ? Sha256Hex(*spdx) : "-") + "\ncyclonedx " +
                         (cyclonedx ? Sha256Hex(*cyclonedx) : "-") + "\n";
  return Sha256Hex(manifest);
}

std::optional<std::string> RepositoryOf(std::string_view reference) {
  std::string ref(reference);
  if (size_t at = ref.find('@'); at != std::string::npos) ref.erase(at);
  size_t slash = ref.rfind('/');
  size_t colon = ref.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) ref.erase(colon);
  static const std::regex kPath("[a-z0-9]+([._-]+[a-z0-9]+)*(/[a-z0-9]+([._-]+[a-z0-9]+)*)*");
  static const std::regex kHost("[A-Za-z0-9.-]+(:[0-9]+)?");
  size_t first_slash = ref.find('/');
  std::string first = ref.substr(0, first_slash);
  bool has_host = first_slash != std::string::npos && (first.find('.') != std::string::npos ||
                                                       first.find(':') != std::string::npos || first == "localhost");
  std::string host = has_host ? first : "docker.io";
  std::string path = has_host ? ref.substr(first_slash + 1) : ref;
  if (host == "index.docker.io" || host == "registry-1.docker.io") host = "docker.io";
  if (path.empty() || !std::regex_match(path, kPath) || !std::regex_match(host, kHost)) return std::nullopt;
  if (host == "docker.io" && path.find('/') == std::string::npos) path = "library/" + path;
  return host + "/" + path;
}

bool IsRfc3339(std::string_view text) {
  static const std::regex kShape(
      R"((\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2})))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(text.begin(), text.end(), m, kShape)) return false;
  auto number = [&](int group) { return std::stoi(m[group].str()); };
  int year = number(1), month = number(2), day = number(3);
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (year < 1 || month < 1 || month > 12) return false;
  int days = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  if (day < 1 || day > days || number(4) > 23 || number(5) > 59 || number(6) > 59) return false;
  if (m[9].matched && (number(9) > 23 || number(10) > 59)) return false;
  return true;
}

std::string UpperAscii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// ------------------------------------------------------------------ outbox events

namespace {
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void Pair(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
}  // namespace

std::string EventData(const EventSubject& s, const std::vector<EventFinding>* vulnerabilities,
                      const std::string* cve_id) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  if (cve_id) Pair(w, "cveId", *cve_id);
  w.Key("image");
  w.StartObject();
  Pair(w, "id", s.image_id);
  Pair(w, "name", s.image_name);
  w.EndObject();
  w.Key("version");
  w.StartObject();
  Pair(w, "id", s.version_id);
  Pair(w, "tag", s.tag);
  Pair(w, "digest", s.digest);
  w.EndObject();
  w.Key("scan");
  w.StartObject();
  Pair(w, "id", s.scan_id);
  Pair(w, "scanner", s.scanner);
  Pair(w, "scannedAt", s.scanned_at);
  w.EndObject();
  if (vulnerabilities) {
    w.Key("vulnerabilities");
    w.StartArray();
    for (const EventFinding& f : *vulnerabilities) {
      w.StartObject();
      Pair(w, "id", f.vuln_id);
      Pair(w, "severity", f.severity);
      Pair(w, "package", f.package);
      Pair(w, "fixState", f.fix_state);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return buffer.GetString();
}

std::vector<EventFinding> NewlyPresent(const std::vector<EventFinding>& current,
                                       const std::vector<EventFinding>& previous) {
  std::set<std::pair<std::string, std::string>> before;
  for (const EventFinding& f : previous) {
    if (f.fix_state != "not-affected") before.emplace(f.vuln_id, f.package);
  }
  std::vector<EventFinding> fresh;
  std::set<std::pair<std::string, std::string>> seen;
  for (const EventFinding& f : current) {
    if (f.fix_state == "not-affected") continue;
    std::pair<std::string, std::string> key(f.vuln_id, f.package);
    if (before.count(key) || !seen.insert(key).second) continue;
    fresh.push_back(f);
  }
  return fresh;
}

// ------------------------------------------------------------------ JSON access

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string> StringAt(const rapidjson::Value& object, const char* name) {
  const rapidjson::Value* v = Member(object, name);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<double> NumberAt(const rapidjson::Value& object, const char* name) {
  const rapidjson::Value* v = Member(object, name);
  if (!v || !v->IsNumber()) return std::nullopt;
  return v->GetDouble();
}

}  // namespace icat::ctl
