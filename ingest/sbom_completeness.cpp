// How complete an SBOM is against SPEC.md section 1 rule 3; docs/scans.md, "Completeness (rule 3)",
// says what each figure counts and what meeting the rule takes.
#include "ingest/sbom_completeness.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <set>
#include <unordered_set>
#include <vector>

#include "icat/json.hpp"
#include "icat/text.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_schema.hpp"

namespace icat::ctl {
namespace {

using rapidjson::Value;

// One package as the figures see it.
struct Package {
  std::string kind;
  bool exact_version = false, checksum = false, spdx_license = false, in_graph = false;
};

// The SPDX licence list (licence and exception ids) as CycloneDX 1.5's spdx.schema.json enumerates
// it, upper case: SPDX matches ids case-insensitively.
const std::unordered_set<std::string>& SpdxIds() {
  static const std::unordered_set<std::string> ids = [] {
    std::unordered_set<std::string> out;
    JsonRead read = ReadJson(EmbeddedSchema("spdx.schema.json"), kMaxDocumentDepth);
    const Value* list = read.error.empty() ? Member(read.document, "enum") : nullptr;
    if (list && list->IsArray()) {
      for (const Value& id : list->GetArray()) {
        if (id.IsString()) out.insert(Upper(id.GetString()));
      }
    }
    return out;
  }();
  return ids;
}

bool IsListedId(std::string_view token) {
  if (token.size() > 1 && token.back() == '+') token.remove_suffix(1);  // "GPL-2.0+": this version or later
  return SpdxIds().count(Upper(token)) > 0;
}

// Whitespace separates tokens; each parenthesis is a token of its own.
std::vector<std::string_view> LicenseTokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
      ++i;
    } else if (text[i] == '(' || text[i] == ')') {
      tokens.push_back(text.substr(i++, 1));
    } else {
      size_t end = std::min(text.find_first_of(" \t\r\n()", i), text.size());
      tokens.push_back(text.substr(i, end - i));
      i = end;
    }
  }
  return tokens;
}

bool HasNonEmpty(const Value& object, const char* array_name) {
  const Value* list = Member(object, array_name);
  return list && list->IsArray() && !list->Empty();
}

// Every licence entry an SPDX id or an expression of ids: `license.id`, `expression`, or a
// `license.name` whose text is one (Trivy writes ids as names).
bool CycloneDxLicensed(const Value& component) {
  const Value* licenses = Member(component, "licenses");
  if (!licenses || !licenses->IsArray() || licenses->Empty()) return false;
  for (const Value& entry : licenses->GetArray()) {
    std::optional<std::string> text = StringAt(entry, "expression");
    if (const Value* license = Member(entry, "license"); !text && license) {
      text = StringAt(*license, "id");
      if (!text) text = StringAt(*license, "name");
    }
    if (!text || !IsSpdxLicense(*text)) return false;
  }
  return true;
}

// From the purl, else the scanner's own package type, else the component type.
std::string CycloneDxKind(const Value& component) {
  if (std::string kind = PurlKind(StringAt(component, "purl").value_or("")); !kind.empty()) return kind;
  std::string trivy_class, trivy_type, syft_type;
  if (const Value* properties = Member(component, "properties"); properties && properties->IsArray()) {
    for (const Value& property : properties->GetArray()) {
      std::string name = StringAt(property, "name").value_or("");
      std::string value = StringAt(property, "value").value_or("");
      if (name == "aquasecurity:trivy:Class") trivy_class = value;
      if (name == "aquasecurity:trivy:PkgType") trivy_type = value;
      if (name == "syft:package:type") syft_type = value;
    }
  }
  if (!trivy_class.empty() || !trivy_type.empty()) return TrivyPackageType(trivy_class, trivy_type);
  if (!syft_type.empty()) return GrypePackageType(syft_type);
  std::string type = StringAt(component, "type").value_or("");
  return type == "application" || type == "file" || type == "firmware" ? "binary" : "unknown";
}

