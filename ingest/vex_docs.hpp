// VEX documents as `icatctl vex ingest` reads them: OpenVEX 0.2.0 and CycloneDX 1.5 JSON, checked
// against their official schemas and mapped onto one model of statements (docs/vex.md). Nothing here
// touches a file or the database.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat::ctl {

// What a product's name says of catalogue images (docs/vex.md, "Products"): the version(s) of a
// digest (in one repository, when the name gives one), the version of a repository's tag, or every
// version of a repository.
struct ImageProduct {
  std::optional<std::string> digest;      // sha256:<hex>
  std::optional<std::string> repository;  // registry host and path, as images.repository holds it
  std::optional<std::string> tag;         // only without a digest
};

// A product name as an image: pkg:oci/NAME@DIGEST?repository_url=R&tag=T, an image reference
// (REPO@DIGEST, REPO:TAG, REPO) or a bare sha256:<hex>. nullopt when it names no container image
// (another purl type, a CPE, any other IRI).
std::optional<ImageProduct> ImageProductOf(std::string_view name);

// One product of a statement.
struct VexProduct {
  std::string name;                        // as the document gives it
  std::optional<ImageProduct> image;       // nullopt: not a container image
  std::vector<std::string> subcomponents;  // package purls as given; empty: every package of the image
};

struct VexStatement {
  std::string where;                 // its JSON pointer, "/statements/3", for messages
  std::string vuln_id;               // upper case
  std::vector<std::string> aliases;  // upper case, distinct, without vuln_id
  std::vector<VexProduct> products;
  std::string status;  // one of kVexStatuses
  std::optional<std::string> justification, impact_statement, action_statement;
  std::string time;  // RFC 3339: when it was known to be true
};

struct VexDocument {
  std::string format;              // "openvex" or "cyclonedx"
  std::optional<std::string> ref;  // OpenVEX @id, CycloneDX serialNumber
  std::string author;
  std::optional<std::string> role;
  std::string issued_at;                  // RFC 3339
  std::optional<std::string> updated_at;  // RFC 3339 (OpenVEX last_updated)
  long long version = 1;
  std::vector<VexStatement> statements;
  std::vector<std::string> notes;  // what was read beyond the schema, or left out, in words
};

// At most this many products over all statements of one document: more is refused, not cut.
inline constexpr size_t kMaxVexProducts = 10000;

// Throws Failure "<path>: <reason>" unless the bytes are an OpenVEX 0.2.0 document or a CycloneDX 1.5
// document with VEX analyses, valid against its schema, whose every statement can be stored.
VexDocument ParseVex(std::string_view path, std::string_view bytes);

// A CycloneDX 1.5 analysis word and the OpenVEX word it means (docs/vex.md, "CycloneDX").
struct CycloneDxWord {
  std::string_view cyclonedx, openvex;
};
// Every analysis state and justification of the 1.5 schema. Ingest reads each row; a served document
// (docs/vex-documents.md) writes, for an OpenVEX word, the first row that has it.
inline constexpr CycloneDxWord kCycloneDxStates[] = {
    {"not_affected", "not_affected"}, {"false_positive", "not_affected"}, {"exploitable", "affected"},
    {"resolved", "fixed"},            {"resolved_with_pedigree", "fixed"}, {"in_triage", "under_investigation"},
};
inline constexpr CycloneDxWord kCycloneDxJustifications[] = {
    {"code_not_present", "vulnerable_code_not_present"},
    {"code_not_reachable", "vulnerable_code_not_in_execute_path"},
    {"requires_configuration", "vulnerable_code_cannot_be_controlled_by_adversary"},
    {"requires_environment", "vulnerable_code_cannot_be_controlled_by_adversary"},
    {"requires_dependency", "component_not_present"},
    {"protected_by_mitigating_control", "inline_mitigations_already_exist"},
    {"protected_by_compiler", "inline_mitigations_already_exist"},
    {"protected_at_runtime", "inline_mitigations_already_exist"},
    {"protected_at_perimeter", "inline_mitigations_already_exist"},
};

// The CycloneDX analysis mapped onto OpenVEX's words; nullopt for a word the 1.5 schema does not have.
std::optional<std::string> StatusOfCycloneDxState(std::string_view state);
std::optional<std::string> JustificationOfCycloneDx(std::string_view justification);
// The other way, for a served document: the CycloneDX word of an OpenVEX status or justification
// (every OpenVEX word has one); nullopt for another word.
std::optional<std::string> CycloneDxStateOf(std::string_view status);
std::optional<std::string> CycloneDxJustificationOf(std::string_view justification);

}  // namespace icat::ctl
