// Crypto on OpenSSL: randomness, hashes, MACs, encodings, the API-key checksum, passwords.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace icat {

std::string RandomBytes(size_t count);  // throws if the CSPRNG fails
std::string RandomUuid();               // version 4, lower case

std::string Sha256(std::string_view data);  // 32 raw bytes
std::string Sha256Hex(std::string_view data);
std::string HmacSha256(std::string_view key, std::string_view data);  // 32 raw bytes
std::string HmacSha1(std::string_view key, std::string_view data);    // 20 raw bytes: HOTP (RFC 4226) only
bool ConstantTimeEqual(std::string_view a, std::string_view b);

std::string HexEncode(std::string_view bytes);
std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);
std::string Base64UrlEncode(std::string_view bytes);  // no padding
std::optional<std::string> Base64UrlDecode(std::string_view text);
// The bytes of text only when it is their one spelling Base64UrlEncode writes (no padding, unused
// bits zero): a signed token then has one form, and any changed character fails its check.
std::optional<std::string> Base64UrlDecodeCanonical(std::string_view text);

// Base62 (0-9A-Za-z) of a big-endian number, left-padded with '0' to `width` characters.
std::string Base62Encode(std::string_view bytes, size_t width);
uint32_t Crc32(std::string_view data);

// Secrets kept in Postgres (OpenID client secrets, TOTP secrets): AES-256-GCM under SHA-256 of
// `key` (ICAT_SSO_KEY_FILE), with `context` (say "sso_configs.client_secret:<tenant id>") bound as
// associated data, so a sealed value copied to another row or tenant does not open. Sealed:
// 12-byte random nonce, ciphertext, 16-byte tag. Unseal: nullopt when anything does not match.
std::string Seal(std::string_view key, std::string_view plaintext, std::string_view context);
std::optional<std::string> Unseal(std::string_view key, std::string_view sealed, std::string_view context);

// Password hashes: scrypt (N=2^17, r=8, p=1) in a PHC string "$scrypt$ln=17,r=8,p=1$salt$hash".
std::string HashPassword(std::string_view password);
bool VerifyPassword(std::string_view password, std::string_view phc);

// Ed25519 (SBOM signatures): sign the exact bytes, verify, and describe the public key.
// A PEM that is not an Ed25519 key of the expected kind throws std::runtime_error.
std::string Ed25519Sign(std::string_view private_key_pem, std::string_view data);  // 64 raw bytes
bool Ed25519Verify(std::string_view public_key_pem, std::string_view data, std::string_view signature);
std::string Ed25519PublicKeyPem(std::string_view private_key_pem);  // SubjectPublicKeyInfo PEM
// The raw 32-byte public key, base64url unpadded: a JWK's "x" (RFC 8037 section 2).
std::string Ed25519JwkX(std::string_view public_key_pem);
// Key id: the first 16 hex characters of SHA-256 of the public key's DER (SubjectPublicKeyInfo), for
// a key of either algorithm.
std::string SigningKeyId(std::string_view public_key_pem);

// ECDSA P-256 with SHA-256 (attestations, docs/attestations.md): a new private key, signing the exact
// bytes (an ASN.1 DER signature, as DSSE and cosign carry it), verifying, the public half and its
// JWK coordinates. A PEM that is not a P-256 key of the expected kind throws std::runtime_error.
std::string EcdsaP256NewPrivateKeyPem();  // PKCS#8 PEM
std::string EcdsaP256Sign(std::string_view private_key_pem, std::string_view data);
bool EcdsaP256Verify(std::string_view public_key_pem, std::string_view data, std::string_view signature_der);
std::string EcdsaP256PublicKeyPem(std::string_view private_key_pem);  // SubjectPublicKeyInfo PEM
struct JwkPoint {
  std::string x, y;  // base64url, unpadded, 32 bytes each (RFC 7518 section 6.2.1)
};
JwkPoint EcdsaP256JwkPoint(std::string_view public_key_pem);
// "Ed25519" or "ECDSA-P256": what a PEM public key is; throws on anything else.
std::string KeyAlgorithm(std::string_view public_key_pem);

}  // namespace icat
