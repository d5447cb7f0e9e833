// The registry (issue 26, docs/registry.md), through nginx and the real Distribution registry, with
// skopeo as the client: a tenant pulls exactly what its licences name, every other repository looks
// like one that does not exist, refusals come in the registry's error shape, a publisher's push
// publishes a version, and pulls are counted and audited.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <thread>

#include "icat/crypto.hpp"
#include "receiver.hpp"
#include "registry_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// A licensed image with one pushed version, and a tenant key that may pull it.
struct Pushed {
  it::Tenant tenant;
  it::RegistryImage image = it::CreateRegistryImage("pull");
  it::OciImage oci = it::BuildOciImage("1.0", "pushed " + image.name);
  std::string key;

  Pushed() {
    tenant.License(image.image);
    key = tenant.CreateKey("pull,read:catalog");
    it::ProcessResult pushed = it::SkopeoPush(oci, image.name, it::PublisherCreds());
    BOOST_TEST_REQUIRE(pushed.exit_code == 0, pushed.err);
    BOOST_TEST_REQUIRE(it::WaitFor([&] { return VersionDigest("1.0").has_value(); }, 10s, 100ms),
                       "the push published no version within 10 s");
  }

  // The catalogue's digest of the image's version `tag`, once published.
  std::optional<std::string> VersionDigest(const std::string& tag) const {
    auto rows = it::PgQuery("SELECT digest FROM image_versions WHERE image_id = $1 AND tag = $2", {image.image.id, tag});
    if (rows.empty()) return std::nullopt;
    return rows[0][0];
  }

  std::string Creds() const { return tenant.subdomain() + ":" + key; }
  it::Headers Auth() const { return it::Basic(tenant.subdomain(), key); }
};

// The registry's error body: its first error's code.
std::string RegistryCode(const it::Response& r) {
  rapidjson::Document body;
  body.Parse(r.body.c_str());
  if (!body.IsObject() || !body.HasMember("errors") || !body["errors"].IsArray() || body["errors"].Empty()) return "";
  return it::StringMember(body["errors"][0], "code");
}

void ExpectRegistryError(const it::Response& r, long status, const std::string& code) {
  BOOST_TEST(r.status == status, r.Summary());
  BOOST_TEST(RegistryCode(r) == code, r.Summary());
  BOOST_TEST(r.Header("content-type") == "application/json", r.Summary());
  BOOST_TEST(r.Header("docker-distribution-api-version") == "registry/2.0", r.Summary());
}

