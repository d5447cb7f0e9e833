// icat's commands over the /v1 API (commands.hpp): resolving IMAGE[:TAG|@DIGEST], paging, verified
// downloads, tables, and the check of image references.
#include "commands.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "icat/attestation.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"
#include "icat/vocabulary.hpp"
#include "rules.hpp"
#include "verify.hpp"

namespace icat::client {

namespace {

using rapidjson::Value;

std::string Str(const Value& object, const char* name) {
  return object.IsObject() && object.HasMember(name) && object[name].IsString() ? object[name].GetString() : "";
}

long long Int(const Value& object, const char* name) {
  return object.IsObject() && object.HasMember(name) && object[name].IsInt64() ? object[name].GetInt64() : 0;
}

const Value& Member(const Value& object, const char* name) {
  static const Value kNull;
  return object.IsObject() && object.HasMember(name) ? object[name] : kNull;
}

std::string ToJson(const Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

// Columns padded to their widest cell; the last column unpadded.
void PrintTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); i++) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); i++) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    std::cout << line << '\n';
  }
}

std::string Short(std::string_view digest) { return std::string(digest.substr(0, std::min<size_t>(digest.size(), 19))); }

// Every page of a list endpoint (path already holding its query), following nextCursor: the first
// page with the items of the others appended to its member `items`, and nextCursor null.
rapidjson::Document AllPages(Api& api, const std::string& path, const char* items) {
  std::string separator = path.find('?') == std::string::npos ? "?" : "&";
  rapidjson::Document all = api.GetJson(path);
  std::string cursor = Str(all, "nextCursor");
  for (int pages = 1; !cursor.empty(); pages++) {
    if (pages > 10000) throw Failure("GET " + path + ": the pages do not end");
    rapidjson::Document page = api.GetJson(path + separator + "cursor=" + UrlEncode(cursor));
    if (Member(page, items).IsArray() && Member(all, items).IsArray()) {
      for (Value& item : page[items].GetArray()) all[items].PushBack(Value(item, all.GetAllocator()), all.GetAllocator());
    }
    cursor = Str(page, "nextCursor");
  }
  if (all.IsObject() && all.HasMember("nextCursor")) all["nextCursor"].SetNull();
  return all;
}

struct ImageRow {
  std::string id, name, repository;
};

struct VersionRow {
  std::string id, tag, digest;
};

// The licensed image whose name is IMAGE, else whose repository is IMAGE.
ImageRow FindImage(Api& api, const std::string& image) {
  rapidjson::Document list = AllPages(api, "/v1/images?limit=200", "images");
  if (!Member(list, "images").IsArray()) throw Failure("GET /v1/images: the answer has no images list");
  const Value* by_repository = nullptr;
  for (const Value& item : list["images"].GetArray()) {
    if (Str(item, "name") == image) return {Str(item, "id"), Str(item, "name"), Str(item, "repository")};
    if (Str(item, "repository") == image && by_repository == nullptr) by_repository = &item;
  }
  if (by_repository) return {Str(*by_repository, "id"), Str(*by_repository, "name"), Str(*by_repository, "repository")};
  throw Failure("no licensed image is named '" + image + "' or has that repository (icat images lists them)");
}

// The version a tag and/or digest names, from the image's detail (which lists every version); with
// neither, the latest version.
VersionRow FindVersion(Api& api, const ImageRow& image, const ImageSpec& spec) {
  rapidjson::Document detail = api.GetJson("/v1/images/" + UrlEncode(image.id));
  if (spec.Latest()) {
    const Value& latest = Member(detail, "latestVersion");
    if (!latest.IsObject()) throw Failure(image.name + " has no versions yet");
    return {Str(latest, "id"), Str(latest, "tag"), Str(latest, "digest")};
  }
  const Value& versions = Member(detail, "versions");
  if (versions.IsArray()) {
    for (const Value& v : versions.GetArray()) {
      if (spec.tag && Str(v, "tag") != *spec.tag) continue;
      if (spec.digest && Str(v, "digest") != *spec.digest) continue;
      return {Str(v, "id"), Str(v, "tag"), Str(v, "digest")};
    }
  }
  std::string what = "version" + (spec.tag ? " " + *spec.tag : "") + (spec.digest ? " with digest " + *spec.digest : "");
  throw Failure(image.name + " has no " + what + " (icat images shows its latest version)");
}

