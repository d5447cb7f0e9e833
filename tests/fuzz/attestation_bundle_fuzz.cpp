// Attestations (common/src/attestation.cpp): the input as a Sigstore bundle that icat verify reads
// from the network, as a statement CheckStatement reads, and as a document: any JSON object the
// service would attest round-trips (signed, verified, its predicate equal to itself).
#include <stdexcept>

#include "fuzz.hpp"
#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace {

// A key made for this harness alone; it signs nothing else.
constexpr std::string_view kPrivateKey =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgkgRjwXv7w21sQxYt\n"
    "7i+WMOBGkYRa5s27kgBi0pqsCUmhRANCAAT/Za6K88ve0zT7LVgNlLYw4eii6om7\n"
    "f7DZD5B1wck/1W7hSsiA71U2r1svNCH2XyJIILMTf78084R62YKqXIwX\n"
    "-----END PRIVATE KEY-----\n";
constexpr std::string_view kDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
constexpr std::string_view kPredicateType = "https://spdx.dev/Document";

const std::string& PublicKey() {
  static const std::string pem = icat::EcdsaP256PublicKeyPem(kPrivateKey);
  return pem;
}

std::optional<std::string> KeyOf(std::string_view key_id) {
  static const std::string id = icat::SigningKeyId(PublicKey());
  if (key_id == id) return PublicKey();
  return std::nullopt;
}

// Refusals are std::runtime_error saying why; anything else escaping is a defect.
template <typename F>
void Refusable(F&& f) {
  try {
    f();
  } catch (const std::runtime_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  Refusable([&] { (void)icat::VerifyBundle(text, KeyOf); });
  Refusable([&] { (void)icat::DsseEnvelopeOf(text); });
  Refusable([&] { icat::CheckStatement(text, kDigest, kPredicateType, "{}"); });
  icat::JsonRead read = icat::ReadJson(text, icat::kMaxDocumentDepth);
  if (read.error.empty() && read.document.IsObject()) {
    static const std::string key_id = icat::SigningKeyId(PublicKey());
    std::string bundle =
        icat::SignedBundle(kPrivateKey, key_id, icat::InTotoStatement("hardened/fuzz", kDigest, kPredicateType, text));
    icat::VerifiedStatement verified = icat::VerifyBundle(bundle, KeyOf);
    icat::CheckStatement(verified.statement, kDigest, kPredicateType, text);  // throws: the run stops
    icat::fuzz::Expect(icat::DsseEnvelopeOf(bundle) == icat::DsseEnvelopeOf(bundle),
                       "the registry's envelope of a bundle is always the same bytes");
  }
  return 0;
}
