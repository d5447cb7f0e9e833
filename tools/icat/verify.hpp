// Verifying a downloaded SBOM before anything is written: the checksum the server states (ETag,
// Repr-Digest) and the Ed25519 signature of the exact bytes (X-Signature) with the key its id names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat::client {

struct SigningKey {
  std::string id, algorithm, public_key_pem;
};

// The keys of GET /v1/signing-keys: {"keys": [{"id", "algorithm", "publicKeyPem"}]}; Failure when
// the body is not that.
std::vector<SigningKey> ParseSigningKeys(std::string_view json);

// What a download says about its bytes (absent headers are empty strings).
struct SignedDownload {
  std::string etag;         // "sha256:<hex>", quoted
  std::string repr_digest;  // sha-256=:<base64>:
  std::string signature;    // base64 Ed25519 over the bytes
  std::string key_id;       // X-Signature-Key-Id
};

// nullopt when the bytes are exactly what the service signed; else why not, in words. In order:
// every checksum given (at least one) is the SHA-256 of the bytes; a signature and a key id are
// given; the key is listed, is Ed25519 and its id is the SHA-256 of its DER (docs/scans.md); the
// signature verifies over the bytes.
std::optional<std::string> VerificationFailure(std::string_view bytes, const SignedDownload& download,
                                               const std::vector<SigningKey>& keys);

}  // namespace icat::client