// A versioned path answered 404 NOT_FOUND though the image and version were just found: the
// service does not have that endpoint (yet).
[[noreturn]] void ThrowNoEndpoint(const ApiFailure& failure, const std::string& endpoint, const std::string& hint) {
  throw Failure("the service has no endpoint " + endpoint + " yet (it answered " + std::to_string(failure.status) +
                " " + failure.error + (failure.message.empty() ? "" : ": " + failure.message) + ")" + hint);
}

// What fetch returns; when it meets 404 NOT_FOUND on a versioned path, though the image and version
// were just found, the service has no such endpoint (yet): said so, with hint.
template <typename Fetch>
auto OnVersionedPath(bool versioned, const std::string& endpoint, const std::string& hint, Fetch fetch) {
  try {
    return fetch();
  } catch (const ApiFailure& failure) {
    if (versioned && failure.status == 404 && failure.error == "NOT_FOUND") ThrowNoEndpoint(failure, endpoint, hint);
    throw;
  }
}

constexpr const char* kLatestHint = "; without a tag or digest icat reads the latest version";

// GET path expecting 200 (ApiFailure otherwise), the progress line labelled progress_label.
HttpReply GetOk(Api& api, const std::string& path, const std::string& progress_label = {}) {
  HttpReply reply = api.Get(path, false, progress_label);
  ExpectOk(reply, "GET " + path.substr(0, path.find('?')));
  return reply;
}

std::string ImagePath(const ImageRow& image, const std::optional<VersionRow>& version) {
  std::string path = "/v1/images/" + UrlEncode(image.id);
  if (version) path += "/versions/" + UrlEncode(version->id);
  return path;
}

ImageSpec SpecOf(const std::string& text) {
  std::string why;
  std::optional<ImageSpec> spec = ParseImageSpec(text, &why);
  if (!spec) throw UsageError(why);
  return *spec;
}

// The service's published keys (GET /v1/signing-keys: public, so asked without the API key).
std::vector<SigningKey> PublishedKeys(Api& api) {
  HttpReply listed = api.Get("/v1/signing-keys", true);
  ExpectOk(listed, "GET /v1/signing-keys");
  return ParseSigningKeys(listed.body);
}

// A version's document about to be written, with what its attestation must say.
struct Download {
  std::string what;  // "nginx 1.27.3 SPDX SBOM"
  const AttestationType* type;
  std::string version_path;    // /v1/images/{id}/versions/{versionId}
  std::string subject_digest;  // the version's digest
};

