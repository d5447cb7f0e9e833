// OpenVEX 0.2.0 and CycloneDX 1.5 VEX read into statements: the schema check, the deviations accepted,
// products as images, and the CycloneDX analysis in OpenVEX's words. docs/vex.md states the rules.
#include "ingest/vex_docs.hpp"

#include <algorithm>
#include <map>

#include "icat/http.hpp"
#include "icat/image_reference.hpp"
#include "icat/text.hpp"
#include "ingest/ingest_model.hpp"
#include "ingest/purl.hpp"
#include "ingest/reports.hpp"
#include "ingest/sbom_schema.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

using rapidjson::Value;

constexpr std::string_view kOpenVexContext = "https://openvex.dev/ns/v0.2.0";
// Unversioned: what guac and vexctl before 0.2 wrote; read as 0.2.0 when it validates as 0.2.0.
constexpr std::string_view kOpenVexUnversioned = "https://openvex.dev/ns";
constexpr size_t kMaxIdChars = 128;

[[noreturn]] void Refuse(std::string_view path, const std::string& reason) {
  throw Failure(std::string(path) + ": " + reason);
}

const Value* ArrayAt(const Value& object, const char* name) {
  const Value* v = Member(object, name);
  return v && v->IsArray() ? v : nullptr;
}

const Value* ObjectAt(const Value& object, const char* name) {
  const Value* v = Member(object, name);
  return v && v->IsObject() ? v : nullptr;
}

// A document's version, which the schemas require to be an integer of at least 1.
long long DocumentVersion(std::string_view path, const Value* version) {
  if (!version) return 1;  // CycloneDX's default
  if (!version->IsInt64() || version->GetInt64() < 1 || version->GetInt64() > 2147483647) {
    Refuse(path, "version is not an integer from 1 to 2147483647");
  }
  return version->GetInt64();
}

// A vulnerability id or alias: printable ASCII without spaces, upper-cased ("cve-2024-1" is CVE-2024-1).
std::string VulnId(std::string_view path, const std::string& where, std::string_view text) {
  bool printable = std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
  if (text.empty() || text.size() > kMaxIdChars || !printable) {
    Refuse(path, where + ": '" + std::string(text.substr(0, kMaxIdChars)) + "' is not a vulnerability id (1 to " +
                     std::to_string(kMaxIdChars) + " printable characters without spaces)");
  }
  return Upper(text);
}

void AddAlias(VexStatement& s, std::string alias) {
  if (alias != s.vuln_id && std::find(s.aliases.begin(), s.aliases.end(), alias) == s.aliases.end()) {
    s.aliases.push_back(std::move(alias));
  }
}

// A statement must name something the catalogue can hold, and a subcomponent a package.
void CheckProducts(std::string_view path, const VexStatement& s) {
  if (s.products.empty()) Refuse(path, s.where + ": names no product; a statement says which images it is about");
  for (const VexProduct& product : s.products) {
    for (const std::string& purl : product.subcomponents) {
      if (Lower(purl.substr(0, 4)) != "pkg:") {
        Refuse(path, s.where + ": subcomponent '" + purl + "' is not a package purl; subcomponents are matched by purl");
      }
    }
  }
}

void CheckSize(std::string_view path, const VexDocument& doc) {
  size_t products = 0;
  for (const VexStatement& s : doc.statements) products += s.products.size();
  if (products > kMaxVexProducts) {
    Refuse(path, "names " + std::to_string(products) + " products over its statements, more than the " +
                     std::to_string(kMaxVexProducts) + " one document may name; split it");
  }
}

// ------------------------------------------------------------------ OpenVEX 0.2.0

