// Trivy and Grype JSON reports -> ScanReport: detection, metadata, image identity and findings.
#include "ingest/reports.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>

#include "icat/json.hpp"
#include "icat/text.hpp"
#include "icat/vocabulary.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

using rapidjson::Value;

[[noreturn]] void Refuse(std::string_view path, const std::string& reason) {
  throw Failure(std::string(path) + ": " + reason);
}

// "alpine@sha256:<hex>" -> "sha256:<hex>"; nullopt without a well-formed digest.
std::optional<std::string> DigestOfReference(std::string_view reference) {
  size_t at = reference.rfind('@');
  if (at == std::string_view::npos || !IsDigest(reference.substr(at + 1))) return std::nullopt;
  return std::string(reference.substr(at + 1));
}

std::vector<std::string> Strings(const Value& object, const char* name) {
  std::vector<std::string> out;
  const Value* array = Member(object, name);
  if (!array || !array->IsArray()) return out;
  for (const Value& v : array->GetArray()) {
    if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
  }
  return out;
}

std::optional<std::string> NonEmpty(std::optional<std::string> text) {
  if (text && text->empty()) return std::nullopt;
  return text;
}

void AddRepositories(ScanReport& report, const std::vector<std::string>& references) {
  for (const std::string& reference : references) {
    std::optional<std::string> repository = RepositoryOf(reference);
    if (repository &&
        std::find(report.repositories.begin(), report.repositories.end(), *repository) == report.repositories.end()) {
      report.repositories.push_back(*repository);
    }
  }
}

void AddAlias(Finding& f, const std::string& alias) {
  std::string upper = Upper(alias);
  if (upper.empty() || upper == f.vuln_id) return;
  if (std::find(f.aliases.begin(), f.aliases.end(), upper) == f.aliases.end()) f.aliases.push_back(upper);
}

// The image's size in bytes (Trivy Metadata.Size, Grype imageSize); 0 is "not known", like absent.
std::optional<long long> ImageSize(const Value& object, const char* name) {
  const Value* size = Member(object, name);
  if (!size || !size->IsInt64() || size->GetInt64() <= 0) return std::nullopt;
  return size->GetInt64();
}

std::string Where(const char* array, size_t index) { return std::string(array) + "[" + std::to_string(index) + "]"; }

// ------------------------------------------------------------------ ratings (docs/scans.md, "Severity sources")

// What a CVSS vector is written with: "CVSS:3.1/AV:N/AC:L/..." or the 2.0 form "AV:N/AC:L/Au:N/...".
constexpr std::string_view kVectorCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:/.";
constexpr size_t kMaxVectorLength = 255;  // a 4.0 vector with every optional metric is under 200

// A base score as the report gives it, when it is one: kept to one decimal, as CVSS writes scores,
// from 0.1 to 10 (0 is how scanners say "no score").
std::optional<double> CvssScore(std::optional<double> score) {
  if (!score) return std::nullopt;
  double rounded = std::round(*score * 10) / 10;
  if (!(rounded > 0 && rounded <= 10)) return std::nullopt;
  return rounded;
}

// A vector as the report gives it, when it is written like one; anything else is no vector.
std::optional<std::string> CvssVector(std::optional<std::string> text) {
  if (!text || text->empty() || text->size() > kMaxVectorLength) return std::nullopt;
  if (text->find_first_not_of(kVectorCharacters) != std::string::npos) return std::nullopt;
  return text;
}

bool IsCvssVersion(std::string_view text) {
  return text.size() == 3 && text[0] >= '0' && text[0] <= '9' && text[1] == '.' && text[2] >= '0' && text[2] <= '9';
}

// "3.1" of "CVSS:3.1/AV:N/..."; nullopt for a vector without that prefix (2.0 vectors have none).
std::optional<std::string> VersionOfVector(const std::optional<std::string>& vector) {
  if (!vector || vector->rfind("CVSS:", 0) != 0 || vector->size() < 9 || (*vector)[8] != '/') return std::nullopt;
  std::string version = vector->substr(5, 3);
  return IsCvssVersion(version) ? std::optional(version) : std::nullopt;
}