// Verifies a downloaded document (its checksum, then its attestation: verify.hpp) and writes it to
// output (stdout when empty); refuses it, writing nothing, with the reason.
void VerifiedDownload(Api& api, const HttpReply& reply, const Download& download, const std::string& output) {
  auto refuse = [&](const std::string& why) {
    std::string request_id = reply.Header("x-request-id");
    throw Failure("refusing the " + download.what + ": " + why +
                  (output.empty() ? "" : "; nothing was written to " + output) +
                  (request_id.empty() ? "" : " (request id " + request_id + ")"));
  };
  if (std::optional<std::string> why = ChecksumFailure(reply.body, reply.Header("etag"), reply.Header("repr-digest"))) {
    refuse(*why);
  }
  std::string type(download.type->name);
  HttpReply bundle = api.Get(download.version_path + "/attestations/" + type);
  if (bundle.status != 200) {
    try {
      ExpectOk(bundle, "GET /v1/images/{id}/versions/{versionId}/attestations/" + type);
    } catch (const ApiFailure& failure) {
      if (failure.error == "ATTESTATION_NOT_AVAILABLE")
        refuse("the service has no attestation of it to verify it with");
      if (failure.status == 404 && failure.error == "NOT_FOUND") {
        refuse(
            "the service has no attestations endpoint (it answered 404 NOT_FOUND), so the download cannot be verified");
      }
      throw;
    }
  }
  AttestationVerdict verdict = VerifyAttestation(
      bundle.body, {reply.body, download.type->predicate_type, download.subject_digest}, PublishedKeys(api));
  if (!verdict.failure.empty()) refuse("its attestation (" + type + ") does not verify: " + verdict.failure);
  if (output.empty()) {
    std::cout << reply.body << std::flush;
    return;
  }
  WriteFileAtomically(output, reply.body);
  std::cout << "wrote " << output << ": " << download.what << ", " << reply.body.size()
            << " bytes, checksum and attestation verified (" << type << ", key " << verdict.key_id << ")\n";
}

}  // namespace

void WriteFileAtomically(const std::string& path, std::string_view bytes) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") throw Failure(path + ": not a file name");
  std::string temp = dir + "/." + base + ".icat-XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) throw Failure(path + ": cannot create a file in " + dir + ": " + std::strerror(errno));
  auto fail = [&](const std::string& step) {
    int saved = errno;
    if (fd >= 0) close(fd);
    unlink(temp.c_str());
    throw Failure(path + ": cannot " + step + ": " + std::strerror(saved));
  };
  mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0) fail("set its mode");
  for (size_t written = 0; written < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write");
    written += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) fail("sync");
  if (close(fd) != 0) {
    fd = -1;
    fail("close");
  }
  fd = -1;
  if (rename(temp.c_str(), path.c_str()) != 0) fail("rename " + temp + " to it");
  int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    fsync(dir_fd);  // the rename itself survives a crash
    close(dir_fd);
  }
}

