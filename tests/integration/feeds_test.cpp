// The enrichment feeds (issue 31, docs/feeds.md) against the running stack: icatctl feeds load of the
// recorded KEV catalogue and the demo's EPSS sample, their entries on findings, the CVE look-up and the
// image's versions; refusals that change nothing; risk order and the feed filters; the reply caches
// after a load; and the vulnerability.exploited event, sent once.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <iostream>
#include <thread>

#include "portal_support.hpp"
#include "receiver.hpp"
#include "scans_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

constexpr const char* kSpring =
    "scans/trivy-integration-v0.50.0/spring4shell-jre11.trivy-image-scan.json";  // CVE-2022-22965
constexpr const char* kFluentd = "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json";
constexpr const char* kMinecraft =
    "scans/msusel-2022-07-01/itzg_minecraft-server_java8.trivy-0.29.1.json";  // 224 findings
const std::string kKevFixture = "feeds/cisa-kev-2025.08.25.json";

std::string DemoEpss() { return it::GetEnv().repo + "/tools/demo/feeds/epss_scores-demo.csv"; }

// A publication time later than any this run wrote before: feeds older than the loaded one are refused.
std::string NextPublished() {
  static auto next = std::chrono::system_clock::now();
  next += 1s;
  return it::Rfc3339(next);
}

// The recorded catalogue with `extra` entries added (each {"cveID": ..., ...} as CISA writes them),
// published now.
std::string NewerKev(const std::vector<std::string>& cves) {
  rapidjson::Document doc;
  doc.Parse(it::ReadFileBytes(it::Fixture(kKevFixture)).c_str());
  auto& a = doc.GetAllocator();
  for (const std::string& cve : cves) {
    rapidjson::Value e(rapidjson::kObjectType);
    for (const char* field : {"vendorProject", "product", "vulnerabilityName", "shortDescription", "requiredAction"}) {
      e.AddMember(rapidjson::StringRef(field), rapidjson::Value("test entry", a), a);
    }
    e.AddMember("cveID", rapidjson::Value(cve.c_str(), a), a);
    e.AddMember("dateAdded", "2026-01-05", a);
    e.AddMember("dueDate", "2026-01-26", a);
    e.AddMember("knownRansomwareCampaignUse", "Known", a);
    doc["vulnerabilities"].PushBack(e, a);
  }
  doc["count"].SetInt(doc["vulnerabilities"].Size());
  doc["dateReleased"].SetString(NextPublished().c_str(), a);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  doc.Accept(w);
  return buffer.GetString();
}

// An EPSS file of these scores, published now (or at `published`).
std::string Epss(const std::vector<std::pair<std::string, std::string>>& scores, const std::string& published = "") {
  std::string text = "#model_version:v2025.03.14,score_date:" + (published.empty() ? NextPublished() : published) +
                     "\ncve,epss,percentile\n";
  for (const auto& [cve, score] : scores) text += cve + "," + score + ",0.5\n";
  return text;
}

it::ProcessResult Load(const std::vector<std::string>& files) {
  std::vector<std::string> args = {"feeds", "load"};
  args.insert(args.end(), files.begin(), files.end());
  return it::Icatctl(args);
}

void LoadOk(const std::vector<std::string>& files) {
  it::ProcessResult r = Load(files);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
}

// Everything a load writes, as text: refused loads must leave it as it was.
std::string FeedState() {
  std::string state;
  for (const char* sql :
       {"SELECT string_agg(kind || version || published_at || sha256, ',' ORDER BY kind) FROM feed_loads",
        "SELECT md5(COALESCE(string_agg(cve_id || score || percentile || score_date, ',' ORDER BY cve_id), '')) FROM "
        "epss_scores",
        "SELECT md5(COALESCE(string_agg(cve_id || date_added || due_date, ',' ORDER BY cve_id), '')) FROM kev_entries",
        "SELECT count(*) FROM kev_seen", "SELECT count(*) FROM events"}) {
    state += it::PgQuery(sql).at(0).at(0).value_or("NULL") + "\n";
  }
  return state;
}

std::string Listing(const std::string& image_id) { return "/v1/images/" + image_id + "/vulnerabilities"; }

const rapidjson::Value& FindingOf(const rapidjson::Value& list, const std::string& id) {
  for (const rapidjson::Value& f : list.GetArray()) {
    if (it::StringMember(f, "id") == id) return f;
  }
  BOOST_FAIL("no finding " << id);
  return list;
}