// Trivy's OpenVEX names a vulnerability by "@id" alone (no "name", which the schema requires). An
// @id that is a plain id (CVE-2022-23628, not an IRI) is taken as the name, and said so.
// Members by HasMember and [], not FindMember: clang in C++20 finds RapidJSON's non-const iterator
// comparison ambiguous.
void NameVulnerabilitiesById(rapidjson::Document& d, std::vector<std::string>& notes) {
  if (!d.HasMember("statements") || !d["statements"].IsArray()) return;
  Value& statements = d["statements"];
  for (rapidjson::SizeType i = 0; i < statements.Size(); ++i) {
    Value& statement = statements[i];
    if (!statement.IsObject() || !statement.HasMember("vulnerability") || !statement["vulnerability"].IsObject()) continue;
    Value& v = statement["vulnerability"];
    std::optional<std::string> id = StringAt(v, "@id");
    if (v.HasMember("name") || !id || id->empty() || id->find_first_of(":/ ") != std::string::npos) continue;
    v.AddMember("name", Value(id->c_str(), static_cast<rapidjson::SizeType>(id->size()), d.GetAllocator()),
                d.GetAllocator());
    notes.push_back("/statements/" + std::to_string(i) + "/vulnerability has no name; its @id " + *id +
                    " is taken as the name, as Trivy writes it");
  }
}

// The name a component (a product or subcomponent) goes by: its @id, else its purl identifier.
std::optional<std::string> ComponentName(const Value& component) {
  if (auto id = StringAt(component, "@id")) return id;
  const Value* identifiers = ObjectAt(component, "identifiers");
  if (!identifiers) return std::nullopt;
  if (auto purl = StringAt(*identifiers, "purl")) return purl;
  if (auto cpe = StringAt(*identifiers, "cpe23")) return cpe;
  return StringAt(*identifiers, "cpe22");
}

VexProduct OpenVexProduct(const Value& component) {
  VexProduct product;
  std::optional<std::string> sha256;
  if (const Value* hashes = ObjectAt(component, "hashes")) sha256 = StringAt(*hashes, "sha-256");
  product.name = ComponentName(component).value_or(sha256 ? "sha256:" + *sha256 : "");
  product.image = ImageProductOf(product.name);
  if (!product.image && sha256) product.image = ImageProductOf("sha256:" + *sha256);
  if (const Value* subcomponents = ArrayAt(component, "subcomponents")) {
    for (const Value& sub : subcomponents->GetArray()) product.subcomponents.push_back(ComponentName(sub).value_or(""));
  }
  return product;
}

VexStatement OpenVexStatement(std::string_view path, const Value& item, size_t index, const VexDocument& doc) {
  VexStatement s;
  s.where = "/statements/" + std::to_string(index);
  const Value* vulnerability = ObjectAt(item, "vulnerability");
  s.vuln_id = VulnId(path, s.where + "/vulnerability/name", vulnerability ? StringAt(*vulnerability, "name").value_or("") : "");
  if (const Value* aliases = vulnerability ? ArrayAt(*vulnerability, "aliases") : nullptr) {
    for (const Value& alias : aliases->GetArray()) {
      AddAlias(s, VulnId(path, s.where + "/vulnerability/aliases", alias.IsString() ? alias.GetString() : ""));
    }
  }
  s.status = StringAt(item, "status").value_or("");
  s.justification = StringAt(item, "justification");
  s.impact_statement = StringAt(item, "impact_statement");
  s.action_statement = StringAt(item, "action_statement");
  // OpenVEX: a statement without a time of its own has its document's.
  s.time = StringAt(item, "last_updated")
               .value_or(StringAt(item, "timestamp").value_or(doc.updated_at.value_or(doc.issued_at)));
  if (const Value* products = ArrayAt(item, "products")) {
    for (const Value& product : products->GetArray()) s.products.push_back(OpenVexProduct(product));
  }
  CheckProducts(path, s);
  return s;
}

VexDocument ParseOpenVex(std::string_view path, rapidjson::Document& d) {
  VexDocument doc;
  doc.format = "openvex";
  std::string context = StringAt(d, "@context").value_or("");
  if (context != kOpenVexContext && context != kOpenVexUnversioned) {
    Refuse(path, "@context '" + context.substr(0, 200) + "' is not OpenVEX 0.2.0 (" + std::string(kOpenVexContext) + ")");
  }
  if (context == kOpenVexUnversioned) {
    doc.notes.push_back("@context " + context + " names no version; the document has the 0.2.0 shape and is read as 0.2.0");
  }
  NameVulnerabilitiesById(d, doc.notes);
  ValidateAgainstSchema(OfficialSchema::kOpenVex020, path, d);
  doc.ref = StringAt(d, "@id");
  doc.author = StringAt(d, "author").value_or("");
  doc.role = StringAt(d, "role");
  doc.issued_at = StringAt(d, "timestamp").value_or("");
  doc.updated_at = StringAt(d, "last_updated");
  doc.version = DocumentVersion(path, Member(d, "version"));
  const Value* statements = ArrayAt(d, "statements");
  for (rapidjson::SizeType i = 0; statements && i < statements->Size(); ++i) {
    doc.statements.push_back(OpenVexStatement(path, (*statements)[i], i, doc));
  }
  return doc;
}

