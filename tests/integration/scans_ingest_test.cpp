// What ingest does besides storing a scan: re-ingesting is a no-op that says so, the outbox events
// of licensed tenants, first-seen times, which version is the latest, the default repository, a
// 4 MB SBOM served without the handler reading it, and a killed ingest leaving all or nothing.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "receiver.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kAlpine310, it::kMinecraftGrype;

constexpr const char* kFluentdImageScan =
    "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-image-scan.json";
constexpr const char* kFluentdImageCdx =
    "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.image.trivy-dev.cdx-1.5.json";
constexpr const char* kFluentdSbomScan =
    "scans/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.trivy-sbom-scan.json";
constexpr const char* kFluentdSbomCdx =
    "sboms/trivy-integration-v0.50.0/fluentd-multiple-lockfiles.sbom-input.trivy-dev.cdx-1.5.json";

std::string ImageId(const std::string& name) {
  return *it::PgQuery("SELECT id FROM images WHERE name = $1", {name}).at(0).at(0);
}

it::IngestArgs Fluentd(const std::string& image, const std::string& tag, const std::string& digest, bool image_scan) {
  return {image,
          tag,
          digest,
          it::Fixture(image_scan ? kFluentdImageScan : kFluentdSbomScan),
          std::nullopt,
          it::Fixture(image_scan ? kFluentdImageCdx : kFluentdSbomCdx),
          "registry.example.test/it/" + image,
          std::nullopt,
          {}};
}

struct Event {
  std::string type;
  rapidjson::Document data;
};

// The outbox rows of one tenant about one image, oldest first.
std::vector<Event> EventsOf(const it::Tenant& tenant, const std::string& image_id) {
  std::vector<Event> events;
  for (const it::PgRow& row : it::PgQuery("SELECT type, payload::text FROM events WHERE tenant_id = $1 AND "
                                          "payload->'image'->>'id' = $2 ORDER BY created_at, type",
                                          {tenant.id(), image_id})) {
    Event e;
    e.type = *row[0];
    e.data.Parse(row[1]->c_str());
    events.push_back(std::move(e));
  }
  return events;
}

std::vector<std::string> Types(const std::vector<Event>& events) {
  std::vector<std::string> types;
  for (const Event& e : events) types.push_back(e.type);
  return types;
}

// "CVE-... package" of an event's vulnerabilities.
std::set<std::string> Vulns(const Event& e) {
  std::set<std::string> out;
  for (const rapidjson::Value& v : e.data["vulnerabilities"].GetArray()) {
    out.insert(it::StringMember(v, "id") + " " + it::StringMember(v, "package"));
  }
  return out;
}

long long ProcCounter(pid_t pid, const std::string& name) {
  std::ifstream io("/proc/" + std::to_string(pid) + "/io");
  std::string key;
  long long value = 0;
  while (io >> key >> value) {
    if (key == name + ":") return value;
  }
  return 0;
}

// Bytes the sbom pool's workers have read and written in all (files and sockets alike).
long long SbomPoolIo() {
  long long total = 0;
  for (pid_t pid : it::WorkerPids("sbom")) total += ProcCounter(pid, "rchar") + ProcCounter(pid, "wchar");
  return total;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scan_ingest)

// --digest is proved only by a document that names registry digests (README, "How to ingest a
// scan"): without one, the output says it was taken on the operator's word; with one, it says nothing.
BOOST_AUTO_TEST_CASE(a_digest_no_document_names_is_noted_as_taken_on_trust) {
  std::string image = "it-trust-" + it::RandomSuffix(8);
  std::string digest = it::RandomDigest();
  it::IngestArgs args = Fluentd(image, "1.0", digest, true);
  it::ProcessResult trusted = it::Ingest(args);
  BOOST_TEST_REQUIRE(trusted.exit_code == 0, trusted.err);
  BOOST_TEST(trusted.out.find("\nnote: --digest " + digest + " is taken on the operator's word: neither " +
                              args.report + " nor " + *args.cyclonedx + " names a registry digest to hold it against") !=
                 std::string::npos,
             trusted.out);

  it::TempDir dir;
  std::string report = it::Fixture(it::kNginxGrype);
  std::string named = "it-proved-" + it::RandomSuffix(8);
  it::ProcessResult proved =
      it::Ingest({named, "1.0", it::ReportDigest(report), report, std::nullopt,
                  dir.Write("n.cdx.json", it::MinimalCycloneDx(report, "2022-07-01T17:00:00Z")),
                  "registry.example.test/it/" + named, std::nullopt, {}});
  BOOST_TEST_REQUIRE(proved.exit_code == 0, proved.err);
  BOOST_TEST(proved.out.find("operator's word") == std::string::npos, proved.out);
}

