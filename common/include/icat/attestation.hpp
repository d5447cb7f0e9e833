// In-toto attestations of the documents the service signs (docs/attestations.md): the Statement
// whose subject is the image manifest and whose predicate is the document exactly as served, in a
// DSSE envelope signed with the vendor's ECDSA P-256 key, in a Sigstore bundle (v0.3) whose
// verification material is the key's id. icatctl makes them, handlers serve them, icat checks them:
// every rule of the format is here, once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace icat {

inline constexpr std::string_view kStatementType = "https://in-toto.io/Statement/v1";
inline constexpr std::string_view kInTotoPayloadType = "application/vnd.in-toto+json";
inline constexpr std::string_view kBundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json";
// The media type of a DSSE envelope as a layer of cosign's attestation image (the .att tag).
inline constexpr std::string_view kDsseEnvelopeMediaType = "application/vnd.dsse.envelope.v1+json";

// What is attested: the type's name in URLs (.../attestations/{type}), the in-toto predicate type,
// and what the document is, for messages.
struct AttestationType {
  std::string_view name, predicate_type, document;
};
inline constexpr AttestationType kAttestationTypes[] = {
    {"spdx", "https://spdx.dev/Document", "SPDX SBOM"},
    {"cyclonedx", "https://cyclonedx.org/bom", "CycloneDX SBOM"},
    {"openvex", "https://openvex.dev/ns/v0.2.0", "OpenVEX document"},
    {"cyclonedx-vex", "https://cyclonedx.org/bom", "CycloneDX VEX document"},
};
// The type of that name, or nullptr.
const AttestationType* FindAttestationType(std::string_view name);

// The Statement: subject [{name, digest {sha256}}] from "sha256:<hex>", the predicate the document's
// bytes verbatim (a JSON object, so the predicate is byte for byte what is served).
std::string InTotoStatement(std::string_view subject_name, std::string_view subject_digest,
                            std::string_view predicate_type, std::string_view document);

// DSSE's pre-authentication encoding: the bytes the signature covers.
std::string DssePae(std::string_view payload_type, std::string_view payload);

// The bundle of a statement signed with a P-256 private key of that key id.
std::string SignedBundle(std::string_view private_key_pem, std::string_view key_id, std::string_view statement);

// The bundle's DSSE envelope alone, as cosign stores it in a registry layer: the same bytes for the
// same bundle.
std::string DsseEnvelopeOf(std::string_view bundle_json);

// A bundle whose signature verified.
struct VerifiedStatement {
  std::string key_id;
  std::string statement;  // the signed payload, decoded
};
// Checks the bundle's form and its DSSE signature with the public key (PEM) that public_key_of
// returns for the bundle's key id (nullopt: a key not in the set). Throws std::runtime_error saying
// what is wrong.
VerifiedStatement VerifyBundle(std::string_view bundle_json,
                               const std::function<std::optional<std::string>(std::string_view key_id)>& public_key_of);

// Checks that a verified statement says what is expected: an in-toto Statement v1 with the
// predicate type, the subject digest ("sha256:<hex>") and a predicate equal to the document (as
// parsed JSON, members in their order). Throws std::runtime_error saying what differs.
void CheckStatement(std::string_view statement, std::string_view subject_digest, std::string_view predicate_type,
                    std::string_view document);

}  // namespace icat
