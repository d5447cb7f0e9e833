// The enrichment feeds' files (ingest/feeds.cpp): gzip or not, EPSS CSV or KEV JSON told from the
// content. Anything else is a FeedError; an accepted feed has what icatctl feeds load stores.
#include "ingest/feeds.hpp"
#include "tests/fuzz/fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(icat::fuzz::Text(data, size));
  try {
    std::string text = icat::ctl::IsGzip(bytes) ? icat::ctl::Gunzip(bytes, 1 << 20) : bytes;
    icat::ctl::Feed feed = icat::ctl::ParseFeed(text);
    icat::fuzz::Expect(!feed.version.empty() && !feed.published_at.empty(), "a feed has a version and a date");
    icat::fuzz::Expect(feed.kind == icat::ctl::kKev || !feed.epss.empty(), "an EPSS feed has rows");
    for (const icat::ctl::KevEntry& e : feed.kev) {
      icat::fuzz::Expect(e.cve_id.starts_with("CVE-") && e.date_added.size() == 10, "a KEV entry is complete");
    }
  } catch (const icat::ctl::FeedError&) {
  }
  return 0;
}