BOOST_AUTO_TEST_CASE(re_ingesting_identical_files_is_a_no_op_that_says_so) {
  std::string image = "it-noop-" + it::RandomSuffix(8);
  std::string digest = it::RandomDigest();
  it::ProcessResult first = it::Ingest(Fluentd(image, "1.0", digest, true));
  BOOST_TEST_REQUIRE(first.exit_code == 0, first.err);
  std::string scan_id = first.out.substr(5, 36);
  std::map<std::string, long long> tables = it::TableCounts();
  std::map<std::string, long long> blobs = it::BlobStoreListing();
  it::ProcessResult again = it::Ingest(Fluentd(image, "1.0", digest, true));
  BOOST_TEST(again.exit_code == 0, again.err);
  BOOST_TEST(again.out == "scan " + scan_id + " already ingested: " + image +
                              " 1.0 has a scan of exactly these files; nothing changed\n");
  BOOST_TEST((it::TableCounts() == tables));
  BOOST_TEST((it::BlobStoreListing() == blobs));
  // The same files for another version are that version's scan.
  it::ProcessResult other = it::Ingest(Fluentd(image, "1.1", it::RandomDigest(), true));
  BOOST_TEST(other.exit_code == 0, other.err);
  BOOST_TEST(other.out.find(" ingested: " + image + " 1.1") != std::string::npos, other.out);
  BOOST_TEST(it::TableCounts()["sboms"] == tables["sboms"] + 1);
  // The same SBOM bytes are one blob; the only new files are the bundles of 1.1's attestations
  // (docs/attestations.md): their subject is the other version.
  std::set<std::string> added, bundles;
  for (const auto& [path, size] : it::BlobStoreListing()) {
    if (size >= 0 && !blobs.count(path)) added.insert(path);
  }
  for (const it::PgRow& row : it::PgQuery("SELECT a.sha256 FROM attestations a JOIN image_versions v ON v.id = "
                                          "a.version_id JOIN images i ON i.id = v.image_id WHERE i.name = $1 AND "
                                          "v.tag = '1.1'",
                                          {image})) {
    bundles.insert(std::string(std::getenv("ICAT_BLOB_DIR")) + "/sha256/" + row.at(0)->substr(0, 2) + "/" + *row.at(0));
  }
  BOOST_TEST(!bundles.empty());
  BOOST_TEST((added == bundles), "the same SBOM bytes are one blob");
}

