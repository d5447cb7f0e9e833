// The blob store after killed ingests: the next ingest removes a dead writer's temp files (never a
// live one's), and icatctl gc removes blobs no row refers to (SBOMs, VEX documents, attestation
// bundles), keeping referenced and young ones.
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include "scans_support.hpp"

namespace it = icat::test;
namespace fs = std::filesystem;

namespace {

using it::kAlpine310;

// The advisory lock ingest holds shared from its first blob write to its commit (ingest_blobs.hpp).
constexpr const char* kBlobLockId = "7594020547520888834";

std::string BlobDir() {
  const char* dir = std::getenv("ICAT_BLOB_DIR");
  BOOST_TEST_REQUIRE((dir && *dir), "ICAT_BLOB_DIR is not set");
  return dir;
}

// The icatctl of the build under test.
std::string IcatctlPath() { return it::GetEnv().bin_dir + "/icatctl"; }

it::ProcessResult Icatctl(std::vector<std::string> args) {
  args.insert(args.begin(), IcatctlPath());
  return it::RunProcess(args);
}

std::vector<std::string> IngestArgv(const std::string& image, const std::string& report, const std::string& sbom) {
  return {IcatctlPath(),  "ingest",
          "--image",      image,
          "--version",    "1.0",
          "--digest",     it::RandomDigest(),
          "--report",     report,
          "--cyclonedx",  sbom,
          "--repository", "registry.example.test/it/" + image};
}

// Ingests a small scan of a new image with a CycloneDX SBOM of its own; returns the image's name.
std::string IngestSmall(const it::TempDir& dir) {
  std::string report = it::Fixture(kAlpine310);
  std::string image = "it-gc-" + it::RandomSuffix(8);
  std::string sbom = dir.Write(image + ".cdx.json", it::MinimalCycloneDx(report, "2021-08-25T12:20:30Z"));
  it::ProcessResult result = it::RunProcess(IngestArgv(image, report, sbom));
  BOOST_TEST_REQUIRE(result.exit_code == 0, "ingest exited " << result.exit_code << ": " << result.err);
  return image;
}

std::string SbomSha256Of(const std::string& image) {
  const std::string sql =
      "SELECT b.sha256 FROM sboms b JOIN scans s ON s.id = b.scan_id JOIN image_versions v ON v.id = s.version_id "
      "JOIN images i ON i.id = v.image_id WHERE i.name = $1";
  return *it::PgQuery(sql, {image}).at(0).at(0);
}

std::string BlobPath(const std::string& hex) { return "sha256/" + hex.substr(0, 2) + "/" + hex; }

// Every regular file in the blob store, relative to it.
std::set<std::string> StoredFiles() {
  std::set<std::string> files;
  for (const auto& [path, size] : it::BlobStoreListing()) {
    if (size >= 0) files.insert(fs::relative(path, BlobDir()).string());
  }
  return files;
}

std::set<std::string> ReferencedFiles() {
  std::set<std::string> files;
  for (const it::PgRow& row : it::PgQuery(
           "SELECT sha256 FROM sboms UNION SELECT sha256 FROM vex_served_documents UNION SELECT sha256 FROM attestations")) {
    files.insert(BlobPath(*row.at(0)));
  }
  return files;
}

// Sets a file's modification time age_seconds in the past.
void Age(const std::string& relative, long age_seconds) {
  timespec times[2] = {{std::time(nullptr) - age_seconds, 0}, {std::time(nullptr) - age_seconds, 0}};
  BOOST_TEST_REQUIRE(utimensat(AT_FDCWD, (BlobDir() + "/" + relative).c_str(), times, 0) == 0);
}

// Writes a file under the blob store, modified age_seconds ago.
std::string Plant(const std::string& relative, const std::string& bytes, long age_seconds) {
  std::string path = BlobDir() + "/" + relative;
  fs::create_directories(fs::path(path).parent_path());
  it::WriteFileBytes(path, bytes);
  Age(relative, age_seconds);
  return relative;
}

std::string OrphanBlob(long age_seconds) {
  std::string bytes = "{\"orphan\": \"" + it::RandomSuffix(16) + "\"}\n";
  return Plant(BlobPath(it::Sha256HexOf(bytes)), bytes, age_seconds);
}

bool Exists(const std::string& relative) { return fs::exists(BlobDir() + "/" + relative); }

// A temp file as a running ingest holds it: open and flock'ed until the object goes.
class LiveTempFile {
 public:
  LiveTempFile() : relative_("tmp/it-live-" + it::RandomSuffix(8)) {
    Plant(relative_, "partial", 0);
    fd_ = open((BlobDir() + "/" + relative_).c_str(), O_RDONLY | O_CLOEXEC);
    BOOST_TEST_REQUIRE(fd_ >= 0);
    BOOST_TEST_REQUIRE(flock(fd_, LOCK_EX) == 0);
  }
  ~LiveTempFile() {
    close(fd_);
    std::error_code ignored;
    fs::remove(BlobDir() + "/" + relative_, ignored);
  }
  LiveTempFile(const LiveTempFile&) = delete;
  LiveTempFile& operator=(const LiveTempFile&) = delete;
  const std::string& relative() const { return relative_; }

