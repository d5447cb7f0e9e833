// Attestations in the registry (docs/registry.md, "Attestations in the registry"): after a push and an
// ingest, icatctl registry attach puts the version's attestations at cosign's tag
// sha256-<hex>.att; a licensed tenant reads them through nginx with its pull key, each layer a DSSE
// envelope that verifies with the published P-256 key, about the version's digest, whose predicate is
// the document the API serves; a second attach changes nothing; an unlicensed tenant gets the 404 of
// a repository that does not exist; and the registry's notifications of these pushes (and of
// artifacts) publish no version.
#include <boost/test/unit_test.hpp>
#include <cstdlib>

#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/registry_client.hpp"
#include "registry_support.hpp"
#include "scans_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

constexpr const char* kOciManifest = "application/vnd.oci.image.manifest.v1+json";

// A licensed image pushed as 1.0 by the publisher (published by the registry's notification).
struct Published {
  it::Tenant tenant;
  it::RegistryImage image = it::CreateRegistryImage("att");
  it::OciImage oci = it::BuildOciImage("1.0", "attested " + image.name);
  std::string pull_key, version_id;

  Published() {
    tenant.License(image.image);
    pull_key = tenant.CreateKey("pull");
    it::ProcessResult pushed = it::SkopeoPush(oci, image.name, it::PublisherCreds());
    BOOST_TEST_REQUIRE(pushed.exit_code == 0, pushed.err);
    BOOST_TEST_REQUIRE(it::WaitFor([&] { return VersionCount() == 1; }, 10s, 100ms),
                       "the push published no version within 10 s");
    version_id = *it::PgQuery("SELECT id FROM image_versions WHERE image_id = $1", {image.image.id})[0][0];
  }

  long long VersionCount() const {
    return static_cast<long long>(
        it::PgQuery("SELECT 1 FROM image_versions WHERE image_id = $1", {image.image.id}).size());
  }
  std::string Tag() const { return "sha256-" + oci.digest.substr(7) + ".att"; }
  it::Headers Pull(const std::string& accept = "") const {
    it::Headers headers = it::Basic(tenant.subdomain(), pull_key);
    if (!accept.empty()) headers.emplace_back("Accept", accept);
    return headers;
  }
};

// Published, then scanned: ingest attests its SPDX and CycloneDX SBOMs.
struct Attested : Published {
  std::string read_key = tenant.CreateKey(it::kAllReads);
  it::TempDir dir;

  Attested() {
    std::string report = it::Fixture(it::kAlpine310);  // names no registry digest: any digest goes
    std::string time = it::Rfc3339(std::chrono::system_clock::now());
    it::IngestOk({image.image.name, "1.0", oci.digest, report,
                  dir.Write("sbom.spdx.json", it::MinimalSpdx(report, time)),
                  dir.Write("sbom.cdx.json", it::MinimalCycloneDx(report, time))});
    BOOST_TEST_REQUIRE(
        it::PgQuery("SELECT 1 FROM served_attestations WHERE version_id = $1", {version_id}).size() == 2u,
        "ingest attested no SBOMs (is ICAT_ATTESTATION_KEY_FILE set?)");
  }
};

it::ProcessResult Attach(const std::string& image_name) {
  return it::Icatctl({"registry", "attach", "--image", image_name});
}

// The published key of that id (GET /v1/signing-keys, public).
// Whether one of the published P-256 keys verifies the signature (a layer names no key: cosign is
// given the key, --key vendor.pub).
bool VerifiesWithAPublishedKey(const std::string& signed_bytes, const std::string& signature) {
  rapidjson::Document keys = it::ExpectJson200(it::Get("/v1/signing-keys"));
  for (const rapidjson::Value& key : keys["keys"].GetArray()) {
    if (it::StringMember(key, "algorithm") != "ECDSA-P256") continue;
    if (icat::EcdsaP256Verify(it::StringMember(key, "publicKeyPem"), signed_bytes, signature)) return true;
  }
  return false;
}