// ------------------------------------------------------------------ Trivy

// Trivy's numbers for a source's severity (VendorSeverity).
constexpr std::array<const char*, 5> kTrivyLevels = {"unknown", "low", "medium", "high", "critical"};

// Each source's CVSS fields, newest version first, with the version they hold when the vector
// does not say (none for V3: a V3 score without its vector may be 3.0 or 3.1).
struct TrivyCvssFields {
  const char *score, *vector, *version;
};
constexpr std::array<TrivyCvssFields, 3> kTrivyCvssFields = {
    {{"V40Score", "V40Vector", "4.0"}, {"V3Score", "V3Vector", nullptr}, {"V2Score", "V2Vector", "2.0"}}};

// Trivy's ratings, one per source: VendorSeverity's severity and the newest CVSS version of CVSS.
std::vector<SeverityRating> TrivyRatings(const Value& v) {
  std::map<std::string, SeverityRating> by_source;
  auto source = [](const Value& name) { return Lower(std::string_view(name.GetString(), name.GetStringLength())); };
  if (const Value* vendors = Member(v, "VendorSeverity"); vendors && vendors->IsObject()) {
    for (auto it = vendors->MemberBegin(); it != vendors->MemberEnd(); ++it) {
      const Value& level = it->value;
      if (level.IsInt() && level.GetInt() >= 0 && level.GetInt() <= 4) {
        by_source[source(it->name)].severity = kTrivyLevels[level.GetInt()];
      }
    }
  }
  if (const Value* cvss = Member(v, "CVSS"); cvss && cvss->IsObject()) {
    for (auto it = cvss->MemberBegin(); it != cvss->MemberEnd(); ++it) {
      for (const TrivyCvssFields& fields : kTrivyCvssFields) {
        std::optional<double> score = CvssScore(NumberAt(it->value, fields.score));
        if (!score) continue;
        SeverityRating& r = by_source[source(it->name)];
        r.cvss_score = score;
        r.cvss_vector = CvssVector(StringAt(it->value, fields.vector));
        r.cvss_version = VersionOfVector(r.cvss_vector);
        if (!r.cvss_version && fields.version) r.cvss_version = fields.version;
        break;
      }
    }
  }
  std::vector<SeverityRating> ratings;
  for (auto& [name, rating] : by_source) {
    if (name.empty()) continue;
    rating.source = name;
    ratings.push_back(std::move(rating));
  }
  return ratings;
}

Finding TrivyFinding(std::string_view path, const Value& v, const std::string& package_type, const std::string& where) {
  Finding f;
  std::optional<std::string> id = StringAt(v, "VulnerabilityID");
  std::optional<std::string> package = StringAt(v, "PkgName");
  if (!id || id->empty()) Refuse(path, where + " has no VulnerabilityID");
  if (!package || package->empty()) Refuse(path, where + " has no PkgName");
  f.vuln_id = Upper(*id);
  for (const std::string& vendor_id : Strings(v, "VendorIDs")) AddAlias(f, vendor_id);
  f.package_name = *package;
  f.package_version = NonEmpty(StringAt(v, "InstalledVersion"));
  f.package_type = package_type;
  if (const Value* identifier = Member(v, "PkgIdentifier")) f.purl = NonEmpty(StringAt(*identifier, "PURL"));
  f.severity = TrivySeverity(StringAt(v, "Severity").value_or(""));
  f.severity_sources = TrivyRatings(v);
  std::optional<std::string> source = NonEmpty(StringAt(v, "SeveritySource"));
  RankBy(f, source ? std::optional(Lower(*source)) : std::nullopt);
  f.fixed_version = NonEmpty(StringAt(v, "FixedVersion"));
  f.fix_state = TrivyFixState(StringAt(v, "Status"), f.fixed_version);
  f.title = NonEmpty(StringAt(v, "Title"));
  f.primary_url = NonEmpty(StringAt(v, "PrimaryURL"));
  return f;
}

