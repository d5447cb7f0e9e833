// POST /v1/admission with the real AdmissionReview requests of ../shared/fixtures/admission
// (captured by connaisseur on EKS, and the Kubernetes API round-trip fixture), as they are.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/test/unit_test.hpp>

#include "admission_support.hpp"
#include "icat/config.hpp"
#include "icat/registry.hpp"
#include "icat/text.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

const std::string kCharlieDigest = "sha256:91ac9b26df583762234c1cdb2fc930364754ccc59bc752a2bfe298d2ea68f9ff";

// The text of a fixture AdmissionReview (../shared/fixtures/admission/).
std::string Fixture(const std::string& name) { return it::ReadFileBytes(it::Fixture("admission/" + name)); }

struct Expected {
  std::string file;
  std::string uid;
  bool allowed;
  std::vector<std::string> named;  // images the denial must name
};

// With the default policy (licensed catalogue images only, kube-system exempt) and an empty catalogue.
const std::vector<Expected> kDefaultPolicy = {
    {"connaisseur_02_pod.json",
     "0c3331b6-1812-11ea-b3fc-02897404852e",
     false,
     {"securesystemsengineering/charlie-image@" + kCharlieDigest}},
    {"connaisseur_05_replication_controller.json",
     "faa399ba-a51b-4790-a404-dd1aaac7421e",
     false,
     {"nginx (container nginx)"}},
    {"connaisseur_06_daemonset.json", "083cbdfe-ae0e-48ef-b944-8c4585c4aa90", true, {}},  // kube-system
    {"connaisseur_07_statefulset.json",
     "9412459c-09dc-4c90-b022-639eea4d2b2c",
     false,
     {"registry.k8s.io/nginx-slim:0.8"}},
    {"connaisseur_08_job.json", "4b84524b-2dc4-4e69-935d-833c86ff0c10", false, {"perl:5.34.0"}},
    {"connaisseur_10_update.json", "6418f614-b7f1-4c57-94bf-14fc30b2d791", true, {}},  // image unchanged
    {"connaisseur_19_pod_initcontainer.json",
     "0c3331b6-1812-11ea-b3fc-02897404852e",
     false,
     {"securesystemsengineering/charlie-image@" + kCharlieDigest, "nginx (initContainer"}},
    {"connaisseur_20_pod_ephemeralcontainer.json",
     "0c3331b6-1812-11ea-b3fc-02897404852e",
     false,
     {"securesystemsengineering/charlie-image@" + kCharlieDigest, "nginx (ephemeralContainer"}},
    // Kind kindValue, operation operationValue: nothing it judges.
    {"kubernetes_api-testdata_admission.k8s.io.v1.AdmissionReview.json", "uidValue", true, {}},
};

// The review with every container image `from` of its objects replaced by `to`: a variant of a
// real review that names images of the test's catalogue.
void ReplaceImage(rapidjson::Value& value, const std::string& from, const std::string& to,
                  rapidjson::Document::AllocatorType& allocator) {
  if (value.IsArray()) {
    for (rapidjson::Value& item : value.GetArray()) ReplaceImage(item, from, to, allocator);
  } else if (value.IsObject()) {
    for (auto& member : value.GetObject()) {
      if (member.name == "image" && member.value.IsString() && member.value.GetString() == from) {
        member.value.SetString(to.c_str(), static_cast<rapidjson::SizeType>(to.size()), allocator);
      } else {
        ReplaceImage(member.value, from, to, allocator);
      }
    }
  }
}

std::string WithImage(const std::string& review, const std::string& from, const std::string& to) {
  rapidjson::Document d;
  d.Parse(review.c_str());
  ReplaceImage(d["request"], from, to, d.GetAllocator());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  d.Accept(writer);
  std::string text = buffer.GetString();
  BOOST_TEST_REQUIRE(text.find(to) != std::string::npos, "the review names " << from);
  return text;
}

// The host (and port) of the stack's registry, as the handlers read ICAT_REGISTRY.
std::string RegistryHost() { return icat::Lower(icat::RegistryHost(icat::TextSetting("ICAT_REGISTRY"))); }

// The decisions of a tenant, oldest first: request uid, allowed, dry run.
std::vector<it::PgRow> Decisions(const it::Tenant& tenant) {
  return it::PgQuery(
      "SELECT request_uid, allowed, dry_run, operation, kind FROM admission_decisions "
      "WHERE tenant_id = $1 ORDER BY created_at, id",
      {tenant.id()});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_fixtures)

