// SPDX 2.3 and CycloneDX 1.5 checks, and what ingest reads from them (tool, time, image identity).
#include "ingest/sbom_docs.hpp"

#include <set>

#include "ingest/purl.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_completeness.hpp"
#include "ingest/sbom_schema.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

using rapidjson::Value;

[[noreturn]] void Refuse(std::string_view path, const std::string& reason) {
  throw Failure(std::string(path) + ": " + reason);
}

// "pkg:oci/alpine@sha256%3A<hex>?repository_url=..." -> "sha256:<hex>".
std::optional<std::string> OciPurlDigest(std::string_view purl) {
  std::optional<OciPurl> oci = ParseOciPurl(purl);
  if (!oci || !oci->version || !IsDigest(*oci->version)) return std::nullopt;
  return oci->version;
}

// Trivy records the image as "ImageID: sha256:...", "RepoDigest: name@sha256:..." and
// "DiffID: sha256:..." (SPDX attribution texts or annotations, CycloneDX properties).
void AddIdentityFact(ImageIdentity& identity, std::string_view name, std::string_view value) {
  if (name == "ImageID" && IsDigest(value)) identity.image_id = std::string(value);
  if (name == "DiffID" && IsDigest(value)) identity.diff_ids.insert(std::string(value));
  if (name == "RepoDigest") {
    size_t at = value.rfind('@');
    if (at != std::string_view::npos && IsDigest(value.substr(at + 1)))
      identity.repo_digests.insert(std::string(value.substr(at + 1)));
  }
}

void AddIdentityLine(ImageIdentity& identity, std::string_view line) {
  size_t colon = line.find(": ");
  if (colon != std::string_view::npos) AddIdentityFact(identity, line.substr(0, colon), line.substr(colon + 2));
}

const Value* ObjectAt(const Value& object, const char* name) {
  const Value* v = Member(object, name);
  return v && v->IsObject() ? v : nullptr;
}

// The SPDX ids the document DESCRIBES: documentDescribes, "SPDXRef-DOCUMENT DESCRIBES x" and
// "x DESCRIBED_BY SPDXRef-DOCUMENT".
std::set<std::string> SpdxDescribed(const Value& d) {
  std::set<std::string> ids;
  if (const Value* describes = Member(d, "documentDescribes"); describes && describes->IsArray()) {
    for (const Value& id : describes->GetArray()) {
      if (id.IsString()) ids.emplace(id.GetString(), id.GetStringLength());
    }
  }
  if (const Value* relationships = Member(d, "relationships"); relationships && relationships->IsArray()) {
    for (const Value& r : relationships->GetArray()) {
      std::string from = StringAt(r, "spdxElementId").value_or(""), to = StringAt(r, "relatedSpdxElement").value_or("");
      std::string type = StringAt(r, "relationshipType").value_or("");
      if (type == "DESCRIBES" && from == "SPDXRef-DOCUMENT") ids.insert(to);
      if (type == "DESCRIBED_BY" && to == "SPDXRef-DOCUMENT") ids.insert(from);
    }
  }
  return ids;
}

// The container image package the document DESCRIBES: primaryPackagePurpose CONTAINER, or the ids
// scanners gave it before that field existed (Trivy SPDXRef-ContainerImage-*, Syft
// SPDXRef-DocumentRoot-Image-*). nullptr when it describes none.
const Value* SpdxImagePackage(const Value& d) {
  const Value* packages = Member(d, "packages");
  if (!packages || !packages->IsArray()) return nullptr;
  std::set<std::string> described = SpdxDescribed(d);
  for (const Value& package : packages->GetArray()) {
    std::string id = StringAt(package, "SPDXID").value_or("");
    if (!described.count(id)) continue;
    if (StringAt(package, "primaryPackagePurpose").value_or("") == "CONTAINER" ||
        id.rfind("SPDXRef-ContainerImage-", 0) == 0 || id.rfind("SPDXRef-DocumentRoot-Image-", 0) == 0) {
      return &package;
    }
  }
  return nullptr;
}

ImageIdentity SpdxIdentity(const Value& d) {
  ImageIdentity identity;
  const Value* image = SpdxImagePackage(d);
  if (!image) return identity;
  // Syft gives the image's manifest digest as the package's SHA256 checksum.
  if (const Value* checksums = Member(*image, "checksums"); checksums && checksums->IsArray()) {
    for (const Value& checksum : checksums->GetArray()) {
      std::string digest = "sha256:" + StringAt(checksum, "checksumValue").value_or("");
      if (StringAt(checksum, "algorithm").value_or("") == "SHA256" && IsDigest(digest)) identity.repo_digests.insert(digest);
    }
  }
  if (const Value* texts = Member(*image, "attributionTexts"); texts && texts->IsArray()) {
    for (const Value& text : texts->GetArray()) {
      if (text.IsString()) AddIdentityLine(identity, std::string_view(text.GetString(), text.GetStringLength()));
    }
  }
  if (const Value* annotations = Member(*image, "annotations"); annotations && annotations->IsArray()) {
    for (const Value& annotation : annotations->GetArray()) {
      if (std::optional<std::string> comment = StringAt(annotation, "comment")) AddIdentityLine(identity, *comment);
    }
  }
  if (const Value* refs = Member(*image, "externalRefs"); refs && refs->IsArray()) {
    for (const Value& ref : refs->GetArray()) {
      if (StringAt(ref, "referenceType").value_or("") != "purl") continue;
      if (auto digest = OciPurlDigest(StringAt(ref, "referenceLocator").value_or("")))
        identity.repo_digests.insert(*digest);
    }
  }
  return identity;
}

