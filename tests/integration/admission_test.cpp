// POST /v1/admission against the running stack: credentials, malformed reviews, every kind, each
// rule allowing and denying, modes, exceptions, grace periods, dry runs, decision records and
// tenant isolation. Policies, watches and scans are written as the owner role (SQL), so these
// tests do not depend on the portal's endpoints.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "admission_support.hpp"
#include "icat_client_support.hpp"
#include "icat/api_key.hpp"
#include "icat/config.hpp"
#include "icat/registry.hpp"
#include "icat/text.hpp"

namespace it = icat::test;

namespace {

struct ReviewSpec {
  std::string uid = "uid-" + it::RandomSuffix(12);
  std::string group;
  std::string kind = "Pod";
  std::string operation = "CREATE";
  std::string namespace_name = "apps";
  std::vector<std::string> containers;
  std::vector<std::string> init_containers;
  std::vector<std::string> ephemeral_containers;
  std::optional<std::vector<std::string>> old_containers;  // UPDATE: the old object's containers
  bool dry_run = false;
};

void WriteContainers(rapidjson::Writer<rapidjson::StringBuffer>& w, const char* list,
                     const std::vector<std::string>& images) {
  if (images.empty()) return;
  w.Key(list);
  w.StartArray();
  for (size_t i = 0; i < images.size(); i++) {
    w.StartObject();
    w.Key("name");
    w.String((std::string(list) + "-" + std::to_string(i)).c_str());
    w.Key("image");
    w.String(images[i].c_str());
    w.EndObject();
  }
  w.EndArray();
}

// The object of the review: the containers at the place the kind keeps its pod spec.
void WriteObject(rapidjson::Writer<rapidjson::StringBuffer>& w, const ReviewSpec& spec,
                 const std::vector<std::string>& containers, bool with_other_lists) {
  std::vector<std::string> path = spec.kind == "Pod" ? std::vector<std::string>{"spec"}
                                  : spec.kind == "CronJob"
                                      ? std::vector<std::string>{"spec", "jobTemplate", "spec", "template", "spec"}
                                      : std::vector<std::string>{"spec", "template", "spec"};
  w.StartObject();
  w.Key("kind");
  w.String(spec.kind.c_str());
  w.Key("metadata");
  w.StartObject();
  w.Key("name");
  w.String("obj");
  w.Key("namespace");
  w.String(spec.namespace_name.c_str());
  w.EndObject();
  for (const std::string& key : path) {
    w.Key(key.c_str());
    w.StartObject();
  }
  WriteContainers(w, "containers", containers);
  if (with_other_lists) {
    WriteContainers(w, "initContainers", spec.init_containers);
    WriteContainers(w, "ephemeralContainers", spec.ephemeral_containers);
  }
  for (size_t i = 0; i < path.size(); i++) w.EndObject();
  w.EndObject();
}

std::string ReviewJson(const ReviewSpec& spec) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("apiVersion");
  w.String("admission.k8s.io/v1");
  w.Key("kind");
  w.String("AdmissionReview");
  w.Key("request");
  w.StartObject();
  w.Key("uid");
  w.String(spec.uid.c_str());
  w.Key("kind");
  w.StartObject();
  w.Key("group");
  w.String(spec.group.c_str());
  w.Key("version");
  w.String("v1");
  w.Key("kind");
  w.String(spec.kind.c_str());
  w.EndObject();
  w.Key("namespace");
  w.String(spec.namespace_name.c_str());
  w.Key("operation");
  w.String(spec.operation.c_str());
  w.Key("dryRun");
  w.Bool(spec.dry_run);
  w.Key("object");
  WriteObject(w, spec, spec.containers, true);
  if (spec.old_containers) {
    w.Key("oldObject");
    WriteObject(w, spec, *spec.old_containers, false);
  }
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

// A fresh tenant with an admission key; each test owns one, so rate limits and policies never mix.
struct Cluster {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");

  it::AdmissionAnswer Review(const ReviewSpec& spec) {
    return it::ExpectAnswer(it::PostReview(key, ReviewJson(spec)), spec.uid);
  }
  it::AdmissionAnswer Pod(const std::vector<std::string>& images) {
    ReviewSpec spec;
    spec.containers = images;
    return Review(spec);
  }
  void Policy(const std::string& json) {
    it::PgQuery(
        "INSERT INTO admission_policies (tenant_id, policy) VALUES ($1, $2::jsonb) ON CONFLICT (tenant_id) "
        "DO UPDATE SET policy = EXCLUDED.policy",
        {tenant.id(), json});
  }
  void Watch(const std::string& cve) {
    it::PgQuery("INSERT INTO cve_watches (tenant_id, cve_id) VALUES ($1, $2)", {tenant.id(), cve});
  }
  // A licensed image with one version (tag 1.0), scanned clean.
  it::Image Image(std::string_view label) {
    it::Image image = tenant.AddImage(label, {{"1.0"}});
    it::InsertLatestScan(image.versions[0].id, {});
    return image;
  }
  // The same, never scanned.
  it::Image UnscannedImage(std::string_view label) { return tenant.AddImage(label, {{"1.0"}}); }
};

std::string TagRef(const it::Image& image) { return image.repository + ":" + image.versions.at(0).tag; }

// The host (and port) of the stack's registry, as the handlers read ICAT_REGISTRY.
std::string RegistryHost() { return icat::Lower(icat::RegistryHost(icat::TextSetting("ICAT_REGISTRY"))); }

// Moves the image's repository onto the stack's registry host (<host>/it/<name>).
void PutOnRegistry(it::Image& image) {
  image.repository = RegistryHost() + "/it/" + image.name;
  it::PgQuery("UPDATE images SET repository = $2 WHERE id = $1", {image.id, image.repository});
}
std::string DigestRef(const it::Image& image) { return image.repository + "@" + image.versions.at(0).digest; }

struct FindingSpec {
  std::string id;
  std::string severity;
  std::string fix_state = "fixed";
  int first_seen_days_ago = 30;
  std::vector<std::string> aliases = {};
};

// A new latest scan of the version with these findings, and when each was first seen on it.
void Scan(const it::Version& version, const std::vector<FindingSpec>& findings) {
  std::string scan_id = it::InsertLatestScan(version.id, {});
  for (const FindingSpec& f : findings) {
    std::string aliases = "{";
    for (size_t i = 0; i < f.aliases.size(); i++) aliases += (i ? "," : "") + f.aliases[i];
    aliases += "}";
    it::PgQuery(
        "INSERT INTO vulnerabilities (set_id, vuln_id, aliases, package_name, package_version, severity, "
        "fix_state) VALUES ($1, $2, $3::text[], 'openssl', '3.0.1', $4, $5)",
        {scan_id, f.id, aliases, f.severity, f.fix_state});
    it::PgQuery(
        "INSERT INTO vulnerability_first_seen (version_id, vuln_id, first_seen_at) "
        "VALUES ($1, $2, now() - make_interval(days => $3::int)) ON CONFLICT (version_id, vuln_id) "
        "DO UPDATE SET first_seen_at = EXCLUDED.first_seen_at",
        {version.id, f.id, std::to_string(f.first_seen_days_ago)});
  }
}


// A CVE id no other test uses: the feed tables are shared by every tenant of the stack.
std::string UniqueCve() {
  static std::atomic<int> counter{0};
  long long stamp = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch()).count() % 100000000;
  return "CVE-2099-" + std::to_string(stamp) + std::to_string(counter++);
}