// One finding as the risk order reads it, and its place in stored order.
struct Ranked {
  std::string key;  // id and package
  bool kev;
  double epss;  // -1 when unscored
  size_t stored;
};

// Every finding of the listing at path (query: "?..." or ""), walked page by page with `limit`.
std::vector<Ranked> Walk(const std::string& path, const std::string& query, const std::string& key, int limit) {
  std::vector<Ranked> all;
  std::string cursor;
  for (int page = 0; page < 100; page++) {
    std::string sep = query.empty() ? "?" : "&";
    it::Response r = it::Get(path + query + sep + "limit=" + std::to_string(limit) + cursor, it::Bearer(key));
    rapidjson::Document body = it::ExpectJson200(r);
    for (const rapidjson::Value& f : body["vulnerabilities"].GetArray()) {
      all.push_back({it::StringMember(f, "id") + " " + it::StringMember(f["package"], "name") + " " +
                         (f["package"]["version"].IsString() ? it::StringMember(f["package"], "version") : ""),
                     !f["kev"].IsNull(), f["epss"].IsNull() ? -1 : f["epss"]["score"].GetDouble(), all.size()});
    }
    if (body["nextCursor"].IsNull()) return all;
    cursor = "&cursor=" + it::StringMember(body, "nextCursor");
  }
  BOOST_FAIL("more than 100 pages");
  return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(feeds)

BOOST_AUTO_TEST_CASE(recorded_kev_catalogue_and_epss_sample_show_on_findings_cve_lookup_and_versions) {
  LoadOk({it::Fixture(kKevFixture), DemoEpss()});
  it::Tenant tenant;
  it::TempDir dir;
  it::ScannedImage spring = it::ScanNewImage(tenant, dir, "feedspring", kSpring);
  it::ScannedImage fluentd = it::ScanNewImage(tenant, dir, "feedfluent", kFluentd);
  std::string key = tenant.CreateKey("read:vulns,read:catalog");

  // CISA's entry of CVE-2022-22965, as the recorded file has it, and the sample's score.
  rapidjson::Document listing = it::ExpectJson200(it::Get(Listing(spring.image.id), it::Bearer(key)));
  const rapidjson::Value& f = FindingOf(listing["vulnerabilities"], "CVE-2022-22965");
  BOOST_TEST_REQUIRE(f["kev"].IsObject());
  BOOST_TEST(it::StringMember(f["kev"], "dateAdded") == "2022-04-04");
  BOOST_TEST(it::StringMember(f["kev"], "dueDate") == "2022-04-25");
  BOOST_TEST(it::StringMember(f["kev"], "knownRansomwareCampaignUse") == "Unknown");
  std::string sample = it::ReadFileBytes(DemoEpss());
  size_t at = sample.find("\nCVE-2022-22965,");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  std::string score = sample.substr(at + 16, sample.find(',', at + 16) - at - 16);
  BOOST_TEST_REQUIRE(f["epss"].IsObject());
  BOOST_TEST(f["epss"]["score"].GetDouble() == std::stod(score));
  BOOST_TEST(it::StringMember(f["epss"], "date") == "2025-08-25");

  // A CVE in neither feed: both null.
  rapidjson::Document other = it::ExpectJson200(it::Get(Listing(fluentd.image.id), it::Bearer(key)));
  BOOST_TEST(FindingOf(other["vulnerabilities"], "CVE-2020-8165")["kev"].IsNull());
  BOOST_TEST(FindingOf(other["vulnerabilities"], "CVE-2020-8165")["epss"].IsNull());

  // The portal's listing and both look-ups say the same.
  rapidjson::Document portal = it::ExpectJson200(it::Get(
      it::PortalVersionPath(spring.image.id, spring.version_id) + "/vulnerabilities", it::PortalHeaders(tenant)));
  BOOST_TEST(it::StringMember(FindingOf(portal["vulnerabilities"], "CVE-2022-22965")["kev"], "dateAdded") ==
             "2022-04-04");
  for (const std::string& path : {std::string("/v1/cve/CVE-2022-22965")}) {
    rapidjson::Document found = it::ExpectJson200(it::Get(path, it::Bearer(key)));
    BOOST_TEST_REQUIRE(found["images"].Size() == 1u);
    const rapidjson::Value& package = found["images"][0]["versions"][0]["packages"][0];
    BOOST_TEST(it::StringMember(package["kev"], "dateAdded") == "2022-04-04");
    BOOST_TEST(package["epss"]["score"].GetDouble() == std::stod(score));
  }
  rapidjson::Document looked = it::ExpectJson200(it::Get("/api/cve/CVE-2022-22965", it::PortalHeaders(tenant)));
  BOOST_TEST(it::StringMember(looked["images"][0]["versions"][0]["packages"][0]["kev"], "dueDate") == "2022-04-25");

  // The image's versions count the known exploited ids.
  rapidjson::Document detail = it::ExpectJson200(it::Get("/v1/images/" + spring.image.id, it::Bearer(key)));
  BOOST_TEST(detail["versions"][0]["knownExploited"].GetInt64() == 1);
  rapidjson::Document clean = it::ExpectJson200(it::Get("/v1/images/" + fluentd.image.id, it::Bearer(key)));
  BOOST_TEST(clean["versions"][0]["knownExploited"].GetInt64() == 0);

  // The same files again: nothing to do.
  it::ProcessResult again = Load({it::Fixture(kKevFixture)});
  BOOST_TEST(again.exit_code == 0, again.err);
  BOOST_TEST(again.out.find("is loaded already; nothing changed") != std::string::npos, again.out);
}

BOOST_AUTO_TEST_CASE(malformed_or_older_feeds_are_refused_with_one_line_and_change_nothing) {
  it::TempDir dir;
  LoadOk({dir.Write("base-kev.json", NewerKev({}))});  // a KEV feed is loaded, whatever ran before
  std::string good = dir.Write("good.csv", Epss({{"CVE-2021-44228", "0.97"}}));
  std::string before = FeedState();
  std::vector<std::pair<std::string, std::string>> refused = {
      {dir.Write("not-a-feed.txt", "hello\n"), "neither an EPSS CSV"},
      {dir.Write("bad-row.csv", Epss({{"CVE-2021-44228", "1.7"}})),
       "EPSS line 3: epss and percentile must be decimals"},
      {dir.Write(
           "bad-kev.json",
           R"({"catalogVersion": "x", "dateReleased": "2026-01-01T00:00:00Z", "count": 2, "vulnerabilities": []})"),
       "count is not the number of vulnerabilities"},
  };
  for (const auto& [path, why] : refused) {
    // With a good file before it: every file is read before anything is stored.
    it::ProcessResult r = Load({good, path});
    BOOST_TEST(r.exit_code == 1, path);
    BOOST_TEST(r.err.find(why) != std::string::npos, r.err);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
    BOOST_TEST(r.err.find(path) != std::string::npos, r.err);
    BOOST_TEST(FeedState() == before);
  }
  // Older than the one loaded, of either kind.
  LoadOk({good});
  before = FeedState();
  for (
      const auto& [path, why] : std::vector<std::pair<std::string, std::string>>{
          {dir.Write("old.csv", Epss({{"CVE-2021-44228", "0.1"}}, "2020-01-01T00:00:00Z")), "is older than the epss"},
          {dir.Write(
               "old-kev.json",
               R"({"catalogVersion": "2020.01.01", "dateReleased": "2020-01-01T00:00:00Z", "count": 0, "vulnerabilities": []})"),
           "is older than the kev"}}) {
    it::ProcessResult old = Load({path});
    BOOST_TEST(old.exit_code == 1);
    BOOST_TEST(old.err.find(why) != std::string::npos, old.err);
    BOOST_TEST(FeedState() == before);
  }
}

BOOST_AUTO_TEST_CASE(risk_order_pages_with_its_cursor_and_filters_select_by_kev_and_epss) {
  it::Tenant tenant;
  it::TempDir dir;
  it::ScannedImage image = it::ScanNewImage(tenant, dir, "feedrisk", kMinecraft);
  std::string key = tenant.CreateKey("read:vulns");
  // Scores for some of its CVEs, not in severity order; CVE-2020-15999 is in CISA's catalogue.
  LoadOk({dir.Write("kev.json", NewerKev({})), dir.Write("epss.csv", Epss({{"CVE-2019-1551", "0.81"},
                                                                           {"CVE-2019-1549", "0.42"},
                                                                           {"CVE-2019-14697", "0.63"},
                                                                           {"CVE-2020-15999", "0.05"}}))});
  std::string path = Listing(image.image.id);
  std::vector<Ranked> stored = Walk(path, "", key, 200);
  BOOST_TEST_REQUIRE(stored.size() == 224u);

  // The order, worked out here from each finding's own kev and epss.
  std::vector<Ranked> expected = stored;
  std::stable_sort(expected.begin(), expected.end(), [](const Ranked& a, const Ranked& b) {
    if (a.kev != b.kev) return a.kev;
    if (a.epss != b.epss) return a.epss > b.epss;
    return a.stored < b.stored;
  });
  BOOST_TEST(expected.front().key.starts_with("CVE-2020-15999"));
  for (int limit : {7, 200}) {
    std::vector<Ranked> risk = Walk(path, "?sort=risk", key, limit);
    BOOST_TEST_REQUIRE(risk.size() == expected.size());
    for (size_t i = 0; i < risk.size(); i++) BOOST_TEST(risk[i].key == expected[i].key, "at " << i);
  }

  std::vector<Ranked> known = Walk(path, "?kev=true", key, 200), unknown = Walk(path, "?kev=false", key, 200);
  BOOST_TEST(!known.empty());
  BOOST_TEST(known.size() + unknown.size() == stored.size());
  for (const Ranked& f : known) BOOST_TEST(f.kev, f.key);
  for (const Ranked& f : unknown) BOOST_TEST(!f.kev, f.key);
  std::vector<Ranked> likely = Walk(path, "?epssAbove=0.5&sort=risk", key, 200);
  long long above = std::count_if(stored.begin(), stored.end(), [](const Ranked& f) { return f.epss > 0.5; });
  BOOST_TEST(likely.size() == static_cast<size_t>(above));
  BOOST_TEST(above >= 2);
  for (const Ranked& f : likely) BOOST_TEST(f.epss > 0.5, f.key);

  for (const char* bad : {"?kev=yes", "?epssAbove=1.5", "?epssAbove=abc", "?epssAbove=-0.1", "?sort=epss"}) {
    it::ExpectError(it::Get(path + bad, it::Bearer(key)), 400, "VALIDATION_ERROR");
  }
  // A cursor continues only the order it was issued in.
  rapidjson::Document first = it::ExpectJson200(it::Get(path + "?sort=risk&limit=5", it::Bearer(key)));
  it::ExpectError(it::Get(path + "?limit=5&cursor=" + it::StringMember(first, "nextCursor"), it::Bearer(key)), 400,
                  "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(kev_load_refreshes_cached_findings_and_sends_vulnerability_exploited_once) {
  it::PortalTenant t;
  it::TempDir dir;
  it::ScannedImage image = it::ScanNewImage(t.tenant, dir, "feedhook", kFluentd);
  std::string key = t.tenant.CreateKey("read:vulns");
  it::Receiver receiver;
  it::Response created = it::Send("POST", "/api/webhooks", t.As(t.admin),
                                  R"({"url": ")" + receiver.Url() + R"(", "events": ["vulnerability.exploited"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  std::string fresh = "CVE-2020-8165";  // activesupport: in no KEV load before this test
  LoadOk({dir.Write("before.json", NewerKev({}))});

  // Every worker caches the listing without a kev entry...
  std::string path = Listing(image.image.id);
  for (int i = 0; i < 12; i++) {
    rapidjson::Document listing = it::ExpectJson200(it::Get(path, it::Bearer(key)));
    BOOST_TEST_REQUIRE(FindingOf(listing["vulnerabilities"], fresh)["kev"].IsNull());
  }
  // ...and none serves it after the load.
  std::string added = dir.Write("added.json", NewerKev({fresh}));
  LoadOk({added});
  for (int i = 0; i < 12; i++) {
    rapidjson::Document listing = it::ExpectJson200(it::Get(path, it::Bearer(key)));
    const rapidjson::Value& kev = FindingOf(listing["vulnerabilities"], fresh)["kev"];
    BOOST_TEST_REQUIRE(kev.IsObject(), "request " << i << " served a stale reply");
    BOOST_TEST(it::StringMember(kev, "dateAdded") == "2026-01-05");
  }

  std::vector<it::ReceivedRequest> got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST(it::StringMember(body, "type") == "vulnerability.exploited");
  const rapidjson::Value& data = body["data"];
  BOOST_TEST(it::StringMember(data, "cveId") == fresh);
  BOOST_TEST(it::StringMember(data["kev"], "dueDate") == "2026-01-26");
  BOOST_TEST(it::StringMember(data["kev"], "knownRansomwareCampaignUse") == "Known");
  BOOST_TEST_REQUIRE(data["images"].Size() == 1u);
  BOOST_TEST(it::StringMember(data["images"][0], "id") == image.image.id);
  BOOST_TEST(it::StringMember(data["images"][0]["version"], "id") == image.version_id);

  // Reloads, a catalogue without it and one with it again: no second event.
  BOOST_TEST(Load({added}).out.find("loaded already") != std::string::npos);
  LoadOk({dir.Write("same.json", NewerKev({fresh}))});
  LoadOk({dir.Write("dropped.json", NewerKev({}))});
  LoadOk({dir.Write("back.json", NewerKev({fresh}))});
  std::this_thread::sleep_for(2s);  // the dispatcher has sent everything due by now
  BOOST_TEST(receiver.Received().size() == 1u);
  BOOST_TEST(
      it::PgQuery("SELECT count(*) FROM events WHERE tenant_id = $1 AND type = 'vulnerability.exploited'", {t.id()})
          .at(0)
          .at(0)
          .value_or("") == "1");
}

// knownExploited is kept with each findings set (sql/V0037): counted when ingest writes the set, and
// again when a KEV load adds or drops one of its CVEs.
BOOST_AUTO_TEST_CASE(a_versions_known_exploited_count_follows_kev_loads_after_ingest) {
  it::Tenant tenant;
  it::TempDir dir;
  std::string fresh = "CVE-2020-8165";  // activesupport: only in the catalogues this test writes
  LoadOk({dir.Write("without.json", NewerKev({}))});
  it::ScannedImage image = it::ScanNewImage(tenant, dir, "feedcount", kFluentd);
  std::string key = tenant.CreateKey("read:catalog");
  auto count = [&] {
    rapidjson::Document detail = it::ExpectJson200(it::Get("/v1/images/" + image.image.id, it::Bearer(key)));
    return detail["versions"][0]["knownExploited"].GetInt64();
  };
  auto stored = [&] {
    return it::PgQuery(
               "SELECT fs.known_exploited FROM findings_sets fs JOIN scans s ON s.findings_set_id = fs.id "
               "JOIN image_versions v ON v.latest_scan_id = s.id WHERE v.id = $1",
               {image.version_id})
        .at(0)
        .at(0)
        .value_or("NULL");
  };
  BOOST_TEST(stored() == "0");  // counted by ingest, not left to the reader
  BOOST_TEST(count() == 0);
  LoadOk({dir.Write("with.json", NewerKev({fresh}))});
  BOOST_TEST(stored() == "1");
  BOOST_TEST(count() == 1);
  LoadOk({dir.Write("dropped.json", NewerKev({}))});
  BOOST_TEST(stored() == "0");
  BOOST_TEST(count() == 0);
}

BOOST_AUTO_TEST_CASE(three_hundred_thousand_epss_rows_load_in_seconds) {
  // The size of FIRST's daily file (about 300,000 CVEs), gzip as published; the figure is in docs/feeds.md.
  it::TempDir dir;
  std::string text = Epss({});
  for (int i = 0; i < 300000; i++) {
    text += "CVE-" + std::to_string(1999 + i % 27) + "-" + std::to_string(10000 + i) + ",0." +
            std::to_string(10000 + i % 89999) + ",0." + std::to_string(10000 + i % 89999) + "\n";
  }
  std::string path = dir.Write("epss-300k.csv", text);
  it::ProcessResult zipped = it::RunProcess({"gzip", "-k", path});
  BOOST_TEST_REQUIRE(zipped.exit_code == 0, zipped.err);
  auto start = std::chrono::steady_clock::now();
  LoadOk({path + ".gz"});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST_MESSAGE("feeds load of 300,000 EPSS rows (gzip): " << seconds << " s");
  std::cerr << "feeds load of 300,000 EPSS rows (gzip): " << seconds << " s\n";
  BOOST_TEST(it::PgQuery("SELECT count(*) FROM epss_scores").at(0).at(0).value_or("") == "300000");
  BOOST_TEST(seconds < 30.0);
}

BOOST_AUTO_TEST_SUITE_END()