// Every component, nested ones included, but the image and its operating system. A component is
// placed in the graph when it has its own entry in `dependencies`: CycloneDX 1.5 says a component
// without one "MAY have unknown dependencies" (one with none has an empty entry).
std::vector<Package> CycloneDxPackages(const Value& d, long long& relationships) {
  std::set<std::string> entries;
  if (const Value* dependencies = Member(d, "dependencies"); dependencies && dependencies->IsArray()) {
    for (const Value& dependency : dependencies->GetArray()) {
      if (std::optional<std::string> ref = StringAt(dependency, "ref")) entries.insert(*ref);
      if (const Value* on = Member(dependency, "dependsOn"); on && on->IsArray()) relationships += on->Size();
    }
  }
  std::vector<Package> packages;
  std::vector<const Value*> pending;
  auto add_components = [&pending](const Value& object) {
    if (const Value* list = Member(object, "components"); list && list->IsArray()) {
      for (const Value& component : list->GetArray()) pending.push_back(&component);
    }
  };
  add_components(d);
  while (!pending.empty()) {
    const Value& component = *pending.back();
    pending.pop_back();
    add_components(component);
    std::string type = StringAt(component, "type").value_or("");
    if (type == "container" || type == "operating-system") continue;
    Package p;
    p.kind = CycloneDxKind(component);
    p.exact_version = IsExactVersion(StringAt(component, "version").value_or(""));
    p.checksum = HasNonEmpty(component, "hashes");
    p.spdx_license = CycloneDxLicensed(component);
    p.in_graph = entries.count(StringAt(component, "bom-ref").value_or("")) > 0;
    packages.push_back(std::move(p));
  }
  return packages;
}

// The image and its OS entry: by purpose (SPDX 2.3), or by the ids Trivy gives them.
bool IsImageOrOs(const Value& package) {
  std::string purpose = StringAt(package, "primaryPackagePurpose").value_or("");
  std::string id = StringAt(package, "SPDXID").value_or("");
  return purpose == "CONTAINER" || purpose == "OPERATING_SYSTEM" || id.rfind("SPDXRef-ContainerImage", 0) == 0 ||
         id.rfind("SPDXRef-OperatingSystem", 0) == 0;
}

std::string SpdxKind(const Value& package) {
  if (const Value* refs = Member(package, "externalRefs"); refs && refs->IsArray()) {
    for (const Value& ref : refs->GetArray()) {
      if (StringAt(ref, "referenceType").value_or("") != "purl") continue;
      if (std::string kind = PurlKind(StringAt(ref, "referenceLocator").value_or("")); !kind.empty()) return kind;
    }
  }
  std::string purpose = StringAt(package, "primaryPackagePurpose").value_or("");
  return purpose == "APPLICATION" || purpose == "FILE" || purpose == "FIRMWARE" ? "binary" : "unknown";
}

// Every package but the image and its OS. The graph is the relationships between packages (the
// image and OS included) other than DESCRIBES; "X DEPENDS_ON NONE" places X too. Relationships with
// files or other documents are no dependency graph. SPDX has no rule like CycloneDX's own entry,
// so a package is placed when it appears in the graph at all.
std::vector<Package> SpdxPackages(const Value& d, long long& relationships) {
  const Value* list = Member(d, "packages");
  if (!list || !list->IsArray()) return {};
  std::set<std::string> ids, placed;
  for (const Value& package : list->GetArray()) ids.insert(StringAt(package, "SPDXID").value_or(""));
  if (const Value* edges = Member(d, "relationships"); edges && edges->IsArray()) {
    for (const Value& edge : edges->GetArray()) {
      std::string type = StringAt(edge, "relationshipType").value_or("");
      std::string from = StringAt(edge, "spdxElementId").value_or("");
      std::string to = StringAt(edge, "relatedSpdxElement").value_or("");
      if (type == "DESCRIBES" || type == "DESCRIBED_BY" || !ids.count(from) || (!ids.count(to) && to != "NONE")) continue;
      ++relationships;
      placed.insert(from);
      placed.insert(to);
    }
  }
  std::vector<Package> packages;
  for (const Value& package : list->GetArray()) {
    if (IsImageOrOs(package)) continue;
    Package p;
    p.kind = SpdxKind(package);
    p.exact_version = IsExactVersion(StringAt(package, "versionInfo").value_or(""));
    p.checksum = HasNonEmpty(package, "checksums");
    p.spdx_license = IsSpdxLicense(StringAt(package, "licenseConcluded").value_or("")) ||
                     IsSpdxLicense(StringAt(package, "licenseDeclared").value_or(""));
    p.in_graph = placed.count(StringAt(package, "SPDXID").value_or("")) > 0;
    packages.push_back(std::move(p));
  }
  return packages;
}

