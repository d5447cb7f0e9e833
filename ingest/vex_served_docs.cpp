// Served VEX documents written from statements (vex_served_docs.hpp); docs/vex-documents.md has the rules.
#include "ingest/vex_served_docs.hpp"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>

#include "icat/crypto.hpp"
#include "icat/http.hpp"
#include "icat/json.hpp"
#include "ingest/ingest_model.hpp"
#include "ingest/purl.hpp"
#include "ingest/vex_docs.hpp"

namespace icat::ctl {

namespace {

using Pretty = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

constexpr std::string_view kOpenVexContext = "https://openvex.dev/ns/v0.2.0";
constexpr std::string_view kTooling =
    "icat image catalogue: the vendor's VEX statements that apply to this image version";

void Text(Pretty& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void OptionalText(Pretty& w, const char* key, const std::optional<std::string>& value) {
  if (value) Text(w, key, *value);
}

std::string Finished(const rapidjson::StringBuffer& buffer) {
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

// The elements in their first order, each once.
std::vector<std::string> Distinct(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
  return out;
}

std::set<std::string> VulnIds(const ServedStatement& s) {
  std::set<std::string> ids(s.aliases.begin(), s.aliases.end());
  ids.insert(s.vuln_id);
  return ids;
}

std::set<std::string> PurlKeys(const ServedStatement& s) {
  std::set<std::string> keys;
  for (const std::string& purl : s.subcomponents) keys.insert(PurlKey(purl));
  return keys;
}

// Whether `first` (preferred) applies to every finding `later` applies to.
bool Covers(const ServedStatement& first, const ServedStatement& later) {
  std::set<std::string> ids = VulnIds(first), later_ids = VulnIds(later);
  if (!std::includes(ids.begin(), ids.end(), later_ids.begin(), later_ids.end())) return false;
  if (first.subcomponents.empty()) return true;
  if (later.subcomponents.empty()) return false;
  std::set<std::string> keys = PurlKeys(first), later_keys = PurlKeys(later);
  return std::includes(keys.begin(), keys.end(), later_keys.begin(), later_keys.end());
}

// The document's author: the statements' one author, else the service compiling several.
std::string DocumentAuthor(const std::vector<ServedStatement>& statements) {
  std::set<std::string> authors;
  for (const ServedStatement& s : statements) authors.insert(s.author);
  if (authors.size() == 1) return *authors.begin();
  std::string names;
  for (const std::string& author : authors) names += (names.empty() ? "" : "; ") + author;
  return "Image catalogue service, for " + names;
}

// The latest statement time: the document's time, so that the same statements give the same bytes.
std::string LatestTime(const std::vector<ServedStatement>& statements) {
  std::string latest;
  for (const ServedStatement& s : statements) latest = std::max(latest, s.time);  // RFC 3339 UTC sorts as text
  return latest;
}

// ------------------------------------------------------------------ OpenVEX 0.2.0

// The version as a product: its purl (in @id and as an identifier, which OpenVEX tools compare as
// purls) and its digest (Grype also matches the image by its digest).
void OpenVexProduct(Pretty& w, const VexSubject& subject, const std::vector<std::string>& subcomponents) {
  std::string purl = ImagePurl(subject.repository, subject.digest);
  w.StartObject();
  Text(w, "@id", purl);
  w.Key("identifiers");
  w.StartObject();
  Text(w, "purl", purl);
  w.EndObject();
  w.Key("hashes");
  w.StartObject();
  Text(w, "sha-256", std::string_view(subject.digest).substr(7));
  w.EndObject();
  if (!subcomponents.empty()) {
    w.Key("subcomponents");
    w.StartArray();
    for (const std::string& sub : Distinct(subcomponents)) {
      w.StartObject();
      Text(w, "@id", sub);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

// A statement carries the fields of its status only (what OpenVEX tools validate): a justification
// or impact statement for not_affected, an action statement for affected.
void OpenVexStatement(Pretty& w, const VexSubject& subject, const ServedStatement& s) {
  w.StartObject();
  w.Key("vulnerability");
  w.StartObject();
  Text(w, "name", s.vuln_id);
  if (!s.aliases.empty()) {
    w.Key("aliases");
    w.StartArray();
    for (const std::string& alias : Distinct(s.aliases)) w.String(alias.c_str());
    w.EndArray();
  }
  w.EndObject();
  Text(w, "timestamp", s.time);
  w.Key("products");
  w.StartArray();
  OpenVexProduct(w, subject, s.subcomponents);
  w.EndArray();
  Text(w, "status", s.status);
  if (s.status == "not_affected") {
    OptionalText(w, "justification", s.justification);
    OptionalText(w, "impact_statement", s.impact_statement);
  }
  if (s.status == "affected") Text(w, "action_statement", s.action_statement.value_or(std::string(kNoActionStatement)));
  w.EndObject();
}

// ------------------------------------------------------------------ CycloneDX 1.5

// "urn:cdx:<serial>/<version>#<bom-ref>", the bom-ref percent-encoded as BOM-Link readers decode it.
std::string BomLink(const SbomLinks& sbom, std::string_view bom_ref) {
  return "urn:cdx:" + sbom.serial + "/" + std::to_string(sbom.version) + "#" + UrlEncode(bom_ref);  // cyclonedx-go decodes it as a query value
}

// A package's name: its purl's last path segment, without the version, decoded.
std::string PackageName(const std::string& purl) {
  std::string key = PurlKeyAnyVersion(purl);
  std::string name = UrlDecode(key.substr(key.rfind('/') + 1));
  return name.empty() ? purl : name;
}

// What the affects of a statement reference: packages by BOM-Link to the SBOM's components of their
// purl (what `trivy sbom --vex` reads), else (no SBOM to link to, or no such component in it with a
// purl for its bom-ref) a component of this document; every package is the image, this document's metadata.component (a
// BOM-Link to the SBOM's image would name a bare bom-ref that no reader can tell from a package).
struct Affects {
  std::vector<std::string> refs;
  std::vector<std::string> local_packages;  // purls this document must hold as components
};

Affects AffectsOf(const ServedStatement& s, const VexSubject& subject, const std::optional<SbomLinks>& sbom) {
  Affects a;
  if (s.subcomponents.empty()) {
    a.refs.push_back(ImagePurl(subject.repository, subject.digest));
    return a;
  }
  for (const std::string& purl : s.subcomponents) {
    const std::vector<std::string>* linked = nullptr;
    if (sbom) {
      auto found = sbom->refs_by_key.find(PurlKey(purl));  // as vex_statement_for compares a finding's purl
      if (found != sbom->refs_by_key.end()) linked = &found->second;
    }
    if (linked) {
      for (const std::string& ref : *linked) a.refs.push_back(BomLink(*sbom, ref));
    } else {
      a.refs.push_back(purl);
      a.local_packages.push_back(purl);
    }
  }
  a.refs = Distinct(a.refs);
  return a;
}

void CycloneDxVulnerability(Pretty& w, const ServedStatement& s, const Affects& affects) {
  w.StartObject();
  Text(w, "id", s.vuln_id);
  if (!s.aliases.empty()) {
    w.Key("references");
    w.StartArray();
    for (const std::string& alias : Distinct(s.aliases)) {
      w.StartObject();
      Text(w, "id", alias);
      w.Key("source");  // the statement does not say whose id an alias is
      w.StartObject();
      w.EndObject();
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("analysis");
  w.StartObject();
  Text(w, "state", *CycloneDxStateOf(s.status));
  if (s.status == "not_affected" && s.justification)
    Text(w, "justification", *CycloneDxJustificationOf(*s.justification));
  // Ingest's mapping backwards: detail is a not_affected's impact, an affected one's action.
  if (s.status == "not_affected") OptionalText(w, "detail", s.impact_statement);
  if (s.status == "affected") OptionalText(w, "detail", s.action_statement);
  Text(w, "lastUpdated", s.time);
  w.EndObject();
  w.Key("affects");
  w.StartArray();
  for (const std::string& ref : affects.refs) {
    w.StartObject();
    Text(w, "ref", ref);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// Every component of a CycloneDX document, nested ones too, whose bom-ref is a purl (as Trivy and
// Syft write them): what a BOM-Link names so that vex ingest, which reads it as a purl, can too.
void IndexPurls(const rapidjson::Value& components, SbomLinks& links) {
  if (!components.IsArray()) return;
  for (const rapidjson::Value& component : components.GetArray()) {
    std::optional<std::string> purl = StringAt(component, "purl"), ref = StringAt(component, "bom-ref");
    if (purl && ref && ref->rfind("pkg:", 0) == 0) {
      for (const std::string& key : {PurlKey(*purl), PurlKeyAnyVersion(*purl)}) {
        std::vector<std::string>& refs = links.refs_by_key[key];
        if (std::find(refs.begin(), refs.end(), *ref) == refs.end()) refs.push_back(*ref);
      }
    }
    if (const rapidjson::Value* inner = Member(component, "components")) IndexPurls(*inner, links);
  }
}

}  // namespace

std::string DocumentUrn(std::string_view version_id, std::string_view format) {
  std::string bytes = Sha256("icat served vex " + std::string(format) + " " + std::string(version_id)).substr(0, 16);
  bytes[6] = static_cast<char>((bytes[6] & 0x0f) | 0x80);  // version 8
  bytes[8] = static_cast<char>((bytes[8] & 0x3f) | 0x80);  // the RFC 9562 variant
  std::string hex = HexEncode(bytes);
  return "urn:uuid:" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) +
         "-" + hex.substr(20);
}

std::optional<SbomLinks> SbomLinksOf(std::string_view sbom_bytes) {
  static const std::regex kSerial("urn:uuid:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})");
  JsonRead read = ReadJson(sbom_bytes, kMaxDocumentDepth);
  if (!read.error.empty() || !read.document.IsObject()) return std::nullopt;
  const rapidjson::Value& d = read.document;
  std::string serial = StringAt(d, "serialNumber").value_or("");
  std::smatch match;
  if (!std::regex_match(serial, match, kSerial)) return std::nullopt;
  SbomLinks links;
  links.serial = match[1];
  if (const rapidjson::Value* version = Member(d, "version")) {
    if (!version->IsInt64() || version->GetInt64() < 1) return std::nullopt;
    links.version = version->GetInt64();
  }
  if (const rapidjson::Value* components = Member(d, "components")) IndexPurls(*components, links);
  return links;
}

std::vector<ServedStatement> StatementsToServe(const std::vector<ServedStatement>& by_preference) {
  std::vector<ServedStatement> kept;
  for (const ServedStatement& s : by_preference) {
    bool covered = std::any_of(kept.begin(), kept.end(), [&](const ServedStatement& k) { return Covers(k, s); });
    if (!covered) kept.push_back(s);
  }
  std::sort(kept.begin(), kept.end(), [](const ServedStatement& a, const ServedStatement& b) {
    return std::tie(a.vuln_id, a.time, a.id) < std::tie(b.vuln_id, b.time, b.id);
  });
  return kept;
}

std::string OpenVexDocument(const VexSubject& subject, const std::vector<ServedStatement>& statements,
                            long long version) {
  rapidjson::StringBuffer buffer;
  Pretty w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  Text(w, "@context", kOpenVexContext);
  Text(w, "@id", DocumentUrn(subject.version_id, "openvex"));
  Text(w, "author", DocumentAuthor(statements));
  Text(w, "timestamp", LatestTime(statements));
  w.Key("version");
  w.Int64(version);
  Text(w, "tooling", kTooling);
  w.Key("statements");
  w.StartArray();
  for (const ServedStatement& s : statements) OpenVexStatement(w, subject, s);
  w.EndArray();
  w.EndObject();
  return Finished(buffer);
}

std::string CycloneDxVexDocument(const VexSubject& subject, const std::vector<ServedStatement>& statements,
                                 long long version, const std::optional<SbomLinks>& sbom) {
  std::vector<Affects> affects;
  std::vector<std::string> local_packages;
  for (const ServedStatement& s : statements) {
    affects.push_back(AffectsOf(s, subject, sbom));
    for (const std::string& purl : affects.back().local_packages) local_packages.push_back(purl);
  }
  rapidjson::StringBuffer buffer;
  Pretty w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  Text(w, "bomFormat", "CycloneDX");
  Text(w, "specVersion", "1.5");
  Text(w, "serialNumber", DocumentUrn(subject.version_id, "cyclonedx"));
  w.Key("version");
  w.Int64(version);
  w.Key("metadata");
  w.StartObject();
  Text(w, "timestamp", LatestTime(statements));
  w.Key("authors");
  w.StartArray();
  w.StartObject();
  Text(w, "name", DocumentAuthor(statements));
  w.EndObject();
  w.EndArray();
  w.Key("component");
  w.StartObject();
  std::string purl = ImagePurl(subject.repository, subject.digest);
  Text(w, "type", "container");
  Text(w, "bom-ref", purl);
  Text(w, "name", subject.repository);
  Text(w, "version", subject.tag);
  Text(w, "purl", purl);
  w.EndObject();
  w.EndObject();
  if (!local_packages.empty()) {
    w.Key("components");
    w.StartArray();
    for (const std::string& package : Distinct(local_packages)) {
      w.StartObject();
      Text(w, "type", "library");
      Text(w, "bom-ref", package);
      Text(w, "name", PackageName(package));
      Text(w, "purl", package);
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("vulnerabilities");
  w.StartArray();
  for (size_t i = 0; i < statements.size(); i++) CycloneDxVulnerability(w, statements[i], affects[i]);
  w.EndArray();
  w.EndObject();
  return Finished(buffer);
}

}  // namespace icat::ctl