 private:
  std::string relative_;
  int fd_ = -1;
};

// The names in a directory (none when it does not exist).
std::set<std::string> Names(const std::string& dir) {
  std::set<std::string> names;
  std::error_code error;
  for (fs::directory_iterator entry(dir, error), end; !error && entry != end; entry.increment(error)) {
    names.insert(entry->path().filename().string());
  }
  return names;
}

// No session holds the blob lock.
bool BlobLockFree() {
  const std::string sql =  // a bigint key is classid (high half) and objid (low half)
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 1768120692 AND objid = 2 AND "
      "objsubid = 1";
  return *it::PgQuery(sql).at(0).at(0) == "0";
}

// icatctl gc, once no session holds the blob lock (a killed ingest's backend ends a moment after it).
it::ProcessResult Gc(const std::vector<std::string>& flags) {
  BOOST_TEST_REQUIRE(it::WaitFor(BlobLockFree, std::chrono::seconds(10)));
  std::vector<std::string> args = {"gc"};
  args.insert(args.end(), flags.begin(), flags.end());
  return Icatctl(args);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scans_gc)

BOOST_AUTO_TEST_CASE(ingest_killed_while_writing_leaves_nothing_after_the_next_ingest_and_gc) {
  std::string report = it::Fixture(kAlpine310);
  it::TempDir dir;
  std::string sbom = it::BigCycloneDx(report, 24u * 1024 * 1024);
  std::string sbom_path = dir.Write("big.cdx.json", sbom);
  std::string blob_dir = BlobDir();
  std::string hex = it::Sha256HexOf(sbom);
  // Wherever a writer puts its temp file: tmp/, or beside the blob (.tmp-*) as ingest once did.
  std::vector<std::string> temp_dirs = {blob_dir + "/tmp", blob_dir + "/sha256/" + hex.substr(0, 2)};
  std::optional<std::string> seen;
  for (int attempt = 0; attempt < 5 && !seen; attempt++) {
    std::map<std::string, std::set<std::string>> before;
    for (const std::string& d : temp_dirs) before[d] = Names(d);
    std::vector<std::string> argv = IngestArgv("it-gc-kill-" + it::RandomSuffix(8), report, sbom_path);
    pid_t pid = it::SpawnQuiet(argv);
    // Killed the moment a temp file of its own appears, while it writes the 24 MB.
    int status = 0;
    while (!seen && waitpid(pid, &status, WNOHANG) == 0) {
      for (const std::string& d : temp_dirs) {
        for (const std::string& name : Names(d)) {
          bool temp = d == temp_dirs[0] || name.rfind(".tmp-", 0) == 0;
          if (temp && !before[d].count(name)) seen = fs::relative(d + "/" + name, blob_dir).string();
        }
      }
      if (seen) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
  }
  BOOST_TEST_REQUIRE(seen.has_value(), "no kill landed while ingest wrote its temp file; the test proves nothing");
  BOOST_TEST_MESSAGE("killed ingest while it wrote " << *seen);

  it::TempDir next;
  std::string image = IngestSmall(next);
  BOOST_TEST(!Exists(*seen), "the next ingest left the dead writer's " << *seen);
  it::ProcessResult gc = Gc({"--grace", "0"});
  BOOST_TEST_REQUIRE(gc.exit_code == 0, "gc exited " << gc.exit_code << ": " << gc.err);
  BOOST_TEST(gc.out.find("gc: removed ") != std::string::npos, gc.out);
  // Exactly what rows refer to: no temp file, no orphan blob of the killed run.
  BOOST_TEST((StoredFiles() == ReferencedFiles()));
  BOOST_TEST(Exists(BlobPath(SbomSha256Of(image))));
}

BOOST_AUTO_TEST_CASE(gc_keeps_referenced_and_young_blobs_and_removes_old_unreferenced_files) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:sbom");
  it::TempDir dir;
  std::string image = IngestSmall(dir);
  std::string image_id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {image}).at(0).at(0);
  tenant.License({image_id, image, "", "", std::nullopt, {}});
  std::string hex = SbomSha256Of(image);
  std::string referenced = BlobPath(hex);
  Age(referenced, 2 * 86400);  // old, yet kept: a row refers to it
  // So is the bundle of the SBOM's attestation; one whose row is gone (its document no longer
  // served, removed by scans prune) is not.
  std::string bundle = BlobPath(*it::PgQuery("SELECT a.sha256 FROM attestations a JOIN image_versions v ON "
                                             "v.id = a.version_id JOIN images i ON i.id = v.image_id WHERE i.name = $1",
                                             {image}).at(0).at(0));
  Age(bundle, 2 * 86400);
  it::TempDir unattested_dir;
  std::string unattested = IngestSmall(unattested_dir);
  std::string unattested_bundle = BlobPath(*it::PgQuery("DELETE FROM attestations a USING image_versions v, images i "
                                                        "WHERE v.id = a.version_id AND i.id = v.image_id AND i.name = $1 "
                                                        "RETURNING a.sha256",
                                                        {unattested}).at(0).at(0));
  Age(unattested_bundle, 2 * 3600);
  std::string old_orphan = OrphanBlob(2 * 3600);
  std::string young_orphan = OrphanBlob(60);
  std::string old_legacy_temp = Plant("sha256/00/.tmp-" + it::RandomSuffix(16), "partial", 2 * 3600);
  std::string dead_temp = Plant("tmp/it-dead-" + it::RandomSuffix(8), "partial", 0);
  LiveTempFile live_temp;