// The document as the API serves it: the version's SBOM of the predicate type's format.
std::string ServedDocument(const Attested& a, const std::string& predicate_type) {
  std::string format = predicate_type == "https://spdx.dev/Document" ? "spdx" : "cyclonedx";
  it::Response served =
      it::Get("/v1/images/" + a.image.image.id + "/versions/" + a.version_id + "/sbom?format=" + format,
              it::Bearer(a.read_key));
  BOOST_TEST_REQUIRE(served.status == 200, served.Summary());
  return served.body;
}

// Pushes a tag and waits until the catalogue has it: the registry delivers its notifications in
// order, so every notification sent before this one has been handled by then.
void PushAndWaitForVersion(const Published& a, const std::string& tag) {
  it::OciImage later = it::BuildOciImage(tag, "later " + it::RandomSuffix());
  BOOST_TEST_REQUIRE(it::SkopeoPush(later, a.image.name, it::PublisherCreds()).exit_code == 0);
  BOOST_TEST_REQUIRE(it::WaitFor(
      [&] {
        return !it::PgQuery("SELECT 1 FROM image_versions WHERE image_id = $1 AND tag = $2", {a.image.image.id, tag})
                    .empty();
      },
      10s, 100ms));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry_attestations)

BOOST_AUTO_TEST_CASE(attach_puts_verifiable_attestations_where_cosign_looks_and_a_second_changes_nothing) {
  Attested a;
  it::ProcessResult attached = Attach(a.image.image.name);
  BOOST_TEST_REQUIRE(attached.exit_code == 0, attached.err);
  BOOST_TEST(attached.out.rfind("attached " + a.image.image.repository + "@" + a.oci.digest + ": 2 attestations at " +
                                    a.Tag() + " (sha256:",
                                0) == 0u,
             attached.out);
  BOOST_TEST(attached.out.find("\nregistry attach: 1 versions: attached 1, unchanged 0, not pushed 0, errors 0\n") !=
                 std::string::npos,
             attached.out);

  // The licensed tenant reads the manifest through nginx with its pull key, as cosign would.
  it::Response manifest_reply = it::Get("/v2/" + a.image.name + "/manifests/" + a.Tag(), a.Pull(kOciManifest));
  BOOST_TEST_REQUIRE(manifest_reply.status == 200, manifest_reply.Summary());
  std::string manifest_digest = manifest_reply.Header("docker-content-digest");
  BOOST_TEST(attached.out.find("(" + manifest_digest + ")") != std::string::npos, attached.out);
  rapidjson::Document manifest;
  manifest.Parse(manifest_reply.body.c_str());
  BOOST_TEST_REQUIRE(manifest.IsObject());
  BOOST_TEST(it::StringMember(manifest, "mediaType") == kOciManifest);
  BOOST_TEST(it::StringMember(manifest["config"], "mediaType") == "application/vnd.oci.image.config.v1+json");
  const rapidjson::Value& layers = manifest["layers"];
  BOOST_TEST_REQUIRE(layers.Size() == 2u);
  std::vector<std::string> predicate_types;
  for (const rapidjson::Value& layer : layers.GetArray()) {
    std::string predicate_type = it::StringMember(layer["annotations"], "predicateType");
    BOOST_TEST_CONTEXT(predicate_type) {
      predicate_types.push_back(predicate_type);
      BOOST_TEST(it::StringMember(layer, "mediaType") == "application/vnd.dsse.envelope.v1+json");
      BOOST_TEST(it::StringMember(layer["annotations"], "dev.cosignproject.cosign/signature") == "");
      std::string digest = it::StringMember(layer, "digest");
      it::Response blob = it::Get("/v2/" + a.image.name + "/blobs/" + digest, a.Pull());
      BOOST_TEST_REQUIRE(blob.status == 200, blob.Summary());
      BOOST_TEST(digest == "sha256:" + icat::Sha256Hex(blob.body));

      // The layer is a DSSE envelope whose signature verifies with the published P-256 key...
      rapidjson::Document envelope;
      envelope.Parse(blob.body.c_str());
      BOOST_TEST_REQUIRE(envelope.IsObject(), blob.body.substr(0, 200));
      BOOST_TEST(it::StringMember(envelope, "payloadType") == "application/vnd.in-toto+json");
      std::string statement = icat::Base64Decode(it::StringMember(envelope, "payload")).value_or("");
      const rapidjson::Value& signature = envelope["signatures"][0];
      BOOST_TEST(it::StringMember(signature, "keyid") == "");
      std::string sig = icat::Base64Decode(it::StringMember(signature, "sig")).value_or("");
      BOOST_TEST(VerifiesWithAPublishedKey(icat::DssePae("application/vnd.in-toto+json", statement), sig));
      // ...about the version's digest, whose predicate is the document the API serves.
      BOOST_CHECK_NO_THROW(
          icat::CheckStatement(statement, a.oci.digest, predicate_type, ServedDocument(a, predicate_type)));
      std::string tampered = statement;
      tampered[tampered.size() / 2] ^= 1;
      BOOST_TEST(!VerifiesWithAPublishedKey(icat::DssePae("application/vnd.in-toto+json", tampered), sig));
    }
  }
  BOOST_TEST((predicate_types == std::vector<std::string>{"https://spdx.dev/Document", "https://cyclonedx.org/bom"}));

  // skopeo, a standard client, reads the same manifest with the pull key.
  it::ProcessResult raw = it::Skopeo(
      {"inspect", "--raw", "--retry-times", "0", "--cert-dir", it::GetEnv().stack_dir + "/tls", "--creds",
       a.tenant.subdomain() + ":" + a.pull_key, "docker://" + it::RegistryHost() + "/" + a.image.name + ":" + a.Tag()});
  BOOST_TEST_REQUIRE(raw.exit_code == 0, raw.err);
  BOOST_TEST(raw.out == manifest_reply.body);
  // Reading attestations is no pull of a version.
  BOOST_TEST(it::PgQuery("SELECT 1 FROM version_pulls WHERE tenant_id = $1", {a.tenant.id()}).empty());

  // A second pass finds the same manifest at the tag: nothing pushed.
  it::ProcessResult again = Attach(a.image.image.name);
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  BOOST_TEST(again.out == "registry attach: 1 versions: attached 0, unchanged 1, not pushed 0, errors 0\n");
  BOOST_TEST(
      it::Get("/v2/" + a.image.name + "/manifests/" + a.Tag(), a.Pull(kOciManifest)).Header("docker-content-digest") ==
      manifest_digest);

  // The .att push's notification published nothing: after a later push is published, still the
  // pushed versions only, and reconcile (which walks the tags) publishes nothing either.
  PushAndWaitForVersion(a, "2.0");
  BOOST_TEST(a.VersionCount() == 2);
  it::ProcessResult reconciled = it::Icatctl({"registry", "reconcile"});
  BOOST_TEST(reconciled.exit_code == 0, reconciled.err);
  BOOST_TEST(
      it::PgQuery("SELECT tag FROM image_versions WHERE image_id = $1 AND tag LIKE 'sha256-%'", {a.image.image.id})
          .empty());
  BOOST_TEST(a.VersionCount() == 2);
}

