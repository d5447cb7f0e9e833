// A finding's enrichment feeds (docs/feeds.md): its EPSS score and KEV entry, as every reply and event
// that shows a finding writes them. The SQL that attaches them is sql/V0031's finding_feeds(); a query
// joins it with ICAT_FINDING_FEEDS_JOIN and selects ICAT_FINDING_FEEDS_COLUMNS, FeedColumns reads them.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "icat/db.hpp"
#include "icat/json.hpp"

// The feeds of finding alias x (a row of vulnerabilities), as ff.
#define ICAT_FINDING_FEEDS_JOIN "LEFT JOIN LATERAL finding_feeds(x.vuln_id, x.aliases) ff ON true "
#define ICAT_FINDING_FEEDS_COLUMNS                                                   \
  "ff.epss_score::text AS epss_score, ff.epss_percentile::text AS epss_percentile, " \
  "ff.epss_date::text AS epss_date, ff.kev_date_added::text AS kev_date_added, "     \
  "ff.kev_due_date::text AS kev_due_date, ff.kev_ransomware AS kev_ransomware "

namespace icat {

struct EpssView {
  double score = 0, percentile = 0;  // probabilities, 0 to 1
  std::string date;                  // YYYY-MM-DD: the file's score_date
};

struct KevView {
  std::string date_added, due_date;                          // YYYY-MM-DD
  std::optional<std::string> known_ransomware_campaign_use;  // "Known" or "Unknown", as CISA writes it
};

struct FeedFacts {
  std::optional<EpssView> epss;  // nullopt: the finding has no CVE the EPSS feed scores
  std::optional<KevView> kev;    // nullopt: not in CISA's catalogue (not known to be exploited)
};

// The ICAT_FINDING_FEEDS_COLUMNS of a result, found once. Inline: the JSON writing below is linked
// without libpq too (the fuzz harnesses).
struct FeedColumns {
  explicit FeedColumns(const Rows& rows)
      : epss_score(rows.Column("epss_score")),
        epss_percentile(rows.Column("epss_percentile")),
        epss_date(rows.Column("epss_date")),
        kev_date_added(rows.Column("kev_date_added")),
        kev_due_date(rows.Column("kev_due_date")),
        kev_ransomware(rows.Column("kev_ransomware")) {}
  FeedFacts At(const Rows& rows, int row) const {
    FeedFacts facts;
    if (!rows.IsNull(row, epss_score)) {
      facts.epss = EpssView{std::strtod(std::string(rows.Text(row, epss_score)).c_str(), nullptr),
                            std::strtod(std::string(rows.Text(row, epss_percentile)).c_str(), nullptr),
                            std::string(rows.Text(row, epss_date))};
    }
    if (!rows.IsNull(row, kev_date_added)) {
      facts.kev = KevView{std::string(rows.Text(row, kev_date_added)), std::string(rows.Text(row, kev_due_date)),
                          rows.OptionalText(row, kev_ransomware)};
    }
    return facts;
  }
  int epss_score, epss_percentile, epss_date, kev_date_added, kev_due_date, kev_ransomware;
};

// "epss": null or {"score", "percentile", "date"}, then "kev": null or {"dateAdded", "dueDate",
// "knownRansomwareCampaignUse"}: the members of the finding object being written.
void WriteFeeds(JsonWriter& w, const FeedFacts& facts);

}  // namespace icat