std::string OfPackages(long long have, long long of) {
  return std::to_string(of - have) + " of " + std::to_string(of) + " packages";
}

// What meeting rule 3 takes: packages, each with an exact version, placed in the dependency graph
// and with SPDX licence ids; the tool named with a release version; the image digest. Checksums
// are asked "where available", which no document tells, so their share is shown but not required.
std::vector<std::string> Shortfalls(const SbomCompleteness& c) {
  std::vector<std::string> out;
  if (c.packages == 0) out.push_back("it lists no packages");
  if (c.exact_versions < c.packages) out.push_back("no exact version for " + OfPackages(c.exact_versions, c.packages));
  if (c.in_graph < c.packages) out.push_back("the dependency graph leaves out " + OfPackages(c.in_graph, c.packages));
  if (c.spdx_licenses < c.packages) {
    out.push_back("no SPDX licence identifier for " + OfPackages(c.spdx_licenses, c.packages));
  }
  if (!c.tool_name) out.push_back("the tool that made it is not named");
  if (!c.tool_version) {
    out.push_back("the tool version is not given");
  } else if (!c.tool_release) {
    out.push_back("the tool version \"" + *c.tool_version + "\" is not a release version");
  }
  if (!c.image_digest) out.push_back("the image digest is not given");
  return out;
}

SbomCompleteness Summarise(const std::vector<Package>& packages, long long relationships, const SbomDocument& doc) {
  SbomCompleteness c;
  c.packages = static_cast<long long>(packages.size());
  for (const Package& p : packages) {
    ++c.kinds[p.kind];
    c.exact_versions += p.exact_version;
    c.checksums += p.checksum;
    c.in_graph += p.in_graph;
    c.spdx_licenses += p.spdx_license;
  }
  c.relationships = relationships;
  c.tool_name = doc.tool_name;
  c.tool_version = doc.tool_version;
  c.tool_release = doc.tool_version && IsReleaseVersion(*doc.tool_version);
  if (!doc.identity.repo_digests.empty()) c.image_digest = *doc.identity.repo_digests.begin();
  c.shortfalls = Shortfalls(c);
  return c;
}

// "83%", rounded down so that 100% means every package.
std::string Percent(long long count, long long of) {
  return of == 0 ? std::string("n/a") : std::to_string(count * 100 / of) + "%";
}

}  // namespace