// CISA KEV and FIRST EPSS entries, written as the owner (the loader's own tests cover the loading).
void KnownExploited(const std::string& cve, const std::string& date_added) {
  it::PgQuery(
      "INSERT INTO kev_entries (cve_id, vendor_project, product, vulnerability_name, date_added, "
      "short_description, required_action, due_date) VALUES ($1, 'Apache', 'Log4j2', 'Log4j2 RCE', $2::date, "
      "'remote code execution', 'apply updates', $2::date + 14)",
      {cve, date_added});
}
void EpssScore(const std::string& cve, const std::string& score) {
  it::PgQuery("INSERT INTO epss_scores (cve_id, score, percentile, score_date) VALUES ($1, $2::numeric, 0.99, "
              "current_date)",
              {cve, score});
}

// The image vendor's VEX statement that the version is not affected by vuln_id.
void VendorNotAffected(const it::Image& image, const std::string& vuln_id) {
  std::string document = *it::PgQuery(
      "INSERT INTO vex_documents (format, author, issued_at, version, sha256) VALUES ('openvex', 'vendor', now(), 1, "
      "$1) RETURNING id",
      {it::RandomSuffix(64)}).at(0).at(0);
  it::PgQuery(
      "INSERT INTO vex_statements (document_id, image_id, product, vuln_id, status, justification, statement_time) "
      "VALUES ($1, $2, $3, $4, 'not_affected', 'vulnerable_code_not_present', now())",
      {document, image.id, image.repository, vuln_id});
}

struct Decision {
  bool allowed = false, dry_run = false;
  std::string mode, operation, kind;
  std::optional<std::string> namespace_name, name;
  rapidjson::Document images, reasons;
};

// The decision recorded for a request uid (the only one: each test's uids are random).
Decision Recorded(const Cluster& cluster, const std::string& uid) {
  std::vector<it::PgRow> rows = it::PgQuery(
      "SELECT allowed, dry_run, mode, operation, kind, namespace, name, images::text, reasons::text "
      "FROM admission_decisions WHERE tenant_id = $1 AND request_uid = $2",
      {cluster.tenant.id(), uid});
  Decision d;
  BOOST_TEST_REQUIRE(rows.size() == 1u, "decisions recorded for " << uid << ": " << rows.size());
  const it::PgRow& row = rows[0];
  d.allowed = *row[0] == "t";
  d.dry_run = *row[1] == "t";
  d.mode = *row[2];
  d.operation = *row[3];
  d.kind = *row[4];
  d.namespace_name = row[5];
  d.name = row[6];
  d.images.Parse(row[7]->c_str());
  d.reasons.Parse(row[8]->c_str());
  return d;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Decisions recorded for a request uid, in any tenant.
long long DecisionsOf(const std::string& uid) {
  return std::stoll(*it::PgQuery("SELECT count(*) FROM admission_decisions WHERE request_uid = $1", {uid}).at(0).at(0));
}

// The files the test stack writes its logs to: nginx's, every handler pool's, Postgres', Redis'.
std::vector<std::string> StackLogFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(it::GetEnv().stack_dir + "/log")) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  return files;
}

// The line of a log file holding text; empty when there is none.
std::string LogLineWith(const std::string& file, const std::string& text) {
  std::istringstream lines(it::ReadFileBytes(file));
  for (std::string line; std::getline(lines, line);) {
    if (Contains(line, text)) return line;
  }
  return {};
}

const std::vector<std::pair<std::string, std::string>> kKinds = {{"", "Pod"},
                                                                 {"", "ReplicationController"},
                                                                 {"apps", "Deployment"},
                                                                 {"apps", "ReplicaSet"},
                                                                 {"apps", "StatefulSet"},
                                                                 {"apps", "DaemonSet"},
                                                                 {"batch", "Job"},
                                                                 {"batch", "CronJob"}};

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_access)

// The API server shows a denying review's message to whoever applied the object; of a 401 body it
// shows only that the call failed. Nothing was judged, so nothing is recorded.
BOOST_AUTO_TEST_CASE(refused_keys_get_a_denying_review_naming_the_reason_on_both_routes) {
  it::Tenant tenant;
  std::string revoked = tenant.CreateKey("admission");
  tenant.RevokeKey(revoked);
  std::string expired = tenant.CreateKey("admission");
  it::PgQuery("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE tenant_id = $1 AND prefix = $2",
              {tenant.id(), expired.substr(0, 14)});
  struct Refused {
    std::string what, key;
    int code;
    std::string error, fragment;
  };
  const std::vector<Refused> refused = {
      {"malformed", "icat_live_nope", 401, "UNAUTHENTICATED", "is not valid"},
      {"unknown", icat::GenerateApiKey(it::GetEnv().key_prefix).secret, 401, "UNAUTHENTICATED", "is not valid"},
      {"revoked", revoked, 401, "UNAUTHENTICATED", "has been revoked"},
      {"expired", expired, 401, "UNAUTHENTICATED", "has expired"},
      {"without the scope", tenant.CreateKey("read:catalog,read:vulns"), 403, "INSUFFICIENT_SCOPE", "scope admission"},
  };
  for (const Refused& k : refused) {
    for (bool in_path : {false, true}) {
      BOOST_TEST_CONTEXT(k.what << " key " << (in_path ? "in the path" : "in the header")) {
        ReviewSpec spec;
        spec.containers = {"nginx"};
        it::Response r = in_path ? it::PostReviewKeyInPath(k.key, ReviewJson(spec)) : it::PostReview(k.key, ReviewJson(spec));
        it::ExpectRefusal(r, spec.uid, k.code, k.error, k.fragment);
        BOOST_TEST(DecisionsOf(spec.uid) == 0);
      }
    }
  }
  ReviewSpec spec;
  spec.containers = {"nginx"};
  it::Response none = it::Send("POST", "/v1/admission", {{"Content-Type", "application/json"}}, ReviewJson(spec));
  it::ExpectRefusal(none, spec.uid, 401, "UNAUTHENTICATED", "An API key is required");
}

