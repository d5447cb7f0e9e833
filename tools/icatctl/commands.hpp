// Every icatctl command: one function each, run by main's dispatch table with parsed arguments.
// A command prints its result on stdout and throws UsageError (exit 2) or Failure (exit 1).
#pragma once

#include <string>
#include <string_view>

#include "icat/cli_args.hpp"

namespace icat::ctl {

void Migrate(const Args& args);        // migrate.cpp
void TenantCreate(const Args& args);   // tenants.cpp
void UserCreate(const Args& args);     // users.cpp
void ImageCreate(const Args& args);    // images.cpp
void VersionAdd(const Args& args);     // images.cpp
void LicenseGrant(const Args& args);   // licenses.cpp
void LicenseRevoke(const Args& args);  // licenses.cpp
void KeyCreate(const Args& args);      // keys.cpp
void KeyList(const Args& args);        // keys.cpp
void KeyRevoke(const Args& args);      // keys.cpp
void PrintConfig(const Args& args);    // config.cpp
void RequestList(const Args& args);    // requests.cpp
void RequestStatus(const Args& args);  // requests.cpp
void Ingest(const Args& args);         // ingest.cpp
void Gc(const Args& args);             // gc.cpp
void ScansPrune(const Args& args);     // retention.cpp
void SbomCheck(const Args& args);      // sbom_check.cpp
void VexIngest(const Args& args);      // vex_ingest.cpp
void VexCheck(const Args& args);       // vex_check.cpp
void PublisherCreate(const Args& args);    // publishers.cpp
void PublisherRevoke(const Args& args);    // publishers.cpp
void PublisherList(const Args& args);      // publishers.cpp
void RegistryReconcile(const Args& args);  // registry_reconcile.cpp
void RegistryAttach(const Args& args);     // registry_attach.cpp
void SigningKeyCreate(const Args& args);   // signing_keys.cpp
void SigningKeyRotate(const Args& args);   // signing_keys.cpp
void SigningKeyList(const Args& args);     // signing_keys.cpp
void Attest(const Args& args);             // attest.cpp
void FeedsLoad(const Args& args);          // feeds.cpp
void PackagesBackfill(const Args& args);   // packages.cpp
void DigestsSend(const Args& args);        // digests.cpp

// 'text' for sh and bash, each ' written '\'' (config.cpp; unit-tested through bash).
std::string ShellQuoted(std::string_view text);

}  // namespace icat::ctl