BOOST_AUTO_TEST_CASE(real_reviews_are_answered_under_the_default_policy) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  for (const Expected& e : kDefaultPolicy) {
    BOOST_TEST_CONTEXT(e.file) {
      it::AdmissionAnswer a = it::ExpectAnswer(it::PostReview(key, Fixture(e.file)), e.uid);
      BOOST_TEST(a.allowed == e.allowed);
      for (const std::string& image : e.named) BOOST_TEST(a.message.find(image) != std::string::npos, a.message);
      if (!e.allowed) BOOST_TEST(a.message.find("requireCatalogImages") != std::string::npos, a.message);
    }
  }
  std::vector<it::PgRow> rows = Decisions(tenant);
  BOOST_TEST_REQUIRE(rows.size() == kDefaultPolicy.size());
  for (size_t i = 0; i < rows.size(); i++) {
    BOOST_TEST(*rows[i][0] == kDefaultPolicy[i].uid);
    BOOST_TEST((*rows[i][1] == "t") == kDefaultPolicy[i].allowed);
  }
  // The Kubernetes fixture is a dry run, and says so in its record.
  BOOST_TEST(*rows.back()[2] == "t");
  BOOST_TEST(*rows.back()[3] == "operationValue");
  BOOST_TEST(*rows.back()[4] == "kindValue");
  BOOST_TEST(*rows[0][2] == "f");
}

BOOST_AUTO_TEST_CASE(reviews_of_catalogue_images_are_allowed) {
  // The fixtures' Docker Hub images, made catalogue images of this tenant: nginx by repository and
  // the implicit tag latest, charlie-image by its digest.
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  std::string suffix = it::RandomSuffix(8);
  it::IcatctlOk({"image", "create", "--name", "it-fx-nginx-" + suffix, "--repository", "docker.io/library/nginx"});
  it::IcatctlOk(
      {"version", "add", "--image", "it-fx-nginx-" + suffix, "--tag", "latest", "--digest", it::RandomDigest()});
  it::IcatctlOk({"image", "create", "--name", "it-fx-charlie-" + suffix, "--repository",
                 "docker.io/securesystemsengineering/charlie-image"});
  it::IcatctlOk({"version", "add", "--image", "it-fx-charlie-" + suffix, "--tag", "test", "--digest", kCharlieDigest});
  it::IcatctlOk({"license", "grant", "--tenant", tenant.subdomain(), "--image", "it-fx-nginx-" + suffix});
  it::IcatctlOk({"license", "grant", "--tenant", tenant.subdomain(), "--image", "it-fx-charlie-" + suffix});
  // Never scanned, they are denied (requireScan) until a scan says what they carry.
  const std::string pod = Fixture("connaisseur_02_pod.json");
  it::AdmissionAnswer unscanned = it::ExpectAnswer(it::PostReview(key, pod), "0c3331b6-1812-11ea-b3fc-02897404852e");
  BOOST_TEST(!unscanned.allowed);
  BOOST_TEST(unscanned.message.find("requireScan: it-fx-charlie-" + suffix + ":test has never been scanned") !=
                 std::string::npos,
             unscanned.message);
  for (const it::PgRow& version : it::PgQuery("SELECT v.id FROM image_versions v JOIN images i ON i.id = v.image_id "
                                              "WHERE i.name IN ($1, $2)",
                                              {"it-fx-nginx-" + suffix, "it-fx-charlie-" + suffix})) {
    it::InsertLatestScan(*version[0], {});
  }
  for (const char* file : {"connaisseur_02_pod.json", "connaisseur_05_replication_controller.json",
                           "connaisseur_19_pod_initcontainer.json", "connaisseur_20_pod_ephemeralcontainer.json"}) {
    BOOST_TEST_CONTEXT(file) {
      std::string body = Fixture(file);
      rapidjson::Document d;
      d.Parse(body.c_str());
      it::AdmissionAnswer a = it::ExpectAnswer(it::PostReview(key, body), d["request"]["uid"].GetString());
      BOOST_TEST(a.allowed, a.message);
    }
  }
  // perl is still outside the catalogue.
  BOOST_TEST(
      !it::ExpectAnswer(it::PostReview(key, Fixture("connaisseur_08_job.json")), "4b84524b-2dc4-4e69-935d-833c86ff0c10")
           .allowed);
}

