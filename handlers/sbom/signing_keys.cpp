// The vendor's public keys, the trust root of every signature and attestation the service serves
// (docs/attestations.md): as JSON, as a JWK Set, and one key's PEM (for `cosign --key`). Public.
#include "icat/crypto.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "queries.hpp"
#include "sbom.hpp"

namespace icat::sbom {

namespace {

// Public data that changes only when the vendor rotates a key: caches may keep it a while.
constexpr std::string_view kKeyCacheControl = "public, max-age=300";

bool IsKeyId(std::string_view text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// What a key signs: the Ed25519 key the X-Signature headers, the P-256 key the attestations.
std::string_view UseOf(std::string_view algorithm) { return algorithm == "Ed25519" ? "signatures" : "attestations"; }

// The key's members as the JSON list shows them.
void WriteKeyEntry(JsonWriter& w, const SigningKeyView& key) {
  WriteString(w, "id", key.id);
  WriteString(w, "algorithm", key.algorithm);
  WriteString(w, "publicKeyPem", key.public_key_pem);
  WriteString(w, "use", UseOf(key.algorithm));
  WriteString(w, "createdAt", key.created_at);
  WriteOptionalString(w, "retiredAt", key.retired_at);
}

// The key's members as a JWK: an Ed25519 key as OKP (RFC 8037), a P-256 key as EC.
void WriteJwk(JsonWriter& w, const SigningKeyView& key) {
  if (key.algorithm == "Ed25519") {
    WriteString(w, "kty", "OKP");
    WriteString(w, "crv", "Ed25519");
    WriteString(w, "x", Ed25519JwkX(key.public_key_pem));
  } else {
    JwkPoint point = EcdsaP256JwkPoint(key.public_key_pem);
    WriteString(w, "kty", "EC");
    WriteString(w, "crv", "P-256");
    WriteString(w, "x", point.x);
    WriteString(w, "y", point.y);
  }
  WriteString(w, "kid", key.id);
  WriteString(w, "alg", key.algorithm == "Ed25519" ? "EdDSA" : "ES256");
  WriteString(w, "use", "sig");
}

// {"keys": [...]}, each key an object of the members `write_key` writes: both forms of the list.
std::string KeysDocument(const std::vector<SigningKeyView>& keys,
                         void (*write_key)(JsonWriter&, const SigningKeyView&)) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteKey(w, "keys");
  WriteObjects(w, keys, write_key);
  w.EndObject();
  return buffer.GetString();
}

}  // namespace

std::string SigningKeysJson(const std::vector<SigningKeyView>& keys) { return KeysDocument(keys, WriteKeyEntry); }

std::string SigningKeysJwks(const std::vector<SigningKeyView>& keys) { return KeysDocument(keys, WriteJwk); }

// GET /v1/signing-keys?format=jwks   (public)
//   200 {"keys": [{"id", "algorithm": "Ed25519"|"ECDSA-P256", "publicKeyPem", "use", "createdAt",
//       "retiredAt"}]}: every key that signed an SBOM, a VEX document or an attestation, retired ones
//       too; with format=jwks the same keys as an RFC 7517 JWK Set (application/jwk-set+json)
//   400 VALIDATION_ERROR (format)
Reply ListSigningKeys(Context& ctx) {
  std::optional<std::string> format = ctx.query.Text("format");  // jwks, or the JSON list
  Rows rows = ctx.db.Run(kListSigningKeys);
  std::vector<SigningKeyView> keys;
  for (int row = 0; row < rows.size(); row++) {
    auto text = [&](const char* column) { return std::string(rows.Text(row, rows.Column(column))); };
    keys.push_back({text("id"), text("algorithm"), text("public_key_pem"), text("created_at"),
                    rows.OptionalText(row, rows.Column("retired_at"))});
  }
  Reply reply;
  if (format) {
    reply.body = SigningKeysJwks(keys);
    reply.headers.emplace_back("Content-Type", "application/jwk-set+json");
  } else {
    reply = Reply::Json(200, SigningKeysJson(keys));
  }
  reply.headers.emplace_back("Cache-Control", kKeyCacheControl);
  return reply;
}

// GET /v1/signing-keys/{keyId}   (public)
//   200 the key's SubjectPublicKeyInfo PEM (application/x-pem-file), as `cosign --key` reads it
//   404 NOT_FOUND: no key of that id (or not of a key id's form: 16 lower-case hex)
Reply GetSigningKey(Context& ctx) {
  std::string id = ctx.request.PathParam("keyId");
  const std::string unknown = "No signing key of that id; GET /v1/signing-keys lists them.";
  if (!IsKeyId(id)) throw ApiError(Error::kNOT_FOUND, unknown);
  Rows rows = ctx.db.Run(kSigningKey, {id});
  if (rows.empty()) throw ApiError(Error::kNOT_FOUND, unknown);
  Reply reply;
  reply.body = std::string(rows.Text(0, rows.Column("public_key_pem")));
  reply.headers = {{"Content-Type", "application/x-pem-file"},
                   {"Content-Disposition", "attachment; filename=\"" + id + ".pub\""},
                   {"Cache-Control", std::string(kKeyCacheControl)}};
  return reply;
}

}  // namespace icat::sbom
