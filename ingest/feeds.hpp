// The enrichment feeds' documents (docs/feeds.md): FIRST's EPSS CSV and CISA's KEV catalogue JSON,
// told apart by their content and read whole before anything is stored (icatctl feeds load).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace icat::ctl {

// Why a feed file is refused: one line, without the file's name (the caller adds it).
class FeedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One row of an EPSS file; score and percentile as written (decimals in [0, 1]).
struct EpssRow {
  std::string cve_id, score, percentile;
};

// One entry of the KEV catalogue, with the fields its schema requires and the optional ones.
struct KevEntry {
  std::string cve_id, vendor_project, product, vulnerability_name, date_added, short_description, required_action,
      due_date;
  std::optional<std::string> known_ransomware_campaign_use, notes;
  std::vector<std::string> cwes;
};

// The feed kinds, as feed_loads.kind names them (sql/V0030).
inline constexpr std::string_view kEpss = "epss";
inline constexpr std::string_view kKev = "kev";

// A feed file as read: its kind, version (EPSS model_version, KEV catalogVersion), the time it was
// published (EPSS score_date, KEV dateReleased: an RFC 3339 timestamp Postgres reads), and its rows.
struct Feed {
  std::string_view kind;
  std::string version, published_at;
  std::string score_date;  // EPSS: the date of every score (YYYY-MM-DD)
  std::vector<EpssRow> epss;
  std::vector<KevEntry> kev;
};

// Whether bytes start as a gzip member does.
bool IsGzip(std::string_view bytes);
// The bytes of a gzip file (one or more members), at most max_bytes; FeedError otherwise.
std::string Gunzip(std::string_view bytes, size_t max_bytes);

// Reads a feed file (already decompressed): an EPSS CSV when it starts with "#model_version:", a
// KEV catalogue when it is a JSON object; FeedError saying what is wrong otherwise.
Feed ParseFeed(std::string_view text);

}  // namespace icat::ctl
