// The VEX documents the service serves for one image version (docs/vex-documents.md): OpenVEX 0.2.0
// and CycloneDX 1.5, written from the vendor's statements that apply to the version. Pure: the same
// statements give the same bytes; nothing here touches a file or the database.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat::ctl {

// One vendor statement that applies to the version: a row of vex_statements and its document's author.
struct ServedStatement {
  long long id = 0;  // ingest order
  std::string vuln_id;
  std::vector<std::string> aliases;
  std::vector<std::string> subcomponents;  // package purls as given; empty: every package
  std::string status;
  std::optional<std::string> justification, impact_statement, action_statement;
  std::string time;  // RFC 3339, UTC: when it was known to be true
  std::string author;
};

// The version the documents are about.
struct VexSubject {
  std::string version_id, repository, tag;
  std::string digest;  // sha256:<hex>
};

// What BOM-Links into the version's CycloneDX SBOM (its latest scan's) need: its serial number and
// version, and the bom-refs of its packages by the purl keys they match (bom-refs that are purls only).
struct SbomLinks {
  std::string serial;  // the UUID of serialNumber, lower case
  long long version = 1;
  std::map<std::string, std::vector<std::string>> refs_by_key;  // PurlKey and PurlKeyAnyVersion of each purl
};

// The SBOM's links; nullopt when it is not JSON or has no serialNumber a BOM-Link can name
// (urn:uuid: and a lower-case UUID).
std::optional<SbomLinks> SbomLinksOf(std::string_view sbom_bytes);

// Of the statements that apply to a version, in vex_statement_for's order of preference (sql/V0017),
// those a document serves: a statement is left out when one before it names every id it names and
// covers its packages (every package, or a superset of its purl keys), since that one applies to every
// finding it would. Returned by vulnerability id, then time, then ingest order.
std::vector<ServedStatement> StatementsToServe(const std::vector<ServedStatement>& by_preference);

// The documents, of document version `version`, for statements as StatementsToServe returns them
// (at least one). Pretty-printed JSON ending in a newline.
std::string OpenVexDocument(const VexSubject& subject, const std::vector<ServedStatement>& statements,
                            long long version);
std::string CycloneDxVexDocument(const VexSubject& subject, const std::vector<ServedStatement>& statements,
                                 long long version, const std::optional<SbomLinks>& sbom);

// A document's stable identity, "urn:uuid:<UUID>": a name-based UUID (RFC 9562 version 8, SHA-256) of
// the version id and the format, so every version of one document has the same @id / serialNumber.
std::string DocumentUrn(std::string_view version_id, std::string_view format);

// The action statement of an affected statement that came without one (OpenVEX requires one; a
// CycloneDX analysis need not give it): what vexctl writes.
inline constexpr std::string_view kNoActionStatement = "No action statement provided";

}  // namespace icat::ctl
