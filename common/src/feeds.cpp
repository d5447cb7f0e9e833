// A finding's EPSS score and KEV entry in replies (common/include/icat/feeds.hpp, docs/feeds.md).
#include "icat/feeds.hpp"

namespace icat {

void WriteFeeds(JsonWriter& w, const FeedFacts& facts) {
  WriteKey(w, "epss");
  if (facts.epss) {
    w.StartObject();
    WriteKey(w, "score");
    w.Double(facts.epss->score);
    WriteKey(w, "percentile");
    w.Double(facts.epss->percentile);
    WriteString(w, "date", facts.epss->date);
    w.EndObject();
  } else {
    w.Null();
  }
  WriteKey(w, "kev");
  if (facts.kev) {
    w.StartObject();
    WriteString(w, "dateAdded", facts.kev->date_added);
    WriteString(w, "dueDate", facts.kev->due_date);
    WriteOptionalString(w, "knownRansomwareCampaignUse", facts.kev->known_ransomware_campaign_use);
    w.EndObject();
  } else {
    w.Null();
  }
}

}  // namespace icat
