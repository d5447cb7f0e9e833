// The pure rules of ingest: ordering, the rating a finding ranks by, agreement between documents,
// the same-scan rules, the input digest, repositories of image references, RFC 3339 times and the
// outbox events' data.
#include "ingest/ingest_model.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <tuple>

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"
#include "icat/validate.hpp"

namespace icat::ctl {

void SortFindings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    int rank_a = SeverityRank(a.severity), rank_b = SeverityRank(b.severity);
    if (rank_a != rank_b) return rank_a > rank_b;  // most severe first
    if (a.vuln_id != b.vuln_id) return a.vuln_id < b.vuln_id;
    if (a.package_name != b.package_name) return a.package_name < b.package_name;
    return a.package_version.value_or("") < b.package_version.value_or("");
  });
}

void RankBy(Finding& f, const std::optional<std::string>& source) {
  f.severity_source = source;
  f.cvss_score.reset();
  if (source) {
    auto ranked = std::find_if(f.severity_sources.begin(), f.severity_sources.end(),
                               [&](const SeverityRating& r) { return r.source == *source; });
    if (ranked == f.severity_sources.end()) ranked = f.severity_sources.insert(ranked, SeverityRating{*source});
    // The scanner's severity is its reading of this rating, and what the counts go by: the rating
    // says the same, even where the report's own rating of the source disagrees.
    ranked->severity = f.severity;
    f.cvss_score = ranked->cvss_score;
  }
  std::sort(f.severity_sources.begin(), f.severity_sources.end(),
            [&](const SeverityRating& a, const SeverityRating& b) {
              bool a_ranked = a.source == source, b_ranked = b.source == source;
              return a_ranked != b_ranked ? a_ranked : a.source < b.source;
            });
  // Distributions (Debian, Ubuntu, Alpine) rate without a score: the finding still shows one, NVD's,
  // else the first other source's (in the order above), so a score column is rarely empty.
  if (!f.cvss_score) {
    auto scored = [](const SeverityRating& r) { return r.cvss_score.has_value(); };
    auto nvd = std::find_if(f.severity_sources.begin(), f.severity_sources.end(),
                            [&](const SeverityRating& r) { return r.source == "nvd" && scored(r); });
    auto any = std::find_if(f.severity_sources.begin(), f.severity_sources.end(), scored);
    if (nvd != f.severity_sources.end())
      f.cvss_score = nvd->cvss_score;
    else if (any != f.severity_sources.end())
      f.cvss_score = any->cvss_score;
  }
}

std::string SeveritySourcesJson(const std::vector<SeverityRating>& ratings) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteObjects(w, ratings, [&](JsonWriter& w, const SeverityRating& r) {
    WriteString(w, "source", r.source);
    WriteOptionalString(w, "severity", r.severity);
    WriteOptionalString(w, "cvssVersion", r.cvss_version);
    WriteOptionalString(w, "cvssVector", r.cvss_vector);
    WriteOptionalDouble(w, "cvssScore", r.cvss_score);
  });
  return buffer.GetString();
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
    for (const auto& [from, from_name, other, other_name] :
         {std::tuple(&a.diff_ids, a_name, &b.diff_ids, b_name), std::tuple(&b.diff_ids, b_name, &a.diff_ids, a_name)}) {
      for (const std::string& layer : *from) {
        if (other->count(layer)) continue;
        return names + " describe different images (layer " + layer + " of " + std::string(from_name) +
               " is not among the " + std::to_string(other->size()) + " layers of " + std::string(other_name) + ")";
      }
    }
  }
  return std::nullopt;
}

// ------------------------------------------------------------------ same scan

std::optional<std::string> NotAnImageSbom(const SbomDocument& doc) {
  if (doc.vex && !doc.describes_image) {
    return "is a VEX document (vulnerabilities with analysis statements, about no container image), not an SBOM of "
           "an image";
  }
  if (doc.entries == 0) return "lists no packages: an SBOM of an image lists what the image contains";
  if (doc.describes_image) return std::nullopt;
  if (doc.format == "cyclonedx") {
    return "describes no container image: metadata.component is absent or not of type \"container\"";
  }
  return "describes no container image: no package the document DESCRIBES (documentDescribes or a DESCRIBES "
         "relationship) is a container image (primaryPackagePurpose CONTAINER)";
}

