// icatctl registry reconcile against a real Distribution registry (Debian's docker-registry) that
// each test starts on a free loopback port, with images pushed by skopeo from OCI layouts the test
// builds: the versions appear with the manifest's digest and size, a second run changes nothing, a
// tag whose digest differs from the catalogue's is a conflict named on stderr, and a registry that is
// down or answers garbage is a clear error line and exit 1.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "icat/crypto.hpp"
#include "icat/worker_cache.hpp"
#include "receiver.hpp"
#include "scans_support.hpp"
#include "registry_support.hpp"
#include "support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// A small real image (BuildOciImage: one layer of one file whose text is `content`) pushed as
// repository:tag; its manifest's digest, the bytes it names (config and layer), and the manifest's
// bytes, to tag it again.
struct PushedImage {
  std::string digest;
  long long size_bytes = 0;
  std::string manifest;
};

PushedImage PushImage(const it::ScratchRegistry& registry, const std::string& repository_name, const std::string& tag,
                      const std::string& content) {
  it::OciImage image = it::BuildOciImage(tag, content);
  it::PushToScratch(image, registry, repository_name, tag);
  std::string manifest = it::ReadFileBytes(image.layout + "/blobs/sha256/" + image.digest.substr(7));
  return {image.digest, image.bytes, manifest};
}

// A catalogue image on a registry host of its own (ICAT_REGISTRY of the runs below), so a run walks
// this test's images only, whatever other tests left in the catalogue.
struct CatalogueImage {
  std::string host;           // "reconcile-<random>.test"
  std::string name;           // the catalogue's name and the registry's repository's last part
  std::string registry_name;  // "hardened/<name>"
  std::string repository;     // "<host>/hardened/<name>"
  std::string id;
};

CatalogueImage NewCatalogueImage(const std::string& host) {
  CatalogueImage image;
  image.host = host;
  image.name = "it-reconcile-" + it::RandomSuffix(8);
  image.registry_name = "hardened/" + image.name;
  image.repository = host + "/" + image.registry_name;
  image.id = it::IcatctlOk(
      {"image", "create", "--name", image.name, "--repository", image.repository, "--base-os", "debian-12"});
  return image;
}

std::string NewRegistryHost() { return "reconcile-" + it::RandomSuffix(8) + ".test"; }

// icatctl registry reconcile with ICAT_REGISTRY on host and ICAT_REGISTRY_UPSTREAM at upstream.
it::ProcessResult Reconcile(const std::string& host, const std::string& upstream) {
  return it::RunProcess({"env", "ICAT_REGISTRY=" + host + "/hardened", "ICAT_REGISTRY_UPSTREAM=" + upstream,
                         it::GetEnv().bin_dir + "/icatctl", "registry", "reconcile"});
}

struct StoredVersion {
  std::string digest;
  std::optional<std::string> size_bytes, scan_status;
};

// The catalogue's cache generation in Redis (worker_cache.hpp), which a write of the catalogue changes.
std::string CacheGeneration() {
  std::optional<icat::RedisReply> generation = it::RedisCommand({"GET", std::string(icat::kCacheGenerationKey)});
  BOOST_TEST_REQUIRE(generation.has_value());
  return generation->text;
}

std::map<std::string, StoredVersion> VersionsByTag(const std::string& image_id) {
  std::map<std::string, StoredVersion> versions;
  for (const it::PgRow& row :
       it::PgQuery("SELECT tag, digest, size_bytes::text FROM image_versions WHERE image_id = $1", {image_id})) {
    versions[*row[0]] = {*row[1], row[2], std::nullopt};
  }
  return versions;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry_reconcile)