ScanReport ParseTrivy(std::string_view path, const Value& d) {
  const Value* schema = Member(d, "SchemaVersion");
  if (!schema || !schema->IsInt() || schema->GetInt() != 2) {
    Refuse(path, "is a Trivy JSON report of SchemaVersion " +
                     std::string(schema && schema->IsInt() ? std::to_string(schema->GetInt()) : "(none)") +
                     "; only SchemaVersion 2 is accepted");
  }
  ScanReport report;
  report.scanner_name = "trivy";
  if (const Value* trivy = Member(d, "Trivy")) report.scanner_version = NonEmpty(StringAt(*trivy, "Version"));
  report.scanned_at = NonEmpty(StringAt(d, "CreatedAt"));
  std::string artifact_type = StringAt(d, "ArtifactType").value_or("");
  report.scanned_sbom = artifact_type == "cyclonedx" || artifact_type == "spdx";
  const Value empty(rapidjson::kObjectType);
  const Value* metadata = Member(d, "Metadata");
  if (!metadata || !metadata->IsObject()) metadata = &empty;
  if (const Value* os = Member(*metadata, "OS")) {
    std::optional<std::string> family = StringAt(*os, "Family"), name = StringAt(*os, "Name");
    if (family && !family->empty()) report.os = *family + (name && !name->empty() ? " " + *name : "");
  }
  if (std::optional<std::string> id = StringAt(*metadata, "ImageID"); id && IsDigest(*id))
    report.identity.image_id = id;
  std::vector<std::string> repo_digests = Strings(*metadata, "RepoDigests");
  for (const std::string& reference : repo_digests) {
    if (std::optional<std::string> digest = DigestOfReference(reference)) report.identity.repo_digests.insert(*digest);
  }
  for (const std::string& diff_id : Strings(*metadata, "DiffIDs")) {
    if (IsDigest(diff_id)) report.identity.diff_ids.insert(diff_id);
  }
  report.image_size = ImageSize(*metadata, "Size");
  AddRepositories(report, Strings(*metadata, "RepoTags"));
  AddRepositories(report, repo_digests);

  const Value* results = Member(d, "Results");
  if (results && !results->IsArray()) Refuse(path, "Results is not an array");
  if (!results) return report;
  for (rapidjson::SizeType i = 0; i < results->Size(); ++i) {
    const Value& result = (*results)[i];
    const Value* vulnerabilities = Member(result, "Vulnerabilities");
    if (!vulnerabilities || vulnerabilities->IsNull()) continue;
    std::string where = Where("Results", i);
    if (!vulnerabilities->IsArray()) Refuse(path, where + ".Vulnerabilities is not an array");
    std::string type = TrivyPackageType(StringAt(result, "Class").value_or(""), StringAt(result, "Type").value_or(""));
    for (rapidjson::SizeType j = 0; j < vulnerabilities->Size(); ++j) {
      report.findings.push_back(TrivyFinding(path, (*vulnerabilities)[j], type, where + Where(".Vulnerabilities", j)));
    }
  }
  return report;
}

// ------------------------------------------------------------------ Grype

// A Grype namespace as the source it names: its first part (debian of debian:distro:debian:12 and of
// the older debian:11, nvd of nvd:cpe), GitHub's advisories (github:language:java) named ghsa, as
// Trivy names them.
std::string GrypeSource(std::string_view name_space) {
  std::string source = Lower(name_space.substr(0, name_space.find(':')));
  return source == "github" ? "ghsa" : source;
}