bool ToolOfScanner(std::string_view tool, std::string_view scanner) {
  std::string t = Upper(tool), s = Upper(scanner);
  return !t.empty() && (t == s || (s == "GRYPE" && t == "SYFT"));
}

std::optional<std::string> SharedIdentity(const ImageIdentity& a, const ImageIdentity& b) {
  if (a.image_id && b.image_id && *a.image_id == *b.image_id) return "image id " + *a.image_id;
  for (const std::string& digest : a.repo_digests) {
    if (b.repo_digests.count(digest)) return "registry digest " + digest;
  }
  if (!a.diff_ids.empty() && a.diff_ids == b.diff_ids)
    return "the same " + std::to_string(a.diff_ids.size()) + " layers";
  return std::nullopt;
}

bool NamesNothing(const ImageIdentity& identity) {
  return !identity.image_id && identity.repo_digests.empty() && identity.diff_ids.empty();
}

namespace {

// Why one SBOM is not of the report's run, or nullopt; what the reply should say goes to notes.
std::optional<std::string> NotOfTheRun(const ScanReport& report, const std::string& report_path,
                                       std::string_view digest, const NamedSbom& sbom,
                                       std::vector<std::string>& notes) {
  const SbomDocument& doc = *sbom.doc;
  std::string tool = doc.tool_name.value_or("");
  if (!ToolOfScanner(tool, report.scanner_name)) {
    return sbom.path + " comes from " + (tool.empty() ? "an unnamed tool" : tool) + ", " + report_path + " from " +
           report.scanner_name + ": they are not one scanner's run";
  }
  std::optional<std::string> shared = SharedIdentity(report.identity, doc.identity);
  if (report.scanned_sbom && NamesNothing(report.identity)) {
    // The report scanned this SBOM (possibly long after it was written), so the SBOM speaks for the
    // image (its registry digest, when it names one, was held against --digest already).
    notes.push_back(report_path + " is a scan of an SBOM, not of the image, and names no image: " + sbom.path +
                    " speaks for the image");
    return std::nullopt;
  }
  if (!shared && NamesNothing(report.identity)) {
    return report_path + " names no image (no image id, registry digest or layers), so nothing shows that " +
           sbom.path + " describes the image it scanned";
  }
  if (!shared && report.identity.repo_digests.empty()) {
    return sbom.path + " names nothing of the image " + report_path + " names, and " + report_path +
           " names no registry digest to hold --digest against: nothing shows they describe one image";
  }
  if (!shared) {
    notes.push_back(sbom.path + " names no image identity that " + report_path +
                    " names: it is taken as the image of --digest " + std::string(digest) + ", which " + report_path +
                    " names");
  }
  std::optional<long long> scanned = report.scanned_at ? ParseRfc3339(*report.scanned_at) : std::nullopt;
  std::optional<long long> created = doc.created ? ParseRfc3339(*doc.created) : std::nullopt;
  if (!scanned || !created) return std::nullopt;
  long long apart = std::llabs(created.value_or(0) - scanned.value_or(0));  // value_or: GCC 12 sees no check
  if (apart <= kSameRunToleranceSeconds) return std::nullopt;
  std::string times = sbom.path + " was created at " + *doc.created + ", " + report_path + " scanned at " +
                      *report.scanned_at + ": " + SpanText(apart) + " apart";
  if (!shared) return times + ", over the " + SpanText(kSameRunToleranceSeconds) + " one run may take";
  notes.push_back(times + "; another run on the same image (" + *shared + "), so the scan time is the report's");
  return std::nullopt;
}

// The scan time when the report names none: the SBOMs' creation time (the earliest), when each
// names the report's image and they were created within the tolerance of each other.
std::optional<std::string> SbomScanTime(const ScanReport& report, const std::string& report_path,
                                        const std::vector<NamedSbom>& sboms, std::vector<std::string>& notes) {
  std::optional<std::string> earliest;
  std::optional<long long> first, last;
  for (const NamedSbom& sbom : sboms) {
    std::optional<long long> created = sbom.doc->created ? ParseRfc3339(*sbom.doc->created) : std::nullopt;
    std::string why;
    if (!created)
      why = " has no creation time";
    else if (!SharedIdentity(report.identity, sbom.doc->identity))
      why = " does not name the report's image";
    if (!why.empty()) {
      notes.push_back(report_path + " names no scan time and " + sbom.path + why +
                      ": the scan time is the time of ingest");
      return std::nullopt;
    }
    if (!first || *created < *first) {
      first = created;
      earliest = sbom.doc->created;
    }
    if (!last || *created > *last) last = created;
  }
  if (first && *last - *first > kSameRunToleranceSeconds) {
    notes.push_back(report_path + " names no scan time and its SBOMs were created " + SpanText(*last - *first) +
                    " apart: the scan time is the time of ingest");
    return std::nullopt;
  }
  return earliest;
}

}  // namespace