BOOST_AUTO_TEST_CASE(ingest_writes_outbox_events_for_every_licensed_tenant) {
  it::Tenant licensed, watcher, unlicensed_watcher;
  std::string image = "it-events-" + it::RandomSuffix(8);
  std::string digest = it::RandomDigest();
  // The image must exist to be licensed before its first scan: a bare version add creates it.
  it::IcatctlOk({"image", "create", "--name", image, "--repository", "registry.example.test/it/" + image});
  std::string image_id = ImageId(image);
  it::Image handle{image_id, image, "", "", std::nullopt, {}};
  licensed.License(handle);
  watcher.License(handle);
  for (const it::Tenant* t : {&watcher, &unlicensed_watcher}) {
    for (const char* cve : {"CVE-2019-18276", "CVE-2019-18224", "CVE-2099-0001"}) {
      it::PgQuery("INSERT INTO cve_watches (tenant_id, cve_id) VALUES ($1, $2)", {t->id(), cve});
    }
  }

  // The licensed tenant's subscription to the vulnerability events gets them delivered.
  it::Receiver receiver;
  it::PgQuery("INSERT INTO webhooks (tenant_id, url, events, secret) "
              "VALUES ($1, $2, '{vulnerability.detected,vulnerability.fixed}', $3)",
              {licensed.id(), receiver.Url(), "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="});

  // Version 1.0: the SBOM scan (3 findings), then the image scan (2: bash's CVE-2019-18276 is gone).
  std::string first = it::IngestOk(Fluentd(image, "1.0", digest, false));
  std::string second = it::IngestOk(Fluentd(image, "1.0", digest, true));
  std::string version_id =
      *it::PgQuery("SELECT id FROM image_versions WHERE image_id = $1 AND tag = '1.0'", {image_id}).at(0).at(0);

  std::vector<Event> events = EventsOf(licensed, image_id);
  BOOST_TEST_REQUIRE((Types(events) == std::vector<std::string>{"scan.completed", "vulnerability.detected",
                                                                "scan.completed", "vulnerability.fixed"}));
  const rapidjson::Value& completed = events[0].data;
  BOOST_TEST(it::StringMember(completed["image"], "id") == image_id);
  BOOST_TEST(it::StringMember(completed["image"], "name") == image);
  BOOST_TEST(it::StringMember(completed["version"], "id") == version_id);
  BOOST_TEST(it::StringMember(completed["version"], "tag") == "1.0");
  BOOST_TEST(it::StringMember(completed["version"], "digest") == digest);
  BOOST_TEST(it::StringMember(completed["scan"], "id") == first);
  BOOST_TEST(it::StringMember(completed["scan"], "scanner") == "trivy");
  BOOST_TEST(it::StringMember(completed["scan"], "scannedAt") == "2021-08-25T12:20:30Z");
  BOOST_TEST(!completed.HasMember("vulnerabilities"));
  // The first scan of a version: everything in it is newly present.
  BOOST_TEST((Vulns(events[1]) ==
              std::set<std::string>{"CVE-2019-18276 bash", "CVE-2019-18224 libidn2-0", "CVE-2020-8165 activesupport"}));
  const rapidjson::Value& detected = events[1].data["vulnerabilities"][0];
  BOOST_TEST(detected.MemberCount() == 6u);  // id, severity, package, fixState, epss, kev (docs/feeds.md)
  BOOST_TEST(detected.HasMember("epss"));
  BOOST_TEST(detected.HasMember("kev"));
  BOOST_TEST(it::StringMember(events[2].data["scan"], "id") == second);
  BOOST_TEST((Vulns(events[3]) == std::set<std::string>{"CVE-2019-18276 bash"}));
  BOOST_TEST(it::StringMember(events[3].data["vulnerabilities"][0], "severity") == "low");
  BOOST_TEST(it::StringMember(events[3].data["vulnerabilities"][0], "fixState") == "not-fixed");
  std::multiset<std::string> delivered;
  for (const it::ReceivedRequest& r : receiver.WaitFor(2, std::chrono::seconds(15))) {
    rapidjson::Document body;
    body.Parse(r.body.c_str());
    delivered.insert(body.IsObject() && body.HasMember("type") && body["type"].IsString() ? body["type"].GetString() : "?");
  }
  BOOST_TEST((delivered == std::multiset<std::string>{"vulnerability.detected", "vulnerability.fixed"}));

  // Version 2.0: the image scan, then the SBOM scan: bash's CVE is detected anew.
  it::IngestOk(Fluentd(image, "2.0", it::RandomDigest(), true));
  it::IngestOk(Fluentd(
      image, "2.0",
      *it::PgQuery("SELECT digest FROM image_versions WHERE image_id = $1 AND tag = '2.0'", {image_id}).at(0).at(0),
      false));
  events = EventsOf(licensed, image_id);
  BOOST_TEST_REQUIRE(events.size() == 8u);
  BOOST_TEST(
      (Types(events) == std::vector<std::string>{"scan.completed", "vulnerability.detected", "scan.completed",
                                                 "vulnerability.fixed", "scan.completed", "vulnerability.detected",
                                                 "scan.completed", "vulnerability.detected"}));
  BOOST_TEST((Vulns(events[7]) == std::set<std::string>{"CVE-2019-18276 bash"}));

  // cve_watch.matched: the watcher, for each watched CVE newly present on a version; never the
  // tenant without a licence, never a CVE already present.
  std::vector<Event> watched = EventsOf(watcher, image_id);
  std::vector<std::string> matches;
  for (const Event& e : watched) {
    if (e.type != "cve_watch.matched") continue;
    matches.push_back(it::StringMember(e.data["version"], "tag") + " " + it::StringMember(e.data, "cveId"));
    BOOST_TEST(it::StringMember(e.data["vulnerabilities"][0], "id") == it::StringMember(e.data, "cveId"));
  }
  std::sort(matches.begin(), matches.end());
  BOOST_TEST((matches == std::vector<std::string>{"1.0 CVE-2019-18224", "1.0 CVE-2019-18276", "2.0 CVE-2019-18224",
                                                  "2.0 CVE-2019-18276"}));
  BOOST_TEST(EventsOf(unlicensed_watcher, image_id).empty());
  BOOST_TEST(
      it::PgQuery("SELECT 1 FROM events WHERE tenant_id = $1 AND type = 'cve_watch.matched'", {licensed.id()}).empty());

  // First-seen times, one per vulnerability and version, kept from the first scan that had it.
  std::vector<it::PgRow> seen = it::PgQuery(
      "SELECT vuln_id, first_seen_at <= now() FROM vulnerability_first_seen WHERE version_id = $1 ORDER BY vuln_id",
      {version_id});
  BOOST_TEST_REQUIRE(seen.size() == 3u);
  BOOST_TEST(*seen[0][0] == "CVE-2019-18224");
  BOOST_TEST(*seen[2][0] == "CVE-2020-8165");
}

