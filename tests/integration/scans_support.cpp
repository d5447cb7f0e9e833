// The scan tests' support: see scans_support.hpp.
#include "scans_support.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "icat/crypto.hpp"
#include "icat/jwt.hpp"

namespace icat::test {

namespace {

using rapidjson::Value;

const Value* Get(const Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string> Str(const Value& object, const char* name) {
  const Value* v = Get(object, name);
  if (!v || !v->IsString() || v->GetStringLength() == 0) return std::nullopt;
  return std::string(v->GetString(), v->GetStringLength());
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

rapidjson::Document ParseFile(const std::string& path) {
  std::string bytes = ReadFileBytes(path);
  rapidjson::Document d;
  d.Parse(bytes.c_str(), bytes.size());
  BOOST_TEST_REQUIRE(!d.HasParseError(), path << " is not JSON");
  return d;
}

std::string Severity(const std::optional<std::string>& text) {
  std::string s = Lower(text.value_or(""));
  if (s == "negligible") return "low";  // Grype's lowest bucket
  return s == "critical" || s == "high" || s == "medium" || s == "low" ? s : "unknown";
}

// Trivy's Status, or before Trivy 0.33 (no Status) whether a fixed version is named.
std::string TrivyFix(const std::optional<std::string>& status, const std::optional<std::string>& fixed) {
  if (!status) return fixed ? "fixed" : "not-fixed";
  std::string s = Lower(*status);
  if (s == "fixed") return "fixed";
  if (s == "affected" || s == "fix_deferred") return "not-fixed";
  if (s == "will_not_fix" || s == "end_of_life") return "wont-fix";
  if (s == "not_affected") return "not-affected";
  return "unknown";
}

// What an SBOM of the same run says of the image: the scanner that wrote it, the image's
// identity as the report names it, and the packages the report found vulnerable.
struct ReportImage {
  std::string name;
  std::string tool;          // "trivy", or "syft" (Grype catalogues with Syft)
  std::string tool_version;  // the report's, else "0.0.0"
  std::optional<std::string> image_id;
  std::vector<std::string> diff_ids;
  std::set<std::pair<std::string, std::string>> packages;  // name, version
};

ReportImage ImageOfReport(const std::string& report_path) {
  rapidjson::Document d = ParseFile(report_path);
  ReportImage image;
  for (const ExpectedFinding& f : DeriveFindings(report_path))
    image.packages.emplace(f.package, f.version.value_or("0"));
  if (image.packages.empty()) image.packages.emplace("base-files", "1");  // an SBOM of an image lists something
  if (const Value* matches = Get(d, "matches"); matches && matches->IsArray()) {
    const Value* target = Get(*Get(d, "source"), "target");
    image.name = Str(*target, "userInput").value_or("image");
    image.tool = "syft";
    const Value* descriptor = Get(d, "descriptor");
    image.tool_version = (descriptor ? Str(*descriptor, "version") : std::nullopt).value_or("0.0.0");
    image.image_id = Str(*target, "imageID");
    for (const Value& layer : (*Get(*target, "layers")).GetArray()) image.diff_ids.push_back(*Str(layer, "digest"));
    return image;
  }
  image.name = Str(d, "ArtifactName").value_or("image");
  image.tool = "trivy";
  const Value* trivy = Get(d, "Trivy");
  image.tool_version = (trivy ? Str(*trivy, "Version") : std::nullopt).value_or("0.0.0");
  const Value* metadata = Get(d, "Metadata");
  if (!metadata) return image;
  image.image_id = Str(*metadata, "ImageID");
  if (const Value* diff_ids = Get(*metadata, "DiffIDs"); diff_ids && diff_ids->IsArray()) {
    for (const Value& id : diff_ids->GetArray()) image.diff_ids.emplace_back(id.GetString());
  }
  return image;
}

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;
void Pair(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.c_str());
}

}  // namespace

// ------------------------------------------------------------------ files

std::string Fixture(const std::string& relative) {
  std::string path = GetEnv().repo + "/../shared/fixtures/" + relative;
  BOOST_TEST_REQUIRE(std::filesystem::exists(path), "fixture missing: " << path << " (../shared beside the clone)");
  return path;
}

std::string Sha256HexOf(const std::string& bytes) { return icat::Sha256Hex(bytes); }

TempDir::TempDir() {
  char pattern[] = "/tmp/icat-scans-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::Write(const std::string& name, const std::string& bytes) const {
  std::string path = path_ + "/" + name;
  WriteFileBytes(path, bytes);
  return path;
}

// ------------------------------------------------------------------ ingest

ProcessResult Ingest(const IngestArgs& a, const std::vector<std::string>& extra_env) {
  // env(1) replaces variables the test process already has (appending would not: getenv takes the first).
  std::vector<std::string> argv = {"env"};
  argv.insert(argv.end(), extra_env.begin(), extra_env.end());
  argv.insert(argv.end(), {GetEnv().bin_dir + "/icatctl", "ingest", "--image", a.image, "--version", a.version,
                           "--digest", a.digest, "--report", a.report});
  auto optional_flag = [&](const char* flag, const std::optional<std::string>& value) {
    if (value) argv.insert(argv.end(), {flag, *value});
  };
  optional_flag("--spdx", a.spdx);
  optional_flag("--cyclonedx", a.cyclonedx);
  optional_flag("--repository", a.repository);
  optional_flag("--published", a.published);
  argv.insert(argv.end(), a.extra.begin(), a.extra.end());
  return RunProcess(argv);
}

std::string ReportDigest(const std::string& report_path) {
  rapidjson::Document d = ParseFile(report_path);
  const Value* source = Get(d, "source");
  const Value* target = source ? Get(*source, "target") : nullptr;
  const Value* metadata = Get(d, "Metadata");
  const Value* references = target ? Get(*target, "repoDigests") : metadata ? Get(*metadata, "RepoDigests") : nullptr;
  if (references && references->IsArray() && !references->Empty()) {
    std::string reference = (*references)[0].GetString();
    return reference.substr(reference.rfind('@') + 1);
  }
  return RandomDigest();
}

std::string VersionIdOf(const std::string& image_name, const std::string& tag) {
  std::vector<PgRow> rows = PgQuery(
      "SELECT v.id FROM image_versions v JOIN images i ON i.id = v.image_id WHERE i.name = $1 AND v.tag = $2",
      {image_name, tag});
  BOOST_TEST_REQUIRE(rows.size() == 1u, "no version " << tag << " of " << image_name);
  return *rows.at(0).at(0);
}

std::string IngestOk(const IngestArgs& args) {
  ProcessResult result = Ingest(args);
  BOOST_TEST_REQUIRE(result.exit_code == 0,
                     "icatctl ingest " << args.report << " exited " << result.exit_code << ": " << result.err);
  std::istringstream words(result.out);
  std::string scan_word, id;
  words >> scan_word >> id;
  BOOST_TEST_REQUIRE(scan_word == "scan", "unexpected output: " << result.out);
  BOOST_TEST_REQUIRE(id.size() == 36u, "no scan id in: " << result.out);
  return id;
}

ScannedVersion IngestScannedVersion(const TempDir& dir, const Image& image, const std::string& tag,
                                    const std::string& fixture, const std::string& time,
                                    const std::optional<std::string>& published) {
  ScannedVersion v;
  v.tag = tag;
  v.report = Fixture(fixture);
  v.digest = ReportDigest(v.report);
  v.spdx_path = dir.Write(image.name + "_" + tag + ".spdx.json", MinimalSpdx(v.report, time));
  v.cyclonedx_path = dir.Write(image.name + "_" + tag + ".cdx.json", MinimalCycloneDx(v.report, time));
  IngestOk({image.name, tag, v.digest, v.report, v.spdx_path, v.cyclonedx_path, image.repository, published, {}});
  v.id = VersionIdOf(image.name, tag);
  return v;
}

ScannedImage ScanNewImage(Tenant& tenant, const TempDir& dir, const std::string& label,
                          const std::string& report_fixture, const std::string& tag, const std::string& time) {
  ScannedImage s;
  s.tag = tag;
  s.image.name = "it-" + label + "-" + RandomSuffix(6);
  s.image.repository = "registry.example.test/it/" + s.image.name;
  ScannedVersion version = IngestScannedVersion(dir, s.image, tag, report_fixture, time);
  s.version_id = version.id;
  s.spdx_path = version.spdx_path;
  s.cyclonedx_path = version.cyclonedx_path;
  s.image.id = *PgQuery("SELECT id FROM images WHERE name = $1", {s.image.name}).at(0).at(0);
  tenant.License(s.image);
  return s;
}

std::string MessageOf(const Response& r) { return StringMember(JsonOf(r), "message"); }

std::string V1VersionPath(const std::string& image_id, const std::string& version_id) {
  return "/v1/images/" + image_id + "/versions/" + version_id;
}

std::string PortalVersionPath(const std::string& image_id, const std::string& version_id) {
  return "/api/docker-images/" + image_id + "/versions/" + version_id;
}

std::string VexIngestOk(const TempDir& dir, const std::string& document) {
  std::string path = dir.Write("vendor-" + RandomSuffix(6) + ".openvex.json", document);
  ProcessResult r = Icatctl({"vex", "ingest", path});
  BOOST_TEST_REQUIRE(r.exit_code == 0, "icatctl vex ingest exited " << r.exit_code << ": " << r.err);
  return r.out;
}

// ------------------------------------------------------------------ expected findings

std::ostream& operator<<(std::ostream& out, const ExpectedFinding& f) {
  return out << f.id << " " << f.package << "@" << f.version.value_or("-") << " " << f.severity << " " << f.fix_state
             << " fixed:" << f.fixed_version.value_or("-");
}

std::vector<ExpectedFinding> DeriveFindings(const std::string& report_path) {
  rapidjson::Document d = ParseFile(report_path);
  std::vector<ExpectedFinding> out;
  if (const Value* matches = Get(d, "matches"); matches && matches->IsArray()) {
    for (const Value& m : matches->GetArray()) {
      const Value& v = *Get(m, "vulnerability");
      const Value& a = *Get(m, "artifact");
      ExpectedFinding f;
      f.id = Upper(*Str(v, "id"));
      f.package = *Str(a, "name");
      f.version = Str(a, "version");
      f.severity = Severity(Str(v, "severity"));
      std::string state = Lower(Str(*Get(v, "fix"), "state").value_or(""));
      f.fix_state = state == "fixed" || state == "not-fixed" || state == "wont-fix" || state == "not-affected"
                        ? state
                        : "unknown";
      std::string fixed;
      for (const Value& version : (*Get(*Get(v, "fix"), "versions")).GetArray()) {
        fixed += (fixed.empty() ? "" : ", ") + std::string(version.GetString());
      }
      if (!fixed.empty()) f.fixed_version = fixed;
      out.push_back(f);
    }
  } else if (const Value* results = Get(d, "Results"); results && results->IsArray()) {
    for (const Value& result : results->GetArray()) {
      const Value* vulnerabilities = Get(result, "Vulnerabilities");
      if (!vulnerabilities || !vulnerabilities->IsArray()) continue;
      for (const Value& v : vulnerabilities->GetArray()) {
        ExpectedFinding f;
        f.id = Upper(*Str(v, "VulnerabilityID"));
        f.package = *Str(v, "PkgName");
        f.version = Str(v, "InstalledVersion");
        f.severity = Severity(Str(v, "Severity"));
        f.fixed_version = Str(v, "FixedVersion");
        f.fix_state = TrivyFix(Str(v, "Status"), f.fixed_version);
        out.push_back(f);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

DerivedCounts DeriveCounts(const std::vector<ExpectedFinding>& findings) {
  static const std::vector<std::string> kOrder = {"critical", "high", "medium", "low", "unknown"};
  DerivedCounts counts;
  for (const std::string& s : kOrder) counts.vulnerabilities[s] = counts.findings[s] = 0;
  std::map<std::string, size_t> best;  // id -> index into kOrder
  std::set<std::string> fixable;
  for (const ExpectedFinding& f : findings) {
    if (f.fix_state == "not-affected") continue;
    counts.findings[f.severity]++;
    size_t rank = std::find(kOrder.begin(), kOrder.end(), f.severity) - kOrder.begin();
    auto [it, inserted] = best.emplace(f.id, rank);
    if (!inserted) it->second = std::min(it->second, rank);
    if (f.fix_state == "fixed") fixable.insert(f.id);
  }
  for (const auto& [id, rank] : best) counts.vulnerabilities[kOrder[rank]]++;
  counts.fixable = static_cast<long long>(fixable.size());
  return counts;
}

std::vector<ExpectedFinding> ListedFindings(const std::string& key, const std::string& image_id,
                                            rapidjson::Document* first_page) {
  return ListedFindingsAt(key, "/v1/images/" + image_id + "/vulnerabilities", first_page);
}

std::vector<ExpectedFinding> ListedFindingsAt(const std::string& key, const std::string& path,
                                              rapidjson::Document* first_page) {
  std::vector<ExpectedFinding> out;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    std::string url = path + "?limit=200" + (cursor ? "&cursor=" + *cursor : "");
    Response r = Get(url, Bearer(key));
    rapidjson::Document page = ExpectJson200(r);
    BOOST_TEST_REQUIRE((page.IsObject() && page.HasMember("vulnerabilities") && page["vulnerabilities"].IsArray()),
                       r.Summary());
    for (const Value& v : page["vulnerabilities"].GetArray()) {
      ExpectedFinding f;
      f.id = StringMember(v, "id");
      const Value& package = v["package"];
      f.package = StringMember(package, "name");
      if (package["version"].IsString()) f.version = package["version"].GetString();
      f.severity = StringMember(v, "severity");
      f.fix_state = StringMember(v, "fixState");
      if (v["fixedVersion"].IsString()) f.fixed_version = v["fixedVersion"].GetString();
      out.push_back(f);
    }
    cursor.reset();
    if (page["nextCursor"].IsString()) cursor = page["nextCursor"].GetString();
    if (pages == 0 && first_page) first_page->CopyFrom(page, first_page->GetAllocator());
    BOOST_TEST_REQUIRE(++pages < 100, "pagination does not end");
  } while (cursor);
  std::sort(out.begin(), out.end());
  return out;
}

// ------------------------------------------------------------------ state

std::map<std::string, long long> TableCounts() {
  std::map<std::string, long long> counts;
  for (const char* table : {"images", "image_versions", "scans", "sboms", "findings_sets", "vulnerabilities",
                            "vulnerability_first_seen", "events", "signing_keys", "attestations", "package_sets", "packages"}) {
    std::vector<PgRow> rows = PgQuery(std::string("SELECT count(*) FROM ") + table);
    counts[table] = std::stoll(*rows.at(0).at(0));
  }
  return counts;
}

std::map<std::string, long long> BlobStoreListing() {
  std::map<std::string, long long> listing;
  const char* dir = std::getenv("ICAT_BLOB_DIR");
  BOOST_TEST_REQUIRE((dir && *dir), "ICAT_BLOB_DIR is not set");
  if (!std::filesystem::exists(dir)) return listing;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    listing[entry.path().string()] = entry.is_regular_file() ? static_cast<long long>(entry.file_size()) : -1;
  }
  return listing;
}

std::optional<std::string> OpensslVerifyFailure(const std::string& file_path, const std::string& signature_b64,
                                                const std::string& key_id) {
  rapidjson::Document keys = ExpectJson200(Get("/v1/signing-keys"));
  std::optional<std::string> pem;
  for (const Value& key : keys["keys"].GetArray()) {
    if (StringMember(key, "id") == key_id) pem = StringMember(key, "publicKeyPem");
  }
  if (!pem) return "key " + key_id + " is not published at /v1/signing-keys";
  std::optional<std::string> signature = icat::Base64Decode(signature_b64);
  if (!signature) return "X-Signature is not base64: " + signature_b64;
  TempDir dir;
  std::string pub = dir.Write("pub.pem", *pem), sig = dir.Write("sig.bin", *signature);
  ProcessResult r = RunProcess(
      {"openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", file_path, "-sigfile", sig});
  if (r.exit_code == 0 && r.out.find("Signature Verified Successfully") != std::string::npos) return std::nullopt;
  return "openssl exited " + std::to_string(r.exit_code) + ": " + r.out + r.err;
}

// ------------------------------------------------------------------ portal tokens

std::string PortalToken(const Tenant& tenant, const std::string& role) {
  const char* secret_file = std::getenv("ICAT_JWT_SECRET_FILE");
  BOOST_TEST_REQUIRE((secret_file && *secret_file), "ICAT_JWT_SECRET_FILE is not set");
  std::string secret = ReadFileBytes(secret_file);
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  long long now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  // A person of that role, signed in: the portal reads them as stored on every request.
  std::string user_id = *PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, $3) RETURNING id",
                                 {tenant.id(), role + "-" + RandomSuffix(8) + "@scans.test", role})
                             .at(0)
                             .at(0);
  icat::AccessClaims claims{user_id, tenant.id(), tenant.subdomain(), role, now, now + 900, icat::RandomUuid(),
                            NewPortalSession(tenant.id(), user_id)};
  return icat::IssueAccessToken(claims, secret);
}

Headers PortalHeaders(const Tenant& tenant, const std::string& role) {
  return {{"Authorization", "Bearer " + PortalToken(tenant, role)}, {"X-Tenant", tenant.subdomain()}};
}

// ------------------------------------------------------------------ made-up SBOMs of fixture images

std::string MinimalCycloneDx(const std::string& report_path, const std::string& timestamp) {
  ReportImage image = ImageOfReport(report_path);
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Pair(w, "bomFormat", "CycloneDX");
  Pair(w, "specVersion", "1.5");
  Pair(w, "serialNumber", "urn:uuid:" + icat::RandomUuid());
  w.Key("version");
  w.Int(1);
  w.Key("metadata");
  w.StartObject();
  Pair(w, "timestamp", timestamp);
  w.Key("tools");
  w.StartObject();
  w.Key("components");
  w.StartArray();
  w.StartObject();
  Pair(w, "type", "application");
  Pair(w, "name", image.tool);
  Pair(w, "version", image.tool_version);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  w.Key("component");
  w.StartObject();
  Pair(w, "bom-ref", "image");
  Pair(w, "type", "container");
  Pair(w, "name", image.name);
  w.Key("properties");
  w.StartArray();
  auto property = [&](const std::string& name, const std::string& value) {
    w.StartObject();
    Pair(w, "name", "aquasecurity:trivy:" + name);
    Pair(w, "value", value);
    w.EndObject();
  };
  if (image.image_id) property("ImageID", *image.image_id);
  for (const std::string& diff_id : image.diff_ids) property("DiffID", diff_id);
  w.EndArray();
  w.EndObject();
  w.EndObject();
  w.Key("components");
  w.StartArray();
  int n = 0;
  for (const auto& [name, version] : image.packages) {
    w.StartObject();
    Pair(w, "bom-ref", "package-" + std::to_string(++n));
    Pair(w, "type", "library");
    Pair(w, "name", name);
    Pair(w, "version", version);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString()) + "\n";
}

std::string BigCycloneDx(const std::string& report_path, size_t bytes) {
  std::string sbom = MinimalCycloneDx(report_path, "2021-08-25T12:20:30Z");
  std::string components;
  for (int i = 0; components.size() < bytes; i++) {
    std::string n = std::to_string(i);
    components += R"({"type":"library","bom-ref":"pkg:npm/big-)" + n + R"(@1.0.0","name":"big-)" + n +
                  R"(","version":"1.0.0","purl":"pkg:npm/big-)" + n +
                  R"(@1.0.0","licenses":[{"license":{"id":"MIT"}}]},)";
  }
  const std::string list = R"("components":[)";
  size_t at = sbom.rfind(list);
  BOOST_TEST_REQUIRE(at != std::string::npos);
  sbom.insert(at + list.size(), components);  // before the minimal document's own components
  return sbom;
}