// ------------------------------------------------------------------ CycloneDX 1.5

// Every component of the BOM by its bom-ref: metadata.component and components, nested ones too.
void IndexComponents(const Value& components, std::map<std::string, const Value*>& by_ref) {
  if (!components.IsArray()) return;
  for (const Value& component : components.GetArray()) {
    if (auto ref = StringAt(component, "bom-ref")) by_ref.emplace(*ref, &component);
    if (const Value* inner = Member(component, "components")) IndexComponents(*inner, by_ref);
  }
}

// The name a component goes by: its purl, else its name (an image reference, for an image).
std::optional<std::string> CycloneDxName(const Value& component) {
  if (auto purl = StringAt(component, "purl")) return purl;
  return StringAt(component, "name");
}

// What one document says of its statements' products: the image it is about (metadata.component)
// and every component an `affects` entry can reference.
struct Bom {
  std::optional<std::string> subject;  // metadata.component's name
  std::map<std::string, const Value*> by_ref;
};

// affects[].ref names a component by bom-ref, or by a BOM-Link (urn:cdx:SERIAL/VERSION#bom-ref). An
// image (pkg:oci, an image reference) is a product; a package is a subcomponent of the image the
// document is about. A reference to no component in the document is read as the name it holds.
void AddAffected(const Bom& bom, std::string ref, VexStatement& s) {
  // A BOM-Link's bom-ref is percent-encoded (cyclonedx-go writes and reads it so, as served documents do).
  if (ref.rfind("urn:cdx:", 0) == 0 && ref.find('#') != std::string::npos) ref = UrlDecode(ref.substr(ref.find('#') + 1));
  auto found = bom.by_ref.find(ref);
  std::string name = found == bom.by_ref.end() ? ref : CycloneDxName(*found->second).value_or(ref);
  if (auto image = ImageProductOf(name)) {
    s.products.push_back({name, image, {}});
    return;
  }
  if (!bom.subject) {
    s.products.push_back({name, std::nullopt, {}});  // a package of no image: an unknown product
    return;
  }
  auto product = std::find_if(s.products.begin(), s.products.end(),
                              [&](const VexProduct& p) { return p.name == *bom.subject && !p.subcomponents.empty(); });
  if (product == s.products.end()) {
    s.products.push_back({*bom.subject, ImageProductOf(*bom.subject), {}});
    product = s.products.end() - 1;
  }
  product->subcomponents.push_back(name);
}

// CycloneDX detail is the impact statement of a not_affected statement and the action statement of
// an affected one; a not_affected without justification or detail (false_positive) gets its state.
void MapAnalysis(const Value& analysis, VexStatement& s) {
  std::string state = StringAt(analysis, "state").value_or("");
  s.status = StatusOfCycloneDxState(state).value_or("");
  std::optional<std::string> detail = StringAt(analysis, "detail");
  if (s.status == "not_affected") {
    if (auto justification = StringAt(analysis, "justification")) s.justification = JustificationOfCycloneDx(*justification);
    s.impact_statement = detail;
    if (!s.justification && !s.impact_statement) s.impact_statement = "CycloneDX analysis state " + state;
  }
  if (s.status == "affected") {
    std::vector<std::string> responses;
    if (const Value* list = ArrayAt(analysis, "response")) {
      for (const Value& r : list->GetArray()) responses.push_back(r.IsString() ? r.GetString() : "");
    }
    s.action_statement = detail;
    if (!detail && !responses.empty()) s.action_statement = "CycloneDX response: " + Join(responses, ", ");
  }
}