// Adds the ratings one Grype record holds (the match's vulnerability or a related one) for each
// source that has none yet: the record's own (its severity and its newest CVSS version) and one of
// each other organisation whose score it carries (cvss entries of type Secondary, by their source).
// A record without a namespace names no source of its own.
void AddGrypeRatings(const Value& record, std::vector<SeverityRating>& ratings) {
  struct Found {
    SeverityRating rating;
    double version = 0;  // of the CVSS it holds, as a number
  };
  std::vector<Found> found;  // the record's own first
  auto of = [&found](const std::string& source) -> Found& {
    for (Found& f : found) {
      if (f.rating.source == source) return f;
    }
    return found.emplace_back(Found{SeverityRating{source}});
  };
  std::string own = GrypeSource(StringAt(record, "namespace").value_or(""));
  if (!own.empty()) {
    std::optional<std::string> severity = NonEmpty(StringAt(record, "severity"));
    of(own).rating.severity = severity ? std::optional(GrypeSeverity(*severity)) : std::nullopt;
  }
  const Value* list = Member(record, "cvss");
  if (list && list->IsArray()) {
    for (const Value& entry : list->GetArray()) {
      const Value* metrics = Member(entry, "metrics");
      std::optional<double> score = CvssScore(metrics ? NumberAt(*metrics, "baseScore") : std::nullopt);
      bool secondary = Lower(StringAt(entry, "type").value_or("")) == "secondary";
      std::string source = secondary ? Lower(StringAt(entry, "source").value_or("")) : own;
      if (!score || source.empty()) continue;
      std::optional<std::string> vector = CvssVector(StringAt(entry, "vector"));
      std::optional<std::string> version = NonEmpty(StringAt(entry, "version"));
      if (!version || !IsCvssVersion(*version)) version = VersionOfVector(vector);
      double number = version ? std::atof(version->c_str()) : 0;
      Found& f = of(source);
      if (f.rating.cvss_score && number <= f.version) continue;  // the newest version stands for the source
      f.rating.cvss_score = score;
      f.rating.cvss_vector = vector;
      f.rating.cvss_version = version;
      f.version = number;
    }
  }
  for (Found& f : found) {
    auto same = [&f](const SeverityRating& r) { return r.source == f.rating.source; };
    bool says_something = f.rating.severity || f.rating.cvss_score;
    if (says_something && std::none_of(ratings.begin(), ratings.end(), same)) ratings.push_back(std::move(f.rating));
  }
}

Finding GrypeFinding(std::string_view path, const Value& match, const std::string& where) {
  const Value* vulnerability = Member(match, "vulnerability");
  const Value* artifact = Member(match, "artifact");
  if (!vulnerability || !vulnerability->IsObject()) Refuse(path, where + " has no vulnerability object");
  if (!artifact || !artifact->IsObject()) Refuse(path, where + " has no artifact object");
  std::optional<std::string> id = StringAt(*vulnerability, "id");
  std::optional<std::string> package = StringAt(*artifact, "name");
  if (!id || id->empty()) Refuse(path, where + ".vulnerability has no id");
  if (!package || package->empty()) Refuse(path, where + ".artifact has no name");
  Finding f;
  f.vuln_id = Upper(*id);
  f.severity = GrypeSeverity(StringAt(*vulnerability, "severity").value_or(""));
  AddGrypeRatings(*vulnerability, f.severity_sources);
  if (const Value* related = Member(match, "relatedVulnerabilities"); related && related->IsArray()) {
    for (const Value& other : related->GetArray()) {
      if (std::optional<std::string> other_id = StringAt(other, "id")) AddAlias(f, *other_id);
      AddGrypeRatings(other, f.severity_sources);
    }
  }
  // Grype's severity is its matched record's.
  std::string ranked = GrypeSource(StringAt(*vulnerability, "namespace").value_or(""));
  RankBy(f, ranked.empty() ? std::nullopt : std::optional(ranked));
  f.package_name = *package;
  f.package_version = NonEmpty(StringAt(*artifact, "version"));
  f.package_type = GrypePackageType(StringAt(*artifact, "type").value_or(""));
  f.purl = NonEmpty(StringAt(*artifact, "purl"));
  const Value* fix = Member(*vulnerability, "fix");
  f.fix_state = GrypeFixState(fix ? StringAt(*fix, "state").value_or("") : "");
  std::vector<std::string> versions = fix ? Strings(*fix, "versions") : std::vector<std::string>{};
  std::string fixed;
  for (const std::string& version : versions) fixed += (fixed.empty() ? "" : ", ") + version;
  f.fixed_version = NonEmpty(fixed);
  f.primary_url = NonEmpty(StringAt(*vulnerability, "dataSource"));
  if (!f.primary_url) {
    std::vector<std::string> urls = Strings(*vulnerability, "urls");
    if (!urls.empty()) f.primary_url = NonEmpty(urls.front());
  }
  return f;  // Grype gives no title
}