// icat images [--json]
int Images(const Args& args, const GetEnvFn& getenv) {
  Api api(ResolveConnection(args, getenv));
  rapidjson::Document list = AllPages(api, "/v1/images?limit=200", "images");
  if (args.Has("json")) {
    std::cout << ToJson(list);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows = {{"NAME", "LATEST", "SCAN", "CRITICAL", "HIGH", "MEDIUM", "LOW", "REPOSITORY"}};
  for (const Value& image : Member(list, "images").GetArray()) {
    const Value& latest = Member(image, "latestVersion");
    const Value& counts = Member(image, "vulnerabilityCounts");
    bool scanned = Str(latest, "scanStatus") == "scanned";
    auto count = [&](const char* severity) { return scanned ? std::to_string(Int(counts, severity)) : "-"; };
    rows.push_back({Str(image, "name"), latest.IsObject() ? Str(latest, "tag") : "-",
                    latest.IsObject() ? Str(latest, "scanStatus") : "-", count("critical"), count("high"),
                    count("medium"), count("low"), Str(image, "repository")});
  }
  PrintTable(rows);
  return kExitOk;
}

// icat sbom IMAGE[:TAG|@DIGEST] --format spdx|cyclonedx -o FILE
int Sbom(const Args& args, const GetEnvFn& getenv) {
  ImageSpec spec = SpecOf(args.Positional(0));
  const std::string& format = args.Value("format");
  if (format != "spdx" && format != "cyclonedx") throw UsageError("--format: '" + format + "' is not spdx or cyclonedx");
  Api api(ResolveConnection(args, getenv));
  ImageRow image = FindImage(api, spec.image);
  // Always the version's own path: the attestation is about one version's digest.
  VersionRow version = FindVersion(api, image, spec);
  std::string path = ImagePath(image, version) + "/sbom?format=" + format;
  const AttestationType* type = FindAttestationType(format);
  std::string what =
      image.name + " " + version.tag + (spec.Latest() ? " (latest) " : " ") + std::string(type->document);
  HttpReply reply = OnVersionedPath(true, "GET /v1/images/{id}/versions/{versionId}/sbom", "",
                                    [&] { return GetOk(api, path, "downloading " + what); });
  VerifiedDownload(api, reply, {what, type, ImagePath(image, version), version.digest}, args.Value("output"));
  return kExitOk;
}

// icat vulns IMAGE[:TAG|@DIGEST] [--severity LIST] [--fix-state LIST] [--json]
int Vulns(const Args& args, const GetEnvFn& getenv) {
  ImageSpec spec = SpecOf(args.Positional(0));
  Api api(ResolveConnection(args, getenv));
  ImageRow image = FindImage(api, spec.image);
  std::optional<VersionRow> version;
  if (!spec.Latest()) version = FindVersion(api, image, spec);
  std::string path = ImagePath(image, version) + "/vulnerabilities?limit=200";
  if (std::optional<std::string> severity = args.Optional("severity")) path += "&severity=" + UrlEncode(*severity);
  if (std::optional<std::string> states = args.Optional("fix-state")) path += "&fixState=" + UrlEncode(*states);
  rapidjson::Document all = OnVersionedPath(version.has_value(), "GET /v1/images/{id}/versions/{versionId}/vulnerabilities",
                                             kLatestHint, [&] { return AllPages(api, path, "vulnerabilities"); });
  if (args.Has("json")) {
    std::cout << ToJson(all);
    return kExitOk;
  }
  const Value& v = Member(all, "version");
  std::string title = image.name + " " + (v.IsObject() ? Str(v, "tag") + " (" + Short(Str(v, "digest")) + "...)" : "");
  if (Str(all, "scanStatus") != "scanned") {
    std::cout << title << ": never scanned, so its vulnerabilities are unknown (not none)\n";
    return kExitOk;
  }
  const Value& scan = Member(all, "scan");
  std::map<std::string, int> counts;
  for (std::string_view severity : kSeverities) {
    std::string name(severity);
    counts[name] = static_cast<int>(Int(Member(all, "vulnerabilityCounts"), name.c_str()));
  }
  std::cout << title << ": scanned " << Str(scan, "scannedAt") << " by " << Str(scan, "scanner") << " "
            << Str(scan, "scannerVersion") << "; " << CountsText(counts) << "; " << Int(all, "fixableCount")
            << " fixable\n";
  std::vector<std::vector<std::string>> rows = {{"ID", "SEVERITY", "PACKAGE", "VERSION", "FIX-STATE", "FIXED-IN"}};
  for (const Value& f : Member(all, "vulnerabilities").GetArray()) {
    const Value& package = Member(f, "package");
    std::string fixed = Str(f, "fixedVersion");
    rows.push_back({Str(f, "id"), Str(f, "severity"), Str(package, "name"), Str(package, "version"), Str(f, "fixState"),
                    fixed.empty() ? "-" : fixed});
  }
  if (rows.size() == 1) {
    std::cout << "no findings" << (args.Has("severity") || args.Has("fix-state") ? " match the filter" : "") << '\n';
  } else {
    PrintTable(rows);
  }
  return kExitOk;
}

// icat cve CVE-ID [--all-versions] [--json]
int Cve(const Args& args, const GetEnvFn& getenv) {
  Api api(ResolveConnection(args, getenv));
  std::string id = args.Positional(0);
  rapidjson::Document found =
      api.GetJson("/v1/cve/" + UrlEncode(id) + (args.Has("all-versions") ? "?versions=all" : ""));
  if (args.Has("json")) {
    std::cout << ToJson(found);
    return kExitOk;
  }
  std::string cve = Str(found, "cveId");
  std::vector<std::vector<std::string>> rows = {
      {"IMAGE", "VERSION", "PACKAGE", "INSTALLED", "SEVERITY", "FIX-STATE", "FIXED-IN", "AS"}};
  for (const Value& image : Member(found, "images").GetArray()) {
    for (const Value& version : Member(image, "versions").GetArray()) {
      std::string tag = Str(version, "tag") + (Member(version, "latest").IsTrue() ? " (latest)" : "");
      for (const Value& p : Member(version, "packages").GetArray()) {
        std::string fixed = Str(p, "fixedVersion");
        rows.push_back({Str(image, "name"), tag, Str(p, "name"), Str(p, "version"), Str(p, "severity"),
                        Str(p, "fixState"), fixed.empty() ? "-" : fixed, Str(p, "vulnerabilityId")});
      }
    }
  }
  std::string scope = args.Has("all-versions") ? "any version of" : "the latest version of";
  if (rows.size() == 1) {
    std::cout << "no licensed image carries " << cve << " in " << scope << " it\n";
  } else {
    std::cout << cve << " in " << scope << " these images:\n";
    PrintTable(rows);
  }
  for (const Value& image : Member(found, "unscannedImages").GetArray()) {
    std::string tags;
    for (const Value& v : Member(image, "versions").GetArray()) tags += (tags.empty() ? "" : ", ") + Str(v, "tag");
    std::cout << "unknown for " << Str(image, "name") << " " << tags << ": never scanned\n";
  }
  return kExitOk;
}

// One line of a vulnerability of a comparison: id, severity, KEV and EPSS when known, its packages.
std::vector<std::string> DiffVulnRow(const Value& v) {
  const Value& epss = Member(v, "epss");
  std::string score = epss.IsObject() && epss["score"].IsNumber() ? std::to_string(epss["score"].GetDouble()) : "-";
  std::string packages;
  for (const Value& p : Member(v, "packages").GetArray()) {
    packages += (packages.empty() ? "" : ", ") + Str(p, "name") + " " + Str(p, "version");
  }
  return {Str(v, "id"), Str(v, "severity"), Member(v, "kev").IsObject() ? "yes" : "-", score.substr(0, 6), packages};
}

// icat diff IMAGE FROM TO [--format text|json]: GET /v1/images/{id}/compare?from=FROM&to=TO
int Diff(const Args& args, const GetEnvFn& getenv) {
  std::string format = args.Optional("format").value_or("text");
  if (format != "text" && format != "json") throw UsageError("--format: '" + format + "' is not text or json");
  Api api(ResolveConnection(args, getenv));
  ImageRow image = FindImage(api, args.Positional(0));
  const std::string &from = args.Positional(1), &to = args.Positional(2);
  rapidjson::Document diff = api.GetJson("/v1/images/" + UrlEncode(image.id) + "/compare?from=" + UrlEncode(from) +
                                         "&to=" + UrlEncode(to));
  if (format == "json") {
    std::cout << ToJson(diff);
    return kExitOk;
  }
  const Value &packages = Member(diff, "packages"), &vulns = Member(diff, "vulnerabilities");
  std::cout << image.name << " " << Str(Member(diff, "from"), "tag") << " -> " << Str(Member(diff, "to"), "tag")
            << ": packages " << Int(packages, "addedCount") << " added, " << Int(packages, "removedCount")
            << " removed, " << Int(packages, "changedCount") << " changed; vulnerabilities " << Int(vulns, "fixedCount")
            << " fixed, " << Int(vulns, "introducedCount") << " introduced, " << Int(vulns, "remainingCount")
            << " remaining\n";
  std::vector<std::vector<std::string>> rows = {{"CHANGE", "PACKAGE", "TYPE", "FROM", "TO"}};
  for (const char* change : {"added", "removed", "changed"}) {
    for (const Value& p : Member(packages, change).GetArray()) {
      std::string before = Str(p, "fromVersion"), after = Str(p, "toVersion");
      rows.push_back({change, Str(p, "name"), Str(p, "type"), before.empty() ? "-" : before,
                      after.empty() ? "-" : after});
    }
  }
  if (rows.size() > 1) PrintTable(rows);
  // Fixed and introduced ones, known exploited first, then by EPSS, then severity (the API's order).
  for (const char* change : {"fixed", "introduced"}) {
    std::vector<std::vector<std::string>> vuln_rows = {{"ID", "SEVERITY", "KEV", "EPSS", "PACKAGES"}};
    for (const Value& v : Member(vulns, change).GetArray()) vuln_rows.push_back(DiffVulnRow(v));
    if (vuln_rows.size() == 1) continue;
    std::cout << "\n" << change << ":\n";
    PrintTable(vuln_rows);
  }
  return kExitOk;
}

// icat vex IMAGE[:TAG|@DIGEST] [--format openvex|cyclonedx] [-o FILE]
int Vex(const Args& args, const GetEnvFn& getenv) {
  ImageSpec spec = SpecOf(args.Positional(0));
  std::string format = args.Optional("format").value_or(std::string(kVexFormats[0]));
  if (!IsOneOf(format, kVexFormats)) throw UsageError("--format: '" + format + "' is not openvex or cyclonedx");
  std::string output = args.Optional("output").value_or("");
  Api api(ResolveConnection(args, getenv));
  ImageRow image = FindImage(api, spec.image);
  VersionRow version = FindVersion(api, image, spec);  // the latest one without a tag or digest
  std::string path = ImagePath(image, version) + "/vex?format=" + format;
  std::string what =
      image.name + " " + version.tag + (format == "openvex" ? " OpenVEX document" : " CycloneDX VEX document");
  HttpReply reply;
  try {
    // Always a versioned path: the latest version was found in the image's detail too.
    reply = OnVersionedPath(true, "GET /v1/images/{id}/versions/{versionId}/vex", "; it serves no VEX documents",
                            [&] { return GetOk(api, path, "downloading " + what); });
  } catch (const ApiFailure& failure) {
    if (failure.error != "VEX_NOT_AVAILABLE") throw;
    // Not an error: nothing to apply. Its own status, so a pipeline can run its scanner without --vex.
    std::cerr << "icat: " << failure.message << (output.empty() ? "" : " Nothing was written to " + output + ".")
              << " (exit " << kExitNoVex << ")\n";
    return kExitNoVex;
  }
  const AttestationType* type = FindAttestationType(format == "openvex" ? "openvex" : "cyclonedx-vex");
  VerifiedDownload(api, reply, {what, type, ImagePath(image, version), version.digest}, output);
  return kExitOk;
}

// One attestation of a version's listing (GET .../attestations), checked against its document as
// served: the line that says so ("ok ..." or "FAIL ..."), and whether it verified. An answer that
// keeps it from being checked (the API's refusal, the network) is thrown as Failure.
struct CheckedAttestation {
  std::string line;
  bool verified = false;
};

CheckedAttestation CheckListedAttestation(Api& api, const Value& listed, const std::string& version_path,
                                          const VersionRow& version, const std::vector<SigningKey>& keys) {
  std::string name = Str(listed, "type");
  const AttestationType* type = FindAttestationType(name);
  if (type == nullptr)
    throw Failure("the service lists an attestation of type '" + name + "', which this icat does not know");
  std::string label = name + "  " + std::string(type->predicate_type);
  auto fail = [&](const std::string& why) { return CheckedAttestation{"FAIL " + label + ": " + why, false}; };
  // The bundle's path is the API's fixed one; the document's is the one the listing names.
  HttpReply bundle = GetOk(api, version_path + "/attestations/" + name);
  std::string document_path = Str(Member(listed, "document"), "url");
  if (document_path.rfind("/v1/", 0) != 0) throw Failure("the " + name + " attestation names no document under /v1/");
  HttpReply document = GetOk(api, document_path);
  if (std::optional<std::string> why =
          ChecksumFailure(bundle.body, bundle.Header("etag"), bundle.Header("repr-digest"))) {
    return fail("the bundle's download: " + *why);
  }
  if (std::optional<std::string> why =
          ChecksumFailure(document.body, document.Header("etag"), document.Header("repr-digest"))) {
    return fail("the " + std::string(type->document) + "'s download: " + *why);
  }
  AttestationVerdict verdict =
      VerifyAttestation(bundle.body, {document.body, type->predicate_type, version.digest}, keys);
  if (!verdict.failure.empty()) return fail(verdict.failure);
  return {"ok " + label + "  key " + verdict.key_id, true};
}

// icat verify IMAGE[:TAG|@DIGEST]
int Verify(const Args& args, const GetEnvFn& getenv) {
  ImageSpec spec = SpecOf(args.Positional(0));
  Api api(ResolveConnection(args, getenv));
  ImageRow image = FindImage(api, spec.image);
  VersionRow version = FindVersion(api, image, spec);  // the latest one without a tag or digest
  if (spec.digest && *spec.digest != version.digest) {
    throw Failure(image.name + " " + version.tag + " has digest " + version.digest + ", not " + *spec.digest);
  }
  std::string what = image.name + " " + version.tag + " (" + version.digest + ")";
  std::string version_path = ImagePath(image, version);
  rapidjson::Document list = OnVersionedPath(true, "GET /v1/images/{id}/versions/{versionId}/attestations", "",
                                             [&] { return api.GetJson(version_path + "/attestations"); });
  const Value& attestations = Member(list, "attestations");
  if (!attestations.IsArray())
    throw Failure("GET " + version_path + "/attestations: the answer has no attestations list");
  if (attestations.Empty()) {
    std::cerr << "icat: " << what << " has no attestations: the service has signed none of its documents, so there is "
              << "nothing to verify\n";
    return kExitNotVerified;
  }
  std::vector<SigningKey> keys = PublishedKeys(api);
  int failed = 0, errors = 0;
  for (const Value& listed : attestations.GetArray()) {
    try {
      CheckedAttestation checked = CheckListedAttestation(api, listed, version_path, version, keys);
      failed += checked.verified ? 0 : 1;
      std::cout << checked.line << '\n';
    } catch (const Failure& failure) {
      errors++;
      std::cout << "ERROR " << Str(listed, "type") << ": " << failure.what() << '\n';
    }
  }
  std::cout << std::flush;
  int total = static_cast<int>(attestations.Size());
  if (failed + errors == 0) {
    std::cout << "verified " << what << ": " << total << " attestation" << (total == 1 ? "" : "s")
              << ", each signed with a published key, about this digest, over the document as served\n";
    return kExitOk;
  }
  std::cerr << "icat: " << what << ": " << failed << " of " << total << " attestations did not verify"
            << (errors ? ", " + std::to_string(errors) + " could not be checked" : "") << '\n';
  return errors ? kExitError : kExitNotVerified;
}

// --max-epss N: a number from 0 to 1.
std::optional<double> ParseMaxEpss(const Args& args) {
  std::optional<std::string> text = args.Optional("max-epss");
  if (!text) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text->c_str(), &end);
  if (text->empty() || *end != '\0' || !(value >= 0 && value <= 1)) {
    throw UsageError("--max-epss: '" + *text + "' is not a number from 0 to 1");
  }
  return value;
}

