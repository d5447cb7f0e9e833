// The enrichment feeds' files as icatctl feeds load reads them (ingest/feeds.cpp): the recorded KEV
// catalogue and the demo's EPSS sample, gzip, the kind told from the content, and refusals.
#include "ingest/feeds.hpp"

#include <zlib.h>

#include <boost/test/unit_test.hpp>

#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;
using icat::test::FixturePath;
using icat::test::ReadAll;

namespace {

const std::string kEpssHead = "#model_version:v2025.03.14,score_date:2025-08-25T12:55:00Z\ncve,epss,percentile\n";

std::string RefusalOf(const std::string& text) {
  try {
    (void)ctl::ParseFeed(text);
  } catch (const ctl::FeedError& e) {
    return e.what();
  }
  return "accepted";
}

// text as one gzip member, as zlib writes it.
std::string Gzip(const std::string& text) {
  z_stream stream{};
  BOOST_REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, text.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = text.size();
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = out.size();
  BOOST_REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(feed_files)

BOOST_AUTO_TEST_CASE(recorded_kev_catalogue_is_read_whole) {
  ctl::Feed feed = ctl::ParseFeed(ReadAll(FixturePath("feeds/cisa-kev-2025.08.25.json")));
  BOOST_TEST(feed.kind == ctl::kKev);
  BOOST_TEST(feed.version == "2025.08.25");
  BOOST_TEST(feed.published_at == "2025-08-25T17:04:19.9796Z");
  BOOST_TEST(feed.kev.size() == 1404u);
  const ctl::KevEntry* spring = nullptr;
  for (const ctl::KevEntry& e : feed.kev) spring = e.cve_id == "CVE-2022-22965" ? &e : spring;
  BOOST_REQUIRE(spring);
  BOOST_TEST(spring->date_added == "2022-04-04");
  BOOST_TEST(spring->due_date == "2022-04-25");
  BOOST_TEST(spring->known_ransomware_campaign_use.value_or("") == "Unknown");
}

BOOST_AUTO_TEST_CASE(epss_csv_plain_and_gzip_read_alike) {
  std::string text = kEpssHead + "CVE-2022-22965,0.94391,0.99961\r\nCVE-1999-0001,4e-05,0.01\n";
  for (const std::string& bytes : {text, Gzip(text)}) {
    std::string read = ctl::IsGzip(bytes) ? ctl::Gunzip(bytes, 1 << 20) : bytes;
    ctl::Feed feed = ctl::ParseFeed(read);
    BOOST_TEST(feed.kind == ctl::kEpss);
    BOOST_TEST(feed.version == "v2025.03.14");
    BOOST_TEST(feed.score_date == "2025-08-25");
    BOOST_REQUIRE(feed.epss.size() == 2u);
    BOOST_TEST(feed.epss[0].score == "0.94391");
    BOOST_TEST(feed.epss[1].score == "4e-05");
  }
  BOOST_TEST(ctl::IsGzip(Gzip(text)));
  BOOST_TEST(!ctl::IsGzip(text));
}

BOOST_AUTO_TEST_CASE(demo_epss_sample_is_an_epss_feed) {
  ctl::Feed feed = ctl::ParseFeed(ReadAll("tools/demo/feeds/epss_scores-demo.csv"));
  BOOST_TEST(feed.kind == ctl::kEpss);
  BOOST_TEST(feed.epss.size() == 20u);
}

BOOST_AUTO_TEST_CASE(truncated_or_oversized_gzip_is_refused) {
  std::string gz = Gzip(kEpssHead + "CVE-2022-22965,0.94391,0.99961\n");
  BOOST_CHECK_THROW(ctl::Gunzip(gz.substr(0, gz.size() - 6), 1 << 20), ctl::FeedError);
  BOOST_CHECK_THROW(ctl::Gunzip(gz, 10), ctl::FeedError);
  BOOST_CHECK_THROW(ctl::Gunzip(gz + "trailing", 1 << 20), ctl::FeedError);
}

BOOST_AUTO_TEST_CASE(malformed_feeds_are_refused_saying_why) {
  BOOST_TEST(RefusalOf("cve,epss,percentile\n").starts_with("neither an EPSS CSV"));
  BOOST_TEST(RefusalOf("#model_version:v1\ncve,epss,percentile\n") ==
             "EPSS: the first line's score_date is not a date and time such as 2025-08-25T00:00:00Z");
  BOOST_TEST(RefusalOf(kEpssHead) == "EPSS: no rows after the header");
  BOOST_TEST(RefusalOf(kEpssHead + "CVE-2022-22965,1.5,0.9\n") ==
             "EPSS line 3: epss and percentile must be decimals from 0 to 1");
  BOOST_TEST(RefusalOf(kEpssHead + "CVE-2022-22965,0.5\n") == "EPSS line 3: not three cells cve,epss,percentile");
  BOOST_TEST(RefusalOf(kEpssHead + "GHSA-1,0.5,0.5\n") == "EPSS line 3: 'GHSA-1' is not a CVE id");
  BOOST_TEST(RefusalOf(kEpssHead + "CVE-2022-22965,0.5,0.5\nCVE-2022-22965,0.5,0.5\n") ==
             "EPSS line 4: CVE-2022-22965 appears twice");
  BOOST_TEST(RefusalOf("{\"catalogVersion\": \"1\"").starts_with("KEV: not JSON"));
  std::string kev =
      R"({"catalogVersion": "1", "dateReleased": "2025-08-25T17:04:19.9796Z", "count": 1, "vulnerabilities": [)";
  BOOST_TEST(RefusalOf(kev + "]}") == "KEV: count is not the number of vulnerabilities");
  BOOST_TEST(RefusalOf(kev + R"({"cveID": "CVE-2022-22965"}]})") ==
             "KEV vulnerabilities[0]: vendorProject is not a string");
}

BOOST_AUTO_TEST_SUITE_END()
