// The service's words, each list once, in SPEC.md's order. The SQL CHECKs of the same columns are
// compared with these lists by tests/integration/vocabulary_test.cpp.
#pragma once

#include <array>
#include <string_view>
#include <vector>

namespace icat {

// Most severe first; counts per severity are indexed in this order.
inline constexpr std::array<std::string_view, 5> kSeverities = {"critical", "high", "medium", "low", "unknown"};
// The one severity ranking: critical 4, high 3, medium 2, low 1, unknown (and any other word) 0, so
// a higher rank is more severe. The SQL that ranks severities (the admission findings query,
// scan_recount of sql/V0020) is compared with it by tests/integration/vocabulary_test.cpp.
constexpr int SeverityRank(std::string_view severity) {
  for (size_t i = 0; i < kSeverities.size(); i++) {
    if (kSeverities[i] == severity) return static_cast<int>(kSeverities.size() - 1 - i);
  }
  return 0;
}
// The severity of a rank from 0 to 4: SeverityRank's inverse.
constexpr std::string_view SeverityOfRank(int rank) { return kSeverities[kSeverities.size() - 1 - rank]; }
// not-affected comes from VEX statements and never counts.
inline constexpr std::array<std::string_view, 5> kFixStates = {"fixed", "not-fixed", "wont-fix", "unknown",
                                                               "not-affected"};
// What an API key may be allowed; `pull`: the registry's images of the tenant's licences (docs/registry.md).
// A route names the one it needs as a Scope, whose name is kScopes at its index.
enum class Scope { kReadCatalog, kReadSbom, kReadVulns, kAdmission, kPull };
inline constexpr std::array<std::string_view, 5> kScopes = {"read:catalog", "read:sbom", "read:vulns", "admission",
                                                            "pull"};
constexpr std::string_view NameOf(Scope scope) { return kScopes[static_cast<size_t>(scope)]; }
// A portal user's role, most powerful first.
inline constexpr std::array<std::string_view, 3> kRoles = {"admin", "user", "viewer"};
// The outbox events a webhook can subscribe to.
inline constexpr std::array<std::string_view, 8> kEventTypes = {
    "scan.completed", "vulnerability.detected", "vulnerability.fixed", "cve_watch.matched", "vex.updated",
    "ping",           "version.published",      "vulnerability.exploited"};
// The services a notification channel posts to, and e-mail (docs/notifications.md).
inline constexpr std::array<std::string_view, 3> kChannelTypes = {"slack", "teams", "email"};
// How often an e-mail channel's digest goes out (null: a mail per event instead).
inline constexpr std::array<std::string_view, 2> kDigestPeriods = {"daily", "weekly"};
// The states of an e-mail channel's address: pending until its confirmation link is used.
inline constexpr std::array<std::string_view, 3> kAddressStates = {"pending", "confirmed", "unsubscribed"};
// A vendor VEX statement's status, and the justification of a not_affected one, as OpenVEX names
// them (docs/vex.md); CycloneDX analyses are mapped onto these.
inline constexpr std::array<std::string_view, 4> kVexStatuses = {"not_affected", "affected", "fixed",
                                                                 "under_investigation"};
inline constexpr std::array<std::string_view, 5> kVexJustifications = {
    "component_not_present", "vulnerable_code_not_present", "vulnerable_code_not_in_execute_path",
    "vulnerable_code_cannot_be_controlled_by_adversary", "inline_mitigations_already_exist"};
// The formats of SBOMs, ingested, stored (sboms.format) and served; the first is what a download
// without ?format= gets when the scan has it.
inline constexpr std::array<std::string_view, 2> kSbomFormats = {"cyclonedx", "spdx"};
// The formats of VEX documents, ingested and served (docs/vex-documents.md); the first is what a
// download without ?format= gets.
inline constexpr std::array<std::string_view, 2> kVexFormats = {"openvex", "cyclonedx"};
// A portal feature request's type, and its status (the vendor moves it on with `icatctl request status`).
inline constexpr std::array<std::string_view, 3> kRequestTypes = {"feature", "package", "bug"};
inline constexpr std::array<std::string_view, 4> kRequestStatuses = {"open", "planned", "done", "declined"};
// A webhook delivery's state: pending until an attempt succeeds or the attempts run out.
inline constexpr std::array<std::string_view, 3> kDeliveryStates = {"pending", "succeeded", "failed"};
// What an admission policy does with an image that fails it (docs/admission.md): enforce denies,
// warn allows with warnings, audit allows and only records.
inline constexpr std::array<std::string_view, 3> kAdmissionModes = {"enforce", "warn", "audit"};
// An API key's state as the portal lists it: revoked, else expired once past its expiry, else active.
inline constexpr std::array<std::string_view, 3> kKeyStates = {"active", "expired", "revoked"};

template <size_t N>
bool IsOneOf(std::string_view word, const std::array<std::string_view, N>& words) {
  for (std::string_view w : words) {
    if (w == word) return true;
  }
  return false;
}

// A list as the readers of request fields take it (FieldReader::Enum and the like).
template <size_t N>
std::vector<std::string_view> AsList(const std::array<std::string_view, N>& words) {
  return {words.begin(), words.end()};
}

}  // namespace icat