void ExpectChallenge(const it::Response& r) {
  ExpectRegistryError(r, 401, "UNAUTHORIZED");
  BOOST_TEST(r.Header("www-authenticate").rfind("Basic realm=", 0) == 0u, r.Summary());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(a_licensed_pull_gets_the_catalogues_digest_and_is_counted_and_audited) {
  Pushed p;
  BOOST_TEST(*p.VersionDigest("1.0") == p.oci.digest);
  it::ProcessResult inspected = it::SkopeoInspect(p.image.name + ":1.0", p.Creds());
  BOOST_TEST_REQUIRE(inspected.exit_code == 0, inspected.err);
  rapidjson::Document info;
  info.Parse(inspected.out.c_str());
  BOOST_TEST(it::StringMember(info, "Digest") == p.oci.digest);
  // By digest too, as the console's pull command says.
  BOOST_TEST(it::SkopeoInspect(p.image.name + "@" + p.oci.digest, p.Creds()).exit_code == 0);

  auto pulls = it::PgQuery("SELECT pull_count, last_pulled_at IS NOT NULL FROM version_pulls p JOIN image_versions v "
                           "ON v.id = p.version_id WHERE p.tenant_id = $1 AND v.image_id = $2",
                           {p.tenant.id(), p.image.image.id});
  BOOST_TEST_REQUIRE(pulls.size() == 1u);
  BOOST_TEST(*pulls[0][0] == "2");
  auto audit = it::PgQuery("SELECT target, detail->>'keyPrefix', detail->>'tag' FROM audit_log WHERE tenant_id = $1 "
                           "AND action = 'image.pulled' ORDER BY id", {p.tenant.id()});
  BOOST_TEST_REQUIRE(audit.size() == 2u);
  BOOST_TEST(*audit[0][0] == p.image.image.repository + "@" + p.oci.digest);
  BOOST_TEST(*audit[0][1] == p.key.substr(0, 14));
  BOOST_TEST(*audit[0][2] == "1.0");
  // Another tenant's pulls are its own: it sees none of these.
  it::Tenant other;
  other.License(p.image.image);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM version_pulls WHERE tenant_id = $1", {other.id()}).empty());
}

BOOST_AUTO_TEST_CASE(every_repository_a_tenant_may_not_pull_looks_like_one_that_does_not_exist) {
  Pushed p;
  it::Tenant stranger;
  std::string key = stranger.CreateKey("pull");
  it::Headers auth = it::Basic(stranger.subdomain(), key);
  it::Response unlicensed = it::Get("/v2/" + p.image.name + "/manifests/1.0", auth);
  it::Response missing = it::Get("/v2/hardened/it-nothing-" + it::RandomSuffix(6) + "/manifests/1.0", auth);
  ExpectRegistryError(unlicensed, 404, "NAME_UNKNOWN");
  BOOST_TEST(unlicensed.body == missing.body);
  BOOST_TEST(missing.status == unlicensed.status);
  for (const std::string& path : {"/v2/" + p.image.name + "/tags/list", "/v2/" + p.image.name + "/blobs/" + p.oci.digest,
                                  "/v2/" + p.image.name + "/manifests/" + p.oci.digest}) {
    ExpectRegistryError(it::Get(path, auth), 404, "NAME_UNKNOWN");
    ExpectRegistryError(it::Send("HEAD", path, auth), 404, "");
  }
  it::ProcessResult refused = it::SkopeoInspect(p.image.name + ":1.0", stranger.subdomain() + ":" + key);
  BOOST_TEST(refused.exit_code != 0);
  BOOST_TEST(refused.err.find("name unknown") != std::string::npos, refused.err);
}

BOOST_AUTO_TEST_CASE(a_refused_credential_gets_the_registrys_error_and_a_basic_challenge) {
  Pushed p;
  const std::string path = "/v2/" + p.image.name + "/manifests/1.0";
  ExpectChallenge(it::Get("/v2/"));
  ExpectChallenge(it::Get(path));
  ExpectChallenge(it::Get(path, {{"Authorization", "Basic !!!not-base64"}}));
  ExpectChallenge(it::Get(path, {{"Authorization", "Basic " + icat::Base64Encode("no colon")}}));
  ExpectChallenge(it::Get(path, it::Basic(p.tenant.subdomain(), "icat_live_wrong")));
  ExpectChallenge(it::Get(path, it::Basic(p.tenant.subdomain(), "not a key and no publisher")));
  ExpectChallenge(it::Get(path, it::Basic(p.tenant.subdomain(), "ünïcödé")));
  ExpectChallenge(it::Get(path, it::Bearer(p.key)));  // the API's own header is not the registry's

  std::string read_only = p.tenant.CreateKey("read:catalog");
  ExpectRegistryError(it::Get(path, it::Basic(p.tenant.subdomain(), read_only)), 403, "DENIED");

  std::string expired = p.tenant.CreateKey("pull");
  it::PgQuery("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE prefix = $1", {expired.substr(0, 14)});
  ExpectChallenge(it::Get(path, it::Basic(p.tenant.subdomain(), expired)));

  // A revoke is in force at once, however recently the key pulled.
  const std::string tags = "/v2/" + p.image.name + "/tags/list";
  BOOST_TEST(it::Get(tags, p.Auth()).status == 200);
  p.tenant.RevokeKey(p.key.substr(0, 14));
  ExpectChallenge(it::Get(tags, p.Auth()));
  BOOST_TEST(it::SkopeoInspect(p.image.name + ":1.0", p.Creds()).exit_code != 0);
  BOOST_TEST(it::SkopeoInspect(p.image.name + ":1.0", "").exit_code != 0);
}

BOOST_AUTO_TEST_CASE(tenants_never_push_or_delete) {
  Pushed p;
  ExpectRegistryError(it::Send("POST", "/v2/" + p.image.name + "/blobs/uploads/", p.Auth()), 403, "DENIED");
  ExpectRegistryError(it::Send("DELETE", "/v2/" + p.image.name + "/manifests/" + p.oci.digest, p.Auth()), 403, "DENIED");
  ExpectRegistryError(it::Send("PUT", "/v2/" + p.image.name + "/manifests/2.0", p.Auth(), std::string("{}")), 403,
                      "DENIED");
  it::OciImage other = it::BuildOciImage("9.9", "a tenant's own");
  it::ProcessResult pushed = it::SkopeoPush(other, p.image.name, p.Creds());
  BOOST_TEST(pushed.exit_code != 0);
  BOOST_TEST(!p.VersionDigest("9.9"));
  BOOST_TEST(it::SkopeoInspect(p.image.name + ":1.0", p.Creds()).exit_code == 0);  // the image is intact
}

BOOST_AUTO_TEST_CASE(the_catalog_and_tags_list_show_only_licensed_repositories) {
  Pushed p;
  it::RegistryImage unlicensed = it::CreateRegistryImage("unlicensed");
  BOOST_TEST_REQUIRE(it::SkopeoPush(it::BuildOciImage("1.0", "x"), unlicensed.name, it::PublisherCreds()).exit_code == 0);
  rapidjson::Document catalog = it::ExpectJson200(it::Get("/v2/_catalog", p.Auth()));
  BOOST_TEST_REQUIRE(catalog["repositories"].Size() == 1u);
  BOOST_TEST(catalog["repositories"][0].GetString() == p.image.name);
  rapidjson::Document tags = it::ExpectJson200(it::Get("/v2/" + p.image.name + "/tags/list", p.Auth()));
  BOOST_TEST(it::StringMember(tags, "name") == p.image.name);
  BOOST_TEST(tags["tags"][0].GetString() == std::string("1.0"));
  ExpectRegistryError(it::Get("/v2/" + unlicensed.name + "/tags/list", p.Auth()), 404, "NAME_UNKNOWN");
  ExpectRegistryError(it::Get("/v2/_catalog?n=abc", p.Auth()), 400, "UNSUPPORTED");
  ExpectChallenge(it::Get("/v2/_catalog"));
  // A second licence pages: n=1 gives one name and a Link to the next.
  it::RegistryImage second = it::CreateRegistryImage("second");
  p.tenant.License(second.image);
  it::Response first_page = it::Get("/v2/_catalog?n=1", p.Auth());
  BOOST_TEST(it::ExpectJson200(first_page)["repositories"].Size() == 1u);
  BOOST_TEST(first_page.Header("link").find("rel=\"next\"") != std::string::npos, first_page.Summary());
}

BOOST_AUTO_TEST_CASE(a_publishers_push_publishes_a_version_once_and_tells_its_licensees) {
  Pushed p;  // published 1.0 through the registry's notification
  auto version = it::PgQuery("SELECT size_bytes, latest_scan_id IS NULL FROM image_versions WHERE image_id = $1 AND tag = '1.0'",
                             {p.image.image.id});
  BOOST_TEST(*version[0][0] == std::to_string(p.oci.bytes));
  BOOST_TEST(*version[0][1] == "t");  // unscanned until icatctl ingest
  auto events = it::PgQuery("SELECT payload->'version'->>'digest' FROM events WHERE tenant_id = $1 AND type = "
                            "'version.published'", {p.tenant.id()});
  BOOST_TEST_REQUIRE(events.size() == 1u);
  BOOST_TEST(*events[0][0] == p.oci.digest);
  // The same digest under another tag only moves a tag: no second version, no second event.
  BOOST_TEST_REQUIRE(it::Skopeo({"copy", "--dest-cert-dir", it::GetEnv().stack_dir + "/tls", "--dest-creds",
                                 it::PublisherCreds(), "oci:" + p.oci.layout + ":1.0",
                                 "docker://" + it::RegistryHost() + "/" + p.image.name + ":latest"}).exit_code == 0);
  std::this_thread::sleep_for(1s);
  BOOST_TEST(!p.VersionDigest("latest"));
  BOOST_TEST(it::PgQuery("SELECT 1 FROM events WHERE tenant_id = $1 AND type = 'version.published'", {p.tenant.id()})
                 .size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_licensee_subscribed_to_version_published_gets_the_push_delivered) {
  it::Tenant tenant;
  it::RegistryImage image = it::CreateRegistryImage("hook");
  tenant.License(image.image);
  it::Receiver receiver;
  it::PgQuery("INSERT INTO webhooks (tenant_id, url, events, secret) VALUES ($1, $2, '{version.published}', $3)",
              {tenant.id(), receiver.Url(), "whsec_" + icat::Base64Encode(icat::RandomBytes(32))});
  it::OciImage oci = it::BuildOciImage("2.1", "delivered");
  BOOST_TEST_REQUIRE(it::SkopeoPush(oci, image.name, it::PublisherCreds()).exit_code == 0);
  auto got = receiver.WaitFor(1, 15s);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  rapidjson::Document body;
  body.Parse(got[0].body.c_str());
  BOOST_TEST_REQUIRE(body.IsObject());
  BOOST_TEST(it::StringMember(body, "type") == "version.published");
  BOOST_TEST(it::StringMember(body["data"]["image"], "repository") == image.image.repository);
  BOOST_TEST(it::StringMember(body["data"]["version"], "tag") == "2.1");
  BOOST_TEST(it::StringMember(body["data"]["version"], "digest") == oci.digest);
  BOOST_TEST(it::IntMember(body["data"]["version"], "sizeBytes") == oci.bytes);
}

// The registry keeps notifications in memory: a restart while they fail loses them. The reconciler
// (icatctl registry reconcile, which make run runs a minute apart) publishes what they missed.
BOOST_AUTO_TEST_CASE(a_push_whose_notification_was_lost_is_published_by_the_reconciler) {
  it::Tenant tenant;
  it::RegistryImage image = it::CreateRegistryImage("lost");
  tenant.License(image.image);
  it::OciImage oci = it::BuildOciImage("3.0", "notification lost");
  {
    // Notifications fail (the pool's socket is away), and the push goes straight to the registry.
    it::HiddenPoolSocket hidden("registry");
    const char* upstream = std::getenv("ICAT_REGISTRY_UPSTREAM");
    BOOST_TEST_REQUIRE(upstream != nullptr);
    std::string host = std::string(upstream).substr(std::string("http://").size());
    it::ProcessResult pushed = it::Skopeo({"copy", "--dest-tls-verify=false", "oci:" + oci.layout + ":3.0",
                                           "docker://" + host + "/" + image.name + ":3.0"});
    BOOST_TEST_REQUIRE(pushed.exit_code == 0, pushed.err);
    it::Stack("registry-stop");
    it::Stack("registry-start");
  }
  std::this_thread::sleep_for(2s);
  auto versions = [&] { return it::PgQuery("SELECT digest FROM image_versions WHERE image_id = $1", {image.image.id}); };
  BOOST_TEST_REQUIRE(versions().empty(), "the notification was not lost; the test proves nothing");
  it::ProcessResult reconciled = it::Icatctl({"registry", "reconcile"});
  BOOST_TEST_REQUIRE(reconciled.exit_code == 0, reconciled.err);
  BOOST_TEST_REQUIRE(versions().size() == 1u);
  BOOST_TEST(*versions()[0][0] == oci.digest);
  BOOST_TEST(it::Icatctl({"registry", "reconcile"}).exit_code == 0);  // a second pass changes nothing
  BOOST_TEST(versions().size() == 1u);
  BOOST_TEST(it::SkopeoInspect(image.name + ":3.0", tenant.subdomain() + ":" + tenant.CreateKey("pull")).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(notifications_need_the_registrys_secret) {
  const std::string envelope = R"({"events":[{"action":"push","target":{"mediaType":)"
                               R"("application/vnd.oci.image.manifest.v1+json","repository":"hardened/x","tag":"1",)"
                               R"("digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}}]})";
  it::ExpectError(it::Send("POST", "/_registry/events", {{"Content-Type", "application/json"}}, envelope), 401,
                  "UNAUTHENTICATED");
  it::ExpectError(it::Send("POST", "/_registry/events", it::Bearer("guess"), envelope), 401, "UNAUTHENTICATED");
  // With the secret, what is no envelope is refused and publishes nothing; a push of no catalogue
  // image is taken and ignored.
  const char* secret_file = std::getenv("ICAT_REGISTRY_EVENTS_SECRET_FILE");
  BOOST_TEST_REQUIRE(secret_file != nullptr);
  it::Headers registry = it::Bearer(it::ReadFileBytes(secret_file));
  it::ExpectError(it::Send("POST", "/_registry/events", registry, std::string("{\"events\": [")), 400, "MALFORMED_JSON");
  it::ExpectError(it::Send("POST", "/_registry/events", registry, std::string(R"({"events": {}})")), 400,
                  "VALIDATION_ERROR");
  BOOST_TEST(it::Send("POST", "/_registry/events", registry, envelope).status == 204);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM image_versions WHERE digest = $1", {"sha256:" + std::string(64, '0')}).empty());
}