BOOST_AUTO_TEST_CASE(refused_keys_with_a_body_that_is_not_a_review_get_the_json_error) {
  it::Tenant tenant;
  std::string no_scope = tenant.CreateKey("read:catalog,read:vulns");
  const std::string not_a_review = R"({"apiVersion":"v1","kind":"Pod","spec":{}})";
  it::ExpectError(it::Send("POST", "/v1/admission", {{"Content-Type", "application/json"}}, not_a_review), 401,
                  "UNAUTHENTICATED");
  for (bool in_path : {false, true}) {
    BOOST_TEST_CONTEXT((in_path ? "in the path" : "in the header")) {
      auto post = in_path ? it::PostReviewKeyInPath : it::PostReview;
      it::ExpectError(post("icat_live_nope", not_a_review), 401, "UNAUTHENTICATED");
      it::Response r = post(no_scope, not_a_review);
      it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
      BOOST_TEST(Contains(r.Header("www-authenticate"), "scope=\"admission\""));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_key_over_its_rate_limit_gets_a_denying_review_with_code_429) {
  Cluster c;
  const long limit = it::GetEnv().rate_limit_per_minute;
  // The count is per minute: a burst that crosses into the next minute starts again, so three windows' worth.
  for (long i = 0; i <= 3 * limit; i++) {
    ReviewSpec spec;
    spec.operation = "DELETE";  // allowed at once: the cheapest review
    it::Response r = it::PostReviewKeyInPath(c.key, ReviewJson(spec));
    if (!r.Has("retry-after")) {
      BOOST_TEST_REQUIRE(it::ExpectAnswer(r, spec.uid).allowed);
      continue;
    }
    it::ExpectRefusal(r, spec.uid, 429, "RATE_LIMITED", "requests per minute");
    BOOST_TEST(DecisionsOf(spec.uid) == 0);
    return;
  }
  BOOST_FAIL("no 429 after " << 3 * limit + 1 << " reviews with a limit of " << limit);
}

BOOST_AUTO_TEST_CASE(key_in_x_api_key_works_too) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("admission");
  ReviewSpec spec;
  spec.containers = {"nginx"};
  it::Response r =
      it::Send("POST", "/v1/admission", {{"X-API-Key", key}, {"Content-Type", "application/json"}}, ReviewJson(spec));
  BOOST_TEST(!it::ExpectAnswer(r, spec.uid).allowed);
}

// The API server appends ?timeout=<its webhook timeout> to the configured URL (e.g. "?timeout=10s"):
// both routes accept it; any other query parameter is still refused.
BOOST_AUTO_TEST_CASE(the_api_servers_timeout_parameter_is_accepted_on_both_routes) {
  Cluster c;
  for (bool in_path : {false, true}) {
    BOOST_TEST_CONTEXT((in_path ? "key in the path" : "key in the header")) {
      ReviewSpec spec;
      spec.containers = {"nginx"};
      it::Headers headers = {{"Content-Type", "application/json"}};
      if (!in_path) headers.emplace_back("Authorization", "Bearer " + c.key);
      const std::string path = in_path ? "/v1/admission/" + c.key : "/v1/admission";
      it::ExpectAnswer(it::Send("POST", path + "?timeout=10s", headers, ReviewJson(spec)), spec.uid);
      BOOST_TEST(DecisionsOf(spec.uid) == 1);
      it::Response other = it::Send("POST", path + "?timeout=10s&dryRun=1", headers, ReviewJson(spec));
      it::ExpectError(other, 400, "VALIDATION_ERROR");
      BOOST_TEST(it::DetailFields(other) == std::vector<std::string>{"dryRun"});
    }
  }
}

BOOST_AUTO_TEST_CASE(malformed_json_wrong_type_and_wrong_method) {
  Cluster c;
  it::ExpectError(it::PostReview(c.key, "{\"apiVersion\": "), 400, "MALFORMED_JSON");
  it::ExpectError(
      it::Send("POST", "/v1/admission", {{"Authorization", "Bearer " + c.key}, {"Content-Type", "text/plain"}}, "{}"),
      415, "UNSUPPORTED_MEDIA_TYPE");
  it::Response get = it::Get("/v1/admission", it::Bearer(c.key));
  it::ExpectError(get, 405, "METHOD_NOT_ALLOWED");
  BOOST_TEST(get.Header("allow") == "POST");
}

BOOST_AUTO_TEST_CASE(json_that_is_not_an_admission_review_v1_is_400_with_details) {
  Cluster c;
  it::Response r = it::PostReview(c.key, R"({"apiVersion":"v1","kind":"Pod","spec":{}})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> fields = it::DetailFields(r);
  for (const char* field : {"apiVersion", "kind", "request"}) {
    BOOST_TEST((std::find(fields.begin(), fields.end(), field) != fields.end()), field);
  }
  it::Response no_uid =
      it::PostReview(c.key, R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",)"
                  R"("request":{"kind":{"group":"","version":"v1","kind":"Pod"},"operation":"CREATE",)"
                  R"("object":{"spec":{"containers":"nginx"}}}})");
  it::ExpectError(no_uid, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(no_uid) == std::vector<std::string>{"request.uid", "request.object.spec.containers"}));
  // Nothing is recorded for a request that is not a review.
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_decisions WHERE tenant_id = $1", {c.tenant.id()}).empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_kinds)

BOOST_AUTO_TEST_CASE(every_kind_is_judged_by_its_pod_template) {
  Cluster c;
  it::Image image = c.Image("kinds");
  for (const auto& [group, kind] : kKinds) {
    BOOST_TEST_CONTEXT(kind) {
      ReviewSpec denied;
      denied.group = group;
      denied.kind = kind;
      denied.containers = {"docker.io/library/nginx:1.27"};
      it::AdmissionAnswer a = c.Review(denied);
      BOOST_TEST(!a.allowed);
      BOOST_TEST(Contains(a.message, "docker.io/library/nginx:1.27 (container containers-0): requireCatalogImages"),
                 a.message);
      ReviewSpec allowed = denied;
      allowed.uid = "uid-" + it::RandomSuffix(12);
      allowed.containers = {TagRef(image)};
      BOOST_TEST(c.Review(allowed).allowed);
      Decision d = Recorded(c, denied.uid);
      BOOST_TEST(d.kind == kind);
      BOOST_TEST(!d.allowed);
    }
  }
}

BOOST_AUTO_TEST_CASE(containers_init_and_ephemeral_containers_are_each_judged) {
  Cluster c;
  it::Image good = c.Image("lists");
  for (int which = 0; which < 3; which++) {
    ReviewSpec spec;
    spec.containers = {TagRef(good)};
    spec.init_containers = {TagRef(good)};
    spec.ephemeral_containers = {TagRef(good)};
    std::vector<std::string>& bad = which == 0   ? spec.containers
                                    : which == 1 ? spec.init_containers
                                                 : spec.ephemeral_containers;
    bad.push_back("quay.io/outsider/tool:1");
    it::AdmissionAnswer a = c.Review(spec);
    BOOST_TEST(!a.allowed);
    const char* label = which == 0   ? "(container containers-1)"
                        : which == 1 ? "(initContainer initContainers-1)"
                                     : "(ephemeralContainer ephemeralContainers-1)";
    BOOST_TEST(Contains(a.message, std::string("quay.io/outsider/tool:1 ") + label), a.message);
    BOOST_TEST(!Contains(a.message, good.repository), a.message);
  }
}

BOOST_AUTO_TEST_CASE(delete_connect_and_other_kinds_are_allowed_at_once_and_recorded) {
  Cluster c;
  for (const char* operation : {"DELETE", "CONNECT"}) {
    ReviewSpec spec;
    spec.operation = operation;
    spec.containers = {"not-in-any-catalogue"};
    BOOST_TEST(c.Review(spec).allowed, operation);
    Decision d = Recorded(c, spec.uid);
    BOOST_TEST(d.operation == operation);
    BOOST_TEST(d.allowed);
    BOOST_TEST(d.images.Size() == 0u);
  }
  ReviewSpec config_map;
  config_map.kind = "ConfigMap";
  BOOST_TEST(c.Review(config_map).allowed);
  ReviewSpec custom;
  custom.group = "example.com";
  custom.kind = "Deployment";
  custom.containers = {"not-in-any-catalogue"};
  BOOST_TEST(c.Review(custom).allowed);
}

BOOST_AUTO_TEST_CASE(update_judges_only_images_the_old_object_did_not_run) {
  Cluster c;
  it::Image good = c.Image("update");
  ReviewSpec rollback;
  rollback.kind = "Deployment";
  rollback.group = "apps";
  rollback.operation = "UPDATE";
  rollback.containers = {"legacy/app:1", TagRef(good)};
  rollback.old_containers = std::vector<std::string>{"docker.io/legacy/app:1"};  // the same image, spelt out
  BOOST_TEST(c.Review(rollback).allowed);
  Decision d = Recorded(c, rollback.uid);
  BOOST_TEST(it::StringMember(d.images[0], "outcome") == "unchanged");
  BOOST_TEST(it::StringMember(d.images[1], "outcome") == "passed");

  ReviewSpec change = rollback;
  change.uid = "uid-" + it::RandomSuffix(12);
  change.containers = {"legacy/app:2"};
  it::AdmissionAnswer a = c.Review(change);
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "legacy/app:2"), a.message);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_catalogue)