// One finding of GET .../vulnerabilities. kev and epss are read when the service sends them; a rule
// that needs them fails the reference with an error when it does not (rather than passing it blind).
Finding ReadFinding(const Value& f, const icat::AdmissionPolicy& policy) {
  const Value& vex = Member(f, "vex");
  Finding finding{Str(f, "id"), Str(f, "severity"), Str(f, "fixState"), vex.IsObject() ? Str(vex, "status") : "", {},
                  std::nullopt, std::nullopt};
  const Value& aliases = Member(f, "aliases");
  if (aliases.IsArray()) {
    for (const Value& alias : aliases.GetArray()) {
      if (alias.IsString()) finding.aliases.push_back(alias.GetString());
    }
  }
  bool has_feeds = f.IsObject() && f.HasMember("kev") && f.HasMember("epss");
  if ((policy.deny_known_exploited || policy.max_epss) && !has_feeds) {
    throw Failure("the service does not send the findings' kev and epss fields, which --deny-known-exploited and "
                  "--max-epss need");
  }
  const Value& kev = Member(f, "kev");
  if (kev.IsObject()) finding.kev_added = Str(kev, "dateAdded");
  const Value& epss = Member(f, "epss");
  if (epss.IsObject() && Member(epss, "score").IsNumber()) finding.epss = Member(epss, "score").GetDouble();
  return finding;
}