SameScan CheckSameScan(const ScanReport& report, std::string_view report_path, std::string_view digest,
                       const std::vector<NamedSbom>& sboms) {
  SameScan out;
  std::string report_name(report_path);
  std::vector<std::pair<const ImageIdentity*, std::string>> documents = {{&report.identity, report_name}};
  for (const NamedSbom& sbom : sboms) documents.emplace_back(&sbom.doc->identity, sbom.path);
  for (size_t i = 0; i < documents.size(); ++i) {
    for (size_t j = i + 1; j < documents.size(); ++j) {
      out.refusal =
          IdentityConflict(*documents[i].first, documents[i].second, *documents[j].first, documents[j].second);
      if (out.refusal) return out;
    }
  }
  // --digest is proved only by a document naming it among its registry digests; one naming others
  // refutes it.
  bool digest_named = false;
  for (const auto& [identity, name] : documents) {
    if (identity->repo_digests.empty()) continue;
    if (!identity->repo_digests.count(std::string(digest))) {
      out.refusal = "--digest " + std::string(digest) + " is not the image's digest in " + name + " (" +
                    Joined(identity->repo_digests) + ")";
      return out;
    }
    digest_named = true;
  }
  for (const NamedSbom& sbom : sboms) {
    out.refusal = NotOfTheRun(report, report_name, digest, sbom, out.notes);
    if (out.refusal) return out;
  }
  if (!digest_named) {
    std::string which = sboms.empty() ? report_name : "neither " + report_name;
    for (size_t i = 0; i < sboms.size(); ++i) which += (i + 1 == sboms.size() ? " nor " : ", ") + sboms[i].path;
    out.notes.push_back("--digest " + std::string(digest) + " is taken on the operator's word: " + which +
                        " names a registry digest to hold it against (the documents show only that they describe "
                        "one image)");
  }
  out.scanned_at = report.scanned_at ? report.scanned_at : SbomScanTime(report, report_name, sboms, out.notes);
  return out;
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

bool IsRfc3339(std::string_view text) { return ParseRfc3339(text).has_value(); }

std::string SpanText(long long seconds) {
  if (seconds >= 2 * 86400) return std::to_string(seconds / 86400) + " days";
  if (seconds >= 2 * 3600) return std::to_string(seconds / 3600) + " hours";
  if (seconds >= 2 * 60) return std::to_string(seconds / 60) + " minutes";
  return std::to_string(seconds) + (seconds == 1 ? " second" : " seconds");
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
                      const std::string* cve_id, const EventFixes* fixes) {
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
    WriteObjects(w, *vulnerabilities, [&](JsonWriter& w, const EventFinding& f) {
      Pair(w, "id", f.vuln_id);
      Pair(w, "severity", f.severity);
      Pair(w, "package", f.package);
      Pair(w, "fixState", f.fix_state);
      WriteFeeds(w, f.feeds);
    });
  }
  if (fixes) {
    w.Key("fixes");
    w.StartObject();
    w.Key("against");
    w.StartObject();
    Pair(w, "id", fixes->version_id);
    Pair(w, "tag", fixes->tag);
    w.EndObject();
    w.Key("count");
    w.Int64(fixes->count);
    w.Key("ids");
    w.StartArray();
    for (const std::string& id : fixes->ids) w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
    w.EndArray();
    w.EndObject();
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

bool IsDigest(std::string_view text) {
  if (text.size() != 71 || text.substr(0, 7) != "sha256:") return false;
  return text.substr(7).find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

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