BOOST_AUTO_TEST_CASE(crafted_paths_and_headers_get_a_clean_refusal) {
  Pushed p;
  for (const std::string& path : std::vector<std::string>{
           "/v2/" + p.image.name + "/../" + p.image.name + "/tags/list", "/v2/hardened/%2e%2e/x/tags/list",
        "/v2/HARDENED/X/tags/list", "/v2/h%C3%A4rdened/x/tags/list", "/v2/" + std::string(3000, 'a') + "/tags/list",
        "/v2/" + p.image.name + "/manifests/..", "/v2/" + p.image.name + "/blobs/sha256:zz", "/v2/x"}) {
    it::Response r = it::Send("GET", path, p.Auth(), std::nullopt);
    BOOST_TEST((r.status == 404 || r.status == 400 || r.status == 414), path << ": " << r.Summary());
  }
  // 100 KB of header or path: refused by nginx before any handler, never a 5xx.
  it::Response big = it::Get("/v2/" + p.image.name + "/tags/list", {{"Authorization", "Basic " + std::string(100000, 'A')}});
  BOOST_TEST((big.status >= 400 && big.status < 500), big.Summary());
  it::Response long_path = it::Get("/v2/" + std::string(100000, 'a') + "/tags/list", p.Auth());
  BOOST_TEST((long_path.status >= 400 && long_path.status < 500), long_path.Summary());
}

BOOST_AUTO_TEST_SUITE_END()
