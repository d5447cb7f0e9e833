// icatctl ingest: one scanner run of one image version (a Trivy or Grype report and the SBOMs of
// that run) checked, signed and stored as one unit. Every check runs before anything is written;
// then the SBOM blobs are written (content-addressed, durable) and one transaction stores the
// version, scan, SBOM records, findings, counts, first-seen times and outbox events.
// docs/scans.md describes the rules.
#include "ingest/scan_ingest.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdlib>
#include <iostream>
#include <map>

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/outbox.hpp"
#include "icat/trace.hpp"
#include "ingest/attest.hpp"
#include "ingest/fetch.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/ingest_model.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_completeness.hpp"
#include "ingest/sbom_docs.hpp"
#include "ingest/session.hpp"
#include "ingest/signing.hpp"
#include "ingest/vex_served.hpp"

namespace icat::ctl {
namespace {

// ------------------------------------------------------------------ SQL (run as the owner role)

constexpr std::string_view kLockImage =
    "SELECT id, repository, latest_version_id FROM images WHERE name = $1 FOR UPDATE";
constexpr std::string_view kCreateImage =
    "INSERT INTO images (name, base_os, repository) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id";
constexpr std::string_view kRepositoryOwner = "SELECT name FROM images WHERE repository = $1";
constexpr std::string_view kLockVersion =
    "SELECT id, digest, latest_scan_id FROM image_versions WHERE image_id = $1 AND tag = $2 FOR UPDATE";
constexpr std::string_view kCreateVersion =
    "INSERT INTO image_versions (image_id, tag, digest, size_bytes, base_os, hardening_tags, published_at) "
    "VALUES ($1, $2, $3, $4, $5, $6::text[], COALESCE($7::timestamptz, now())) RETURNING id";
// Metadata given on the command line for an existing version replaces what it had; omitted stays
// (a size the version lacks comes from the report, $6).
constexpr std::string_view kUpdateVersion =
    "UPDATE image_versions SET size_bytes = COALESCE($2, size_bytes, $6), base_os = COALESCE($3, base_os), "
    "hardening_tags = COALESCE($4::text[], hardening_tags), published_at = COALESCE($5::timestamptz, published_at) "
    "WHERE id = $1";
constexpr std::string_view kSameFiles = "SELECT id FROM scans WHERE version_id = $1 AND input_sha256 = $2";
constexpr std::string_view kScanFindings =
    "SELECT x.vuln_id, x.severity, x.package_name, x.fix_state, " ICAT_FINDING_FEEDS_COLUMNS
    "FROM scans s "
    "JOIN vulnerabilities x ON x.set_id = s.findings_set_id " ICAT_FINDING_FEEDS_JOIN "WHERE s.id = $1 ORDER BY x.id";
// The counts are written after the findings, by scan_recount (sql/V0017): one counting rule for scan
// ingest and VEX ingest, which applies the vendor's VEX statements already stored.
constexpr std::string_view kInsertScan =
    "INSERT INTO scans (version_id, scanner_name, scanner_version, scanned_at, vulndb_updated_at, input_sha256, "
    "findings_set_id, package_set_id) VALUES ($1, $2, $3, COALESCE($4::timestamptz, now()), $5::timestamptz, $6, $7, "
    "$8) "
    "RETURNING id, rfc3339(scanned_at) AS scanned_at";
constexpr std::string_view kRecount =
    "SELECT critical_count, high_count, medium_count, low_count, unknown_count, findings_critical, findings_high, "
    "findings_medium, findings_low, findings_unknown, fixable_count, vex_excluded_count FROM scan_recount($1)";
constexpr std::string_view kInsertSbom =
    "INSERT INTO sboms (scan_id, format, spec_version, sha256, size_bytes, tool_name, tool_version, signature, "
    "signing_key_id, completeness) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::json)";
// The version's findings set holding exactly these findings (sql/V0020 store_findings: the set it
// already has when a rescan finds the same, else a new one), in one round trip. The severity
// sources come as a JSON text inside the text, so that they are stored as written (via jsonb they
// would come out with their keys reordered and spaced).
constexpr std::string_view kStoreFindings = "SELECT findings_set_id, stored_now FROM store_findings($1, $2::jsonb)";
// The image's package set listing exactly the scan's packages (sql/V0032 store_packages: the set it
// already has when a rescan or another version lists the same, else a new one).
constexpr std::string_view kStorePackages = "SELECT package_set_id FROM store_packages($1, $2::jsonb)";
// The version's latest scan is its newest by scan time; an equal time goes to the later ingest.
constexpr std::string_view kUpdateLatestScan =
    "UPDATE image_versions SET latest_scan_id = (SELECT id FROM scans WHERE version_id = $1 "
    "ORDER BY scanned_at DESC, created_at DESC, id DESC LIMIT 1) WHERE id = $1 RETURNING latest_scan_id";
constexpr std::string_view kUpdateLatestVersion =
    "UPDATE images SET latest_version_id = (SELECT id FROM image_versions WHERE image_id = $1 "
    "ORDER BY published_at DESC, created_at DESC, id LIMIT 1) WHERE id = $1";
// With the findings' image (sql/V0024: part of the row's key to its version), so that no trigger
// looks it up for each of them.
constexpr std::string_view kFirstSeen =
    "INSERT INTO vulnerability_first_seen (version_id, vuln_id, first_seen_at, image_id) "
    "SELECT DISTINCT $1::uuid, vuln_id, now(), image_id FROM vulnerabilities WHERE set_id = $2 "
    "AND fix_state <> 'not-affected' ON CONFLICT DO NOTHING";
// What the new latest version $2 fixes against $1, the image's previous latest version: the ids of
// $1's latest scan (not-affected aside) that $2's latest scan lacks, by id; with $1's tag.
constexpr std::string_view kFixedAgainst =
    "SELECT v.tag, x.vuln_id FROM image_versions v JOIN vulnerabilities x ON x.set_id = v.latest_findings_set_id "
    "WHERE v.id = $1 AND x.fix_state <> 'not-affected' AND x.vuln_id NOT IN (SELECT y.vuln_id FROM image_versions w "
    "JOIN vulnerabilities y ON y.set_id = w.latest_findings_set_id WHERE w.id = $2 AND y.fix_state <> 'not-affected') "
    "GROUP BY v.tag, x.vuln_id ORDER BY x.vuln_id";
constexpr std::string_view kVersionTag = "SELECT tag FROM image_versions WHERE id = $1";
constexpr std::string_view kLatestVersionOf = "SELECT latest_version_id FROM images WHERE id = $1";
constexpr std::string_view kWatchers =
    "SELECT w.tenant_id, w.cve_id FROM cve_watches w JOIN licenses l ON l.tenant_id = w.tenant_id AND l.image_id = $1 "
    "WHERE w.cve_id = ANY($2::text[]) ORDER BY w.tenant_id, w.cve_id";

// ------------------------------------------------------------------ arguments and inputs

struct Sbom {
  InputFile file;
  SbomDocument doc;
  std::string signature;  // base64 Ed25519 over the bytes
};

struct Inputs {
  InputFile report_file;
  ScanReport report;
  std::vector<Sbom> sboms;
  std::string input_sha256;
  std::optional<std::string> scanned_at;  // nullopt: the time of ingest
  std::vector<std::string> notes;         // what the reply adds about the same-scan proof
};

void CheckTime(const std::string& path, const char* what, const std::optional<std::string>& time) {
  if (time && !IsRfc3339(*time)) throw Failure(path + ": " + what + " '" + *time + "' is not an RFC 3339 time");
}

// The report and the SBOMs are one scan of the image of --digest (docs/scans.md, "Same scan and
// image identity"); sets the scan time and what the reply says of the proof.
void CheckAgreement(const ScanIngestRequest& request, Inputs& inputs) {
  std::vector<NamedSbom> sboms;
  for (const Sbom& sbom : inputs.sboms) sboms.push_back({sbom.file.path, &sbom.doc});
  SameScan same = CheckSameScan(inputs.report, inputs.report_file.path, request.digest, sboms);
  if (same.refusal) throw Failure(*same.refusal);
  inputs.scanned_at = same.scanned_at;
  inputs.notes = same.notes;
}

// The SBOM at `path`, read by `parse` (ParseCycloneDx, ParseSpdx) and checked to describe an image;
// its bytes also go to `bytes`, for the input digest. Not signed yet.
Sbom LoadSbom(const std::string& path, SbomDocument (*parse)(std::string_view, std::string_view),
              const ScanIngestRequest& request, const Config& config, std::optional<std::string>& bytes) {
  InputFile file = ReadInput(path, config);
  SbomDocument doc = parse(file.path, file.bytes);
  RequireImageSbom(file.path, doc, request.require_complete);
  bytes = file.bytes;
  return {std::move(file), std::move(doc), ""};
}

// Reads, parses and checks every file; signs the SBOMs. Nothing is written.
Inputs LoadInputs(const ScanIngestRequest& request, const Config& config, const SigningKey& key) {
  Inputs inputs;
  inputs.report_file = ReadInput(request.report_path, config);
  inputs.report = ParseReport(inputs.report_file.path, inputs.report_file.bytes);
  CheckTime(inputs.report_file.path, "the scan time", inputs.report.scanned_at);
  CheckTime(inputs.report_file.path, "the vulnerability database time", inputs.report.vulndb_updated_at);
  std::optional<std::string> spdx_bytes, cyclonedx_bytes;
  if (request.cyclonedx_path) {
    inputs.sboms.push_back(LoadSbom(*request.cyclonedx_path, ParseCycloneDx, request, config, cyclonedx_bytes));
  }
  if (request.spdx_path) inputs.sboms.push_back(LoadSbom(*request.spdx_path, ParseSpdx, request, config, spdx_bytes));
  CheckAgreement(request, inputs);
  inputs.input_sha256 = InputDigest(inputs.report_file.bytes, spdx_bytes, cyclonedx_bytes);
  for (const Sbom& sbom : inputs.sboms) {
    // Older Trivy reports carry no version; the same run's SBOM names it.
    if (!inputs.report.scanner_version && sbom.doc.tool_name && sbom.doc.tool_version &&
        Upper(*sbom.doc.tool_name) == Upper(inputs.report.scanner_name)) {
      inputs.report.scanner_version = sbom.doc.tool_version;
    }
  }
  for (Sbom& sbom : inputs.sboms) sbom.signature = Base64Encode(Ed25519Sign(key.private_pem, sbom.file.bytes));
  SortFindings(inputs.report.findings);
  return inputs;
}

// ------------------------------------------------------------------ database

struct Target {
  std::string image_id, version_id;
  std::optional<std::string> previous_latest_version_id;  // the image's latest version before this ingest
  std::optional<std::string> previous_scan_id;            // the version's latest scan before this one
  bool created_version = false;
};

std::string DefaultRepository(std::string registry, const std::string& name) {
  while (!registry.empty() && registry.back() == '/') registry.pop_back();
  return registry.empty() ? name : registry + "/" + name;
}

// The base OS given on the command line, else the one the report names.
std::optional<std::string> BaseOs(const ScanIngestRequest& request, const Inputs& inputs) {
  return request.base_os ? request.base_os : inputs.report.os;
}

std::string LockOrCreateImage(Db& db, const ScanIngestRequest& request, const Inputs& inputs, const Config& config,
                              std::optional<std::string>& latest_version_id) {
  Rows image = db.RunSql(kLockImage, {request.image});
  if (!image.empty()) {
    latest_version_id = image.OptionalText(0, image.Column("latest_version_id"));
    std::string repository(image.Text(0, image.Column("repository")));
    if (request.repository && *request.repository != repository) {
      throw Failure("--repository: image " + request.image + " already has repository " + repository +
                    "; ingest does not change it");
    }
    return std::string(image.Text(0, image.Column("id")));
  }
  std::string repository =
      request.repository.value_or(inputs.report.repositories.empty() ? DefaultRepository(config.registry, request.image)
                                                                     : inputs.report.repositories.front());
  Rows created = db.RunSql(kCreateImage, {request.image, BaseOs(request, inputs), repository});
  if (!created.empty()) return std::string(created.Text(0, created.Column("id")));
  image = db.RunSql(kLockImage, {request.image});  // created meanwhile by a concurrent ingest
  if (!image.empty()) return std::string(image.Text(0, image.Column("id")));
  Rows owner = db.RunSql(kRepositoryOwner, {repository});
  throw Failure("repository " + repository + " already belongs to image " +
                (owner.empty() ? std::string("another image") : std::string(owner.Text(0, owner.Column("name")))) +
                " (give --repository for " + request.image + ")");
}

Target LockOrCreateVersion(Db& db, const ScanIngestRequest& request, const Inputs& inputs, const Config& config) {
  Target target;
  target.image_id = LockOrCreateImage(db, request, inputs, config, target.previous_latest_version_id);
  std::optional<long long> size = request.size ? request.size : inputs.report.image_size;
  std::optional<std::string> base_os = BaseOs(request, inputs);
  std::optional<std::string> tags;
  if (request.hardening_tags) tags = TextArrayLiteral(*request.hardening_tags);
  Rows version = db.RunSql(kLockVersion, {target.image_id, request.tag});
  if (version.empty()) {
    Rows created = db.RunSql(kCreateVersion, {target.image_id, request.tag, request.digest, size, base_os,
                                              tags.value_or("{}"), request.published});
    target.version_id = created.Text(0, created.Column("id"));
    target.created_version = true;
    return target;
  }
  std::string digest(version.Text(0, version.Column("digest")));
  if (digest != request.digest) {
    throw Failure("--digest: version " + request.tag + " of " + request.image + " has digest " + digest + ", not " +
                  request.digest);
  }
  target.version_id = version.Text(0, version.Column("id"));
  target.previous_scan_id = version.OptionalText(0, version.Column("latest_scan_id"));
  db.ExecSql(kUpdateVersion,
             {target.version_id, request.size, request.base_os, tags, request.published, inputs.report.image_size});
  return target;
}

std::string FindingsJson(const std::vector<Finding>& findings) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteObjects(w, findings, [&](JsonWriter& w, const Finding& f) {
    WriteString(w, "id", f.vuln_id);
    WriteStringArray(w, "aliases", f.aliases);
    WriteString(w, "package", f.package_name);
    WriteOptionalString(w, "version", f.package_version);
    WriteOptionalString(w, "type", f.package_type);
    WriteOptionalString(w, "purl", f.purl);
    WriteString(w, "severity", f.severity);
    WriteOptionalDouble(w, "cvss", f.cvss_score);
    WriteString(w, "fixState", f.fix_state);
    WriteOptionalString(w, "fixedVersion", f.fixed_version);
    WriteOptionalString(w, "title", f.title);
    WriteOptionalString(w, "url", f.primary_url);
    WriteString(w, "severitySources", SeveritySourcesJson(f.severity_sources));
    WriteOptionalString(w, "severitySource", f.severity_source);
  });
  return buffer.GetString();
}

}  // namespace