VexStatement CycloneDxStatement(std::string_view path, const Value& v, size_t index, const Bom& bom,
                                const std::string& document_time) {
  VexStatement s;
  s.where = "/vulnerabilities/" + std::to_string(index);
  std::optional<std::string> id = StringAt(v, "id");
  if (!id) Refuse(path, s.where + ": has an analysis but no id; a statement names its vulnerability");
  s.vuln_id = VulnId(path, s.where + "/id", *id);
  if (const Value* references = ArrayAt(v, "references")) {
    for (const Value& r : references->GetArray()) {
      AddAlias(s, VulnId(path, s.where + "/references", StringAt(r, "id").value_or("")));
    }
  }
  const Value& analysis = *ObjectAt(v, "analysis");  // the caller's condition
  MapAnalysis(analysis, s);
  s.time = StringAt(analysis, "lastUpdated")
               .value_or(StringAt(analysis, "firstIssued")
                             .value_or(StringAt(v, "updated").value_or(StringAt(v, "published").value_or(document_time))));
  if (const Value* affects = ArrayAt(v, "affects")) {
    for (const Value& a : affects->GetArray()) AddAffected(bom, StringAt(a, "ref").value_or(""), s);
  }
  CheckProducts(path, s);
  return s;
}

// Who speaks: the names of metadata.authors, else the supplier's or manufacturer's name.
std::optional<std::string> CycloneDxAuthor(const Value& metadata) {
  std::vector<std::string> names;
  if (const Value* authors = ArrayAt(metadata, "authors")) {
    for (const Value& a : authors->GetArray()) {
      if (auto name = StringAt(a, "name")) names.push_back(*name);
    }
  }
  if (!names.empty()) return Join(names, ", ");
  for (const char* entity : {"supplier", "manufacture"}) {
    if (const Value* e = ObjectAt(metadata, entity)) {
      if (auto name = StringAt(*e, "name")) return name;
    }
  }
  return std::nullopt;
}

VexDocument ParseCycloneDxVex(std::string_view path, const rapidjson::Document& d) {
  std::string version = StringAt(d, "specVersion").value_or("(none)");
  if (version != "1.5") Refuse(path, "is CycloneDX " + version + "; vex ingest takes CycloneDX 1.5 and OpenVEX 0.2.0");
  ValidateAgainstSchema(OfficialSchema::kCycloneDx15, path, d);
  VexDocument doc;
  doc.format = "cyclonedx";
  doc.ref = StringAt(d, "serialNumber");
  doc.version = DocumentVersion(path, Member(d, "version"));
  const Value* metadata = ObjectAt(d, "metadata");
  std::optional<std::string> timestamp = metadata ? StringAt(*metadata, "timestamp") : std::nullopt;
  std::optional<std::string> author = metadata ? CycloneDxAuthor(*metadata) : std::nullopt;
  if (!timestamp) Refuse(path, "has no metadata.timestamp; a VEX document says when it was issued");
  if (!author) Refuse(path, "names no author (metadata.authors, supplier or manufacture); a VEX document says who speaks");
  doc.issued_at = *timestamp;
  doc.author = *author;
  Bom bom;
  if (const Value* subject = ObjectAt(*metadata, "component")) {
    bom.subject = CycloneDxName(*subject);
    if (auto ref = StringAt(*subject, "bom-ref")) bom.by_ref.emplace(*ref, subject);
  }
  if (const Value* components = Member(d, "components")) IndexComponents(*components, bom.by_ref);
  const Value* vulnerabilities = ArrayAt(d, "vulnerabilities");
  size_t without_analysis = 0;
  for (rapidjson::SizeType i = 0; vulnerabilities && i < vulnerabilities->Size(); ++i) {
    const Value* analysis = ObjectAt((*vulnerabilities)[i], "analysis");
    if (!analysis || !StringAt(*analysis, "state")) {
      without_analysis++;
      continue;
    }
    doc.statements.push_back(CycloneDxStatement(path, (*vulnerabilities)[i], i, bom, doc.issued_at));
  }
  if (doc.statements.empty()) Refuse(path, "has no vulnerability with an analysis state: it holds no VEX statement");
  if (without_analysis) {
    doc.notes.push_back(std::to_string(without_analysis) +
                        " vulnerabilities without an analysis state are not VEX statements and were left out");
  }
  return doc;
}

