// The service's signing keys as icatctl holds them: the Ed25519 key of ICAT_SIGNING_KEY_FILE signs
// the bytes of SBOMs and served VEX documents (X-Signature), the ECDSA P-256 key of
// ICAT_ATTESTATION_KEY_FILE signs their attestations (docs/attestations.md). Handlers never see
// either; they publish the public halves (signing_keys, GET /v1/signing-keys).
#pragma once

#include <string>

#include "icat/config.hpp"
#include "icat/db.hpp"

namespace icat::ctl {

struct SigningKey {
  std::string private_pem, public_pem, id;
  std::string algorithm;  // "Ed25519" or "ECDSA-P256", as signing_keys names it
  std::string setting;    // the setting naming its file, for messages: "ICAT_ATTESTATION_KEY_FILE"
};

// The key of ICAT_SIGNING_KEY_FILE; Failure saying what is wrong when it is unset, unreadable or not
// a PEM Ed25519 private key.
SigningKey LoadSigningKey(const Config& config);

// The key of ICAT_ATTESTATION_KEY_FILE; Failure saying what is wrong when it is unset, unreadable or
// not a PEM ECDSA P-256 private key (icatctl signing-key create makes one).
SigningKey LoadAttestationKey(const Config& config);

// The key of a PEM file of that algorithm; Failure naming the setting otherwise.
SigningKey ReadSigningKey(const std::string& path, const std::string& setting, const std::string& algorithm);

// Records the key's public half in signing_keys (once), before anything signed with it is stored.
// Failure when the key is retired (icatctl signing-key rotate): what signs must be the current key.
void RememberSigningKey(Db& db, const SigningKey& key);

// Records the key's public half (once), retired or not: icatctl signing-key create and rotate.
void RecordSigningKey(Db& db, const SigningKey& key);

}  // namespace icat::ctl
