// The signing keys read from their files and published in signing_keys.
#include "signing.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "icat/crypto.hpp"
#include "session.hpp"

namespace icat::ctl {

namespace {

constexpr std::string_view kRememberKey =
    "INSERT INTO signing_keys (id, algorithm, public_key_pem) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING";

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

void RememberSigningKey(Db& db, const SigningKey& key) {
  db.ExecSql(kRememberKey, {key.id, key.algorithm, key.public_pem});
}

}  // namespace icat::ctl
