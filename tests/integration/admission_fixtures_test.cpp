// POST /v1/admission with the real AdmissionReview requests of ../shared/fixtures/admission
// (captured by connaisseur on EKS, and the Kubernetes API round-trip fixture), as they are.
#include <boost/test/unit_test.hpp>

#include "admission_support.hpp"
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