ScanReport ParseGrype(std::string_view path, const Value& d) {
  ScanReport report;
  report.scanner_name = "grype";
  const Value empty(rapidjson::kObjectType);
  const Value* descriptor = Member(d, "descriptor");
  if (!descriptor || !descriptor->IsObject()) descriptor = &empty;
  report.scanner_version = NonEmpty(StringAt(*descriptor, "version"));
  report.scanned_at = NonEmpty(StringAt(*descriptor, "timestamp"));
  if (const Value* db = Member(*descriptor, "db")) {
    report.vulndb_updated_at = NonEmpty(StringAt(*db, "built"));
    if (const Value* status = Member(*db, "status"); !report.vulndb_updated_at && status) {
      report.vulndb_updated_at = NonEmpty(StringAt(*status, "built"));
    }
  }
  if (const Value* distro = Member(d, "distro")) {
    std::optional<std::string> name = StringAt(*distro, "name"), version = StringAt(*distro, "version");
    if (name && !name->empty()) report.os = *name + (version && !version->empty() ? " " + *version : "");
  }
  const Value* source = Member(d, "source");
  const Value* target = source ? Member(*source, "target") : nullptr;
  report.scanned_sbom = source && StringAt(*source, "type").value_or("") == "sbom";
  if (target && target->IsObject()) {
    if (std::optional<std::string> id = StringAt(*target, "imageID"); id && IsDigest(*id))
      report.identity.image_id = id;
    // repoDigests (like Trivy's RepoDigests, the index of a multi-platform image) and the platform
    // manifestDigest (what Syft's SBOMs name) are both what the registry knows the image by.
    std::vector<std::string> repo_digests = Strings(*target, "repoDigests");
    for (const std::string& reference : repo_digests) {
      if (std::optional<std::string> digest = DigestOfReference(reference))
        report.identity.repo_digests.insert(*digest);
    }
    if (std::optional<std::string> manifest = StringAt(*target, "manifestDigest"); manifest && IsDigest(*manifest))
      report.identity.repo_digests.insert(*manifest);
    if (const Value* layers = Member(*target, "layers"); layers && layers->IsArray()) {
      for (const Value& layer : layers->GetArray()) {
        if (std::optional<std::string> digest = StringAt(layer, "digest"); digest && IsDigest(*digest)) {
          report.identity.diff_ids.insert(*digest);
        }
      }
    }
    report.image_size = ImageSize(*target, "imageSize");
    AddRepositories(report, Strings(*target, "tags"));
    AddRepositories(report, repo_digests);
  }
  const Value* matches = Member(d, "matches");
  for (rapidjson::SizeType i = 0; i < matches->Size(); ++i) {
    report.findings.push_back(GrypeFinding(path, (*matches)[i], Where("matches", i)));
  }
  return report;
}

}  // namespace

rapidjson::Document ParseInputJson(std::string_view path, std::string_view bytes) {
  JsonRead read = ReadJson(bytes, kMaxDocumentDepth);
  if (!read.error.empty()) Refuse(path, "is not valid JSON: " + read.error);
  return std::move(read.document);
}