// icat check REFERENCE... --fail-on LEVEL [--deny-known-exploited] [--max-epss N]
int Check(const Args& args, const GetEnvFn& getenv) {
  std::optional<int> level = ParseLevel(args.Value("fail-on"));
  if (!level) throw UsageError("--fail-on: '" + args.Value("fail-on") + "' is not critical, high, medium or low");
  const icat::AdmissionPolicy policy = CheckPolicy(*level, args.Has("deny-known-exploited"), ParseMaxEpss(args));
  Api api(ResolveConnection(args, getenv));
  bool any_error = false, any_failed = false;
  const std::string& level_name = args.Value("fail-on");
  for (const std::string& reference : args.Positionals()) {
    try {
      rapidjson::Document found = api.GetJson("/v1/images?reference=" + UrlEncode(reference));
      const Value& images = Member(found, "images");
      if (!images.IsArray()) throw Failure("GET /v1/images?reference=: the answer has no images list");
      if (images.Empty()) throw Failure("unknown reference: no licensed image has a version it names");
      for (const Value& image : images.GetArray()) {
        const Value& matched = Member(image, "matchedVersion");
        if (!matched.IsObject()) {
          throw Failure("the service does not resolve references yet (GET /v1/images?reference= answered a plain list)");
        }
        std::string what = Str(image, "name") + " " + Str(matched, "tag") + " " + Short(Str(matched, "digest"));
        std::string path = "/v1/images/" + UrlEncode(Str(image, "id")) + "/versions/" + UrlEncode(Str(matched, "id")) +
                           "/vulnerabilities?limit=200";
        rapidjson::Document all = AllPages(api, path, "vulnerabilities");
        if (Str(all, "scanStatus") != "scanned") {
          any_failed = true;
          std::cout << "FAIL  " << reference << "  " << what << ": never scanned, its vulnerabilities are unknown\n";
          continue;
        }
        std::vector<Finding> findings;
        for (const Value& f : Member(all, "vulnerabilities").GetArray()) findings.push_back(ReadFinding(f, policy));
        Judgement judgement = Judge(findings, policy);
        any_failed = any_failed || judgement.failed;
        std::cout << (judgement.failed ? "FAIL  " : "PASS  ") << reference << "  " << what << ": "
                  << judgement.at_or_above << " at or above " << level_name << " (" << CountsText(judgement.counts)
                  << ")";
        if (!judgement.known_exploited.empty()) {
          std::cout << "; known exploited (CISA KEV): " << Join(judgement.known_exploited, ", ");
        }
        if (!judgement.above_epss.empty()) {
          std::cout << "; EPSS above " << *args.Optional("max-epss") << ": " << Join(judgement.above_epss, ", ");
        }
        if (judgement.excluded > 0) {
          std::cout << "; " << judgement.excluded
                    << " more not counted (not affected, by the vendor's VEX or the scanner)";
        }
        std::cout << '\n';
      }
    } catch (const Failure& failure) {
      any_error = true;
      std::cout << "ERROR " << reference << ": " << failure.what() << '\n';
    }
  }
  std::cout << std::flush;
  if (any_error) return kExitError;
  return any_failed ? kExitCheckFailed : kExitOk;
}

}  // namespace icat::client