BOOST_AUTO_TEST_CASE(a_new_version_becomes_the_latest_only_when_it_is_the_newest_published) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:catalog,read:vulns");
  std::string image = "it-latest-" + it::RandomSuffix(8);
  it::IngestArgs v2 = Fluentd(image, "2.0", it::RandomDigest(), true);
  v2.published = "2026-06-01T00:00:00Z";
  it::IngestOk(v2);
  it::Image handle{ImageId(image), image, "", "", std::nullopt, {}};
  tenant.License(handle);
  it::IngestArgs v1 = Fluentd(image, "1.0", it::RandomDigest(), false);
  v1.published = "2026-01-01T00:00:00Z";
  it::IngestOk(v1);
  rapidjson::Document detail = it::ExpectJson200(it::Get("/v1/images/" + handle.id, it::Bearer(key)));
  BOOST_TEST(it::StringMember(detail["latestVersion"], "tag") == "2.0");
  BOOST_TEST(it::IntMember(detail["vulnerabilityCounts"], "low") == 0);  // 2.0's image scan has no low finding
  it::IngestArgs v3 = Fluentd(image, "3.0", it::RandomDigest(), false);
  v3.published = "2026-09-01T00:00:00Z";
  v3.extra = {"--size", "1234", "--base-os", "Debian 10", "--hardening-tag", "fips", "--hardening-tag", "non-root"};
  it::IngestOk(v3);
  detail = it::ExpectJson200(it::Get("/v1/images/" + handle.id, it::Bearer(key)));
  BOOST_TEST(it::StringMember(detail["latestVersion"], "tag") == "3.0");
  BOOST_TEST(it::IntMember(detail, "sizeBytes") == 1234);
  BOOST_TEST(it::StringMember(detail, "baseOs") == "Debian 10");
  BOOST_TEST(it::IntMember(detail["vulnerabilityCounts"], "low") == 1);
  BOOST_TEST(detail["latestVersion"]["hardeningTags"].Size() == 2u);
  rapidjson::Document listing =
      it::ExpectJson200(it::Get("/v1/images/" + handle.id + "/vulnerabilities", it::Bearer(key)));
  BOOST_TEST(it::StringMember(listing["version"], "tag") == "3.0");
}

BOOST_AUTO_TEST_CASE(a_new_image_takes_its_repository_and_base_os_from_the_report) {
  it::TempDir dir;
  std::string repository = "registry.example.test/it/from-report-" + it::RandomSuffix(8);
  std::string report = dir.Write("report.json", R"({"SchemaVersion": 2, "ArtifactName": ")" + repository +
                                                    R"(:1.0", "ArtifactType": "container_image", "Metadata": {"OS":
      {"Family": "debian", "Name": "12.5"}, "ImageID": "sha256:)" + std::string(64, 'c') + R"(", "RepoTags": [")" +
                                                    repository + R"(:1.0"]}, "Results": []})");
  std::string image = "it-repo-" + it::RandomSuffix(8);
  it::IngestOk({image,
                "1.0",
                it::ReportDigest(report),
                report,
                std::nullopt,
                dir.Write("sbom.cdx.json", it::MinimalCycloneDx(report, "2026-01-01T00:00:00Z")),
                std::nullopt,
                std::nullopt,
                {}});
  std::vector<it::PgRow> row = it::PgQuery("SELECT repository, base_os FROM images WHERE name = $1", {image});
  BOOST_TEST(*row.at(0).at(0) == repository);
  BOOST_TEST(*row.at(0).at(1) == "debian 12.5");
  // A repository another image holds is refused, and nothing is stored.
  std::string taken = "it-repo-" + it::RandomSuffix(8);
  it::ProcessResult clash =
      it::Ingest({taken,
                  "1.0",
                  it::ReportDigest(report),
                  report,
                  std::nullopt,
                  dir.Write("sbom2.cdx.json", it::MinimalCycloneDx(report, "2026-01-02T00:00:00Z")),
                  std::nullopt,
                  std::nullopt,
                  {}});
  BOOST_TEST(clash.exit_code == 1);
  BOOST_TEST(clash.err.find("repository " + repository + " already belongs to image " + image) != std::string::npos,
             clash.err);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM images WHERE name = $1", {taken}).empty());
}

