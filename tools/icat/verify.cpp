// Verifying downloads (verify.hpp): pure, so unit tests can hand it tampered bytes, headers and bundles.
#include "verify.hpp"

#include <stdexcept>

#include "api.hpp"
#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/text.hpp"

namespace icat::client {

namespace {

// The SHA-256 an ETag states ("sha256:<hex>", quoted, maybe weak), in lower-case hex; empty if none.
std::string EtagHex(std::string_view etag) {
  etag = Trim(etag);
  if (etag.rfind("W/", 0) == 0) etag.remove_prefix(2);
  if (etag.size() < 2 || etag.front() != '"' || etag.back() != '"') return "";
  etag = etag.substr(1, etag.size() - 2);
  if (etag.rfind("sha256:", 0) != 0) return "";
  return Lower(etag.substr(7));
}

// The SHA-256 (raw) a Repr-Digest states among its entries (RFC 9530: sha-256=:<base64>:, ...).
std::optional<std::string> ReprDigestSha256(std::string_view header) {
  while (!header.empty()) {
    size_t comma = header.find(',');
    std::string_view entry = Trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (entry.rfind("sha-256=:", 0) != 0 || entry.size() < 10 || entry.back() != ':') continue;
    return Base64Decode(entry.substr(9, entry.size() - 10)).value_or("");
  }
  return std::nullopt;
}

}  // namespace

std::vector<SigningKey> ParseSigningKeys(std::string_view json) {
  JsonRead read = ReadJson(json, kMaxBodyDepth);
  const rapidjson::Value& doc = read.document;
  if (!read.error.empty() || !doc.IsObject() || !doc.HasMember("keys") || !doc["keys"].IsArray()) {
    throw Failure("GET /v1/signing-keys: the answer is not {\"keys\": [...]}");
  }
  std::vector<SigningKey> keys;
  for (const rapidjson::Value& key : doc["keys"].GetArray()) {
    auto text = [&](const char* name) {
      return key.IsObject() && key.HasMember(name) && key[name].IsString() ? std::string(key[name].GetString()) : "";
    };
    keys.push_back({text("id"), text("algorithm"), text("publicKeyPem")});
  }
  return keys;
}

std::optional<std::string> ChecksumFailure(std::string_view bytes, std::string_view etag,
                                           std::string_view repr_digest) {
  std::string sha = Sha256(bytes);
  std::string hex = HexEncode(sha);
  if (etag.empty() && repr_digest.empty()) return "the download states no checksum (neither ETag nor Repr-Digest)";
  if (!etag.empty()) {
    std::string stated = EtagHex(etag);
    if (stated.empty()) return "the ETag " + std::string(etag) + " is not a sha256 checksum";
    if (stated != hex) return "checksum mismatch: the ETag says sha256:" + stated + ", the bytes are sha256:" + hex;
  }
  if (!repr_digest.empty()) {
    std::optional<std::string> stated = ReprDigestSha256(repr_digest);
    if (!stated) return "the Repr-Digest " + std::string(repr_digest) + " has no sha-256 entry";
    if (*stated != sha) {
      return "checksum mismatch: the Repr-Digest says sha-256=:" + Base64Encode(*stated) + ":, the bytes are sha-256=:" +
             Base64Encode(sha) + ":";
    }
  }
  return std::nullopt;
}

AttestationVerdict VerifyAttestation(std::string_view bundle, const AttestedDocument& expected,
                                     const std::vector<SigningKey>& keys) {
  auto public_key_of = [&keys](std::string_view key_id) -> std::optional<std::string> {
    for (const SigningKey& key : keys) {
      if (key.id != key_id) continue;
      if (key.algorithm != "ECDSA-P256") {
        throw std::runtime_error("the bundle names key " + key.id + ", which is " + key.algorithm +
                                 ", not an attestation key (ECDSA-P256)");
      }
      if (SigningKeyId(key.public_key_pem) != key.id) {
        throw std::runtime_error("the key listed as " + key.id + " has another id (" +
                                 SigningKeyId(key.public_key_pem) + ")");
      }
      return key.public_key_pem;
    }
    return std::nullopt;
  };
  AttestationVerdict verdict;
  try {
    VerifiedStatement verified = VerifyBundle(bundle, public_key_of);
    verdict.key_id = verified.key_id;
    CheckStatement(verified.statement, expected.subject_digest, expected.predicate_type, expected.document);
  } catch (const std::exception& error) {
    verdict.failure = error.what();
  }
  return verdict;
}

}  // namespace icat::client