BOOST_AUTO_TEST_CASE(a_tenant_without_the_licence_gets_the_404_of_a_repository_that_does_not_exist) {
  Attested a;
  it::ProcessResult attached = Attach(a.image.image.name);
  BOOST_TEST_REQUIRE(attached.exit_code == 0, attached.err);
  it::Response licensed = it::Get("/v2/" + a.image.name + "/manifests/" + a.Tag(), a.Pull(kOciManifest));
  BOOST_TEST_REQUIRE(licensed.status == 200, licensed.Summary());
  rapidjson::Document manifest;
  manifest.Parse(licensed.body.c_str());
  std::string layer = it::StringMember(manifest["layers"][0], "digest");

  it::Tenant stranger;
  it::Headers auth = it::Basic(stranger.subdomain(), stranger.CreateKey("pull"));
  it::Response missing = it::Get("/v2/hardened/it-nothing-" + it::RandomSuffix(6) + "/manifests/" + a.Tag(), auth);
  BOOST_TEST(missing.status == 404, missing.Summary());
  for (const std::string& path :
       {"/v2/" + a.image.name + "/manifests/" + a.Tag(), "/v2/" + a.image.name + "/blobs/" + layer}) {
    it::Response refused = it::Get(path, auth);
    BOOST_TEST(refused.status == 404, path << ": " << refused.Summary());
    BOOST_TEST(refused.body == missing.body, path);
    BOOST_TEST(refused.body.find("NAME_UNKNOWN") != std::string::npos, refused.body);
  }
  it::ProcessResult skopeo =
      it::Skopeo({"inspect", "--raw", "--retry-times", "0", "--cert-dir", it::GetEnv().stack_dir + "/tls", "--creds",
                  stranger.subdomain() + ":" + stranger.CreateKey("pull"),
                  "docker://" + it::RegistryHost() + "/" + a.image.name + ":" + a.Tag()});
  BOOST_TEST(skopeo.exit_code != 0);
}