BOOST_AUTO_TEST_CASE(a_4_mb_sbom_is_sent_by_nginx_without_the_handler_reading_it) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:sbom");
  it::TempDir dir;
  std::string report = it::Fixture(kAlpine310);
  std::string sbom = it::BigCycloneDx(report, 4u * 1024 * 1024);
  std::string path = dir.Write("big.cdx.json", sbom);
  BOOST_TEST_REQUIRE(sbom.size() > 4u * 1024 * 1024);
  std::string image = "it-big-" + it::RandomSuffix(8);
  it::IngestOk({image,
                "1.0",
                it::ReportDigest(report),
                report,
                std::nullopt,
                path,
                "registry.example.test/it/" + image,
                std::nullopt,
                {}});
  it::Image handle{ImageId(image), image, "", "", std::nullopt, {}};
  tenant.License(handle);

  long long before = SbomPoolIo();
  it::Response r = it::Get("/v1/images/" + handle.id + "/sbom", it::Bearer(key));
  long long handler_io = SbomPoolIo() - before;
  BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
  BOOST_TEST(r.body.size() == sbom.size());
  BOOST_TEST(it::Sha256HexOf(r.body) == it::Sha256HexOf(sbom));
  BOOST_TEST(r.Header("content-length") == std::to_string(sbom.size()));
  // The workers moved a request and a header, never the 4 MB.
  BOOST_TEST(handler_io < 64 * 1024, "the sbom workers read or wrote " << handler_io << " bytes");
}

BOOST_AUTO_TEST_CASE(killing_ingest_at_any_moment_leaves_the_whole_scan_or_nothing) {
  std::string report = it::Fixture(kMinecraftGrype);
  it::TempDir dir;
  std::string sbom = dir.Write("sbom.spdx.json", it::MinimalSpdx(report, "2022-07-01T18:00:00Z"));
  long long findings = static_cast<long long>(it::DeriveFindings(report).size());
  int whole = 0, nothing = 0;
  for (int attempt = 0; attempt < 16; attempt++) {
    std::string image = "it-kill-" + it::RandomSuffix(8);
    std::vector<std::string> argv = {it::GetEnv().bin_dir + "/icatctl",
                                     "ingest",
                                     "--image",
                                     image,
                                     "--version",
                                     "1.0",
                                     "--digest",
                                     it::RandomDigest(),
                                     "--report",
                                     report,
                                     "--spdx",
                                     sbom,
                                     "--repository",
                                     "registry.example.test/it/" + image};
    pid_t pid = it::SpawnQuiet(argv);
    std::this_thread::sleep_for(std::chrono::milliseconds(attempt * 8));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);

    std::vector<it::PgRow> state = it::PgQuery(
        "SELECT (SELECT count(*) FROM images WHERE name = $1), "
        "(SELECT count(*) FROM image_versions v JOIN images i ON i.id = v.image_id WHERE i.name = $1), "
        "(SELECT count(*) FROM scans s JOIN image_versions v ON v.id = s.version_id JOIN images i ON i.id = v.image_id "
        "WHERE i.name = $1), "
        "(SELECT count(*) FROM sboms b JOIN scans s ON s.id = b.scan_id JOIN image_versions v ON v.id = s.version_id "
        " JOIN images i ON i.id = v.image_id WHERE i.name = $1), "
        "(SELECT count(*) FROM vulnerabilities x JOIN findings_sets fs ON fs.id = x.set_id "
        " JOIN image_versions v ON v.id = fs.version_id "
        " JOIN images i ON i.id = v.image_id WHERE i.name = $1), "
        "(SELECT count(*) FROM images i JOIN image_versions v ON v.id = i.latest_version_id "
        " JOIN scans s ON s.id = v.latest_scan_id WHERE i.name = $1)",
        {image});
    std::vector<long long> n;
    for (const auto& cell : state.at(0)) n.push_back(std::stoll(*cell));
    BOOST_TEST_CONTEXT("killed after " << attempt * 8 << " ms") {
      if (n[0] == 0) {
        BOOST_TEST((n == std::vector<long long>{0, 0, 0, 0, 0, 0}));
        nothing++;
      } else {
        BOOST_TEST((n == std::vector<long long>{1, 1, 1, 1, findings, 1}));
        whole++;
      }
    }
  }
  BOOST_TEST_MESSAGE("killed ingests: " << nothing << " left nothing, " << whole << " completed");
  BOOST_TEST(nothing > 0, "no kill landed before the commit; the test proves nothing");
}

BOOST_AUTO_TEST_SUITE_END()