ImageIdentity CycloneDxIdentity(const Value& d) {
  ImageIdentity identity;
  const Value* metadata = ObjectAt(d, "metadata");
  const Value* component = metadata ? ObjectAt(*metadata, "component") : nullptr;
  if (!component) return identity;
  if (const Value* properties = Member(*component, "properties"); properties && properties->IsArray()) {
    for (const Value& property : properties->GetArray()) {
      std::string name = StringAt(property, "name").value_or("");
      const std::string kTrivy = "aquasecurity:trivy:";
      if (name.rfind(kTrivy, 0) == 0)
        AddIdentityFact(identity, name.substr(kTrivy.size()), StringAt(property, "value").value_or(""));
    }
  }
  if (auto digest = OciPurlDigest(StringAt(*component, "purl").value_or(""))) identity.repo_digests.insert(*digest);
  return identity;
}

// An SPDX package's purl: its first externalRef of type purl.
std::optional<std::string> SpdxPurl(const Value& package) {
  const Value* refs = Member(package, "externalRefs");
  if (!refs || !refs->IsArray()) return std::nullopt;
  for (const Value& ref : refs->GetArray()) {
    if (StringAt(ref, "referenceType").value_or("") == "purl") return StringAt(ref, "referenceLocator");
  }
  return std::nullopt;
}

// What an SPDX document is about: the image it describes, how many other packages it lists, and those with a purl.
void SpdxSubject(const Value& d, SbomDocument& doc) {
  const Value* packages = Member(d, "packages");
  long long count = packages && packages->IsArray() ? static_cast<long long>(packages->Size()) : 0;
  const Value* image = SpdxImagePackage(d);
  doc.describes_image = image != nullptr;
  doc.entries = count - (doc.describes_image ? 1 : 0);
  if (!count) return;
  for (const Value& package : packages->GetArray()) {
    std::optional<std::string> purl = SpdxPurl(package);
    if (&package == image || !purl) continue;
    doc.packages.push_back({*purl, StringAt(package, "name").value_or(*purl), StringAt(package, "versionInfo")});
  }
}

// The CycloneDX components with a purl, nested ones too.
void CycloneDxPackages(const Value& components, std::vector<SbomPackage>& out) {
  if (!components.IsArray()) return;
  for (const Value& c : components.GetArray()) {
    if (std::optional<std::string> purl = StringAt(c, "purl")) {
      out.push_back({*purl, StringAt(c, "name").value_or(*purl), StringAt(c, "version")});
    }
    if (const Value* nested = Member(c, "components")) CycloneDxPackages(*nested, out);
  }
}

// What a CycloneDX document is about: its metadata.component, its components and whether its
// vulnerabilities carry VEX analysis.
void CycloneDxSubject(const Value& d, SbomDocument& doc) {
  const Value* metadata = ObjectAt(d, "metadata");
  const Value* component = metadata ? ObjectAt(*metadata, "component") : nullptr;
  doc.describes_image = component && StringAt(*component, "type").value_or("") == "container";
  const Value* components = Member(d, "components");
  doc.entries = components && components->IsArray() ? static_cast<long long>(components->Size()) : 0;
  if (components) CycloneDxPackages(*components, doc.packages);
  if (const Value* vulnerabilities = Member(d, "vulnerabilities"); vulnerabilities && vulnerabilities->IsArray()) {
    for (const Value& v : vulnerabilities->GetArray()) doc.vex = doc.vex || ObjectAt(v, "analysis") != nullptr;
  }
}

// "an OpenVEX document" or "a CSAF document" when a VEX of those formats is given as an SBOM.
std::optional<std::string> VexFormat(const Value& d) {
  const Value* statements = Member(d, "statements");
  if (statements && statements->IsArray() && (Member(d, "@context") || Member(d, "author"))) return "an OpenVEX document";
  const Value* document = ObjectAt(d, "document");
  if (document && Member(*document, "csaf_version")) return "a CSAF document";
  return std::nullopt;
}

// The first tool of metadata.tools: the 1.4 array form or the 1.5 {"components": [...]} form.
void CycloneDxTool(const Value& d, SbomDocument& doc) {
  const Value* metadata = ObjectAt(d, "metadata");
  const Value* tools = metadata ? Member(*metadata, "tools") : nullptr;
  if (tools && tools->IsObject()) tools = Member(*tools, "components");
  if (!tools || !tools->IsArray() || tools->Empty()) return;
  const Value& tool = (*tools)[0];
  doc.tool_name = StringAt(tool, "name");
  doc.tool_version = StringAt(tool, "version");
}

}  // namespace