// The image's repository as images.repository holds it: a reference's, or the text as given.
std::string RepositoryOf(std::string_view text) {
  std::optional<ImageReference> ref = ParseImageReference(text);
  return ref ? ref->Repository() : std::string(text);
}

std::optional<ImageProduct> OciProduct(const OciPurl& oci) {
  ImageProduct product;
  if (oci.version && IsDigest(*oci.version)) product.digest = oci.version;
  if (oci.repository_url) {
    // repository_url is the image's whole path in the purl spec's examples, and without the name in
    // its text: a path that does not end in the name gets it.
    std::string url = *oci.repository_url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    bool ends_in_name = url == oci.name || (url.size() > oci.name.size() && url.ends_with("/" + oci.name));
    product.repository = RepositoryOf(ends_in_name ? url : url + "/" + oci.name);
  } else if (!product.digest) {
    product.repository = RepositoryOf(oci.name);  // the purl spec's default: docker.io/library/NAME
  }
  if (!product.digest) product.tag = oci.tag;
  return product;
}

}  // namespace

std::optional<ImageProduct> ImageProductOf(std::string_view name) {
  if (IsDigest(name)) return ImageProduct{std::string(name), std::nullopt, std::nullopt};
  if (Lower(name.substr(0, 4)) == "pkg:") {
    std::optional<OciPurl> oci = ParseOciPurl(name);
    return oci ? OciProduct(*oci) : std::nullopt;
  }
  std::optional<ImageReference> ref = ParseImageReference(name);
  if (!ref) return std::nullopt;
  ImageProduct product{ref->digest, ref->Repository(), std::nullopt};
  if (!ref->digest) product.tag = ref->tag;
  if (product.digest && !IsDigest(*product.digest)) return std::nullopt;  // sha384, sha512: no version has one
  return product;
}

namespace {

template <size_t N>
std::optional<std::string> Translated(const CycloneDxWord (&table)[N], std::string_view word, bool to_openvex) {
  for (const CycloneDxWord& row : table) {
    std::string_view from = to_openvex ? row.cyclonedx : row.openvex, to = to_openvex ? row.openvex : row.cyclonedx;
    if (from == word) return std::string(to);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> StatusOfCycloneDxState(std::string_view state) {
  return Translated(kCycloneDxStates, state, true);
}

std::optional<std::string> JustificationOfCycloneDx(std::string_view justification) {
  return Translated(kCycloneDxJustifications, justification, true);
}

std::optional<std::string> CycloneDxStateOf(std::string_view status) {
  return Translated(kCycloneDxStates, status, false);
}

std::optional<std::string> CycloneDxJustificationOf(std::string_view justification) {
  return Translated(kCycloneDxJustifications, justification, false);
}

VexDocument ParseVex(std::string_view path, std::string_view bytes) {
  rapidjson::Document d = ParseInputJson(path, bytes);
  if (!d.IsObject()) Refuse(path, "is not a VEX document (a JSON object is expected)");
  VexDocument doc;
  if (Member(d, "bomFormat")) {
    doc = ParseCycloneDxVex(path, d);
  } else if (Member(d, "@context") || Member(d, "statements")) {
    doc = ParseOpenVex(path, d);
  } else if (Member(d, "spdxVersion")) {
    Refuse(path, "is an SPDX document, not VEX; vex ingest takes OpenVEX 0.2.0 and CycloneDX 1.5");
  } else {
    Refuse(path, "is neither OpenVEX (an @context of https://openvex.dev/ns/v0.2.0) nor CycloneDX (bomFormat)");
  }
  CheckSize(path, doc);
  for (const std::string& time : {doc.issued_at, doc.updated_at.value_or(doc.issued_at)}) {
    if (!IsRfc3339(time)) Refuse(path, "the time '" + time + "' is not an RFC 3339 time");
  }
  for (const VexStatement& s : doc.statements) {
    if (!IsRfc3339(s.time)) Refuse(path, s.where + ": the time '" + s.time + "' is not an RFC 3339 time");
  }
  return doc;
}

}  // namespace icat::ctl
