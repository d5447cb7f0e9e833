// The admission group's pure parts: the Docker reference grammar, glob and registry matching,
// reading AdmissionReviews, every rule, the verdict per mode and the shapes of answers and records.
#include "icat/json.hpp"
#include "../../handlers/admission/admission.hpp"

#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>

#include "icat/errors.hpp"

namespace adm = icat::admission;
using adm::JudgedImage;
using adm::Outcome;

namespace {

constexpr long long kNow = 1800000000;  // 2027-01-15T08:00:00Z
constexpr long long kDay = 86400;
const std::string kDigest = "sha256:" + std::string(64, 'a');
const std::string kImageId = "6b0e5d1c-1111-4aaa-8bbb-000000000001";

std::string Normalised(std::string_view text) {
  std::optional<adm::ImageReference> ref = adm::ParseImageReference(text);
  return ref ? ref->Normalised() : "<invalid>";
}

// The details fields of the VALIDATION_ERROR that reading `json` throws; empty when it does not throw.
std::vector<std::string> ReviewIssues(const std::string& json) {
  rapidjson::Document d = icat::ParseJson(json);
  try {
    adm::ReadAdmissionReview(d);
  } catch (const icat::ApiError& e) {
    BOOST_TEST((e.error() == icat::Error::kVALIDATION_ERROR));
    std::vector<std::string> fields;
    for (const icat::FieldIssue& issue : e.details()) fields.push_back(issue.field);
    return fields;
  }
  return {};
}

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// An AdmissionReview v1 for kind (group/kind) with a pod spec at the kind's place.
std::string Review(const std::string& group, const std::string& kind, const std::string& pod_spec,
                   const std::string& operation = "CREATE", const std::string& old_pod_spec = "") {
  auto wrap = [&](const std::string& spec) {
    if (kind == "Pod") return "{\"metadata\":{\"name\":\"p\"},\"spec\":" + spec + "}";
    if (kind == "CronJob") return "{\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":" + spec + "}}}}}";
    return "{\"metadata\":{\"generateName\":\"w-\"},\"spec\":{\"template\":{\"spec\":" + spec + "}}}";
  };
  std::string review = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",)"
                       R"("kind":{"group":")" +
                       group + R"(","version":"v1","kind":")" + kind +
                       R"("},)"
                       R"("namespace":"apps","operation":")" +
                       operation + R"(","object":)" + wrap(pod_spec);
  if (!old_pod_spec.empty()) review += ",\"oldObject\":" + wrap(old_pod_spec);
  return review + "}}";
}

const std::string kThreeLists =
    R"({"containers":[{"name":"web","image":"nginx:1.27"},{"name":"side","image":"nginx:1.27"}],)"
    R"("initContainers":[{"name":"init","image":"busybox"}],)"
    R"("ephemeralContainers":[{"name":"debug","image":"registry.example.test/tools/debug@)" +
    std::string("sha256:") + std::string(64, 'b') + R"("}]})";

JudgedImage Pending(const std::string& reference, std::optional<adm::Resolution> resolution = std::nullopt) {
  JudgedImage image;
  image.use = {reference, {"container c"}};
  image.reference = adm::ParseImageReference(reference);
  image.resolution = std::move(resolution);
  return image;
}

// A scanned catalogue version with these findings.
adm::Resolution Resolved(std::vector<adm::Finding> findings = {}) {
  return {"7a1c0000-0000-4000-8000-000000000001", kImageId, "nginx", "1.27", std::move(findings), true};
}

adm::Finding MakeFinding(const std::string& id, const std::string& severity, const std::string& fix_state,
                         std::optional<long long> first_seen = std::nullopt, std::vector<std::string> aliases = {}) {
  std::vector<adm::Finding> findings;
  adm::AddFinding(findings, id, aliases, severity, fix_state, {first_seen});
  return findings.at(0);
}

// The service's registry (RegistryHost of ICAT_REGISTRY) as the rules see it.
const std::string kRegistryHost = "localhost:8443";

JudgedImage Judge(JudgedImage image, const icat::AdmissionPolicy& policy,
                  const std::vector<std::string>& watched = {}) {
  adm::JudgeImage(image, policy, {watched, kRegistryHost, kNow});
  return image;
}

std::vector<std::string> Rules(const JudgedImage& image) {
  std::vector<std::string> rules;
  for (const adm::Reason& r : image.reasons) rules.push_back(r.rule);
  return rules;
}

icat::AdmissionPolicy Permissive() {
  icat::AdmissionPolicy p;
  p.require_catalog_images = false;
  p.severity_threshold.reset();
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_reference)

BOOST_AUTO_TEST_CASE(docker_hub_names_gain_docker_io_library_and_latest) {
  BOOST_TEST(Normalised("nginx") == "docker.io/library/nginx:latest");
  BOOST_TEST(Normalised("nginx:1.27") == "docker.io/library/nginx:1.27");
  BOOST_TEST(Normalised("bitnami/redis") == "docker.io/bitnami/redis:latest");
  BOOST_TEST(Normalised("docker.io/nginx") == "docker.io/library/nginx:latest");
  BOOST_TEST(Normalised("index.docker.io/library/nginx:1") == "docker.io/library/nginx:1");
  BOOST_TEST(Normalised("securesystemsengineering/alice-image:test") ==
             "docker.io/securesystemsengineering/alice-image:test");
}

BOOST_AUTO_TEST_CASE(registry_host_port_path_tag_and_digest_are_split) {
  auto ref = adm::ParseImageReference("Registry.Example.test:5000/hardened/nginx:1.27@" + kDigest);
  BOOST_TEST_REQUIRE(ref.has_value());
  BOOST_TEST(ref->domain == "registry.example.test:5000");
  BOOST_TEST(ref->path == "hardened/nginx");
  BOOST_TEST(ref->tag.value_or("") == "1.27");
  BOOST_TEST(ref->digest.value_or("") == kDigest);
  BOOST_TEST(ref->Repository() == "registry.example.test:5000/hardened/nginx");
  BOOST_TEST(ref->Normalised() == "registry.example.test:5000/hardened/nginx:1.27@" + kDigest);
}

BOOST_AUTO_TEST_CASE(first_component_is_a_host_only_with_dot_colon_localhost_or_capitals) {
  BOOST_TEST(Normalised("localhost/app") == "localhost/app:latest");
  BOOST_TEST(Normalised("localhost:5000/app:v1") == "localhost:5000/app:v1");
  BOOST_TEST(Normalised("quay.io/fluentd_elasticsearch/fluentd:v2.5.2") ==
             "quay.io/fluentd_elasticsearch/fluentd:v2.5.2");
  BOOST_TEST(Normalised("myregistry/app") == "docker.io/myregistry/app:latest");
  // A host known only by its capitals keeps them: lower-cased it would read as Docker Hub's
  // myregistry/app. Any other host is lower-cased.
  BOOST_TEST(Normalised("Myregistry/app") == "Myregistry/app:latest");
  BOOST_TEST(Normalised("MYHOST/hardened/nginx:1") == "MYHOST/hardened/nginx:1");
  BOOST_TEST(Normalised("LOCALHOST/app") == "localhost/app:latest");
  BOOST_TEST(Normalised("MyHost.Example:5000/app") == "myhost.example:5000/app:latest");
  BOOST_TEST(Normalised("[::1]:5000/app") == "[::1]:5000/app:latest");
  // "localhost:5000" alone is Docker Hub's library/localhost with tag 5000, as Docker reads it.
  BOOST_TEST(Normalised("localhost:5000") == "docker.io/library/localhost:5000");
}

