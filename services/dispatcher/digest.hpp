// A tenant's daily or weekly digest for an e-mail channel (issue 32, docs/notifications.md
// "Digests"): the new severe findings of its images, the CVEs that became known exploited, and the
// new versions that fix what was open. ReadDigest reads it as the tenant; the rest are pure
// functions that write it as a mail with channel_messages' pieces.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "channel_messages.hpp"
#include "icat/db.hpp"

namespace icat::dispatcher {

// An image's latest version, as a digest line names it and links to it.
struct DigestImage {
  std::string id;       // the image's id: its console page is /images/<id>
  std::string name;     // "nginx"
  std::string version;  // its tag, else its digest
};

// A vulnerability first seen on the image in the period, in its latest version.
struct DigestFinding {
  DigestImage image;
  std::string id, severity;  // the highest of its findings
  std::string packages;      // "openssl, libssl3"
  std::string fix;           // "fix available" when any of its packages has one, else "no fix yet"
};

// A CVE that became known exploited (CISA KEV) in the period and that the latest version carries.
struct DigestExploited {
  DigestImage image;
  std::string cve_id, name;  // name: the KEV entry's vulnerabilityName
};

// A version published in the period that fixes vulnerabilities of the version it replaced as latest.
struct DigestFix {
  DigestImage image;  // the new version
  std::string replaced;     // the replaced version's tag
  long long count = 0;      // how many vulnerability ids it no longer has
  std::string most_severe;  // the highest severity among them
};

struct Digest {
  std::string tenant;         // the tenant's name, as the subject shows it
  std::string cadence;        // "daily" or "weekly"
  std::string since, until;   // the period [since, until), RFC 3339 UTC
  std::string min_severity;   // the findings' floor ("high")
  std::string console;        // the tenant's console ("" for no links)
  std::vector<DigestFinding> findings;  // most severe first, then image name, then id
  std::vector<DigestExploited> exploited;  // by CVE, then image name
  std::vector<DigestFix> fixes;            // by image name, then version
  bool empty() const { return findings.empty() && exploited.empty() && fixes.empty(); }
};

// What a channel's digest covers.
struct DigestScope {
  std::string tenant_id;
  std::string cadence = "daily";
  std::string since, until;           // timestamps Postgres reads
  std::string min_severity = "high";  // the channel's minSeverity, or high
  std::vector<std::string> image_ids; // the channel's images; empty: every licensed image
  std::string console;                // TenantConsole(ICAT_CONSOLE_URL, subdomain)
};

// A digest's period, [since, until).
struct DigestPeriod {
  std::chrono::system_clock::time_point since, until;
};

// The period a channel's digest ("daily" or "weekly") is due for at `now`, if any. It ends at the
// last digest time at or before now (each day at `hour`:00 UTC; weekly: Mondays at that hour), or,
// when sent by hand (by_hand), at now; it begins where the channel's last digest ended
// (last_until), or one day or week before its end for a channel's first. None when the last digest
// ended there already: a period is never sent twice, and one missed (the dispatcher down) is sent
// whole at the next chance.
std::optional<DigestPeriod> DuePeriod(std::string_view cadence, int hour, std::chrono::system_clock::time_point now,
                                      std::optional<std::chrono::system_clock::time_point> last_until,
                                      bool by_hand = false);

// Reads the digest of a scope. `db` must be in a transaction or read scope of the scope's tenant
// (BeginForTenant, ReadAsTenant): row-level security, and the licences each statement joins, show
// nothing of an image the tenant holds no licence for. Throws DbError.
Digest ReadDigest(Db& db, const DigestScope& scope);

// Each part of a digest's mail shows at most this many lines per section, then "and N more".
inline constexpr size_t kMaxDigestLines = 50;

// "Daily digest for Acme: 3 new critical, 1 known exploited, 2 new versions with fixes".
std::string DigestSubject(const Digest& digest);
// The digest's mail: DigestSubject, a plain-text and an HTML part, each line linking to its image's
// page in the console, and channel_messages' footer and List-Unsubscribe; DigestMailOf(DigestPayload).
// An empty digest is not sent: both throw std::logic_error for one.
std::string DigestMail(const Digest& digest, const MailEnvelope& envelope);
// The plain text of a digest (the mail's text part before its footer).
std::string DigestText(const Digest& digest);

// A digest as its outbox event's payload (type "digest"): the period and the mail's subject, text
// and HTML before the footer, which differs per address: {"since", "until", "subject", "text", "html"}.
std::string DigestPayload(const Digest& digest);
// The mail of a digest event's payload to one address. Throws std::invalid_argument when the payload
// is not such an object.
std::string DigestMailOf(std::string_view payload_json, const MailEnvelope& envelope);

}  // namespace icat::dispatcher
