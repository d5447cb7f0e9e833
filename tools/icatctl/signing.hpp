// The service's Ed25519 signing key as icatctl holds it (ICAT_SIGNING_KEY_FILE): what signs SBOMs at
// ingest and the VEX documents the service serves. Handlers never see it; they publish its public
// half (signing_keys, GET /v1/signing-keys).
#pragma once

#include <string>

#include "icat/config.hpp"
#include "icat/db.hpp"

namespace icat::ctl {

struct SigningKey {
  std::string private_pem, public_pem, id;
};

// The key of ICAT_SIGNING_KEY_FILE; Failure saying what is wrong when it is unset, unreadable or not
// a PEM Ed25519 private key.
SigningKey LoadSigningKey(const Config& config);

// Records the key's public half in signing_keys (once), before anything signed with it is stored.
void RememberSigningKey(Db& db, const SigningKey& key);

}  // namespace icat::ctl