BOOST_AUTO_TEST_CASE(digest_without_tag_gets_no_latest) {
  BOOST_TEST(Normalised("nginx@" + kDigest) == "docker.io/library/nginx@" + kDigest);
  auto ref = adm::ParseImageReference("nginx@" + kDigest);
  BOOST_TEST_REQUIRE(ref.has_value());
  BOOST_TEST(!ref->tag.has_value());
  BOOST_TEST(ref->EffectiveTag() == "latest");
}

BOOST_AUTO_TEST_CASE(path_separators_follow_the_grammar) {
  BOOST_TEST(Normalised("a.b/c__d/e-f/g.h_i---j:t") == "a.b/c__d/e-f/g.h_i---j:t");
  for (const char* bad : {"a.b/c___d", "a.b/c..d", "a.b/-c", "a.b/c-", "a.b/c_", "a.b//c", "a.b/", "a.b/C"}) {
    BOOST_TEST(!adm::ParseImageReference(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_CASE(malformed_references_are_refused) {
  const std::vector<std::string> bad = {"",
                                        " nginx",
                                        "nginx ",
                                        "NGINX",
                                        "nginx:",
                                        "nginx:-x",
                                        "nginx:" + std::string(129, 'a'),
                                        "nginx@sha256:abc",
                                        "nginx@sha256:" + std::string(64, 'A'),
                                        "nginx@md5:" + std::string(32, 'a'),
                                        "nginx@" + kDigest + "x",
                                        ":tag",
                                        "/nginx",
                                        "registry.example.test:port/x",
                                        "-bad.host/x",
                                        "bad-.host/x",
                                        std::string(64, 'c'),
                                        "registry.example.test/" + std::string(250, 'a'),
                                        "a/b@",
                                        "ex ample.test/x"};
  for (const std::string& text : bad) BOOST_TEST(!adm::ParseImageReference(text).has_value(), "'" << text << "'");
}

BOOST_AUTO_TEST_CASE(sha384_and_sha512_digests_are_accepted) {
  BOOST_TEST(adm::ParseImageReference("x.io/a@sha384:" + std::string(96, 'c')).has_value());
  BOOST_TEST(adm::ParseImageReference("x.io/a@sha512:" + std::string(128, 'c')).has_value());
  BOOST_TEST(!adm::ParseImageReference("x.io/a@sha512:" + std::string(64, 'c')).has_value());
}

BOOST_AUTO_TEST_CASE(glob_star_spans_slashes_and_question_mark_one_character) {
  BOOST_TEST(adm::GlobMatch("*", "docker.io/library/nginx:latest"));
  BOOST_TEST(adm::GlobMatch("docker.io/library/*", "docker.io/library/nginx:1.27"));
  BOOST_TEST(adm::GlobMatch("*/tools/*", "registry.example.test/tools/debug@" + kDigest));
  BOOST_TEST(adm::GlobMatch("docker.io/library/nginx:1.2?", "docker.io/library/nginx:1.27"));
  BOOST_TEST(adm::GlobMatch("a*b*c", "aXbYc"));
  BOOST_TEST(adm::GlobMatch("a**", "a"));
  BOOST_TEST(!adm::GlobMatch("docker.io/library/nginx", "docker.io/library/nginx:latest"));
  BOOST_TEST(!adm::GlobMatch("docker.io/library/nginx:1.2?", "docker.io/library/nginx:1.2"));
  BOOST_TEST(!adm::GlobMatch("a*b*c", "aXbY"));
  BOOST_TEST(!adm::GlobMatch("", "x"));
  BOOST_TEST(adm::GlobMatch("", ""));
}

BOOST_AUTO_TEST_CASE(registry_prefixes_match_at_path_boundaries) {
  std::vector<std::string> allowed = {"registry.example.test/hardened", "Quay.IO/"};
  BOOST_TEST(adm::RegistryAllowed({}, "anything/at/all"));
  BOOST_TEST(adm::RegistryAllowed(allowed, "registry.example.test/hardened/nginx"));
  BOOST_TEST(adm::RegistryAllowed(allowed, "registry.example.test/hardened"));
  BOOST_TEST(adm::RegistryAllowed(allowed, "quay.io/fluentd_elasticsearch/fluentd"));
  BOOST_TEST(!adm::RegistryAllowed(allowed, "registry.example.test/hardened-evil/nginx"));
  BOOST_TEST(!adm::RegistryAllowed(allowed, "registry.example.test/other/nginx"));
  BOOST_TEST(!adm::RegistryAllowed(allowed, "quay.io.evil.test/x"));
  BOOST_TEST(!adm::RegistryAllowed({"registry.example.test"}, "registry.example.test:5000/x"));
  // Hosts compare without regard to case, also a host known only by its capitals (which the parser
  // keeps); in lower case that name is a Docker Hub path.
  BOOST_TEST(adm::RegistryAllowed({"myhost/hardened"}, adm::ParseImageReference("MYHOST/hardened/x")->Repository()));
  BOOST_TEST(adm::RegistryAllowed({"MYHOST"}, adm::ParseImageReference("MYHOST/hardened/x")->Repository()));
  BOOST_TEST(!adm::RegistryAllowed({"MYHOST/hardened"}, adm::ParseImageReference("myhost/hardened/x")->Repository()));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_review)

BOOST_AUTO_TEST_CASE(every_kind_yields_the_images_of_its_pod_spec) {
  const std::vector<std::pair<std::string, std::string>> kinds = {{"", "Pod"},
                                                                  {"", "ReplicationController"},
                                                                  {"apps", "Deployment"},
                                                                  {"apps", "ReplicaSet"},
                                                                  {"apps", "StatefulSet"},
                                                                  {"apps", "DaemonSet"},
                                                                  {"batch", "Job"},
                                                                  {"batch", "CronJob"}};
  for (const auto& [group, kind] : kinds) {
    BOOST_TEST_CONTEXT(kind) {
      rapidjson::Document d = icat::ParseJson(Review(group, kind, kThreeLists));
      adm::AdmissionRequest r = adm::ReadAdmissionReview(d);
      BOOST_TEST(r.judged);
      BOOST_TEST(r.kind == kind);
      BOOST_TEST_REQUIRE(r.images.size() == 3u);
      BOOST_TEST(r.images[0].reference == "nginx:1.27");
      BOOST_TEST((r.images[0].containers == std::vector<std::string>{"container web", "container side"}));
      BOOST_TEST(r.images[1].reference == "busybox");
      BOOST_TEST((r.images[1].containers == std::vector<std::string>{"initContainer init"}));
      BOOST_TEST((r.images[2].containers == std::vector<std::string>{"ephemeralContainer debug"}));
      BOOST_TEST(r.namespace_name == "apps");
      BOOST_TEST(r.name == (kind == "Pod" ? "p" : kind == "CronJob" ? "" : "w-"));
    }
  }
}

BOOST_AUTO_TEST_CASE(delete_connect_and_other_kinds_are_not_judged) {
  rapidjson::Document del = icat::ParseJson(Review("", "Pod", kThreeLists, "DELETE"));
  BOOST_TEST(!adm::ReadAdmissionReview(del).judged);
  rapidjson::Document connect = icat::ParseJson(Review("", "Pod", kThreeLists, "CONNECT"));
  BOOST_TEST(!adm::ReadAdmissionReview(connect).judged);
  rapidjson::Document config_map = icat::ParseJson(Review("", "ConfigMap", kThreeLists));
  adm::AdmissionRequest r = adm::ReadAdmissionReview(config_map);
  BOOST_TEST(!r.judged);
  BOOST_TEST(r.images.empty());
  // A Deployment of another API group is another kind.
  rapidjson::Document other = icat::ParseJson(Review("example.com", "Deployment", kThreeLists));
  BOOST_TEST(!adm::ReadAdmissionReview(other).judged);
}

BOOST_AUTO_TEST_CASE(delete_needs_no_object) {
  std::string review = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
                       R"("kind":{"group":"","version":"v1","kind":"Pod"},"operation":"DELETE","namespace":"a",)"
                       R"("name":"p","oldObject":{"spec":{"containers":[{"name":"c","image":"x"}]}}}})";
  rapidjson::Document d = icat::ParseJson(review);
  adm::AdmissionRequest r = adm::ReadAdmissionReview(d);
  BOOST_TEST(!r.judged);
  BOOST_TEST(r.name == "p");
  BOOST_TEST(!r.dry_run);
}

BOOST_AUTO_TEST_CASE(update_knows_the_images_of_the_old_object) {
  std::string old_spec = R"({"containers":[{"name":"web","image":"nginx:1.26"}]})";
  rapidjson::Document d = icat::ParseJson(Review("apps", "Deployment", kThreeLists, "UPDATE", old_spec));
  adm::AdmissionRequest r = adm::ReadAdmissionReview(d);
  BOOST_TEST(r.judged);
  BOOST_TEST((r.old_images == std::set<std::string>{"nginx:1.26"}));
}

BOOST_AUTO_TEST_CASE(containers_without_an_image_are_skipped) {
  rapidjson::Document d =
      icat::ParseJson(Review("apps", "Deployment", R"({"containers":[{"name":"a"},{"name":"b","image":""}]})"));
  BOOST_TEST(adm::ReadAdmissionReview(d).images.empty());
}

BOOST_AUTO_TEST_CASE(v1beta1_envelope_is_a_validation_error_on_api_version) {
  std::string review = Review("", "Pod", kThreeLists);
  review.replace(review.find("admission.k8s.io/v1"), 19, "admission.k8s.io/v1beta1");
  std::vector<std::string> fields = ReviewIssues(review);
  BOOST_TEST((fields == std::vector<std::string>{"apiVersion"}));
}

BOOST_AUTO_TEST_CASE(broken_request_names_uid_kind_and_object) {
  // The shape of connaisseur's 21_broken_admission_request.json.
  std::vector<std::string> fields =
      ReviewIssues(R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"operation":"CREATE"}})");
  BOOST_TEST(Has(fields, "request.uid"));
  BOOST_TEST(Has(fields, "request.kind"));
  BOOST_TEST(Has(fields, "request.object"));
}

BOOST_AUTO_TEST_CASE(envelope_problems_are_each_named) {
  BOOST_TEST((ReviewIssues("[]") == std::vector<std::string>{"body"}));
  std::vector<std::string> fields = ReviewIssues(R"({"apiVersion":1,"kind":"Review"})");
  BOOST_TEST(Has(fields, "apiVersion"));
  BOOST_TEST(Has(fields, "kind"));
  BOOST_TEST(Has(fields, "request"));
  fields = ReviewIssues(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"",)"
                        R"("kind":{"kind":7},"operation":"CREATE","dryRun":"yes","object":[]}})");
  BOOST_TEST(Has(fields, "request.uid"));
  BOOST_TEST(Has(fields, "request.kind.kind"));
  BOOST_TEST(Has(fields, "request.dryRun"));
  BOOST_TEST(Has(fields, "request.object"));
}

BOOST_AUTO_TEST_CASE(pod_spec_of_the_wrong_shape_is_named_by_path) {
  std::vector<std::string> fields = ReviewIssues(Review("apps", "Deployment", R"({"containers":{"image":"x"}})"));
  BOOST_TEST((fields == std::vector<std::string>{"request.object.spec.template.spec.containers"}));
  fields = ReviewIssues(Review("", "Pod", R"({"initContainers":[7,{"name":"a","image":3}]})"));
  BOOST_TEST(Has(fields, "request.object.spec.initContainers[0]"));
  BOOST_TEST(Has(fields, "request.object.spec.initContainers[1].image"));
}

BOOST_AUTO_TEST_CASE(dry_run_is_read) {
  std::string review = Review("", "Pod", kThreeLists);
  review.replace(review.find("\"operation\""), 0, "\"dryRun\":true,");
  rapidjson::Document d = icat::ParseJson(review);
  BOOST_TEST(adm::ReadAdmissionReview(d).dry_run);
}

// The API server appends ?timeout=<timeoutSeconds>s; the handler answers within three quarters of it.
BOOST_AUTO_TEST_CASE(the_api_servers_timeout_is_read_as_seconds_or_milliseconds_and_nothing_else) {
  using std::chrono::milliseconds;
  BOOST_TEST((adm::ParseApiServerTimeout("3s") == milliseconds(3000)));
  BOOST_TEST((adm::ParseApiServerTimeout("30s") == milliseconds(30000)));
  BOOST_TEST((adm::ParseApiServerTimeout("2.5s") == milliseconds(2500)));
  BOOST_TEST((adm::ParseApiServerTimeout("500ms") == milliseconds(500)));
  for (const char* other : {"", "s", "ms", "3", "0s", "0.0001s", "-3s", "+3s", "3m", "1m30s", "3.s", ".5s", "3 s",
                            "1e3s", "3S", "9999999s"}) {
    BOOST_TEST(!adm::ParseApiServerTimeout(other).has_value(), "\"" << other << "\"");
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_rules)

BOOST_AUTO_TEST_CASE(plan_marks_exempt_namespace_unchanged_and_exempt_patterns) {
  std::string old_spec = R"({"containers":[{"name":"web","image":"docker.io/library/nginx:1.27"}]})";
  rapidjson::Document d = icat::ParseJson(Review("apps", "Deployment", kThreeLists, "UPDATE", old_spec));
  adm::AdmissionRequest r = adm::ReadAdmissionReview(d);
  icat::AdmissionPolicy policy;
  policy.exempt_images = {"docker.io/library/busy*"};
  std::vector<JudgedImage> images = adm::PlanImages(r, policy);
  BOOST_TEST_REQUIRE(images.size() == 3u);
  BOOST_TEST((images[0].outcome == Outcome::kUnchanged));  // "nginx:1.27" is the old image, normalised
  BOOST_TEST((images[1].outcome == Outcome::kExempt));
  BOOST_TEST(images[1].exempt_by == "pattern docker.io/library/busy*");
  BOOST_TEST((images[2].outcome == Outcome::kPending));

  policy.exempt_namespaces = {"apps"};
  for (const JudgedImage& image : adm::PlanImages(r, policy)) {
    BOOST_TEST((image.outcome == Outcome::kExempt));
    BOOST_TEST(image.exempt_by == "namespace apps");
  }
}

BOOST_AUTO_TEST_CASE(unjudged_reviews_plan_no_images) {
  rapidjson::Document d = icat::ParseJson(Review("", "Pod", kThreeLists, "DELETE"));
  BOOST_TEST(adm::PlanImages(adm::ReadAdmissionReview(d), icat::AdmissionPolicy{}).empty());
}

BOOST_AUTO_TEST_CASE(default_policy_denies_images_outside_the_catalogue) {
  JudgedImage image = Judge(Pending("nginx:1.27"), icat::AdmissionPolicy{});
  BOOST_TEST((image.outcome == Outcome::kFailed));
  BOOST_TEST((Rules(image) == std::vector<std::string>{"requireCatalogImages"}));
  BOOST_TEST(image.reasons.at(0).message == "docker.io/library/nginx:1.27 is not a version of your licensed catalogue");
  JudgedImage pinned = Judge(Pending("x.io/a@" + kDigest), icat::AdmissionPolicy{});
  BOOST_TEST(pinned.reasons.at(0).message == "digest " + kDigest + " is not a version of your licensed catalogue");
  BOOST_TEST((Judge(Pending("nginx:1.27", Resolved()), icat::AdmissionPolicy{}).outcome == Outcome::kPassed));
  BOOST_TEST((Judge(Pending("nginx:1.27"), Permissive()).outcome == Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(invalid_reference_always_fails) {
  JudgedImage image = Judge(Pending("NGINX"), Permissive());
  BOOST_TEST((Rules(image) == std::vector<std::string>{"imageReference"}));
}

BOOST_AUTO_TEST_CASE(allowed_registries_rule) {
  icat::AdmissionPolicy policy = Permissive();
  policy.allowed_registries = {"registry.example.test/hardened"};
  BOOST_TEST((Judge(Pending("registry.example.test/hardened/nginx:1"), policy).outcome == Outcome::kPassed));
  JudgedImage denied = Judge(Pending("nginx:1"), policy);
  BOOST_TEST((Rules(denied) == std::vector<std::string>{"allowedRegistries"}));
  BOOST_TEST(denied.reasons.at(0).message ==
             "docker.io/library/nginx is not under an allowed registry (registry.example.test/hardened)");
}

BOOST_AUTO_TEST_CASE(require_digest_rule) {
  icat::AdmissionPolicy policy = Permissive();
  policy.require_digest = true;
  JudgedImage unknown = Judge(Pending("nginx:1"), policy);
  BOOST_TEST((Rules(unknown) == std::vector<std::string>{"requireDigest"}));
  BOOST_TEST(unknown.reasons.at(0).message == "not pinned to a digest: write docker.io/library/nginx@sha256:<digest>");
  BOOST_TEST((Judge(Pending("nginx:1@" + kDigest), policy).outcome == Outcome::kPassed));
  BOOST_TEST((Judge(Pending("localhost:8443/hardened/nginx@" + kDigest), policy).outcome == Outcome::kPassed));
}

// A tag of a catalogue version: the reason names the digest that tag stands for, ready to copy.
BOOST_AUTO_TEST_CASE(require_digest_names_the_digest_of_a_known_version) {
  icat::AdmissionPolicy policy;
  policy.require_digest = true;
  adm::Resolution version = Resolved();
  version.digest = "sha256:" + std::string(64, 'c');
  JudgedImage known = Judge(Pending("localhost:8443/hardened/nginx:1.27", version), policy);
  BOOST_TEST((Rules(known) == std::vector<std::string>{"requireDigest"}));
  BOOST_TEST(known.reasons.at(0).message ==
             "not pinned to a digest: write localhost:8443/hardened/nginx@sha256:" + std::string(64, 'c'));
  // What it says to write is a reference to the same repository, pinned, that the rule passes.
  std::string written = known.reasons[0].message.substr(known.reasons[0].message.find("write ") + 6);
  BOOST_TEST(Normalised(written) == written);
  BOOST_TEST((Judge(Pending(written, version), policy).outcome == Outcome::kPassed));
  // A host known only by its capitals is written as that host, not as a Docker Hub path.
  JudgedImage capitals = Judge(Pending("MYHOST/hardened/nginx:1.27", version), policy);
  BOOST_TEST(capitals.reasons.at(0).message ==
             "not pinned to a digest: write MYHOST/hardened/nginx@sha256:" + std::string(64, 'c'));
}

BOOST_AUTO_TEST_CASE(require_catalog_registry_admits_the_host_of_the_services_registry_only) {
  icat::AdmissionPolicy policy = Permissive();
  policy.require_catalog_registry = true;
  for (const std::string& ok :
       {std::string("localhost:8443/hardened/nginx:1.27"), "LocalHost:8443/hardened/nginx@" + kDigest,
        std::string("localhost:8443/other/path/x")}) {
    BOOST_TEST_CONTEXT(ok) { BOOST_TEST((Judge(Pending(ok), policy).outcome == Outcome::kPassed)); }
  }
  // Docker Hub in each of its spellings, the same host on another port or none, another host.
  for (const std::string& other :
       {std::string("nginx"), std::string("library/nginx:1.27"), std::string("docker.io/library/nginx"),
        "index.docker.io/library/nginx@" + kDigest, std::string("localhost/hardened/nginx"),
        std::string("localhost:5000/hardened/nginx"), std::string("localhost:84430/hardened/nginx"),
        std::string("mirror.example.test/localhost/x"), std::string("LOCALHOST8443/hardened/nginx")}) {
    BOOST_TEST_CONTEXT(other) {
      JudgedImage denied = Judge(Pending(other), policy);
      BOOST_TEST((Rules(denied) == std::vector<std::string>{"requireCatalogRegistry"}));
    }
  }
  JudgedImage hub = Judge(Pending("nginx:1.27"), policy);
  BOOST_TEST(hub.reasons.at(0).message == "docker.io/library/nginx is not on the catalogue's registry localhost:8443");
  // Off by default, and off it denies nothing.
  BOOST_TEST(!icat::AdmissionPolicy{}.require_catalog_registry);
  BOOST_TEST((Judge(Pending("nginx"), Permissive()).outcome == Outcome::kPassed));
}

// A digest of the catalogue pulled from another registry resolves to its version (the bytes are the
// same), but requireCatalogRegistry still wants them pulled from the service's registry.
BOOST_AUTO_TEST_CASE(require_catalog_registry_denies_a_catalogue_digest_from_a_mirror) {
  icat::AdmissionPolicy policy;
  policy.require_catalog_registry = true;
  JudgedImage mirror = Judge(Pending("mirror.example.test/hardened/nginx@" + kDigest, Resolved()), policy);
  BOOST_TEST((Rules(mirror) == std::vector<std::string>{"requireCatalogRegistry"}));
  BOOST_TEST(
      (Judge(Pending("localhost:8443/hardened/nginx@" + kDigest, Resolved()), policy).outcome == Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(severity_threshold_counts_at_or_above_and_names_the_cves) {
  icat::AdmissionPolicy policy;  // critical by default
  JudgedImage image = Judge(Pending("nginx:1.27", Resolved({MakeFinding("CVE-2024-0002", "critical", "fixed"),
                                                            MakeFinding("CVE-2024-0001", "critical", "not-fixed"),
                                                            MakeFinding("CVE-2024-0003", "high", "fixed")})),
                            policy);
  BOOST_TEST((Rules(image) == std::vector<std::string>{"severityThreshold"}));
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0001", "CVE-2024-0002"}));
  BOOST_TEST(image.reasons.at(0).message ==
             "2 vulnerabilities at or above critical in nginx:1.27: CVE-2024-0001, CVE-2024-0002");
  policy.severity_threshold = "high";
  BOOST_TEST(
      Judge(Pending("nginx", Resolved({MakeFinding("CVE-2024-0003", "high", "fixed")})), policy).reasons.size() == 1u);
  BOOST_TEST((Judge(Pending("nginx", Resolved({MakeFinding("CVE-2024-0004", "medium", "fixed"),
                                               MakeFinding("CVE-2024-0005", "unknown", "fixed")})),
                    policy)
                  .outcome == Outcome::kPassed));
  policy.severity_threshold.reset();
  BOOST_TEST((Judge(Pending("nginx", Resolved({MakeFinding("CVE-2024-0002", "critical", "fixed")})), policy).outcome ==
              Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(only_fixable_counts_findings_with_a_fix) {
  icat::AdmissionPolicy policy;
  policy.only_fixable = true;
  BOOST_TEST((Judge(Pending("nginx", Resolved({MakeFinding("CVE-2024-0001", "critical", "not-fixed"),
                                               MakeFinding("CVE-2024-0002", "critical", "wont-fix")})),
                    policy)
                  .outcome == Outcome::kPassed));
  JudgedImage image = Judge(Pending("nginx", Resolved({MakeFinding("CVE-2024-0001", "critical", "fixed")})), policy);
  BOOST_TEST((Rules(image) == std::vector<std::string>{"severityThreshold"}));
  BOOST_TEST(image.reasons.at(0).message.find("with a fix at or above critical") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_id_in_several_packages_merges_severity_and_fix_state) {
  std::vector<adm::Finding> findings;
  adm::AddFinding(findings, "CVE-2024-0001", {"GHSA-aaaa-bbbb-cccc"}, "medium", "fixed", {200});
  adm::AddFinding(findings, "CVE-2024-0001", {}, "critical", "not-fixed", {100});
  BOOST_TEST_REQUIRE(findings.size() == 1u);
  BOOST_TEST(findings[0].severity == 4);
  BOOST_TEST(findings[0].fixed_severity == 2);
  BOOST_TEST(findings[0].first_seen.value_or(0) == 100);
  BOOST_TEST((findings[0].aliases == std::vector<std::string>{"GHSA-aaaa-bbbb-cccc"}));
  icat::AdmissionPolicy policy;
  policy.only_fixable = true;  // critical, but the fixed finding is only medium
  BOOST_TEST((Judge(Pending("nginx", Resolved(findings)), policy).outcome == Outcome::kPassed));
}

// A finding with its feed facts, as the findings query gives them.
adm::Finding FedFinding(const std::string& id, std::vector<std::string> aliases, std::optional<std::string> kev_added,
                        std::optional<double> epss) {
  std::vector<adm::Finding> findings;
  std::optional<std::string> kev_cve;
  if (kev_added) kev_cve = aliases.empty() ? id : aliases.front();
  adm::AddFinding(findings, id, aliases, "low", "not-fixed", {std::nullopt, kev_added, epss, kev_cve});
  return findings.at(0);
}

BOOST_AUTO_TEST_CASE(deny_known_exploited_and_max_epss_deny_and_name_the_cves_with_their_facts) {
  icat::AdmissionPolicy policy;
  policy.severity_threshold.reset();
  adm::Resolution version = Resolved({FedFinding("GHSA-jfh8-c2jp-5v3q", {"CVE-2021-44228"}, "2021-12-10", 0.9445),
                                      FedFinding("CVE-2024-0002", {}, std::nullopt, 0.3)});
  BOOST_TEST((Judge(Pending("nginx:1.27", version), policy).outcome == Outcome::kPassed));  // both rules off
  policy.deny_known_exploited = true;
  policy.max_epss = 0.5;
  JudgedImage image = Judge(Pending("nginx:1.27", version), policy);
  BOOST_TEST((Rules(image) == std::vector<std::string>{"denyKnownExploited", "maxEpss"}));
  BOOST_TEST(image.reasons.at(0).message ==
             "1 known exploited vulnerability in nginx:1.27: GHSA-jfh8-c2jp-5v3q (CVE-2021-44228, CISA KEV, added "
             "2021-12-10)");
  BOOST_TEST(image.reasons.at(1).message ==
             "1 vulnerability with an EPSS score above 0.5 in nginx:1.27: GHSA-jfh8-c2jp-5v3q (EPSS 0.9445)");
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"GHSA-jfh8-c2jp-5v3q"}));
  JudgedImage own_id = Judge(Pending("nginx:1.27", Resolved({FedFinding("CVE-2021-44228", {}, "2021-12-10", {})})),
                             policy);
  BOOST_TEST(own_id.reasons.at(0).message ==
             "1 known exploited vulnerability in nginx:1.27: CVE-2021-44228 (CISA KEV, added 2021-12-10)");
  policy.max_epss = 0.25;
  BOOST_TEST(Judge(Pending("nginx:1.27", version), policy).reasons.at(1).cves.size() == 2u);
  // An exception on the CVE alias lifts both rules for it.
  policy.max_epss = 0.5;
  policy.exceptions.push_back({"CVE-2021-44228", std::nullopt, "patched by config", "2999-01-01T00:00:00Z", {}});
  JudgedImage excepted = Judge(Pending("nginx:1.27", version), policy);
  BOOST_TEST((excepted.outcome == Outcome::kPassed));
  BOOST_TEST((excepted.excepted_cves == std::vector<std::string>{"GHSA-jfh8-c2jp-5v3q"}));
}

BOOST_AUTO_TEST_CASE(grace_period_ignores_cves_first_seen_recently) {
  icat::AdmissionPolicy policy;
  policy.grace_period_days = 7;
  adm::Finding recent = MakeFinding("CVE-2024-0001", "critical", "fixed", kNow - 6 * kDay);
  adm::Finding old = MakeFinding("CVE-2024-0002", "critical", "fixed", kNow - 7 * kDay);
  adm::Finding unknown_age = MakeFinding("CVE-2024-0003", "critical", "fixed");
  JudgedImage image = Judge(Pending("nginx", Resolved({recent, old, unknown_age})), policy);
  BOOST_TEST_REQUIRE(image.reasons.size() == 1u);
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0002", "CVE-2024-0003"}));
  BOOST_TEST(image.reasons.at(0).message.find("known for 7+ days") != std::string::npos);
  policy.grace_period_days = 0;
  BOOST_TEST(Judge(Pending("nginx", Resolved({recent})), policy).reasons.size() == 1u);
}

BOOST_AUTO_TEST_CASE(watched_cves_deny_by_id_or_alias) {
  icat::AdmissionPolicy policy;
  policy.severity_threshold.reset();
  policy.deny_watched_cves = true;
  adm::Finding ghsa = MakeFinding("GHSA-aaaa-bbbb-cccc", "low", "not-fixed", std::nullopt, {"CVE-2024-0009"});
  JudgedImage image = Judge(Pending("nginx", Resolved({ghsa, MakeFinding("CVE-2024-0001", "medium", "fixed")})), policy,
                            {"CVE-2024-0001", "CVE-2024-0009"});
  BOOST_TEST((Rules(image) == std::vector<std::string>{"denyWatchedCves"}));
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0001", "CVE-2024-0009"}));
  policy.deny_watched_cves = false;
  BOOST_TEST((Judge(Pending("nginx", Resolved({ghsa})), policy, {"CVE-2024-0009"}).outcome == Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(vendor_not_affected_cves_count_toward_no_rule_unless_the_policy_says_so) {
  icat::AdmissionPolicy policy;  // critical; trustVendorVex by default
  policy.deny_watched_cves = true;
  adm::Resolution resolved = Resolved({MakeFinding("CVE-2024-0001", "critical", "fixed")});
  resolved.vendor_not_affected = {MakeFinding("CVE-2024-0002", "critical", "fixed"),
                                  MakeFinding("CVE-2024-0003", "low", "fixed")};
  JudgedImage trusted = Judge(Pending("nginx", resolved), policy, {"CVE-2024-0003"});
  BOOST_TEST((Rules(trusted) == std::vector<std::string>{"severityThreshold"}));
  BOOST_TEST((trusted.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0001"}));
  BOOST_TEST(trusted.reasons.at(0).message ==
             "1 vulnerability at or above critical in nginx:1.27: CVE-2024-0001; not counted, as the vendor's VEX "
             "marks them not_affected: CVE-2024-0002");
  BOOST_TEST((trusted.vendor_not_affected_cves == std::vector<std::string>{"CVE-2024-0002", "CVE-2024-0003"}));
  resolved.findings.clear();
  BOOST_TEST((Judge(Pending("nginx", resolved), policy, {"CVE-2024-0003"}).outcome == Outcome::kPassed));
  policy.trust_vendor_vex = false;  // the tenant's policy counts them
  JudgedImage counted = Judge(Pending("nginx", resolved), policy, {"CVE-2024-0003"});
  BOOST_TEST((Rules(counted) == std::vector<std::string>{"severityThreshold", "denyWatchedCves"}));
  BOOST_TEST((counted.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0002"}));
  BOOST_TEST(counted.vendor_not_affected_cves.empty());
}

BOOST_AUTO_TEST_CASE(a_cve_the_vendor_clears_in_one_package_still_counts_from_another) {
  icat::AdmissionPolicy policy;
  adm::Resolution resolved = Resolved({MakeFinding("CVE-2024-0001", "critical", "fixed")});  // libssl3
  resolved.vendor_not_affected = {MakeFinding("CVE-2024-0001", "critical", "fixed")};        // openssl
  JudgedImage image = Judge(Pending("nginx", resolved), policy);
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0001"}));
  BOOST_TEST(image.vendor_not_affected_cves.empty());
}

BOOST_AUTO_TEST_CASE(unexpired_exceptions_lift_a_cve_expired_ones_do_not) {
  icat::AdmissionPolicy policy;
  policy.deny_watched_cves = true;
  auto findings = std::vector<adm::Finding>{MakeFinding("CVE-2024-3094", "critical", "fixed"),
                                            MakeFinding("CVE-2024-0001", "critical", "fixed")};
  policy.exceptions = {{"CVE-2024-3094", std::nullopt, "vendor fix pending", "2027-01-16T00:00:00Z"},
                       {"CVE-2024-0001", std::nullopt, "expired", "2027-01-15T07:59:59Z"}};
  JudgedImage image = Judge(Pending("nginx", Resolved(findings)), policy, {"CVE-2024-3094"});
  BOOST_TEST((Rules(image) == std::vector<std::string>{"severityThreshold"}));
  BOOST_TEST((image.reasons.at(0).cves == std::vector<std::string>{"CVE-2024-0001"}));
  BOOST_TEST((image.excepted_cves == std::vector<std::string>{"CVE-2024-3094"}));
  // Expiry is exclusive: an exception expiring now no longer applies.
  policy.exceptions = {{"CVE-2024-3094", std::nullopt, "x", "2027-01-15T08:00:00Z"}};
  BOOST_TEST(Judge(Pending("nginx", Resolved({findings[0]})), policy).reasons.size() == 1u);
}

BOOST_AUTO_TEST_CASE(exceptions_for_an_image_apply_to_that_image_only) {
  icat::AdmissionPolicy policy;
  auto findings = std::vector<adm::Finding>{MakeFinding("CVE-2024-3094", "critical", "fixed")};
  policy.exceptions = {{"CVE-2024-3094", "6B0E5D1C-1111-4AAA-8BBB-000000000001", "x", "2030-01-01T00:00:00Z"}};
  BOOST_TEST((Judge(Pending("nginx", Resolved(findings)), policy).outcome == Outcome::kPassed));
  policy.exceptions[0].image_id = "6b0e5d1c-1111-4aaa-8bbb-000000000002";
  BOOST_TEST((Judge(Pending("nginx", Resolved(findings)), policy).outcome == Outcome::kFailed));
}

BOOST_AUTO_TEST_CASE(exception_by_alias_lifts_a_ghsa_finding) {
  icat::AdmissionPolicy policy;
  policy.exceptions = {{"CVE-2024-0009", std::nullopt, "x", "2030-01-01T00:00:00Z"}};
  adm::Finding ghsa = MakeFinding("GHSA-aaaa-bbbb-cccc", "critical", "fixed", std::nullopt, {"CVE-2024-0009"});
  BOOST_TEST((Judge(Pending("nginx", Resolved({ghsa})), policy).outcome == Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(require_scan_denies_a_version_never_scanned_unless_off_or_excepted) {
  adm::Resolution unscanned = Resolved();
  unscanned.scanned = false;
  icat::AdmissionPolicy policy;  // requireScan is on by default
  JudgedImage image = Judge(Pending("nginx:1.27", unscanned), policy);
  BOOST_TEST((Rules(image) == std::vector<std::string>{"requireScan"}));
  BOOST_TEST(image.reasons.at(0).message == "nginx:1.27 has never been scanned, so its vulnerabilities are unknown");
  BOOST_TEST((Judge(Pending("nginx:1.27", Resolved()), policy).outcome == Outcome::kPassed));
  // An image outside the catalogue is requireCatalogImages' business, never requireScan's.
  BOOST_TEST((Rules(Judge(Pending("nginx:1.27"), policy)) == std::vector<std::string>{"requireCatalogImages"}));
  // An exception naming the rule lifts it, for its image or every image, until it expires.
  icat::PolicyException lift{"", kImageId, "scan due Monday", "2027-01-16T00:00:00Z", "requireScan"};
  policy.exceptions = {lift};
  JudgedImage excepted = Judge(Pending("nginx:1.27", unscanned), policy);
  BOOST_TEST((excepted.outcome == Outcome::kPassed));
  BOOST_TEST((excepted.excepted_rules == std::vector<std::string>{"requireScan"}));
  policy.exceptions[0].image_id = "6b0e5d1c-1111-4aaa-8bbb-000000000002";
  BOOST_TEST((Judge(Pending("nginx:1.27", unscanned), policy).outcome == Outcome::kFailed));
  policy.exceptions[0].image_id.reset();
  BOOST_TEST((Judge(Pending("nginx:1.27", unscanned), policy).outcome == Outcome::kPassed));
  policy.exceptions[0].expires_at = "2027-01-15T08:00:00Z";  // now: expired
  BOOST_TEST((Judge(Pending("nginx:1.27", unscanned), policy).outcome == Outcome::kFailed));
  // A CVE exception lifts no rule.
  policy.exceptions = {{"CVE-2024-3094", std::nullopt, "x", "2030-01-01T00:00:00Z"}};
  BOOST_TEST((Judge(Pending("nginx:1.27", unscanned), policy).outcome == Outcome::kFailed));
  policy.require_scan = false;
  BOOST_TEST((Judge(Pending("nginx:1.27", unscanned), policy).outcome == Outcome::kPassed));
}

BOOST_AUTO_TEST_CASE(require_scan_warns_in_warn_mode) {
  adm::Resolution unscanned = Resolved();
  unscanned.scanned = false;
  adm::Verdict v = adm::Decide("warn", {Judge(Pending("nginx:1.27", unscanned), icat::AdmissionPolicy{})});
  BOOST_TEST(v.allowed);
  BOOST_TEST_REQUIRE(v.warnings.size() == 1u);
  BOOST_TEST(v.warnings[0] ==
             "icat admission (warn): nginx:1.27 (container c): requireScan: nginx:1.27 has never been scanned, so its "
             "vulnerabilities are unknown");
}

BOOST_AUTO_TEST_CASE(every_failing_rule_is_reported) {
  icat::AdmissionPolicy policy;
  policy.allowed_registries = {"registry.example.test"};
  policy.require_digest = true;
  JudgedImage image = Judge(Pending("nginx"), policy);
  BOOST_TEST((Rules(image) == std::vector<std::string>{"allowedRegistries", "requireDigest", "requireCatalogImages"}));
}

BOOST_AUTO_TEST_CASE(only_pending_images_are_judged) {
  JudgedImage exempt = Pending("nginx");
  exempt.outcome = Outcome::kExempt;
  BOOST_TEST((Judge(exempt, icat::AdmissionPolicy{}).outcome == Outcome::kExempt));
  BOOST_TEST(Judge(exempt, icat::AdmissionPolicy{}).reasons.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_verdict)

std::vector<JudgedImage> TwoFailures() {
  JudgedImage a = Judge(Pending("nginx:1.27"), icat::AdmissionPolicy{});
  a.use.containers = {"container web", "initContainer init"};
  icat::AdmissionPolicy policy;
  JudgedImage b = Judge(Pending("x.io/app", Resolved({MakeFinding("CVE-2024-0001", "critical", "fixed")})), policy);
  JudgedImage c = Judge(Pending("x.io/ok", Resolved()), policy);
  return {a, b, c};
}

BOOST_AUTO_TEST_CASE(enforce_denies_naming_every_offending_image_rule_and_cve) {
  adm::Verdict v = adm::Decide("enforce", TwoFailures());
  BOOST_TEST(!v.allowed);
  BOOST_TEST(v.warnings.empty());
  BOOST_TEST(v.message ==
             "icat admission policy denied 2 images: [nginx:1.27 (container web, initContainer init): "
             "requireCatalogImages: docker.io/library/nginx:1.27 is not a version of your licensed catalogue] "
             "[x.io/app (container c): severityThreshold: 1 vulnerability at or above critical in nginx:1.27: "
             "CVE-2024-0001]");
}

BOOST_AUTO_TEST_CASE(warn_allows_with_one_warning_per_image_and_rule) {
  adm::Verdict v = adm::Decide("warn", TwoFailures());
  BOOST_TEST(v.allowed);
  BOOST_TEST_REQUIRE(v.warnings.size() == 2u);
  BOOST_TEST(v.warnings.at(1) ==
             "icat admission (warn): x.io/app (container c): severityThreshold: 1 vulnerability at or above "
             "critical in nginx:1.27: CVE-2024-0001");
  for (const std::string& w : v.warnings) BOOST_TEST(w.size() <= 256u);
}

BOOST_AUTO_TEST_CASE(audit_allows_silently) {
  adm::Verdict v = adm::Decide("audit", TwoFailures());
  BOOST_TEST(v.allowed);
  BOOST_TEST(v.warnings.empty());
  BOOST_TEST(v.message.empty());
}

BOOST_AUTO_TEST_CASE(nothing_failed_is_allowed_in_every_mode) {
  for (const char* mode : {"enforce", "warn", "audit"}) {
    adm::Verdict v = adm::Decide(mode, {});
    BOOST_TEST(v.allowed);
    BOOST_TEST(v.warnings.empty());
  }
}

BOOST_AUTO_TEST_CASE(long_cve_lists_are_cut_in_messages_but_kept_in_reasons) {
  std::vector<adm::Finding> findings;
  for (int i = 0; i < 25; i++) {
    adm::AddFinding(findings, "CVE-2024-" + std::to_string(1000 + i), {}, "critical", "fixed", {});
  }
  JudgedImage image = Judge(Pending("nginx", Resolved(findings)), icat::AdmissionPolicy{});
  BOOST_TEST(image.reasons.at(0).cves.size() == 25u);
  BOOST_TEST(image.reasons.at(0).message.find("CVE-2024-1019 and 5 more") != std::string::npos);
  adm::Verdict v = adm::Decide("warn", {image});
  BOOST_TEST(v.warnings.at(0).size() <= 256u);
  BOOST_TEST(v.warnings[0].substr(v.warnings[0].size() - 3) == "...");
}

BOOST_AUTO_TEST_CASE(response_echoes_uid_and_carries_status_only_when_denied) {
  adm::Verdict denied{false, "no", {}};
  rapidjson::Document d = icat::ParseJson(adm::AdmissionResponseJson("u-1", denied));
  BOOST_TEST(d["apiVersion"].GetString() == std::string("admission.k8s.io/v1"));
  BOOST_TEST(d["kind"].GetString() == std::string("AdmissionReview"));
  BOOST_TEST(d["response"]["uid"].GetString() == std::string("u-1"));
  BOOST_TEST(!d["response"]["allowed"].GetBool());
  BOOST_TEST(d["response"]["status"]["code"].GetInt() == 403);
  BOOST_TEST(d["response"]["status"]["message"].GetString() == std::string("no"));
  BOOST_TEST(!d["response"].HasMember("warnings"));

  rapidjson::Document ok = icat::ParseJson(adm::AdmissionResponseJson("u-2", adm::Verdict{true, "", {"w"}}));
  BOOST_TEST(ok["response"]["allowed"].GetBool());
  BOOST_TEST(!ok["response"].HasMember("status"));
  BOOST_TEST(ok["response"]["warnings"][0].GetString() == std::string("w"));
}

BOOST_AUTO_TEST_CASE(a_refused_credential_is_a_denial_with_its_own_code_and_reason) {
  for (auto [code, reason] : std::vector<std::pair<int, std::string>>{
           {401, "Unauthorized"}, {403, "Forbidden"}, {429, "TooManyRequests"}}) {
    adm::Verdict refused{false, "icat refused the webhook's API key (...): ...", {}, code};
    rapidjson::Document d = icat::ParseJson(adm::AdmissionResponseJson("u-3", refused));
    BOOST_TEST(!d["response"]["allowed"].GetBool());
    BOOST_TEST(d["response"]["status"]["code"].GetInt() == code);
    BOOST_TEST(d["response"]["status"]["reason"].GetString() == reason);
  }
}

BOOST_AUTO_TEST_CASE(decision_records_keep_every_image_and_reason) {
  std::vector<JudgedImage> images = TwoFailures();
  images[2].excepted_cves = {"CVE-2024-3094"};
  JudgedImage exempt = Pending("busybox");
  exempt.outcome = Outcome::kExempt;
  exempt.exempt_by = "pattern *busybox*";
  images.push_back(exempt);
  rapidjson::Document d = icat::ParseJson(adm::DecisionImagesJson(images));
  BOOST_TEST_REQUIRE(d.Size() == 4u);
  BOOST_TEST(d[0]["reference"].GetString() == std::string("nginx:1.27"));
  BOOST_TEST(d[0]["normalised"].GetString() == std::string("docker.io/library/nginx:1.27"));
  BOOST_TEST(d[0]["containers"].Size() == 2u);
  BOOST_TEST(d[0]["outcome"].GetString() == std::string("failed"));
  BOOST_TEST(d[0]["imageId"].IsNull());
  BOOST_TEST(d[1]["imageId"].GetString() == kImageId);
  BOOST_TEST(d[2]["outcome"].GetString() == std::string("passed"));
  BOOST_TEST(d[2]["exceptedCves"][0].GetString() == std::string("CVE-2024-3094"));
  BOOST_TEST(d[3]["exemptBy"].GetString() == std::string("pattern *busybox*"));

  rapidjson::Document reasons = icat::ParseJson(adm::DecisionReasonsJson(images));
  BOOST_TEST_REQUIRE(reasons.Size() == 2u);
  BOOST_TEST(reasons[1]["image"].GetString() == std::string("x.io/app"));
  BOOST_TEST(reasons[1]["rule"].GetString() == std::string("severityThreshold"));
  BOOST_TEST(reasons[1]["cves"][0].GetString() == std::string("CVE-2024-0001"));
  BOOST_TEST(reasons[0]["cves"].Size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_limits)

BOOST_AUTO_TEST_CASE(huge_reviews_stay_readable_and_keep_every_container) {
  std::string containers;
  for (int i = 0; i < 3000; i++) {
    containers += std::string(i ? "," : "") + R"({"name":"c)" + std::to_string(i) + R"(","image":"x.io/img)" +
                  std::to_string(i % 1500) + R"("})";
  }
  rapidjson::Document d = icat::ParseJson(Review("", "Pod", "{\"containers\":[" + containers + "]}"));
  adm::AdmissionRequest r = adm::ReadAdmissionReview(d);
  BOOST_TEST_REQUIRE(r.images.size() == 1500u);
  BOOST_TEST(r.images[7].containers.size() == 2u);
  std::vector<JudgedImage> images = adm::PlanImages(r, icat::AdmissionPolicy{});
  for (JudgedImage& image : images) adm::JudgeImage(image, icat::AdmissionPolicy{}, {{}, kRegistryHost, kNow});
  adm::Verdict denied = adm::Decide("enforce", images);
  BOOST_TEST(denied.message.find("denied 1500 images") != std::string::npos);
  BOOST_TEST(denied.message.find("and 1450 more images (the decision record lists them all)") != std::string::npos);
  BOOST_TEST(denied.message.size() < 20000u);
  adm::Verdict warned = adm::Decide("warn", images);
  BOOST_TEST_REQUIRE(warned.warnings.size() == 50u);
  BOOST_TEST(warned.warnings.back() == "icat admission (warn): and 1451 more; the decision record lists them all");
  rapidjson::Document record = icat::ParseJson(adm::DecisionReasonsJson(images));
  BOOST_TEST(record.Size() == 1500u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_review_strings)

BOOST_AUTO_TEST_CASE(control_characters_are_refused_where_they_would_reach_the_record) {
  std::vector<std::string> fields =
      ReviewIssues(Review("", "Pod", R"({"containers":[{"name":"a","image":"nginx\u0000x"}]})"));
  BOOST_TEST((fields == std::vector<std::string>{"request.object.spec.containers[0].image"}));
  std::string review = Review("", "Pod", kThreeLists);
  review.replace(review.find("\"uid\":\"u-1\""), 11, "\"uid\":\"u\\n1\"");
  BOOST_TEST((ReviewIssues(review) == std::vector<std::string>{"request.uid"}));
}

BOOST_AUTO_TEST_SUITE_END()
