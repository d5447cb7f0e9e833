// icatctl registry attach (docs/registry.md, "Attestations in the registry"): each published
// version's served attestations, in the registry where cosign looks for them: an OCI image at the tag
// sha256-<hex of the version's digest>.att of the image's repository, one layer per attestation (its
// DSSE envelope), as cosign's attach and attest write it. Pushed straight to ICAT_REGISTRY_UPSTREAM.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "icat/registry_client.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

// One layer of the attestation image: a DSSE envelope (DsseEnvelopeOf the bundle) and its predicate type.
struct AttestationLayer {
  std::string predicate_type;
  std::string envelope;
};

// The attestation image's blobs and manifest, the same bytes for the same layers in the same order
// (no time in it), so a pass that finds the tag at this manifest's digest has nothing to push.
struct AttestationImage {
  std::string config;    // an OCI image config: the layers' digests as diff_ids, a zero creation time
  std::string manifest;  // application/vnd.oci.image.manifest.v1+json
  std::string digest;    // sha256:<hex> of manifest
};
AttestationImage CosignAttestationImage(const std::vector<AttestationLayer>& layers);

// UsageError unless ICAT_REGISTRY_UPSTREAM is an http(s):// URL (attach and reconcile need it).
void RequireRegistryUpstream(const Config& config);

inline constexpr std::string_view kOciManifestMediaType = "application/vnd.oci.image.manifest.v1+json";

struct AttachOutcomes {
  int versions = 0;    // published versions with served attestations, on this registry's host
  int attached = 0;    // whose .att tag was pushed (new, or its attestations changed)
  int unchanged = 0;   // whose .att tag already held the same manifest
  int not_pushed = 0;  // whose image manifest is not in the registry (nothing to attach to)
  int errors = 0;      // whose registry answers could not be used
};

// Attaches the served attestations of every version (of the image of that catalogue name only, when
// given) on ICAT_REGISTRY's host, one line on stdout per version attached, until stop_requested (if
// given) says so between two versions. RegistryUnreachable and database errors end the pass.
AttachOutcomes AttachAttestations(Session& session, RegistryClient& registry, const std::optional<std::string>& image,
                                  const std::function<bool()>& stop_requested = {});

// "registry attach: N versions: attached A, unchanged U, not pushed P, errors E"
void PrintAttachSummary(const AttachOutcomes& outcomes);

}  // namespace icat::ctl
