// SBOM verification (verify.hpp): pure, so unit tests can hand it tampered bytes and headers.
#include "verify.hpp"

#include "api.hpp"
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

std::optional<std::string> VerificationFailure(std::string_view bytes, const SignedDownload& download,
                                               const std::vector<SigningKey>& keys) {
  std::string sha = Sha256(bytes);
  std::string hex = HexEncode(sha);
  if (download.etag.empty() && download.repr_digest.empty()) {
    return "the download states no checksum (neither ETag nor Repr-Digest)";
  }
  if (!download.etag.empty()) {
    std::string stated = EtagHex(download.etag);
    if (stated.empty()) return "the ETag " + download.etag + " is not a sha256 checksum";
    if (stated != hex) return "checksum mismatch: the ETag says sha256:" + stated + ", the bytes are sha256:" + hex;
  }
  if (!download.repr_digest.empty()) {
    std::optional<std::string> stated = ReprDigestSha256(download.repr_digest);
    if (!stated) return "the Repr-Digest " + download.repr_digest + " has no sha-256 entry";
    if (*stated != sha) {
      return "checksum mismatch: the Repr-Digest says sha-256=:" + Base64Encode(*stated) + ":, the bytes are sha-256=:" +
             Base64Encode(sha) + ":";
    }
  }
  if (download.signature.empty()) return "the download is not signed (no X-Signature)";
  if (download.key_id.empty()) return "the download names no signing key (no X-Signature-Key-Id)";
  const SigningKey* key = nullptr;
  for (const SigningKey& candidate : keys) {
    if (candidate.id == download.key_id) key = &candidate;
  }
  if (key == nullptr) return "the signing key " + download.key_id + " is not among the service's signing keys";
  if (key->algorithm != "Ed25519") return "the signing key " + key->id + " is " + key->algorithm + ", not Ed25519";
  std::optional<std::string> signature = Base64Decode(download.signature);
  if (!signature) return "the X-Signature is not base64";
  try {
    if (SigningKeyId(key->public_key_pem) != key->id) {
      return "the signing key listed as " + key->id + " has another id (" + SigningKeyId(key->public_key_pem) + ")";
    }
    if (!Ed25519Verify(key->public_key_pem, bytes, *signature)) {
      return "the Ed25519 signature does not match the bytes (key " + key->id + ")";
    }
  } catch (const std::exception& error) {
    return "the signing key " + key->id + " cannot be used: " + error.what();
  }
  return std::nullopt;
}

}  // namespace icat::client