std::string MinimalSpdx(const std::string& report_path, const std::string& created) {
  ReportImage image = ImageOfReport(report_path);
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Pair(w, "spdxVersion", "SPDX-2.3");
  Pair(w, "dataLicense", "CC0-1.0");
  Pair(w, "SPDXID", "SPDXRef-DOCUMENT");
  Pair(w, "name", image.name);
  Pair(w, "documentNamespace", "https://example.test/spdx/" + icat::RandomUuid());
  w.Key("creationInfo");
  w.StartObject();
  Pair(w, "created", created);
  w.Key("creators");
  w.StartArray();
  w.String(("Tool: " + image.tool + "-" + image.tool_version).c_str());
  w.EndArray();
  w.EndObject();
  w.Key("packages");
  w.StartArray();
  w.StartObject();
  Pair(w, "SPDXID", "SPDXRef-ContainerImage-1");
  Pair(w, "name", image.name);
  Pair(w, "downloadLocation", "NONE");
  Pair(w, "primaryPackagePurpose", "CONTAINER");
  w.Key("filesAnalyzed");
  w.Bool(false);
  w.Key("attributionTexts");
  w.StartArray();
  if (image.image_id) w.String(("ImageID: " + *image.image_id).c_str());
  for (const std::string& diff_id : image.diff_ids) w.String(("DiffID: " + diff_id).c_str());
  w.EndArray();
  w.EndObject();
  int n = 0;
  for (const auto& [name, version] : image.packages) {
    w.StartObject();
    Pair(w, "SPDXID", "SPDXRef-Package-" + std::to_string(++n));
    Pair(w, "name", name);
    Pair(w, "versionInfo", version);
    Pair(w, "downloadLocation", "NONE");
    w.EndObject();
  }
  w.EndArray();
  w.Key("relationships");
  w.StartArray();
  w.StartObject();
  Pair(w, "spdxElementId", "SPDXRef-DOCUMENT");
  Pair(w, "relationshipType", "DESCRIBES");
  Pair(w, "relatedSpdxElement", "SPDXRef-ContainerImage-1");
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString()) + "\n";
}

}  // namespace icat::test