// "Only licensed, pinned images from our registry": the real Pod (charlie-image by digest, from
// Docker Hub) and ReplicationController (nginx, a tag) reviews, as they are and with their images
// moved to the stack's registry.
BOOST_AUTO_TEST_CASE(real_reviews_under_require_catalog_registry_and_require_digest) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  const std::string host = RegistryHost();
  const std::string charlie = "securesystemsengineering/charlie-image@" + kCharlieDigest;
  std::string suffix = it::RandomSuffix(8);
  const std::string charlie_here = host + "/it/charlie-" + suffix;
  const std::string nginx_here = host + "/it/nginx-" + suffix;
  const std::string nginx_digest = it::RandomDigest();
  it::IcatctlOk({"image", "create", "--name", "it-fx-rc-charlie-" + suffix, "--repository", charlie_here});
  it::IcatctlOk(
      {"version", "add", "--image", "it-fx-rc-charlie-" + suffix, "--tag", "test", "--digest", kCharlieDigest});
  it::IcatctlOk({"image", "create", "--name", "it-fx-rc-nginx-" + suffix, "--repository", nginx_here});
  it::IcatctlOk({"version", "add", "--image", "it-fx-rc-nginx-" + suffix, "--tag", "latest", "--digest", nginx_digest});
  for (const std::string& name : {"it-fx-rc-charlie-" + suffix, "it-fx-rc-nginx-" + suffix}) {
    it::IcatctlOk({"license", "grant", "--tenant", tenant.subdomain(), "--image", name});
  }
  for (const it::PgRow& version : it::PgQuery("SELECT v.id FROM image_versions v JOIN images i ON i.id = v.image_id "
                                              "WHERE i.name IN ($1, $2)",
                                              {"it-fx-rc-charlie-" + suffix, "it-fx-rc-nginx-" + suffix})) {
    it::InsertLatestScan(*version[0], {});
  }
  const std::string pod = Fixture("connaisseur_02_pod.json"), pod_uid = "0c3331b6-1812-11ea-b3fc-02897404852e";
  const std::string rc = Fixture("connaisseur_05_replication_controller.json"),
                    rc_uid = "faa399ba-a51b-4790-a404-dd1aaac7421e";
  auto put_policy = [&](const std::string& json) {
    it::PgQuery(
        "INSERT INTO admission_policies (tenant_id, policy) VALUES ($1, $2::jsonb) ON CONFLICT (tenant_id) "
        "DO UPDATE SET policy = EXCLUDED.policy",
        {tenant.id(), json});
  };

  put_policy(R"({"requireCatalogRegistry": true})");
  // The digest is a licensed version, but the Pod pulls it from Docker Hub.
  it::AdmissionAnswer hub = it::ExpectAnswer(it::PostReview(key, pod), pod_uid);
  BOOST_TEST(!hub.allowed);
  BOOST_TEST(hub.message.find(charlie +
                              " (container test-connaisseur): requireCatalogRegistry: "
                              "docker.io/securesystemsengineering/charlie-image is not on the catalogue's registry " +
                              host) != std::string::npos,
             hub.message);
  std::string pod_here = WithImage(pod, charlie, charlie_here + "@" + kCharlieDigest);
  BOOST_TEST(it::ExpectAnswer(it::PostReview(key, pod_here), pod_uid).allowed);

  put_policy(R"({"requireCatalogRegistry": true, "requireDigest": true})");
  std::string rc_tag = WithImage(rc, "nginx", nginx_here);  // the implicit tag latest
  it::AdmissionAnswer tag = it::ExpectAnswer(it::PostReview(key, rc_tag), rc_uid);
  BOOST_TEST(!tag.allowed);
  const std::string write = nginx_here + "@" + nginx_digest;
  BOOST_TEST(tag.message.find("requireDigest: not pinned to a digest: write " + write) != std::string::npos,
             tag.message);
  BOOST_TEST(tag.message.find("requireCatalogRegistry") == std::string::npos, tag.message);
  BOOST_TEST(it::ExpectAnswer(it::PostReview(key, WithImage(rc, "nginx", write)), rc_uid).allowed);
  // The fixture as it is breaks both rules (and is no catalogue image).
  it::AdmissionAnswer both = it::ExpectAnswer(it::PostReview(key, rc), rc_uid);
  BOOST_TEST(!both.allowed);
  for (const char* rule : {"requireCatalogRegistry", "requireDigest", "requireCatalogImages"}) {
    BOOST_TEST(both.message.find(rule) != std::string::npos, rule << ": " << both.message);
  }
  BOOST_TEST(it::ExpectAnswer(it::PostReview(key, pod_here), pod_uid).allowed);
}

BOOST_AUTO_TEST_CASE(v1beta1_reviews_are_400_naming_api_version) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  for (const char* file : {"connaisseur_01_deployment.json", "connaisseur_09_dply_multi_image.json"}) {
    BOOST_TEST_CONTEXT(file) {
      it::Response r = it::PostReview(key, Fixture(file));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"apiVersion"}));
    }
  }
  BOOST_TEST(Decisions(tenant).empty());
}

BOOST_AUTO_TEST_CASE(broken_review_is_400_naming_what_is_missing) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  it::Response r = it::PostReview(key, Fixture("connaisseur_21_broken_admission_request.json"));
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"request.uid", "request.kind", "request.object"}));
  BOOST_TEST(Decisions(tenant).empty());
}

BOOST_AUTO_TEST_CASE(multi_image_deployment_denial_names_every_image) {
  // connaisseur_09 as a v1 review: three images (one an init container), none in the catalogue.
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  std::string body = Fixture("connaisseur_09_dply_multi_image.json");
  size_t at = body.find("admission.k8s.io/v1beta1");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  body.replace(at, 24, "admission.k8s.io/v1");
  it::AdmissionAnswer a = it::ExpectAnswer(it::PostReview(key, body), "4784c1dc-553f-4d53-a8d3-23c4bda880b6");
  BOOST_TEST(!a.allowed);
  for (const char* image : {"busybox:1.32", "redis:alpine", "mysql:8"}) {
    BOOST_TEST(a.message.find(image) != std::string::npos, image << " not named: " << a.message);
  }
  BOOST_TEST(a.message.find("denied 3 images") != std::string::npos, a.message);
}

BOOST_AUTO_TEST_SUITE_END()