std::string PackagesJson(const std::vector<const SbomDocument*>& docs) {
  // One entry per purl: a scan's CycloneDX and SPDX documents list the same packages.
  std::map<std::string, const SbomPackage*> by_purl;
  for (const SbomDocument* doc : docs) {
    for (const SbomPackage& p : doc->packages) by_purl.emplace(p.purl, &p);
  }
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartArray();
  for (const auto& [purl, p] : by_purl) {
    w.StartObject();
    WriteString(w, "purl", purl);
    WriteString(w, "name", p->name);
    WriteOptionalString(w, "version", p->version);
    w.EndObject();
  }
  w.EndArray();
  return buffer.GetString();
}

std::optional<std::string> StorePackageSet(Db& db, const std::string& image_id,
                                           const std::vector<const SbomDocument*>& docs) {
  if (docs.empty()) return std::nullopt;  // a scan without SBOMs lists no packages, which is not "none"
  Rows set = db.RunSql(kStorePackages, {image_id, PackagesJson(docs)});
  return std::string(set.Text(0, set.Column("package_set_id")));
}

namespace {

std::optional<std::string> StorePackages(Db& db, const std::string& image_id, const std::vector<Sbom>& sboms) {
  std::vector<const SbomDocument*> docs;
  for (const Sbom& sbom : sboms) docs.push_back(&sbom.doc);
  return StorePackageSet(db, image_id, docs);
}

struct StoredScan {
  std::string id, scanned_at, findings_set_id;
  bool findings_stored = false;  // false: the version already had a set of exactly these findings
  ScanCounts counts;
};

ScanCounts Recount(Db& db, const std::string& scan_id) {
  Rows rows = db.RunSql(kRecount, {scan_id});
  ScanCounts c;
  for (size_t i = 0; i < kSeverities.size(); ++i) {
    c.vulnerabilities[i] = rows.Int(0, rows.Column(std::string(kSeverities[i]) + "_count"));
    c.findings[i] = rows.Int(0, rows.Column("findings_" + std::string(kSeverities[i])));
  }
  c.fixable = rows.Int(0, rows.Column("fixable_count"));
  c.vex_excluded = rows.Int(0, rows.Column("vex_excluded_count"));
  return c;
}

StoredScan InsertScan(Db& db, const Target& target, const Inputs& inputs, const std::string& key_id) {
  const ScanReport& r = inputs.report;
  Rows set = db.RunSql(kStoreFindings, {target.version_id, FindingsJson(r.findings)});
  std::string set_id(set.Text(0, set.Column("findings_set_id")));
  std::optional<std::string> package_set_id = StorePackages(db, target.image_id, inputs.sboms);
  Rows scan = db.RunSql(kInsertScan, {target.version_id, r.scanner_name, r.scanner_version, inputs.scanned_at,
                                      r.vulndb_updated_at, inputs.input_sha256, set_id, package_set_id});
  StoredScan stored{std::string(scan.Text(0, scan.Column("id"))),
                    std::string(scan.Text(0, scan.Column("scanned_at"))),
                    set_id,
                    set.Bool(0, set.Column("stored_now")),
                    {}};
  for (const Sbom& sbom : inputs.sboms) {
    db.ExecSql(kInsertSbom, {stored.id, sbom.doc.format, sbom.doc.spec_version, sbom.file.sha256_hex,
                             static_cast<long long>(sbom.file.bytes.size()), sbom.doc.tool_name, sbom.doc.tool_version,
                             sbom.signature, key_id, CompletenessJson(sbom.doc.completeness)});
  }
  stored.counts = Recount(db, stored.id);
  return stored;
}

// The findings of a stored scan as events carry them, with their feeds.
std::vector<EventFinding> ScanFindings(Db& db, const std::optional<std::string>& scan_id) {
  std::vector<EventFinding> out;
  if (!scan_id) return out;
  Rows rows = db.RunSql(kScanFindings, {*scan_id});
  const int vuln_id = rows.Column("vuln_id"), severity = rows.Column("severity"),
            package_name = rows.Column("package_name"), fix_state = rows.Column("fix_state");
  const FeedColumns feeds(rows);
  for (int i = 0; i < rows.size(); ++i) {
    out.push_back({std::string(rows.Text(i, vuln_id)), std::string(rows.Text(i, severity)),
                   std::string(rows.Text(i, package_name)), std::string(rows.Text(i, fix_state)), feeds.At(rows, i)});
  }
  return out;
}

// cve_watch.matched: one event per tenant and watched id newly present on this version (the id of
// a finding or one of its aliases), carrying the findings it names.
void WriteWatchEvents(Db& db, const Target& target, const EventSubject& subject, const std::vector<Finding>& findings,
                      const std::vector<EventFinding>& fresh) {
  std::map<std::string, std::vector<EventFinding>> by_id;
  for (const EventFinding& e : fresh) {
    for (const Finding& f : findings) {
      if (f.vuln_id != e.vuln_id || f.package_name != e.package) continue;
      by_id[f.vuln_id].push_back(e);
      for (const std::string& alias : f.aliases) by_id[alias].push_back(e);
      break;
    }
  }
  if (by_id.empty()) return;
  std::vector<std::string> ids;
  for (const auto& [id, matched] : by_id) ids.push_back(id);
  Rows watchers = db.RunSql(kWatchers, {target.image_id, TextArrayLiteral(ids)});
  const int tenant_id = watchers.Column("tenant_id"), cve_id_col = watchers.Column("cve_id");
  for (int i = 0; i < watchers.size(); ++i) {
    std::string cve_id(watchers.Text(i, cve_id_col));
    db.ExecSql(outbox::kEventForTenant.sql, {std::string(watchers.Text(i, tenant_id)),
                                             EventData(subject, &by_id[cve_id], &cve_id), subject.traceparent});
  }
}

// What this scan's version fixes against the image's previous latest version, when this scan is the
// first of a version that has just become the image's latest (docs/compare.md, "Events"); nullopt
// otherwise. A rescan, or a version published behind the latest, fixes nothing new for anyone.
std::optional<EventFixes> FixesOfNewLatest(Db& db, const Target& target, bool became_latest) {
  const std::optional<std::string>& before = target.previous_latest_version_id;
  if (!became_latest || target.previous_scan_id || !before || *before == target.version_id) return std::nullopt;
  Rows latest = db.RunSql(kLatestVersionOf, {target.image_id});
  if (latest.OptionalText(0, latest.Column("latest_version_id")) != target.version_id) return std::nullopt;
  Rows fixed = db.RunSql(kFixedAgainst, {*before, target.version_id});
  EventFixes fixes{*before, "", fixed.size(), {}};
  Rows tag = db.RunSql(kVersionTag, {*before});
  fixes.tag = tag.Text(0, tag.Column("tag"));
  for (int i = 0; i < fixed.size() && fixes.ids.size() < kEventFixesShown; i++) {
    fixes.ids.emplace_back(fixed.Text(i, fixed.Column("vuln_id")));
  }
  return fixes;
}

// scan.completed always; when this scan is now the version's latest, also vulnerability.detected
// and .fixed against the previous latest scan, and cve_watch.matched. A back-filled older scan
// changes nothing current, so it announces only its completion.
void WriteEvents(Db& db, const Target& target, const EventSubject& subject, const std::vector<Finding>& findings,
                 bool became_latest) {
  // An event of `type` for every tenant licensed to the image.
  auto announce = [&](const char* type, const std::vector<EventFinding>* changed) {
    db.ExecSql(outbox::kEventPerLicensee.sql,
               {target.image_id, type, EventData(subject, changed), subject.traceparent});
  };
  std::optional<EventFixes> fixes = FixesOfNewLatest(db, target, became_latest);
  db.ExecSql(outbox::kEventPerLicensee.sql,
             {target.image_id, "scan.completed", EventData(subject, nullptr, nullptr, fixes ? &*fixes : nullptr),
              subject.traceparent});
  if (!became_latest) return;
  std::vector<EventFinding> current = ScanFindings(db, subject.scan_id);
  std::vector<EventFinding> previous = ScanFindings(db, target.previous_scan_id);
  std::vector<EventFinding> detected = NewlyPresent(current, previous);
  std::vector<EventFinding> fixed = NewlyPresent(previous, current);
  if (!detected.empty()) announce("vulnerability.detected", &detected);
  if (!fixed.empty()) announce("vulnerability.fixed", &fixed);
  WriteWatchEvents(db, target, subject, findings, detected);
}

std::string CountsText(const ScanCounts& c) {
  long long total = 0, findings = 0;
  std::string parts;
  for (size_t i = 0; i < kSeverities.size(); ++i) {
    total += c.vulnerabilities[i];
    findings += c.findings[i];
    parts += (i ? ", " : "") + std::to_string(c.vulnerabilities[i]) + " " + std::string(kSeverities[i]);
  }
  std::string text =
      std::to_string(total) + " vulnerabilities (" + parts + ") in " + std::to_string(findings) + " findings";
  if (c.vex_excluded) text += ", " + std::to_string(c.vex_excluded) + " more the vendor's VEX marks not_affected";
  return text;
}

}  // namespace