BOOST_AUTO_TEST_CASE(catalogue_images_resolve_by_tag_or_by_digest_from_any_registry) {
  Cluster c;
  it::Image image = c.Image("resolve");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  BOOST_TEST(c.Pod({DigestRef(image)}).allowed);
  BOOST_TEST(c.Pod({"mirror.example.test/cache/anything@" + image.versions[0].digest}).allowed);
  BOOST_TEST(c.Pod({TagRef(image) + "@" + image.versions[0].digest}).allowed);
  it::AdmissionAnswer unknown_tag = c.Pod({image.repository + ":9.9"});
  BOOST_TEST(!unknown_tag.allowed);
  BOOST_TEST(Contains(unknown_tag.message, image.repository + ":9.9 is not a version of your licensed catalogue"),
             unknown_tag.message);
  // The runtime pulls by digest whatever the tag says, so an unknown digest is not the tag's version.
  it::AdmissionAnswer unknown_digest = c.Pod({TagRef(image) + "@" + it::RandomDigest()});
  BOOST_TEST(!unknown_digest.allowed);
  BOOST_TEST(Contains(unknown_digest.message, "requireCatalogImages: digest sha256:"), unknown_digest.message);
}

BOOST_AUTO_TEST_CASE(implicit_latest_resolves_the_latest_tag) {
  Cluster c;
  it::Image image = c.tenant.AddImage("latest", {{"latest"}});
  it::InsertLatestScan(image.versions[0].id, {});
  BOOST_TEST(c.Pod({image.repository}).allowed);
}

BOOST_AUTO_TEST_CASE(an_unlicensed_image_is_not_a_catalogue_image) {
  Cluster c;
  it::Image other = it::CreateImage("unlicensed");
  it::InsertLatestScan(it::AddVersion(other, {"1.0"}).id, {});
  it::AdmissionAnswer by_tag = c.Pod({TagRef(other)});
  it::AdmissionAnswer by_digest = c.Pod({DigestRef(other)});
  BOOST_TEST(!by_tag.allowed);
  BOOST_TEST(!by_digest.allowed);
  BOOST_TEST(Contains(by_digest.message, "is not a version of your licensed catalogue"), by_digest.message);
  c.tenant.License(other);
  BOOST_TEST(c.Pod({TagRef(other)}).allowed);
}

BOOST_AUTO_TEST_CASE(require_catalog_images_off_allows_outside_images) {
  Cluster c;
  c.Policy(R"({"requireCatalogImages": false})");
  BOOST_TEST(c.Pod({"nginx", "quay.io/x/y:1"}).allowed);
  // Still not a reference: refused whatever the policy.
  it::AdmissionAnswer bad = c.Pod({"NGINX:1"});
  BOOST_TEST(!bad.allowed);
  BOOST_TEST(Contains(bad.message, "imageReference"), bad.message);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_rules)

BOOST_AUTO_TEST_CASE(allowed_registries_allow_listed_prefixes_only) {
  Cluster c;
  c.Policy(R"({"requireCatalogImages": false, "allowedRegistries": ["registry.example.test/it", "quay.io/ok"]})");
  BOOST_TEST(c.Pod({"registry.example.test/it/anything:1", "quay.io/ok/tool"}).allowed);
  it::AdmissionAnswer a = c.Pod({"registry.example.test/it-evil/x:1", "nginx"});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "registry.example.test/it-evil/x:1 (container containers-0): allowedRegistries"),
             a.message);
  BOOST_TEST(Contains(a.message, "docker.io/library/nginx is not under an allowed registry"), a.message);
}

BOOST_AUTO_TEST_CASE(exempt_namespaces_skip_judging) {
  Cluster c;
  ReviewSpec system;
  system.namespace_name = "kube-system";  // exempt by default
  system.containers = {"nginx"};
  BOOST_TEST(c.Review(system).allowed);
  BOOST_TEST(it::StringMember(Recorded(c, system.uid).images[0], "outcome") == "exempt");
  c.Policy(R"({"exemptNamespaces": ["tools"]})");
  ReviewSpec tools = system;
  tools.uid = "uid-" + it::RandomSuffix(12);
  tools.namespace_name = "tools";
  BOOST_TEST(c.Review(tools).allowed);
  system.uid = "uid-" + it::RandomSuffix(12);
  BOOST_TEST(!c.Review(system).allowed);  // the list replaced the default
}