  it::ProcessResult gc = Gc({});
  BOOST_TEST_REQUIRE(gc.exit_code == 0, "gc exited " << gc.exit_code << ": " << gc.err);
  for (const std::string& gone : {old_orphan, old_legacy_temp, dead_temp, unattested_bundle}) {
    BOOST_TEST(!Exists(gone), gone << " is still there");
    BOOST_TEST(gc.out.find("removed " + gone + " (") != std::string::npos, gone << " not listed in: " << gc.out);
  }
  for (const std::string& kept : {referenced, bundle, young_orphan, live_temp.relative()}) {
    BOOST_TEST(Exists(kept), kept << " was removed");
    BOOST_TEST(gc.out.find(kept) == std::string::npos, kept << " listed in: " << gc.out);
  }
  BOOST_TEST(gc.out.find("younger than 3600 s") != std::string::npos, gc.out);
  BOOST_TEST(gc.out.find("1 temp files in use") != std::string::npos, gc.out);
  for (const std::string& path : ReferencedFiles()) BOOST_TEST(Exists(path), "referenced " << path << " was removed");

  it::Response r = it::Get("/v1/images/" + image_id + "/sbom?format=cyclonedx", it::Bearer(key));
  BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
  BOOST_TEST(it::Sha256HexOf(r.body) == hex);
}

