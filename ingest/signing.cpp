// The signing keys read from their files and published in signing_keys.
#include "ingest/signing.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "icat/crypto.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

constexpr std::string_view kRecordKey =
    "INSERT INTO signing_keys (id, algorithm, public_key_pem) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING";
constexpr std::string_view kRetiredAt = "SELECT rfc3339(retired_at) AS retired_at FROM signing_keys WHERE id = $1";

}  // namespace

SigningKey ReadSigningKey(const std::string& path, const std::string& setting, const std::string& algorithm) {
  std::string expected = algorithm == "Ed25519" ? "a PEM Ed25519 private key" : "a PEM ECDSA P-256 private key";
  if (path.empty()) throw Failure(setting + " is not set: it names " + expected);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure(setting + ": cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream pem;
  pem << in.rdbuf();
  SigningKey key;
  key.private_pem = pem.str();
  key.algorithm = algorithm;
  key.setting = setting;
  try {
    key.public_pem = algorithm == "Ed25519" ? Ed25519PublicKeyPem(key.private_pem) : EcdsaP256PublicKeyPem(key.private_pem);
    key.id = SigningKeyId(key.public_pem);
  } catch (const std::exception& e) {
    throw Failure(setting + ": " + path + ": " + e.what() + " (expected " + expected + ")");
  }
  return key;
}

SigningKey LoadSigningKey(const Config& config) {
  return ReadSigningKey(config.signing_key_file, "ICAT_SIGNING_KEY_FILE", "Ed25519");
}

SigningKey LoadAttestationKey(const Config& config) {
  return ReadSigningKey(config.attestation_key_file, "ICAT_ATTESTATION_KEY_FILE", "ECDSA-P256");
}

void RecordSigningKey(Db& db, const SigningKey& key) { db.ExecSql(kRecordKey, {key.id, key.algorithm, key.public_pem}); }

void RememberSigningKey(Db& db, const SigningKey& key) {
  RecordSigningKey(db, key);
  Rows rows = db.RunSql(kRetiredAt, {key.id});
  std::optional<std::string> retired_at = rows.OptionalText(0, rows.Column("retired_at"));
  if (retired_at) {
    throw Failure(key.setting + " holds key " + key.id + ", retired at " + *retired_at +
                  " by icatctl signing-key rotate: nothing is signed with it any more; use the current key file "
                  "(icatctl signing-key list)");
  }
}

}  // namespace icat::ctl
