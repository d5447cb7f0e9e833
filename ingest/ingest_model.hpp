// One scanner run as ingest sees it once parsed (findings, the image each document describes,
// SBOM metadata) and the pure rules applied to it: agreement, ordering, the input digest,
// default repositories and the outbox events. Nothing here touches a file or the database.
#pragma once

#include <rapidjson/document.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "icat/feeds.hpp"
#include "icat/text.hpp"
#include "icat/vocabulary.hpp"

namespace icat::ctl {

// One source's rating of a vulnerability, as the report gives it (docs/scans.md, "Severity sources").
struct SeverityRating {
  std::string source;                       // as the report names it, lower case: nvd, ghsa, debian, redhat, ...
  std::optional<std::string> severity;      // critical, high, medium, low, unknown; none when it gives only CVSS
  std::optional<std::string> cvss_version;  // "2.0", "3.0", "3.1", "4.0": the newest CVSS the source gives
  std::optional<std::string> cvss_vector;
  std::optional<double> cvss_score;  // 0.1 to 10, one decimal
};

// One package finding, normalised (docs/scans.md has the mapping from each scanner).
struct Finding {
  std::string vuln_id;               // upper case: CVE-..., GHSA-..., or the scanner's own id
  std::vector<std::string> aliases;  // other ids of the same vulnerability, upper case
  std::string package_name;
  std::optional<std::string> package_version;
  std::optional<std::string> package_type;  // os, java, npm, go, python, ruby, rust, php, dotnet, binary, ...
  std::optional<std::string> purl;
  std::string severity;                          // critical, high, medium, low, unknown
  std::optional<double> cvss_score;              // of the rating ranked by, else NVD's, else any (RankBy)
  std::optional<std::string> severity_source;    // whose rating severity is; none: unattributed
  std::vector<SeverityRating> severity_sources;  // one per source, in RankBy's order
  std::string fix_state;                         // fixed, not-fixed, wont-fix, unknown, not-affected
  std::optional<std::string> fixed_version;
  std::optional<std::string> title;
  std::optional<std::string> primary_url;
};

// What one document says about the image it describes. Empty members say nothing.
struct ImageIdentity {
  std::optional<std::string> image_id;  // the image config digest, sha256:<hex>
  std::set<std::string> repo_digests;   // registry digests (repo digests, Grype's manifestDigest), sha256:<hex>
  std::set<std::string> diff_ids;       // layer diff ids, sha256:<hex>
};

// A scan report (Trivy or Grype JSON), parsed and normalised.
struct ScanReport {
  std::string scanner_name;  // "trivy" or "grype"
  std::optional<std::string> scanner_version;
  std::optional<std::string> scanned_at;         // RFC 3339, as the report gives it
  std::optional<std::string> vulndb_updated_at;  // RFC 3339
  std::optional<std::string> os;                 // "debian 11.3"
  std::optional<long long> image_size;
  std::vector<std::string> repositories;  // from repo tags and digests, e.g. docker.io/library/alpine
  ImageIdentity identity;
  bool scanned_sbom = false;  // a scan of an SBOM (trivy sbom, grype sbom:), not of the image itself
  std::vector<Finding> findings;
};

// What one SBOM holds of what SPEC.md section 1 rule 3 asks (docs/scans.md, "Completeness (rule 3)").
// A package is every component (CycloneDX) or package (SPDX) but the image itself and its OS entry.
struct SbomCompleteness {
  long long packages = 0;
  std::map<std::string, long long> kinds;  // os, java, npm, go, python, ruby, ..., binary, unknown
  long long exact_versions = 0;            // packages with one exact version (no range, no wildcard)
  long long checksums = 0;                 // packages with at least one checksum
  long long in_graph = 0;                  // packages the dependency graph places
  long long relationships = 0;             // edges of the dependency graph
  long long spdx_licenses = 0;             // packages whose licences are all SPDX ids (or expressions of them)
  std::optional<std::string> tool_name, tool_version;
  bool tool_release = false;               // tool_version is a release number such as 0.50.0, not "dev"
  std::optional<std::string> image_digest;  // the image's registry digest, when the document names one
  std::vector<std::string> shortfalls;      // what falls short of rule 3, in words; empty: it meets it
};

// An SBOM, checked for its format; its bytes are stored verbatim elsewhere.
// A package an SBOM lists, by its purl (entries without one are not packages anyone can look up).
struct SbomPackage {
  std::string purl, name;
  std::optional<std::string> version;
};

struct SbomDocument {
  std::string format;        // "spdx" or "cyclonedx"
  std::string spec_version;  // "2.3" or "1.5"
  std::optional<std::string> tool_name;
  std::optional<std::string> tool_version;
  std::optional<std::string> created;  // RFC 3339
  ImageIdentity identity;
  SbomCompleteness completeness;
  // What the document is about: ingest takes only an SBOM of a container image (NotAnImageSbom).
  bool describes_image = false;  // CycloneDX metadata.component of type container; SPDX: a container it DESCRIBES
  long long entries = 0;         // components (CycloneDX) or packages (SPDX) besides the image itself
  bool vex = false;              // CycloneDX vulnerabilities carrying `analysis`: VEX statements
  // Every entry with a purl, the image itself left out: what sql/V0032 stores of the scan.
  std::vector<SbomPackage> packages;
};

// The counts stored on a scan row, indexed like kSeverities. The one rule that counts them is SQL
// (scan_recount, sql/V0017): findings a scanner or the vendor's VEX marks not affected count nowhere.
struct ScanCounts {
  std::array<long long, 5> vulnerabilities{};  // distinct ids, each at its highest severity
  std::array<long long, 5> findings{};         // package findings
  long long fixable = 0;                       // distinct ids with fixState "fixed" in some package
  long long vex_excluded = 0;                  // distinct ids the vendor's VEX marks not_affected
};

// Makes the rating of `source` (the scanner's choice; none when it names none) the one the finding
// ranks by: that rating takes the finding's severity (the scanner's), the finding takes its CVSS
// score (when it has none: NVD's, else the first other source's), and it comes first, the others by
// source name (docs/scans.md, "Severity sources").
void RankBy(Finding& f, const std::optional<std::string>& source);

// The ratings as the API lists them and the database stores them: [{"source", "severity",
// "cvssVersion", "cvssVector", "cvssScore"}], absent values null.
std::string SeveritySourcesJson(const std::vector<SeverityRating>& ratings);

// The order findings are stored and listed in: severity (critical first), id, package, version.
void SortFindings(std::vector<Finding>& findings);

// Why documents a and b cannot describe one image (image ids differ, repo digests are disjoint,
// layer sets differ), or nullopt. a_name and b_name name them in the message.
std::optional<std::string> IdentityConflict(const ImageIdentity& a, std::string_view a_name, const ImageIdentity& b,
                                            std::string_view b_name);

// ------------------------------------------------------------------ same scan (docs/scans.md)

// Why a parsed SBOM is not an SBOM of a container image (a VEX, no packages, no image it
// describes), or nullopt.
std::optional<std::string> NotAnImageSbom(const SbomDocument& doc);

// How far apart (seconds) an SBOM's creation and the report's scan time may be in one run.
inline constexpr long long kSameRunToleranceSeconds = 3600;

// True when an SBOM written by `tool` can come from a run of `scanner`: trivy's from trivy;
// grype's from grype or syft (Grype catalogues packages with Syft). Case-insensitive.
bool ToolOfScanner(std::string_view tool, std::string_view scanner);

// What both documents name of the image ("image id sha256:...", "registry digest sha256:...",
// "the same 6 layers"), or nullopt when they share nothing of it.
std::optional<std::string> SharedIdentity(const ImageIdentity& a, const ImageIdentity& b);
// True when the document names nothing of the image.
bool NamesNothing(const ImageIdentity& identity);

// One SBOM as the same-scan rules see it.
struct NamedSbom {
  std::string path;
  const SbomDocument* doc;
};

// What the same-scan rules decide about one ingest.
struct SameScan {
  std::optional<std::string> refusal;     // one line naming the two values and the two files; nothing is stored
  std::vector<std::string> notes;         // what the reply adds (a document without identity, another run)
  std::optional<std::string> scanned_at;  // RFC 3339; nullopt: the time of ingest
};

// The report and every SBOM are one scan of one image (docs/scans.md, "Same scan and image
// identity"). The checks, in order: no two documents contradict each other; --digest is one of
// the registry digests of each document that names any (none naming one: a note says --digest is
// taken on the operator's word); each SBOM's tool is the report's scanner; each
// SBOM names the report's image, or names none comparable and --digest is the report's digest; each
// SBOM's time is within the tolerance of the report's, unless a shared identity proves the same
// image (another run of it). The scan time is the report's, else that of SBOMs that name the
// report's image and are within the tolerance of each other, else nullopt.
SameScan CheckSameScan(const ScanReport& report, std::string_view report_path, std::string_view digest,
                       const std::vector<NamedSbom>& sboms);


// A span of seconds in words: "42 seconds", "17 minutes", "5 hours", "293 days".
std::string SpanText(long long seconds);

// SHA-256 hex naming the set of ingested files: re-ingesting the same files is then recognised.
std::string InputDigest(std::string_view report, const std::optional<std::string>& spdx,
                        const std::optional<std::string>& cyclonedx);

// The repository (registry host and path) of an image reference such as "alpine:latest",
// "itzg/minecraft-server@sha256:..." or "ghcr.io/a/b:1": docker.io/library/alpine and so on.
// nullopt when the text is not a reference.
std::optional<std::string> RepositoryOf(std::string_view reference);

// True for an RFC 3339 date-time with a real calendar date (2021-08-25T12:20:30.000000005Z).
bool IsRfc3339(std::string_view text);

// ------------------------------------------------------------------ outbox events

// What every event of one ingested scan names.
struct EventSubject {
  std::string image_id, image_name;
  std::string version_id, tag, digest;
  std::string scan_id, scanner, scanned_at;
  std::string traceparent;  // the run's trace (TRACEPARENT of a pipeline, else a new one): its events pass it on
};

// A finding as events carry it (also what ingest reads back of the previous scan).
struct EventFinding {
  std::string vuln_id, severity, package, fix_state;
  FeedFacts feeds;  // EPSS and KEV as loaded when the event is written (docs/feeds.md)
};

// What a new latest version fixes against the image's previous latest version (docs/compare.md):
// the vulnerability ids that version's latest scan found and this scan does not.
struct EventFixes {
  std::string version_id, tag;   // the previous latest version
  long long count = 0;           // every such id
  std::vector<std::string> ids;  // the first kEventFixesShown of them, by id
};
inline constexpr size_t kEventFixesShown = 100;

// The event's `data` object: {"image":{"id","name"},"version":{"id","tag","digest"},
// "scan":{"id","scanner","scannedAt"}}, plus "vulnerabilities" when given (each with "epss" and "kev"),
// plus "cveId" when given, plus "fixes": {"against": {"id", "tag"}, "count", "ids"} when given.
std::string EventData(const EventSubject& subject, const std::vector<EventFinding>* vulnerabilities = nullptr,
                      const std::string* cve_id = nullptr, const EventFixes* fixes = nullptr);

// Findings of `current` whose (id, package) pair `previous` lacks; not-affected findings are no
// vulnerability of the image and never count as present.
std::vector<EventFinding> NewlyPresent(const std::vector<EventFinding>& current,
                                       const std::vector<EventFinding>& previous);

// ------------------------------------------------------------------ JSON access

// Members of a parsed document, tolerant of absence and of the wrong type (nullopt / empty).
const rapidjson::Value* Member(const rapidjson::Value& object, const char* name);
std::optional<std::string> StringAt(const rapidjson::Value& object, const char* name);
std::optional<double> NumberAt(const rapidjson::Value& object, const char* name);

// "sha256:" and 64 lower-case hex digits: the only digest the documents' identities are compared by.
bool IsDigest(std::string_view text);

}  // namespace icat::ctl