bool IsExactVersion(std::string_view version) {
  if (version.empty() || version.find_first_of(" \t\r\n*,|") != std::string_view::npos) return false;
  if (std::string_view("^~<>=![(").find(version.front()) != std::string_view::npos) return false;
  std::string upper = Upper(version);
  if (upper == "LATEST" || upper == "UNKNOWN" || upper == "NOASSERTION" || upper == "NONE" ||
      upper.rfind("VERS:", 0) == 0) {
    return false;
  }
  for (size_t start = 0;;) {  // "1.x", "2.X.1": a wildcard part
    size_t dot = upper.find('.', start);
    if (upper.substr(start, dot == std::string::npos ? std::string::npos : dot - start) == "X") return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

bool IsReleaseVersion(std::string_view version) {
  if (!version.empty() && version.front() == 'v') version.remove_prefix(1);
  int parts = 0;
  for (size_t i = 0;;) {
    size_t start = i;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9') ++i;
    if (i == start) return false;
    ++parts;
    if (i == version.size()) return parts >= 2;
    if (version[i++] != '.') return false;
  }
}

// SPDX 2.3 annex D: ids joined by AND / OR, "id WITH exception", parentheses; LicenseRef-,
// NOASSERTION and NONE are no SPDX ids.
bool IsSpdxLicense(std::string_view text) {
  std::vector<std::string_view> tokens = LicenseTokens(text);
  bool want_operand = true;
  int depth = 0;
  for (std::string_view token : tokens) {
    if (token == "(") {
      if (!want_operand) return false;
      ++depth;
    } else if (token == ")") {
      if (want_operand || --depth < 0) return false;
    } else if (token == "AND" || token == "OR" || token == "WITH" || token == "and" || token == "or" ||
               token == "with") {
      if (want_operand) return false;
      want_operand = true;
    } else {
      if (!want_operand || !IsListedId(token)) return false;
      want_operand = false;
    }
  }
  return !tokens.empty() && !want_operand && depth == 0;
}

std::string PurlKind(std::string_view purl) {
  if (purl.substr(0, 4) != "pkg:") return "";
  purl.remove_prefix(4);
  while (!purl.empty() && purl.front() == '/') purl.remove_prefix(1);
  std::string type = Lower(purl.substr(0, purl.find('/')));
  if (type == "apk" || type == "alpine" || type == "alpm" || type == "deb" || type == "rpm" || type == "ebuild") {
    return "os";
  }
  if (type == "maven") return "java";
  if (type == "golang") return "go";
  if (type == "pypi") return "python";
  if (type == "gem") return "ruby";
  if (type == "cargo") return "rust";
  if (type == "composer") return "php";
  if (type == "nuget") return "dotnet";
  if (type == "generic" || type == "oci" || type == "docker") return "";  // no ecosystem named
  return type;  // npm, hex, pub, swift, ...: the purl type
}

SbomCompleteness MeasureCompleteness(const rapidjson::Value& document, const SbomDocument& doc) {
  long long relationships = 0;
  std::vector<Package> packages = doc.format == "spdx" ? SpdxPackages(document, relationships)
                                                       : CycloneDxPackages(document, relationships);
  return Summarise(packages, relationships, doc);
}

std::string CompletenessJson(const SbomCompleteness& c) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteInt(w, "packages", c.packages);
  WriteKey(w, "packageKinds");
  w.StartObject();
  for (const auto& [kind, count] : c.kinds) WriteInt(w, kind, count);
  w.EndObject();
  WriteInt(w, "exactVersions", c.exact_versions);
  WriteInt(w, "checksums", c.checksums);
  WriteInt(w, "inDependencyGraph", c.in_graph);
  WriteInt(w, "relationships", c.relationships);
  WriteInt(w, "spdxLicenses", c.spdx_licenses);
  WriteOptionalString(w, "toolName", c.tool_name);
  WriteOptionalString(w, "toolVersion", c.tool_version);
  WriteBool(w, "toolVersionIsRelease", c.tool_release);
  WriteOptionalString(w, "imageDigest", c.image_digest);
  WriteBool(w, "meetsRule3", c.shortfalls.empty());
  WriteStringArray(w, "shortfalls", c.shortfalls);
  w.EndObject();
  return buffer.GetString();
}

std::string CompletenessLine(const SbomDocument& doc) {
  const SbomCompleteness& c = doc.completeness;
  std::vector<std::pair<std::string, long long>> kinds(c.kinds.begin(), c.kinds.end());
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string kind_text;
  for (const auto& [kind, count] : kinds) kind_text += (kind_text.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  std::string line = doc.format + " " + doc.spec_version + ": " + std::to_string(c.packages) + " packages";
  if (!kind_text.empty()) line += " (" + kind_text + ")";
  line += ", exact versions " + Percent(c.exact_versions, c.packages) + ", checksums " +
          Percent(c.checksums, c.packages) + ", dependency graph " + Percent(c.in_graph, c.packages) +
          ", SPDX licence ids " + Percent(c.spdx_licenses, c.packages) + ", tool " +
          c.tool_name.value_or("(unnamed)") + " " + c.tool_version.value_or("(no version)");
  if (c.tool_version && !c.tool_release) line += " (not a release version)";
  line += ", image digest " + c.image_digest.value_or("missing");
  if (c.shortfalls.empty()) return line + "; meets rule 3";
  line += "; below rule 3: ";
  for (size_t i = 0; i < c.shortfalls.size(); ++i) line += (i ? ", " : "") + c.shortfalls[i];
  return line;
}

}  // namespace icat::ctl