BOOST_AUTO_TEST_CASE(exempt_images_match_globs_on_the_normalised_reference) {
  Cluster c;
  c.Policy(R"({"exemptImages": ["docker.io/library/busybox:*", "*/tools/*"]})");
  BOOST_TEST(c.Pod({"busybox:1.36", "registry.example.test/tools/debug"}).allowed);
  it::AdmissionAnswer a = c.Pod({"busybox"});  // docker.io/library/busybox:latest matches too
  BOOST_TEST(a.allowed);
  it::AdmissionAnswer other = c.Pod({"docker.io/library/busybox-x:1"});
  BOOST_TEST(!other.allowed);
}

BOOST_AUTO_TEST_CASE(severity_threshold_denies_with_the_cve_ids) {
  Cluster c;
  it::Image image = c.Image("sev");
  Scan(image.versions[0], {{"CVE-2024-1001", "critical", "not-fixed"},
                           {"CVE-2024-1002", "critical"},
                           {"CVE-2024-1003", "high"},
                           {"CVE-2024-1004", "critical", "not-affected"}});
  it::AdmissionAnswer a = c.Pod({TagRef(image)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "severityThreshold: 2 vulnerabilities at or above critical in " + image.name +
                                     ":1.0: CVE-2024-1001, CVE-2024-1002"),
             a.message);
  BOOST_TEST(!Contains(a.message, "CVE-2024-1004"), "VEX not-affected counted: " << a.message);
  c.Policy(R"({"severityThreshold": "high"})");
  BOOST_TEST(Contains(c.Pod({TagRef(image)}).message, "CVE-2024-1003"));
  c.Policy(R"({"severityThreshold": null})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);

  it::Image clean = c.Image("clean");
  Scan(clean.versions[0], {{"CVE-2024-1005", "high"}});
  c.Policy("{}");
  BOOST_TEST(c.Pod({TagRef(clean)}).allowed);
}

BOOST_AUTO_TEST_CASE(only_the_latest_scan_counts) {
  Cluster c;
  it::Image image = c.Image("rescan");
  Scan(image.versions[0], {{"CVE-2024-1101", "critical"}});
  BOOST_TEST(!c.Pod({TagRef(image)}).allowed);
  Scan(image.versions[0], {{"CVE-2024-1102", "low"}});
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
}

BOOST_AUTO_TEST_CASE(only_fixable_counts_vulnerabilities_with_a_fix) {
  Cluster c;
  c.Policy(R"({"onlyFixable": true})");
  it::Image unfixed = c.Image("unfixed");
  Scan(unfixed.versions[0], {{"CVE-2024-1201", "critical", "not-fixed"}, {"CVE-2024-1202", "critical", "wont-fix"}});
  BOOST_TEST(c.Pod({TagRef(unfixed)}).allowed);
  it::Image fixable = c.Image("fixable");
  Scan(fixable.versions[0], {{"CVE-2024-1203", "critical", "fixed"}});
  it::AdmissionAnswer a = c.Pod({TagRef(fixable)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "with a fix at or above critical"), a.message);
}

BOOST_AUTO_TEST_CASE(grace_period_counts_from_first_seen_on_the_version) {
  Cluster c;
  c.Policy(R"({"gracePeriodDays": 7})");
  it::Image image = c.Image("grace");
  Scan(image.versions[0], {{"CVE-2024-1301", "critical", "fixed", 2}});
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  Scan(image.versions[0], {{"CVE-2024-1301", "critical", "fixed", 8}});
  it::AdmissionAnswer a = c.Pod({TagRef(image)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "CVE-2024-1301"), a.message);
}

BOOST_AUTO_TEST_CASE(watched_cves_deny_when_the_rule_is_on) {
  Cluster c;
  it::Image image = c.Image("watched");
  Scan(image.versions[0],
       {{"CVE-2024-1401", "low"}, {"GHSA-ABCD-EFGH-JKMN", "medium", "fixed", 30, {"CVE-2024-1402"}}});
  c.Watch("CVE-2024-1401");
  c.Watch("CVE-2024-1402");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);  // denyWatchedCves is off by default
  c.Policy(R"({"denyWatchedCves": true})");
  it::AdmissionAnswer a = c.Pod({TagRef(image)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "denyWatchedCves: 2 CVEs on your watch list in " + image.name +
                                     ":1.0: CVE-2024-1401, CVE-2024-1402"),
             a.message);
}

// A version never scanned has unknown vulnerabilities, not none: requireScan (default on) denies it
// in enforce, only warns in warn, and yields to an exception naming the rule and to exempt patterns.
BOOST_AUTO_TEST_CASE(require_scan_denies_a_version_never_scanned) {
  Cluster c;
  it::Image image = c.UnscannedImage("unscanned");
  it::AdmissionAnswer denied = c.Pod({TagRef(image)});
  BOOST_TEST(!denied.allowed);
  BOOST_TEST(Contains(denied.message, "requireScan: " + image.name + ":1.0 has never been scanned, so its "
                                      "vulnerabilities are unknown"),
             denied.message);
  c.Policy(R"({"mode": "warn"})");
  it::AdmissionAnswer warned = c.Pod({TagRef(image)});
  BOOST_TEST(warned.allowed);
  BOOST_TEST_REQUIRE(warned.warnings.size() == 1u);
  BOOST_TEST(Contains(warned.warnings[0], "requireScan: " + image.name + ":1.0 has never been scanned"),
             warned.warnings[0]);
  c.Policy(R"({"requireScan": false})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  c.Policy(R"({"exceptions": [{"rule": "requireScan", "imageId": ")" + image.id +
           R"(", "justification": "scanned elsewhere", "expiresAt": "2999-01-01T00:00:00Z"}]})");
  ReviewSpec excepted;
  excepted.containers = {TagRef(image)};
  BOOST_TEST(c.Review(excepted).allowed);
  Decision lifted = Recorded(c, excepted.uid);  // the record says which rule an exception lifted
  BOOST_TEST_REQUIRE((lifted.images[0].HasMember("exceptedRules") && lifted.images[0]["exceptedRules"].IsArray()));
  BOOST_TEST(lifted.images[0]["exceptedRules"][0].GetString() == std::string("requireScan"));
  c.Policy(R"({"exceptions": [{"rule": "requireScan", "justification": "expired", "expiresAt": "2001-01-01T00:00:00Z"}]})");
  BOOST_TEST(!c.Pod({TagRef(image)}).allowed);
  c.Policy(R"({"exemptImages": [")" + image.repository + R"(:*"]})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  // Once scanned, the version is judged by its findings like any other.
  c.Policy("{}");
  it::InsertLatestScan(image.versions[0].id, {});
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
}

// The denial of a tag says what to write instead: for a version of the catalogue, its digest, and
// what it says passes.
BOOST_AUTO_TEST_CASE(require_digest_denies_tags_alone_and_names_the_digest_to_write) {
  Cluster c;
  it::Image image = c.Image("digest");
  c.Policy(R"({"requireDigest": true})");
  ReviewSpec spec;
  spec.containers = {TagRef(image)};
  it::AdmissionAnswer a = c.Review(spec);
  BOOST_TEST(!a.allowed);
  const std::string write = "requireDigest: not pinned to a digest: write " + DigestRef(image);
  BOOST_TEST(Contains(a.message, TagRef(image) + " (container containers-0): " + write), a.message);
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST_REQUIRE(d.reasons.Size() == 1u);
  BOOST_TEST(it::StringMember(d.reasons[0], "rule") == "requireDigest");
  BOOST_TEST(it::StringMember(d.reasons[0], "message") == "not pinned to a digest: write " + DigestRef(image));
  BOOST_TEST(c.Pod({DigestRef(image)}).allowed);
  BOOST_TEST(c.Pod({TagRef(image) + "@" + image.versions[0].digest}).allowed);
  // A tag the catalogue does not know: the form to write, and requireCatalogImages as before.
  it::AdmissionAnswer unknown = c.Pod({"nginx:1.27"});
  BOOST_TEST(
      Contains(unknown.message, "requireDigest: not pinned to a digest: write docker.io/library/nginx@sha256:<digest>"),
      unknown.message);
  BOOST_TEST(Contains(unknown.message, "requireCatalogImages"), unknown.message);
}

BOOST_AUTO_TEST_CASE(exceptions_lift_a_cve_until_they_expire) {
  Cluster c;
  it::Image image = c.Image("exception");
  it::Image other = c.Image("exception-other");
  Scan(image.versions[0], {{"CVE-2024-3094", "critical"}});
  Scan(other.versions[0], {{"CVE-2024-3094", "critical"}});
  std::string future = it::Rfc3339(std::chrono::system_clock::now() + std::chrono::hours(24));
  std::string past = it::Rfc3339(std::chrono::system_clock::now() - std::chrono::seconds(1));
  c.Policy(R"({"exceptions": [{"cveId": "cve-2024-3094", "imageId": null, "justification": "patched in place", )"
           R"("expiresAt": ")" +
           future + R"("}]})");
  BOOST_TEST(c.Pod({TagRef(image), TagRef(other)}).allowed);
  ReviewSpec spec;
  spec.containers = {TagRef(image)};
  c.Review(spec);
  Decision lifted = Recorded(c, spec.uid);
  BOOST_TEST_REQUIRE((lifted.images[0].HasMember("exceptedCves") && lifted.images[0]["exceptedCves"].IsArray()));
  BOOST_TEST(lifted.images[0]["exceptedCves"][0].GetString() == std::string("CVE-2024-3094"));
  c.Policy(R"({"exceptions": [{"cveId": "CVE-2024-3094", "justification": "expired", "expiresAt": ")" + past +
           R"("}]})");
  BOOST_TEST(!c.Pod({TagRef(image)}).allowed);
  c.Policy(R"({"exceptions": [{"cveId": "CVE-2024-3094", "imageId": ")" + image.id +
           R"(", "justification": "this image only", "expiresAt": ")" + future + R"("}]})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  it::AdmissionAnswer a = c.Pod({TagRef(other)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, other.name), a.message);
}

BOOST_AUTO_TEST_CASE(stored_policy_fields_left_out_take_their_defaults) {
  Cluster c;
  c.Policy(R"({"mode": "warn"})");
  it::AdmissionAnswer a = c.Pod({"nginx"});
  BOOST_TEST(a.allowed);
  BOOST_TEST_REQUIRE(a.warnings.size() == 1u);
  BOOST_TEST(Contains(a.warnings[0], "requireCatalogImages"), a.warnings[0]);
}

BOOST_AUTO_TEST_SUITE_END()

// requireCatalogRegistry and requireDigest: "only licensed, pinned images from our registry".
BOOST_AUTO_TEST_SUITE(admission_registry)

BOOST_AUTO_TEST_CASE(require_catalog_registry_admits_the_services_registry_and_denies_every_other) {
  Cluster c;
  it::Image image = c.Image("registry");
  PutOnRegistry(image);
  const std::string digest = image.versions[0].digest;
  const std::string host = RegistryHost();
  c.Policy(R"({"requireCatalogRegistry": true})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  BOOST_TEST(c.Pod({DigestRef(image)}).allowed);
  // The host without regard to case (an upper-case host with a '.' or ':' is the same host).
  BOOST_TEST(c.Pod({icat::Upper(host) + "/it/" + image.name + "@" + digest}).allowed);
  // The same bytes from a mirror resolve to the catalogue version, but do not come from the registry.
  it::AdmissionAnswer mirror = c.Pod({"mirror.example.test/it/" + image.name + "@" + digest});
  BOOST_TEST(!mirror.allowed);
  BOOST_TEST(Contains(mirror.message, "requireCatalogRegistry: mirror.example.test/it/" + image.name +
                                          " is not on the catalogue's registry " + host),
             mirror.message);
  BOOST_TEST(!Contains(mirror.message, "requireCatalogImages"), mirror.message);
  // Docker Hub in every spelling, by digest so that only this rule can object.
  for (std::string hub :
       {"charlie", "library/charlie", "docker.io/library/charlie", "index.docker.io/library/charlie"}) {
    BOOST_TEST_CONTEXT(hub) {
      it::AdmissionAnswer a = c.Pod({hub + "@" + digest});
      BOOST_TEST(!a.allowed);
      BOOST_TEST(
          Contains(a.message, "requireCatalogRegistry: docker.io/library/charlie is not on the catalogue's registry"),
          a.message);
    }
  }
  // Another port of the same host name is another registry.
  std::string other_port = host.substr(0, host.find(':')) + ":1" + "/it/" + image.name + "@" + digest;
  it::AdmissionAnswer port = c.Pod({other_port});
  BOOST_TEST(!port.allowed);
  BOOST_TEST(Contains(port.message, "requireCatalogRegistry"), port.message);
}

// With requireCatalogImages off, the rule alone decides where images come from.
BOOST_AUTO_TEST_CASE(require_catalog_registry_alone_keeps_out_every_other_registry) {
  Cluster c;
  c.Policy(R"({"requireCatalogImages": false, "severityThreshold": null, "requireCatalogRegistry": true})");
  BOOST_TEST(c.Pod({RegistryHost() + "/anything/else:1"}).allowed);
  ReviewSpec spec;
  spec.containers = {"nginx:1.27", "quay.io/x/y:1"};
  spec.init_containers = {RegistryHost() + "/tools/init:1"};
  it::AdmissionAnswer a = c.Review(spec);
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "denied 2 images"), a.message);
  BOOST_TEST(Contains(a.message, "quay.io/x/y is not on the catalogue's registry " + RegistryHost()), a.message);
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST_REQUIRE(d.reasons.Size() == 2u);
  for (const rapidjson::Value& reason : d.reasons.GetArray()) {
    BOOST_TEST(it::StringMember(reason, "rule") == "requireCatalogRegistry");
  }
  BOOST_TEST(it::StringMember(d.images[2], "outcome") == "passed");
}

// Both rules are off unless a policy turns them on: with no policy, and with a policy stored before
// they existed, a tag and another registry's digest of a catalogue version are admitted.
BOOST_AUTO_TEST_CASE(both_rules_are_off_by_default_and_in_policies_stored_without_them) {
  Cluster c;
  it::Image image = c.Image("defaults");
  PutOnRegistry(image);
  const std::vector<std::string> images = {TagRef(image), "mirror.example.test/it/x@" + image.versions[0].digest};
  BOOST_TEST(c.Pod(images).allowed);
  c.Policy(R"({"mode": "enforce", "allowedRegistries": [], "severityThreshold": "critical"})");
  BOOST_TEST(c.Pod(images).allowed);
  c.Policy(R"({"requireDigest": false, "requireCatalogRegistry": false})");
  BOOST_TEST(c.Pod(images).allowed);
}

// Each mode treats the two rules as any other: enforce denies, warn warns, audit records; every
// mode records the reasons.
BOOST_AUTO_TEST_CASE(both_rules_obey_the_mode_and_are_recorded) {
  Cluster c;
  it::Image image = c.Image("modes");
  PutOnRegistry(image);
  const std::string tag_from_mirror = "mirror.example.test/it/" + image.name + ":1.0";
  const std::vector<std::string> rules = {"requireCatalogRegistry", "requireDigest"};
  for (const char* mode : {"enforce", "warn", "audit"}) {
    BOOST_TEST_CONTEXT(mode) {
      c.Policy(R"({"mode": ")" + std::string(mode) +
               R"(", "requireCatalogImages": false, "requireDigest": true, "requireCatalogRegistry": true})");
      ReviewSpec spec;
      spec.containers = {tag_from_mirror};
      it::AdmissionAnswer a = c.Review(spec);
      BOOST_TEST(a.allowed == (std::string(mode) != "enforce"));
      for (const std::string& rule : rules) {
        if (std::string(mode) == "enforce") BOOST_TEST(Contains(a.message, rule), a.message);
        bool warned = std::any_of(a.warnings.begin(), a.warnings.end(), [&](const std::string& w) {
          return Contains(w, "icat admission (warn): " + tag_from_mirror) && Contains(w, rule);
        });
        BOOST_TEST(warned == (std::string(mode) == "warn"), rule);
      }
      Decision d = Recorded(c, spec.uid);
      BOOST_TEST(d.mode == mode);
      std::vector<std::string> recorded;
      for (const rapidjson::Value& reason : d.reasons.GetArray()) recorded.push_back(it::StringMember(reason, "rule"));
      BOOST_TEST(recorded == rules, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(admission_modes)

BOOST_AUTO_TEST_CASE(warn_mode_allows_with_a_warning_per_image_and_rule) {
  Cluster c;
  c.Policy(R"({"mode": "warn", "requireDigest": true})");
  ReviewSpec spec;
  spec.containers = {"nginx:1.27", "redis:7"};
  it::AdmissionAnswer a = c.Review(spec);
  BOOST_TEST(a.allowed);
  BOOST_TEST(a.message.empty());
  BOOST_TEST_REQUIRE(a.warnings.size() == 4u);
  BOOST_TEST(Contains(a.warnings[0], "nginx:1.27 (container containers-0): requireDigest"), a.warnings[0]);
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST(d.allowed);
  BOOST_TEST(d.mode == "warn");
  BOOST_TEST(d.reasons.Size() == 4u);
}

BOOST_AUTO_TEST_CASE(audit_mode_allows_silently_and_records_what_it_would_deny) {
  Cluster c;
  c.Policy(R"({"mode": "audit"})");
  ReviewSpec spec;
  spec.containers = {"nginx:1.27"};
  it::AdmissionAnswer a = c.Review(spec);
  BOOST_TEST(a.allowed);
  BOOST_TEST(a.warnings.empty());
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST(d.allowed);
  BOOST_TEST(d.mode == "audit");
  BOOST_TEST_REQUIRE(d.reasons.Size() == 1u);
  BOOST_TEST(it::StringMember(d.reasons[0], "rule") == "requireCatalogImages");
  BOOST_TEST(it::StringMember(d.images[0], "outcome") == "failed");
}

BOOST_AUTO_TEST_CASE(decision_records_the_request_images_and_reasons) {
  Cluster c;
  it::Image image = c.Image("record");
  Scan(image.versions[0], {{"CVE-2024-1501", "critical"}});
  ReviewSpec spec;
  spec.kind = "Deployment";
  spec.group = "apps";
  spec.namespace_name = "shop";
  spec.containers = {TagRef(image)};
  spec.init_containers = {"busybox"};
  BOOST_TEST(!c.Review(spec).allowed);
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST(!d.allowed);
  BOOST_TEST(!d.dry_run);
  BOOST_TEST(d.mode == "enforce");
  BOOST_TEST(d.operation == "CREATE");
  BOOST_TEST(d.kind == "Deployment");
  BOOST_TEST(d.namespace_name.value_or("") == "shop");
  BOOST_TEST(d.name.value_or("") == "obj");
  BOOST_TEST_REQUIRE(d.images.IsArray());
  BOOST_TEST_REQUIRE(d.images.Size() == 2u);
  BOOST_TEST(it::StringMember(d.images[0], "imageId") == image.id);
  BOOST_TEST(it::StringMember(d.images[0], "versionId") == image.versions[0].id);
  BOOST_TEST(it::StringMember(d.images[1], "normalised") == "docker.io/library/busybox:latest");
  BOOST_TEST_REQUIRE(d.reasons.Size() == 2u);
  BOOST_TEST(it::StringMember(d.reasons[0], "rule") == "severityThreshold");
  BOOST_TEST(d.reasons[0]["cves"][0].GetString() == std::string("CVE-2024-1501"));
  BOOST_TEST(it::StringMember(d.reasons[1], "image") == "busybox");
}

BOOST_AUTO_TEST_CASE(dry_run_is_recorded_as_such) {
  Cluster c;
  ReviewSpec spec;
  spec.dry_run = true;
  spec.containers = {"nginx"};
  BOOST_TEST(!c.Review(spec).allowed);
  BOOST_TEST(Recorded(c, spec.uid).dry_run);
}

BOOST_AUTO_TEST_CASE(another_tenants_policy_is_never_applied) {
  Cluster lenient, strict;
  lenient.Policy(R"({"mode": "audit", "requireCatalogImages": false, "exemptNamespaces": ["apps"]})");
  strict.Policy(R"({"requireDigest": true})");
  it::Image image = strict.Image("isolation");
  it::Image lenient_image = lenient.Image("isolation-lenient");
  // The strict tenant's review is judged by its own policy only.
  ReviewSpec spec;
  spec.containers = {TagRef(image)};
  it::AdmissionAnswer a = strict.Review(spec);
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "requireDigest"), a.message);
  // The lenient tenant's image is not in the strict tenant's catalogue.
  it::AdmissionAnswer foreign = strict.Pod({DigestRef(lenient_image)});
  BOOST_TEST(!foreign.allowed);
  BOOST_TEST(Contains(foreign.message, "requireCatalogImages"), foreign.message);
  // And the lenient tenant is not held to the strict policy.
  BOOST_TEST(lenient.Pod({"anything/at:all"}).allowed);
  // Each decision is recorded under its own tenant only.
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_decisions WHERE request_uid = $1", {spec.uid}).size() == 1u);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_decisions WHERE tenant_id = $1 AND request_uid = $2",
                         {lenient.tenant.id(), spec.uid})
                 .empty());
}

BOOST_AUTO_TEST_CASE(another_tenants_watch_list_is_never_applied) {
  Cluster watcher, other;
  watcher.Watch("CVE-2024-1601");
  other.Policy(R"({"denyWatchedCves": true})");
  it::Image image = other.Image("watch-isolation");
  Scan(image.versions[0], {{"CVE-2024-1601", "low"}});
  BOOST_TEST(other.Pod({TagRef(image)}).allowed);
}

BOOST_AUTO_TEST_SUITE_END()

// POST /v1/admission/{key}: the route of API servers that cannot send a header.
BOOST_AUTO_TEST_SUITE(admission_key_in_path)

BOOST_AUTO_TEST_CASE(the_key_in_the_path_is_answered_and_recorded_like_the_key_in_a_header) {
  Cluster c;
  it::Image image = c.Image("kip");
  for (const std::vector<std::string>& containers :
       std::vector<std::vector<std::string>>{{TagRef(image)}, {TagRef(image), "busybox"}}) {
    ReviewSpec by_header, in_path;
    by_header.containers = in_path.containers = containers;
    it::AdmissionAnswer a = it::ExpectAnswer(it::PostReview(c.key, ReviewJson(by_header)), by_header.uid);
    it::AdmissionAnswer b = it::ExpectAnswer(it::PostReviewKeyInPath(c.key, ReviewJson(in_path)), in_path.uid);
    BOOST_TEST(a.allowed == (containers.size() == 1));
    BOOST_TEST(b.allowed == a.allowed);
    BOOST_TEST(b.message == a.message);
    Decision da = Recorded(c, by_header.uid), db = Recorded(c, in_path.uid);
    BOOST_TEST(db.allowed == da.allowed);
    BOOST_TEST(db.mode == da.mode);
    BOOST_TEST((db.images == da.images));
    BOOST_TEST((db.reasons == da.reasons));
  }
}

BOOST_AUTO_TEST_CASE(a_key_in_the_path_and_in_a_header_is_refused_whichever_is_good) {
  Cluster c;
  ReviewSpec spec;
  spec.containers = {"nginx"};
  it::Response both = it::Send("POST", "/v1/admission/" + c.key,
                               {{"Authorization", "Bearer " + c.key}, {"Content-Type", "application/json"}},
                               ReviewJson(spec));
  it::ExpectRefusal(both, spec.uid, 401, "UNAUTHENTICATED", "not both");
  it::Response other = it::Send("POST", "/v1/admission/icat_live_nope",
                                {{"X-API-Key", c.key}, {"Content-Type", "application/json"}}, ReviewJson(spec));
  it::ExpectRefusal(other, spec.uid, 401, "UNAUTHENTICATED", "not both");
  BOOST_TEST(DecisionsOf(spec.uid) == 0);
}

BOOST_AUTO_TEST_CASE(the_key_in_the_path_reaches_no_log_file_and_no_decision_only_its_prefix) {
  using namespace std::chrono_literals;
  Cluster c;
  const std::string prefix = c.key.substr(0, 14);
  const std::string log_dir = it::GetEnv().stack_dir + "/log";
  ReviewSpec spec;
  spec.containers = {"busybox"};
  it::Response denied = it::PostReviewKeyInPath(c.key, ReviewJson(spec));
  BOOST_TEST(!it::ExpectAnswer(denied, spec.uid).allowed);
  it::ExpectError(it::PostReviewKeyInPath(c.key, R"({"apiVersion": 1})"), 400, "VALIDATION_ERROR");
  it::ExpectError(it::PostReviewKeyInPath(c.key, "{"), 400, "MALFORMED_JSON");
  // nginx's own refusals, whose error-log lines quote the request line: a body over the limit, and a
  // pool it cannot reach.
  it::Response too_large = it::PostReviewKeyInPath(c.key, std::string(2 * 1024 * 1024, ' '));
  BOOST_TEST(too_large.status == 413, too_large.Summary());
  {
    it::HiddenPoolSocket hidden("admission");
    it::Response unreachable = it::PostReviewKeyInPath(c.key, ReviewJson(spec));
    BOOST_TEST(unreachable.status == 502, unreachable.Summary());
  }
  // The review's lines are there and name the key by its prefix (nginx writes its line after the reply)...
  const std::string rid = "rid=" + denied.Header("x-request-id");
  std::string access_line;
  BOOST_TEST(it::WaitFor([&] { return !(access_line = LogLineWith(log_dir + "/nginx-access.log", rid)).empty(); }, 5s));
  BOOST_TEST(Contains(access_line, "POST /v1/admission/" + prefix + "... "), access_line);
  std::string handler_line = LogLineWith(log_dir + "/admission.log", rid);
  BOOST_TEST(Contains(handler_line, " key=" + prefix + " "), handler_line);
  BOOST_TEST(Contains(handler_line, "route=\"POST /v1/admission/{key}\""), handler_line);
  // ...and no log file holds the key, nor any decision record.
  for (const std::string& file : StackLogFiles()) {
    BOOST_TEST(!Contains(it::ReadFileBytes(file), c.key), file << " holds the key");
  }
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST(!d.allowed);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_decisions d WHERE tenant_id = $1 AND strpos(d::text, $2) > 0",
                         {c.tenant.id(), c.key})
                 .empty());
}

// The two registrations exclude the same namespaces: a list written twice must not drift.
BOOST_AUTO_TEST_CASE(both_webhook_registrations_carry_the_same_namespace_selector) {
  auto selector = [](const std::string& file) {
    std::string text = it::ReadFileBytes(it::GetEnv().repo + "/deploy/kubernetes/" + file);
    size_t from = text.find("    namespaceSelector:\n"), to = text.find("    matchConditions:\n");
    BOOST_TEST_REQUIRE((from != std::string::npos && to != std::string::npos && from < to), file);
    return text.substr(from, to - from);
  };
  std::string in_cluster = selector("admission-webhook.yaml");
  BOOST_TEST(Contains(in_cluster, "- kube-node-lease\n"));
  BOOST_TEST(in_cluster == selector("admission-webhook-managed.yaml"));
}

BOOST_AUTO_TEST_SUITE_END()

// Issue 31: CISA KEV and EPSS in the policy. The feeds match a finding by its id or a CVE alias.
BOOST_AUTO_TEST_SUITE(admission_feeds)

BOOST_AUTO_TEST_CASE(deny_known_exploited_denies_names_the_cve_and_its_date_and_yields_to_exceptions) {
  Cluster c;
  const std::string cve = UniqueCve();
  KnownExploited(cve, "2021-12-10");
  it::Image image = c.Image("kev");
  Scan(image.versions[0], {{"GHSA-KEV1-2345-6789", "low", "not-fixed", 30, {cve}}, {"CVE-2099-0000001", "low"}});
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);  // off by default
  c.Policy(R"({"denyKnownExploited": true})");
  it::AdmissionAnswer a = c.Pod({TagRef(image)});
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "denyKnownExploited: 1 known exploited vulnerability in " + image.name +
                                     ":1.0: GHSA-KEV1-2345-6789 (" + cve + ", CISA KEV, added 2021-12-10)"),
             a.message);
  BOOST_TEST(!Contains(a.message, "CVE-2099-0000001"), a.message);
  std::string future = it::Rfc3339(std::chrono::system_clock::now() + std::chrono::hours(24));
  c.Policy(R"({"denyKnownExploited": true, "exceptions": [{"cveId": ")" + cve +
           R"(", "justification": "not reachable", "expiresAt": ")" + future + R"("}]})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  // The vendor's VEX takes it out too (written before the policy, whose change the handlers see).
  VendorNotAffected(image, cve);
  c.Policy(R"({"denyKnownExploited": true})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
}

BOOST_AUTO_TEST_CASE(max_epss_denies_a_finding_scored_above_it_and_is_recorded) {
  Cluster c;
  const std::string likely = UniqueCve(), unlikely = UniqueCve();
  EpssScore(likely, "0.91234");
  EpssScore(unlikely, "0.2");
  it::Image image = c.Image("epss");
  Scan(image.versions[0], {{likely, "medium"}, {unlikely, "low"}});
  c.Policy(R"({"maxEpss": 0.5})");
  ReviewSpec spec;
  spec.containers = {TagRef(image)};
  it::AdmissionAnswer a = c.Review(spec);
  BOOST_TEST(!a.allowed);
  BOOST_TEST(Contains(a.message, "maxEpss: 1 vulnerability with an EPSS score above 0.5 in " + image.name + ":1.0: " +
                                     likely + " (EPSS 0.9123)"),
             a.message);
  Decision d = Recorded(c, spec.uid);
  BOOST_TEST_REQUIRE(d.reasons.IsArray());
  BOOST_TEST_REQUIRE(d.reasons.Size() == 1u);
  BOOST_TEST(d.reasons[0]["rule"].GetString() == std::string("maxEpss"));
  BOOST_TEST(d.reasons[0]["cves"][0].GetString() == likely);
  c.Policy(R"({"maxEpss": 0.95})");
  BOOST_TEST(c.Pod({TagRef(image)}).allowed);
  c.Policy(R"({"maxEpss": 0.1})");
  BOOST_TEST(Contains(c.Pod({TagRef(image)}).message, unlikely));
}

BOOST_AUTO_TEST_SUITE_END()

// Issue 31 part 5: `icat check --fail-on LEVEL` and a policy of severityThreshold LEVEL decide each
// version alike, because both call the rules of icat/vulnerability_rules.hpp. Each case has the
// answer both must give, so a rule that drifts in either fails here.
BOOST_AUTO_TEST_SUITE(one_decision)

BOOST_AUTO_TEST_CASE(icat_check_and_the_webhook_agree_on_every_kind_of_finding) {
  Cluster c;
  it::TempDir dir;
  const std::string read_key = c.tenant.CreateKey(it::kAllReads);
  struct Case {
    std::string label;
    std::vector<FindingSpec> findings;
    bool scanned = true;
    bool passes_critical, passes_high;
    std::string vendor_not_affected = "";
  };
  const std::vector<Case> cases = {
      {"wontfix", {{"CVE-2024-5001", "critical", "wont-fix"}}, true, false, false},
      {"notfixed", {{"CVE-2024-5002", "critical", "not-fixed"}}, true, false, false},
      {"scanner-not-affected", {{"CVE-2024-5003", "critical", "not-affected"}}, true, true, true},
      {"vendor-vex", {{"CVE-2024-5004", "critical", "fixed"}}, true, true, true, "CVE-2024-5004"},
      {"unknown", {{"CVE-2024-5005", "unknown", "unknown"}}, true, true, true},
      {"high", {{"CVE-2024-5006", "high", "fixed"}}, true, true, false},
      // One id in two packages: the not-affected package does not hide the affected one.
      {"merged", {{"CVE-2024-5007", "critical", "not-affected"}, {"CVE-2024-5007", "critical", "unknown"}}, true,
       false, false},
      {"unscanned", {}, false, false, false},
  };
  for (const Case& k : cases) {
    it::Image image = k.scanned ? c.Image(k.label) : c.UnscannedImage(k.label);
    if (k.scanned) Scan(image.versions[0], k.findings);
    if (!k.vendor_not_affected.empty()) VendorNotAffected(image, k.vendor_not_affected);
    for (const auto& [level, passes] : {std::pair<std::string, bool>{"critical", k.passes_critical},
                                        std::pair<std::string, bool>{"high", k.passes_high}}) {
      BOOST_TEST_CONTEXT(k.label << " at " << level) {
        c.Policy(R"({"severityThreshold": ")" + level + R"("})");
        it::AdmissionAnswer review = c.Pod({TagRef(image)});
        it::ProcessResult check = it::RunIcat(dir, read_key, {"check", "--fail-on", level, TagRef(image)});
        BOOST_TEST(review.allowed == passes, review.message);
        BOOST_TEST(check.exit_code == (passes ? 0 : 1), it::Shown(check));
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