BOOST_AUTO_TEST_CASE(pushed_tags_become_versions_with_the_manifests_digest_and_size_once) {
  it::ScratchRegistry registry;
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  CatalogueImage never_pushed = NewCatalogueImage(host);
  it::Tenant tenant;
  it::IcatctlOk({"license", "grant", "--tenant", tenant.subdomain(), "--image", image.name});
  std::string key = tenant.CreateKey();
  // Read once before, so a catalogue worker may hold the image without the version: the run tells
  // them all (the cache generation) so that the versions show at once.
  rapidjson::Document before = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  BOOST_TEST(before["versions"].Size() == 0u);

  std::string first_content = "first " + it::RandomSuffix();
  PushedImage first = PushImage(registry, image.registry_name, "1.0.0", first_content);
  PushedImage second = PushImage(registry, image.registry_name, "1.1.0", "second " + it::RandomSuffix());

  std::string generation = CacheGeneration();
  it::ProcessResult run = Reconcile(host, registry.Url());
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(CacheGeneration() != generation);  // the workers drop what they cached
  BOOST_TEST(run.out ==
             "registry reconcile: 2 images, 2 tags: published 2, known 0, conflicts 0, not pushed 1, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  std::map<std::string, StoredVersion> versions = VersionsByTag(image.id);
  BOOST_TEST_REQUIRE(versions.size() == 2u);
  BOOST_TEST(versions["1.0.0"].digest == first.digest);
  BOOST_TEST(versions["1.0.0"].size_bytes.value_or("") == std::to_string(first.size_bytes));
  BOOST_TEST(versions["1.1.0"].digest == second.digest);
  BOOST_TEST(versions["1.1.0"].size_bytes.value_or("") == std::to_string(second.size_bytes));
  BOOST_TEST(it::PgQuery("SELECT 1 FROM image_versions WHERE image_id = $1", {never_pushed.id}).empty());

  // The licensed tenant sees them at once, unscanned, and is told (version.published).
  rapidjson::Document after = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  BOOST_TEST_REQUIRE(after["versions"].Size() == 2u);
  for (const rapidjson::Value& version : after["versions"].GetArray()) {
    BOOST_TEST(it::StringMember(version, "scanStatus") == "unscanned");
  }
  BOOST_TEST(
      it::PgQuery("SELECT 1 FROM events WHERE tenant_id = $1 AND type = 'version.published'", {tenant.id()}).size() ==
      2u);

  // Twice: nothing changes.
  generation = CacheGeneration();
  it::ProcessResult again = Reconcile(host, registry.Url());
  BOOST_TEST(CacheGeneration() == generation);
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  BOOST_TEST(again.out ==
             "registry reconcile: 2 images, 2 tags: published 0, known 2, conflicts 0, not pushed 1, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  BOOST_TEST(VersionsByTag(image.id).size() == 2u);
  BOOST_TEST(
      it::PgQuery("SELECT 1 FROM events WHERE tenant_id = $1 AND type = 'version.published'", {tenant.id()}).size() ==
      2u);

  // A tag moved to a digest the catalogue has: known, no new version.
  PushedImage latest = PushImage(registry, image.registry_name, "latest", first_content);
  BOOST_TEST_REQUIRE(latest.digest == first.digest);
  it::ProcessResult moved = Reconcile(host, registry.Url());
  BOOST_TEST_REQUIRE(moved.exit_code == 0, moved.err);
  BOOST_TEST(moved.out ==
             "registry reconcile: 2 images, 3 tags: published 0, known 3, conflicts 0, not pushed 1, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  BOOST_TEST(VersionsByTag(image.id).size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_tag_the_catalogue_has_with_another_digest_is_a_conflict_named_on_stderr) {
  it::ScratchRegistry registry;
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  std::string catalogued = it::RandomDigest();
  it::IcatctlOk({"version", "add", "--image", image.name, "--tag", "2.0.0", "--digest", catalogued});
  PushedImage pushed = PushImage(registry, image.registry_name, "2.0.0", "rebuilt " + it::RandomSuffix());

  it::ProcessResult run = Reconcile(host, registry.Url());
  BOOST_TEST(run.exit_code == 0, run.err);
  BOOST_TEST(run.out ==
             "registry reconcile: 1 images, 1 tags: published 0, known 0, conflicts 1, not pushed 0, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  BOOST_TEST(run.err.find("conflict: " + image.repository + ":2.0.0 is " + pushed.digest) != std::string::npos,
             run.err);
  BOOST_TEST(run.err.find(catalogued) != std::string::npos, run.err);
  std::map<std::string, StoredVersion> versions = VersionsByTag(image.id);
  BOOST_TEST_REQUIRE(versions.size() == 1u);
  BOOST_TEST(versions["2.0.0"].digest == catalogued);  // a version's digest never changes
}

// More tags than the run asks for per page (n=100): Distribution 2.8 answers them all at once.
BOOST_AUTO_TEST_CASE(more_tags_than_a_page_are_all_read) {
  it::ScratchRegistry registry;
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  PushedImage pushed = PushImage(registry, image.registry_name, "0.0.0", "paged " + it::RandomSuffix());
  for (int n = 1; n <= 120; n++) {  // the same manifest under more tags, straight to the registry
    std::string tag = "0.0." + std::to_string(n);
    it::Response put = it::Send("PUT", registry.Url() + "/v2/" + image.registry_name + "/manifests/" + tag,
                                {{"Content-Type", "application/vnd.oci.image.manifest.v1+json"}}, pushed.manifest);
    BOOST_TEST_REQUIRE(put.status == 201, put.Summary());
  }
  it::ProcessResult run = Reconcile(host, registry.Url());
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out ==
             "registry reconcile: 1 images, 121 tags: published 1, known 120, conflicts 0, not pushed 0, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  std::map<std::string, StoredVersion> versions = VersionsByTag(image.id);
  BOOST_TEST_REQUIRE(versions.size() == 1u);
  BOOST_TEST(versions.begin()->second.digest == pushed.digest);
}

// cosign's attachment tags (sha256-<hex>.att, .sig, .sbom) are no versions: the walk skips them.
// After the version is scanned, the same run attaches its attestations (icatctl registry attach's
// pass) at the .att tag, once.
BOOST_AUTO_TEST_CASE(attachment_tags_are_skipped_and_the_run_attaches_the_attestations) {
  it::ScratchRegistry registry;
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  PushedImage pushed = PushImage(registry, image.registry_name, "4.0.0", "attached " + it::RandomSuffix());
  std::string att_tag = "sha256-" + pushed.digest.substr(7) + ".att";
  for (const std::string& tag : {att_tag, "sha256-" + pushed.digest.substr(7) + ".sig"}) {
    it::Response put = it::Send("PUT", registry.Url() + "/v2/" + image.registry_name + "/manifests/" + tag,
                                {{"Content-Type", "application/vnd.oci.image.manifest.v1+json"}}, pushed.manifest);
    BOOST_TEST_REQUIRE(put.status == 201, put.Summary());
  }
  it::ProcessResult run = Reconcile(host, registry.Url());
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out ==
             "registry reconcile: 1 images, 1 tags: published 1, known 0, conflicts 0, not pushed 0, errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  BOOST_TEST_REQUIRE(VersionsByTag(image.id).size() == 1u);

  it::TempDir dir;
  std::string report = it::Fixture(it::kAlpine310);
  std::string time = it::Rfc3339(std::chrono::system_clock::now());
  it::IngestOk({image.name, "4.0.0", pushed.digest, report, dir.Write("s.spdx.json", it::MinimalSpdx(report, time)),
                dir.Write("s.cdx.json", it::MinimalCycloneDx(report, time))});
  it::ProcessResult attached = Reconcile(host, registry.Url());
  BOOST_TEST_REQUIRE(attached.exit_code == 0, attached.err);
  BOOST_TEST(attached.out.find("attached " + image.repository + "@" + pushed.digest + ": 2 attestations at " +
                               att_tag) != std::string::npos, attached.out);
  BOOST_TEST(attached.out.find("registry attach: 1 versions: attached 1, unchanged 0") != std::string::npos,
             attached.out);
  it::Response manifest = it::Get(registry.Url() + "/v2/" + image.registry_name + "/manifests/" + att_tag,
                                  {{"Accept", "application/vnd.oci.image.manifest.v1+json"}});
  BOOST_TEST_REQUIRE(manifest.status == 200, manifest.Summary());
  BOOST_TEST(manifest.body != pushed.manifest);  // the attestations replaced what the tag held
  BOOST_TEST(manifest.body.find("application/vnd.dsse.envelope.v1+json") != std::string::npos, manifest.body);
  it::ProcessResult again = Reconcile(host, registry.Url());
  BOOST_TEST(again.out.find("registry attach: 1 versions: attached 0, unchanged 1") != std::string::npos, again.out);
  BOOST_TEST(VersionsByTag(image.id).size() == 1u);
}

// Registries that page tags/list (Distribution 3, others; 2.8 does not) link the next page: the run
// follows the Link header. A scripted server plays that registry, with real manifests.
BOOST_AUTO_TEST_CASE(tags_pages_are_followed_through_the_link_header) {
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  auto manifest_of = [](const std::string& tag) {
    return R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":)"
           R"("application/vnd.oci.image.config.v1+json","digest":"sha256:)" +
           std::string(64, '1') +
           R"(","size":10},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:)" +
           icat::Sha256Hex(tag) + R"(","size":1000}]})";
  };
  const std::string tags_path = "/v2/" + image.registry_name + "/tags/list";
  it::Receiver paging("127.0.0.1", [&](const it::ReceivedRequest& request) {
    std::string headers = "HTTP/1.1 200 OK\r\nDocker-Distribution-API-Version: registry/2.0\r\nConnection: close\r\n";
    std::string body = "{}";
    if (request.target == tags_path + "?n=100") {
      headers += "Link: <" + tags_path + "?last=1.0&n=100>; rel=\"next\"\r\n";
      body = R"({"name":"x","tags":["1.0"]})";
    } else if (request.target == tags_path + "?last=1.0&n=100") {
      body = R"({"name":"x","tags":["2.0"]})";
    } else if (request.target.find("/manifests/") != std::string::npos) {
      body = manifest_of(request.target.substr(request.target.rfind('/') + 1));
      headers += "Content-Type: application/vnd.oci.image.manifest.v1+json\r\nDocker-Content-Digest: sha256:" +
                 icat::Sha256Hex(body) + "\r\n";
    }
    return headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  });
  it::ProcessResult run = Reconcile(host, paging.BaseUrl());
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out ==
             "registry reconcile: 1 images, 2 tags: published 2, known 0, conflicts 0, not pushed 0, "
             "errors 0\n"
             "registry attach: 0 versions: attached 0, unchanged 0, not pushed 0, errors 0\n");
  std::map<std::string, StoredVersion> versions = VersionsByTag(image.id);
  BOOST_TEST_REQUIRE(versions.size() == 2u);
  BOOST_TEST(versions["2.0"].digest == "sha256:" + icat::Sha256Hex(manifest_of("2.0")));
  BOOST_TEST(versions["2.0"].size_bytes.value_or("") == "1010");
}