// The notification of a cosign attachment tag, as the registry sends it, publishes nothing, whether
// or not the registry holds the manifest.
BOOST_AUTO_TEST_CASE(a_notification_of_an_attachment_tag_publishes_no_version) {
  it::RegistryImage image = it::CreateRegistryImage("attnote");
  const char* secret_file = std::getenv("ICAT_REGISTRY_EVENTS_SECRET_FILE");
  BOOST_TEST_REQUIRE(secret_file != nullptr);
  std::string hex = it::RandomDigest().substr(7);
  for (const char* suffix : {".att", ".sig", ".sbom"}) {
    std::string envelope =
        R"({"events":[{"action":"push","target":{"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
        R"("repository":")" +
        image.name + R"(","tag":"sha256-)" + hex + suffix + R"(","digest":")" + it::RandomDigest() + R"("}}]})";
    it::Response r = it::Send("POST", "/_registry/events", it::Bearer(it::ReadFileBytes(secret_file)),
                              std::optional<std::string>(envelope));
    BOOST_TEST(r.status == 204, r.Summary());
  }
  BOOST_TEST(it::PgQuery("SELECT tag FROM image_versions WHERE image_id = $1", {image.image.id}).empty());
}

// An artifact (a manifest whose config is no image's) pushed to a catalogue image's repository is
// stored, and publishes no version, by notification or by reconcile.
BOOST_AUTO_TEST_CASE(an_artifact_pushed_to_an_images_repository_publishes_no_version) {
  Published a;
  const char* upstream = std::getenv("ICAT_REGISTRY_UPSTREAM");
  BOOST_TEST_REQUIRE(upstream != nullptr);
  icat::RegistryClient registry(upstream);
  std::string config = R"({"kind":"it-artifact"})", content = "artifact " + it::RandomSuffix();
  std::string artifact =
      R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":)"
      R"("application/vnd.example.it.config.v1+json","size":)" +
      std::to_string(config.size()) + R"(,"digest":")" + registry.PushBlob(a.image.name, config) +
      R"("},"layers":[{"mediaType":"application/octet-stream","size":)" + std::to_string(content.size()) +
      R"(,"digest":")" + registry.PushBlob(a.image.name, content) + R"("}]})";
  std::string digest = registry.PushManifest(a.image.name, "artifact-1", kOciManifest, artifact);
  BOOST_TEST(registry.ManifestDigest(a.image.name, "artifact-1").value_or("") == digest);

  PushAndWaitForVersion(a, "3.0");
  BOOST_TEST(it::Icatctl({"registry", "reconcile"}).exit_code == 0);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM image_versions WHERE image_id = $1 AND tag = 'artifact-1'", {a.image.image.id})
                 .empty());
  BOOST_TEST(a.VersionCount() == 2);  // 1.0 and 3.0
}

BOOST_AUTO_TEST_SUITE_END()