void RequireImageSbom(std::string_view path, const SbomDocument& doc, bool require_complete) {
  if (auto why = NotAnImageSbom(doc)) Refuse(path, *why);
  if (doc.created && !IsRfc3339(*doc.created)) {
    Refuse(path, "the creation time '" + *doc.created + "' is not an RFC 3339 time");
  }
  if (require_complete && !doc.completeness.shortfalls.empty()) {
    Refuse(path, "is below SPEC.md rule 3 (--require-complete): " + CompletenessLine(doc));
  }
}

std::pair<std::string, std::optional<std::string>> SplitToolName(std::string_view tool) {
  size_t dash = tool.rfind('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == tool.size()) return {std::string(tool), std::nullopt};
  return {std::string(tool.substr(0, dash)), std::string(tool.substr(dash + 1))};
}

SbomDocument ParseSpdx(std::string_view path, std::string_view bytes) {
  rapidjson::Document d = ParseInputJson(path, bytes);
  if (!d.IsObject()) Refuse(path, "is not an SPDX JSON document (a JSON object is expected)");
  std::optional<std::string> version = StringAt(d, "spdxVersion");
  if (!version) {
    if (Member(d, "bomFormat")) Refuse(path, "is a CycloneDX document, not SPDX (pass it as --cyclonedx)");
    if (auto vex = VexFormat(d)) Refuse(path, "is not an SPDX JSON document: it is " + *vex + " (VEX), not an SBOM");
    Refuse(path, "is not an SPDX JSON document (no spdxVersion)");
  }
  if (*version != "SPDX-2.3") Refuse(path, "is " + *version + "; only SPDX-2.3 JSON is accepted");
  ValidateAgainstSchema(OfficialSchema::kSpdx23, path, d);
  // Beyond the v2.3 schema: the 2.3.1 errata require documentNamespace, and the document's own id is fixed.
  const Value* creation = ObjectAt(d, "creationInfo");
  if (StringAt(d, "SPDXID").value_or("") != "SPDXRef-DOCUMENT")
    Refuse(path, "is not a valid SPDX 2.3 document: SPDXID is not SPDXRef-DOCUMENT");
  if (!StringAt(d, "documentNamespace")) Refuse(path, "is not a valid SPDX 2.3 document: no documentNamespace");
  if (!creation || !StringAt(*creation, "created"))
    Refuse(path, "is not a valid SPDX 2.3 document: no creationInfo.created");

  SbomDocument doc;
  doc.format = "spdx";
  doc.spec_version = "2.3";
  doc.created = StringAt(*creation, "created");
  if (const Value* creators = Member(*creation, "creators"); creators && creators->IsArray()) {
    for (const Value& creator : creators->GetArray()) {
      std::string text = creator.IsString() ? creator.GetString() : "";
      if (text.rfind("Tool:", 0) != 0) continue;
      size_t start = text.find_first_not_of(' ', 5);
      if (start == std::string::npos) continue;
      auto [name, tool_version] = SplitToolName(std::string_view(text).substr(start));
      doc.tool_name = name;
      doc.tool_version = tool_version;
      break;
    }
  }
  doc.identity = SpdxIdentity(d);
  SpdxSubject(d, doc);
  doc.completeness = MeasureCompleteness(d, doc);
  return doc;
}

SbomDocument ParseCycloneDx(std::string_view path, std::string_view bytes) {
  rapidjson::Document d = ParseInputJson(path, bytes);
  if (!d.IsObject()) Refuse(path, "is not a CycloneDX JSON document (a JSON object is expected)");
  if (StringAt(d, "bomFormat").value_or("") != "CycloneDX") {
    if (Member(d, "spdxVersion")) Refuse(path, "is an SPDX document, not CycloneDX (pass it as --spdx)");
    if (Member(d, "payloadType") || Member(d, "payload")) {
      Refuse(path, "is an in-toto/DSSE envelope, not a CycloneDX JSON document (extract the SBOM first)");
    }
    if (auto vex = VexFormat(d)) Refuse(path, "is not a CycloneDX JSON document: it is " + *vex + " (VEX), not an SBOM");
    Refuse(path, "is not a CycloneDX JSON document (no \"bomFormat\": \"CycloneDX\")");
  }
  std::optional<std::string> version = StringAt(d, "specVersion");
  if (!version) Refuse(path, "is a CycloneDX document without specVersion; only CycloneDX 1.5 JSON is accepted");
  if (*version != "1.5") Refuse(path, "is CycloneDX " + *version + "; only CycloneDX 1.5 JSON is accepted");
  ValidateAgainstSchema(OfficialSchema::kCycloneDx15, path, d);

  SbomDocument doc;
  doc.format = "cyclonedx";
  doc.spec_version = "1.5";
  if (const Value* metadata = ObjectAt(d, "metadata")) doc.created = StringAt(*metadata, "timestamp");
  CycloneDxTool(d, doc);
  doc.identity = CycloneDxIdentity(d);
  CycloneDxSubject(d, doc);
  doc.completeness = MeasureCompleteness(d, doc);
  return doc;
}

}  // namespace icat::ctl