BOOST_AUTO_TEST_CASE(a_registry_that_is_down_is_one_clear_error_and_exit_1) {
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  std::string nothing_there = "http://127.0.0.1:" + std::to_string(it::FreePort());
  it::ProcessResult run = Reconcile(host, nothing_there);
  BOOST_TEST(run.exit_code == 1);
  BOOST_TEST(run.out.empty());
  BOOST_TEST(run.err.find("icatctl: the registry cannot be read: GET " + nothing_there + "/v2/") == 0, run.err);
  BOOST_TEST(std::count(run.err.begin(), run.err.end(), '\n') == 1, run.err);
}

// Each answer of a server that is no registry, or a registry that answers garbage, given to a run:
// an error line naming what was wrong and exit 1, nothing published, no crash (exit 1, not a signal).
BOOST_AUTO_TEST_CASE(a_registry_that_answers_garbage_is_an_error_line_never_a_crash) {
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  const std::string api = "HTTP/1.1 200 OK\r\nDocker-Distribution-API-Version: registry/2.0\r\nConnection: close\r\n";
  auto reply = [&](const std::string& headers, const std::string& body) {
    return headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  std::string manifest = R"({"schemaVersion":2,"config":{"size":1},"layers":[{"size":2}]})";
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  struct Case {
    std::string label, tags, manifest, expected;
  };
  const std::vector<Case> cases = {
      {"not JSON", reply(api, "{\"tags\": [nonsense"), "", "tags/list is not JSON"},
      {"no tags array", reply(api, R"({"name":"x","tags":"1.0"})"), "", "tags/list has no tags array"},
      {"a tag with a slash", reply(api, R"({"tags":["../../x"]})"), "", "names something that is no tag"},
      {"deep nesting", reply(api, deep), "", "tags/list is not JSON"},
      {"a link elsewhere",
       reply(api + "Link: <http://evil.example/v2/x/tags/list?n=1>; rel=\"next\"\r\n", R"({"tags":[]})"), "",
       "a Link header"},
      {"a manifest of no known type", reply(api, R"({"tags":["1.0"]})"),
       reply(api + "Content-Type: text/html\r\n", "<html></html>"), "none of the OCI or Docker v2 manifest types"},
      {"a digest that does not match", reply(api, R"({"tags":["1.0"]})"),
       reply(api + "Content-Type: application/vnd.oci.image.manifest.v1+json\r\nDocker-Content-Digest: sha256:" +
                 std::string(64, '0') + "\r\n",
             manifest),
       "the manifest's bytes are sha256:" + icat::Sha256Hex(manifest)},
      {"a manifest nested deep", reply(api, R"({"tags":["1.0"]})"),
       reply(api + "Content-Type: application/vnd.oci.image.manifest.v1+json\r\nDocker-Content-Digest: sha256:" +
                 icat::Sha256Hex(deep) + "\r\n",
             deep),
       "the manifest is not JSON"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.label) {
      it::Receiver garbage("127.0.0.1", [&](const it::ReceivedRequest& request) {
        if (request.target == "/v2/") return reply(api, "{}");
        if (request.target.find("/tags/list") != std::string::npos) return c.tags;
        return c.manifest;
      });
      it::ProcessResult run = Reconcile(host, garbage.BaseUrl());
      BOOST_TEST(run.exit_code == 1, run.err);
      BOOST_TEST(run.err.find(c.expected) != std::string::npos, run.err);
      BOOST_TEST(run.out.find("errors 1") != std::string::npos, run.out);
      BOOST_TEST(VersionsByTag(image.id).empty());
    }
  }
  // A server that is no registry: the run stops at its first request.
  it::Receiver web("127.0.0.1", [&](const it::ReceivedRequest&) {
    return reply("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n", "<html>hello</html>");
  });
  it::ProcessResult run = Reconcile(host, web.BaseUrl());
  BOOST_TEST(run.exit_code == 1);
  BOOST_TEST(run.err.find("not a Distribution registry") != std::string::npos, run.err);
  BOOST_TEST(web.Received().size() == 1u);
}

BOOST_AUTO_TEST_CASE(every_runs_until_sigterm_and_stops_cleanly) {
  it::ScratchRegistry registry;
  std::string host = NewRegistryHost();
  CatalogueImage image = NewCatalogueImage(host);
  it::TempDir scratch;
  std::string log = scratch.path() + "/reconcile.log";
  pid_t daemon =
      it::SpawnQuiet({"/bin/sh", "-c",
                      "exec env ICAT_REGISTRY=\"$0\" ICAT_REGISTRY_UPSTREAM=\"$1\" \"$2\" registry reconcile "
                      "--every 1 >\"$3\" 2>&1",
                      host + "/hardened", registry.Url(), it::GetEnv().bin_dir + "/icatctl", log});
  struct Reaper {  // SIGKILL and waited for, whatever happens below
    pid_t pid;
    bool reaped = false;
    ~Reaper() {
      if (!reaped) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } reaper{daemon};

  // A push after the daemon started is published by one of its next passes.
  PushedImage pushed = PushImage(registry, image.registry_name, "3.0.0", "daemon " + it::RandomSuffix());
  BOOST_TEST_REQUIRE(it::WaitFor([&] { return VersionsByTag(image.id).count("3.0.0") == 1; }, 30s),
                     it::ReadFileBytes(log));
  BOOST_TEST(VersionsByTag(image.id)["3.0.0"].digest == pushed.digest);

  BOOST_TEST_REQUIRE(kill(daemon, SIGTERM) == 0);
  int status = 0;
  bool exited = it::WaitFor([&] { return waitpid(daemon, &status, WNOHANG) == daemon; }, 30s);
  BOOST_TEST_REQUIRE(exited, "no exit within 30 s of SIGTERM");
  reaper.reaped = true;
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
  std::string output = it::ReadFileBytes(log);
  BOOST_TEST(output.find("published 1") != std::string::npos, output);
  BOOST_TEST(output.find("registry reconcile stopped") != std::string::npos, output);
}

BOOST_AUTO_TEST_SUITE_END()