BOOST_AUTO_TEST_CASE(gc_dry_run_lists_what_it_would_remove_and_removes_nothing) {
  std::string old_orphan = OrphanBlob(2 * 3600);
  std::string dead_temp = Plant("tmp/it-dead-" + it::RandomSuffix(8), "partial", 0);
  std::map<std::string, long long> before = it::BlobStoreListing();

  it::ProcessResult gc = Gc({"--dry-run", "--grace", "3600"});
  BOOST_TEST_REQUIRE(gc.exit_code == 0, "gc exited " << gc.exit_code << ": " << gc.err);
  BOOST_TEST(gc.out.find("would remove " + old_orphan + " (") != std::string::npos, gc.out);
  BOOST_TEST(gc.out.find("would remove " + dead_temp + " (") != std::string::npos, gc.out);
  BOOST_TEST(gc.out.find("gc (dry run): would remove ") != std::string::npos, gc.out);
  BOOST_TEST((it::BlobStoreListing() == before));

  it::ProcessResult bad = Gc({"--grace", "an hour"});
  BOOST_TEST(bad.exit_code == 2, bad.err);
  BOOST_TEST(bad.err.find("--grace") != std::string::npos, bad.err);
}

BOOST_AUTO_TEST_CASE(next_ingest_removes_dead_temp_files_at_once_and_never_a_live_one) {
  std::string dead_temp = Plant("tmp/it-dead-" + it::RandomSuffix(8), "partial", 0);  // young: no grace
  LiveTempFile live_temp;
  it::TempDir dir;
  IngestSmall(dir);
  BOOST_TEST(!Exists(dead_temp));
  BOOST_TEST(Exists(live_temp.relative()));
}

BOOST_AUTO_TEST_CASE(gc_refuses_while_an_ingest_holds_the_blob_lock) {
  std::string old_orphan = OrphanBlob(2 * 3600);
  BOOST_TEST_REQUIRE(it::WaitFor(BlobLockFree, std::chrono::seconds(10)));
  it::PgConnection ingest;  // plays an ingest between its blob write and its commit
  ingest.Query("BEGIN");
  ingest.Query("SELECT pg_advisory_xact_lock_shared($1)", {std::string(kBlobLockId)});
  it::ProcessResult refused = Icatctl({"gc"});
  BOOST_TEST(refused.exit_code == 1, refused.out << refused.err);
  BOOST_TEST(refused.err.find("ingest") != std::string::npos, refused.err);
  BOOST_TEST(Exists(old_orphan));
  ingest.Query("ROLLBACK");
  it::ProcessResult gc = Gc({});
  BOOST_TEST(gc.exit_code == 0, gc.err);
  BOOST_TEST(!Exists(old_orphan));
}

// Row-level security would show any role but the tables' owner no SBOM at all (sql/V0024): gc run
// with the handlers' DSN would take every blob for an orphan.
BOOST_AUTO_TEST_CASE(gc_refuses_to_run_as_another_role_than_the_owner) {
  std::string old_orphan = OrphanBlob(2 * 3600);
  std::map<std::string, long long> before = it::BlobStoreListing();
  const char* app_dsn = std::getenv("ICAT_PG_DSN");
  BOOST_TEST_REQUIRE(app_dsn != nullptr);
  BOOST_TEST_REQUIRE(it::WaitFor(BlobLockFree, std::chrono::seconds(10)));
  it::ProcessResult refused = it::RunProcess({"env", "ICAT_PG_ADMIN_DSN=" + std::string(app_dsn), IcatctlPath(), "gc"});
  BOOST_TEST(refused.exit_code == 1, refused.out << refused.err);
  BOOST_TEST(refused.err.find("owner role") != std::string::npos, refused.err);
  BOOST_TEST((it::BlobStoreListing() == before));
  BOOST_TEST(Exists(old_orphan));
}

BOOST_AUTO_TEST_SUITE_END()