void IngestScan(const ScanIngestRequest& request, std::ostream& out) {
  Session session;
  const Config& config = session.config;
  SigningKey key = LoadSigningKey(config);
  SigningKey attestation_key = LoadAttestationKey(config);
  Inputs inputs = LoadInputs(request, config, key);

  Db& db = session.db;
  Transaction transaction(db);
  Target target = LockOrCreateVersion(db, request, inputs, config);
  Rows same = db.RunSql(kSameFiles, {target.version_id, inputs.input_sha256});
  if (!same.empty()) {
    out << "scan " << same.Text(0, same.Column("id")) << " already ingested: " << request.image << " " << request.tag
        << " has a scan of exactly these files; nothing changed\n";
    return;  // the transaction rolls back
  }
  RememberSigningKey(db, key);
  // Every check has passed: the bytes go to the blob store (durably) before the scan that
  // references them can commit. A crash from here on leaves at most unreferenced blobs, which
  // icatctl gc removes, and a temp file, which the next ingest removes here first.
  db.ExecSql(kShareBlobLock, {kBlobLockId});
  (void)RemoveDeadTempFiles(config.blob_dir, false);
  for (const Sbom& sbom : inputs.sboms) (void)StoreBlob(config.blob_dir, sbom.file.bytes, sbom.file.sha256_hex);
  StoredScan scan = InsertScan(db, target, inputs, key.id);
  Rows latest = db.RunSql(kUpdateLatestScan, {target.version_id});
  db.ExecSql(kUpdateLatestVersion, {target.image_id});
  db.ExecSql(kFirstSeen, {target.version_id, scan.findings_set_id});
  // A statement about every version applies to a new one; the CycloneDX document links into the new SBOM.
  std::string vex_served = ServeVexDocuments(db, config.blob_dir, key, target.image_id);
  long long attested = AttestServedDocuments(db, config.blob_dir, attestation_key, target.image_id);
  // A pipeline's trace (the TRACEPARENT variable its CI step may set) continues in the events'
  // webhook deliveries; without one, the run begins its own.
  const char* pipeline_trace = std::getenv("TRACEPARENT");
  EventSubject subject{target.image_id,
                       request.image,
                       target.version_id,
                       request.tag,
                       request.digest,
                       scan.id,
                       inputs.report.scanner_name,
                       scan.scanned_at,
                       ContinueTrace(pipeline_trace ? pipeline_trace : "").Traceparent()};
  WriteEvents(db, target, subject, inputs.report.findings, latest.Text(0, latest.Column("latest_scan_id")) == scan.id);
  transaction.Commit();
  NoteCachedDataChanged(session);

  std::string sboms;
  for (const Sbom& sbom : inputs.sboms)
    sboms += (sboms.empty() ? "" : ", ") + sbom.doc.format + " " + sbom.doc.spec_version;
  out << "scan " << scan.id << " ingested: " << request.image << " " << request.tag << ", "
      << inputs.report.scanner_name << " " << inputs.report.scanner_version.value_or("(version unknown)") << ", "
      << CountsText(scan.counts) << "; SBOMs: " << sboms << "\n";
  for (const Sbom& sbom : inputs.sboms) out << "completeness: " << CompletenessLine(sbom.doc) << "\n";
  if (!scan.findings_stored) out << "findings: the same as an earlier scan of this version, not stored again\n";
  for (const std::string& note : inputs.notes) out << "note: " << note << "\n";
  if (!vex_served.empty()) out << vex_served << "\n";
  out << "attestations: " << attested << " signed with key " << attestation_key.id << "\n";
}

}  // namespace icat::ctl
