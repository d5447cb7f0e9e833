// Verifying a download before anything is written: the checksum the server states (ETag,
// Repr-Digest) and the in-toto attestation of the document (common/attestation.hpp: a Sigstore
// bundle signed with the vendor's ECDSA P-256 key, about the version's digest, whose predicate is
// the document as served), checked with a key of GET /v1/signing-keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat::client {

struct SigningKey {
  std::string id, algorithm, public_key_pem;
};

// The keys of GET /v1/signing-keys: {"keys": [{"id", "algorithm", "publicKeyPem", ...}]}; Failure
// when the body is not that.
std::vector<SigningKey> ParseSigningKeys(std::string_view json);

// nullopt when every checksum a download states (at least one of ETag "sha256:<hex>" and
// Repr-Digest sha-256=:<base64>:; absent ones are empty) is the SHA-256 of the bytes; else why not.
std::optional<std::string> ChecksumFailure(std::string_view bytes, std::string_view etag, std::string_view repr_digest);

// What an attestation was checked against: the document as served, of a type (its in-toto predicate
// type), about a version (its manifest digest, "sha256:<hex>").
struct AttestedDocument {
  std::string_view document;
  std::string_view predicate_type;
  std::string_view subject_digest;
};

struct AttestationVerdict {
  std::string key_id;   // the key whose signature verified; empty when none did
  std::string failure;  // empty when the attestation verified; else why not, in words
};

// Checks a bundle: its signature with the key its hint names, which must be listed, be ECDSA-P256
// and have the id of its own DER (so a listed key cannot stand in for another); then its statement
// (VerifyBundle and CheckStatement): subject digest, predicate type, predicate equal to the document.
AttestationVerdict VerifyAttestation(std::string_view bundle, const AttestedDocument& expected,
                                     const std::vector<SigningKey>& keys);

}  // namespace icat::client