ScanReport ParseReport(std::string_view path, std::string_view bytes) {
  rapidjson::Document d = ParseInputJson(path, bytes);
  if (!d.IsObject()) Refuse(path, "is not a scan report (a JSON object is expected)");
  const Value* matches = Member(d, "matches");
  const Value* descriptor = Member(d, "descriptor");
  bool grype_named = descriptor && StringAt(*descriptor, "name").value_or("") == "grype";
  if (matches && matches->IsArray() && (grype_named || Member(d, "source"))) return ParseGrype(path, d);
  if (Member(d, "SchemaVersion") || (Member(d, "ArtifactName") && Member(d, "Results"))) return ParseTrivy(path, d);
  if (Member(d, "bomFormat")) Refuse(path, "is a CycloneDX document, not a scan report (pass it as --cyclonedx)");
  if (Member(d, "spdxVersion")) Refuse(path, "is an SPDX document, not a scan report (pass it as --spdx)");
  Refuse(path, "is neither a Trivy JSON report (SchemaVersion 2) nor a Grype JSON report");
}

// ------------------------------------------------------------------ normalisation tables

std::string TrivySeverity(std::string_view severity) {
  std::string s = Lower(severity);
  return IsOneOf(s, kSeverities) ? s : "unknown";
}

std::string GrypeSeverity(std::string_view severity) {
  std::string s = Lower(severity);
  if (s == "negligible") return "low";
  return IsOneOf(s, kSeverities) ? s : "unknown";
}

std::string TrivyFixState(const std::optional<std::string>& status, const std::optional<std::string>& fixed_version) {
  // Reports before Trivy 0.33 carry no Status: they list affected packages only, fixed or not.
  if (!status || status->empty()) return fixed_version ? "fixed" : "not-fixed";
  std::string s = Lower(*status);
  if (s == "fixed") return "fixed";
  if (s == "affected" || s == "fix_deferred") return "not-fixed";
  if (s == "will_not_fix" || s == "end_of_life") return "wont-fix";
  if (s == "not_affected") return "not-affected";
  return "unknown";  // unknown, under_investigation, anything newer
}

std::string GrypeFixState(std::string_view state) {
  std::string s = Lower(state);
  if (s == "fixed" || s == "not-fixed" || s == "wont-fix") return s;
  if (s == "not-affected") return "not-affected";
  return "unknown";
}

std::string TrivyPackageType(std::string_view result_class, std::string_view result_type) {
  std::string cls = Lower(result_class), type = Lower(result_type);
  if (cls == "os-pkgs") return "os";
  if (cls == "custom") return "binary";
  if (type == "jar" || type == "pom" || type == "gradle" || type == "sbt") return "java";
  if (type == "npm" || type == "yarn" || type == "pnpm" || type == "node-pkg" || type == "bun") return "npm";
  if (type == "gomod" || type == "gobinary") return "go";
  if (type == "pip" || type == "pipenv" || type == "poetry" || type == "python-pkg" || type == "uv" ||
      type == "conda-pkg") {
    return "python";
  }
  if (type == "bundler" || type == "gemspec") return "ruby";
  if (type == "cargo" || type == "rustbinary" || type == "rust-binary") return "rust";
  if (type == "composer" || type == "composer-vendor") return "php";
  if (type == "nuget" || type == "dotnet-core" || type == "packages-props") return "dotnet";
  return type.empty() ? (cls.empty() ? "unknown" : cls) : type;
}

std::string GrypePackageType(std::string_view artifact_type) {
  std::string type = Lower(artifact_type);
  if (type == "deb" || type == "apk" || type == "rpm" || type == "alpm" || type == "portage") return "os";
  if (type == "java-archive" || type == "jenkins-plugin" || type == "graalvm-native-image") return "java";
  if (type == "npm") return "npm";
  if (type == "go-module") return "go";
  if (type == "python") return "python";
  if (type == "gem") return "ruby";
  if (type == "rust-crate") return "rust";
  if (type == "php-composer" || type == "php-pecl") return "php";
  if (type == "dotnet") return "dotnet";
  if (type == "binary") return "binary";
  return type.empty() ? "unknown" : type;
}

}  // namespace icat::ctl
