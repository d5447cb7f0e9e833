// The signing key read from its file and published in signing_keys.
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
    "INSERT INTO signing_keys (id, algorithm, public_key_pem) VALUES ($1, 'Ed25519', $2) ON CONFLICT (id) DO NOTHING";

}  // namespace

SigningKey LoadSigningKey(const Config& config) {
  if (config.signing_key_file.empty()) {
    throw Failure("ICAT_SIGNING_KEY_FILE is not set: it names the PEM Ed25519 key that signs SBOMs and VEX documents");
  }
  std::ifstream in(config.signing_key_file, std::ios::binary);
  if (!in) throw Failure("ICAT_SIGNING_KEY_FILE: cannot read " + config.signing_key_file + ": " + std::strerror(errno));
  std::ostringstream pem;
  pem << in.rdbuf();
  SigningKey key;
  key.private_pem = pem.str();
  try {
    key.public_pem = Ed25519PublicKeyPem(key.private_pem);
    key.id = SigningKeyId(key.public_pem);
  } catch (const std::exception& e) {
    throw Failure("ICAT_SIGNING_KEY_FILE: " + config.signing_key_file + ": " + e.what() +
                  " (expected a PEM Ed25519 private key)");
  }
  return key;
}

void RememberSigningKey(Db& db, const SigningKey& key) { db.ExecSql(kRememberKey, {key.id, key.public_pem}); }

}  // namespace icat::ctl
