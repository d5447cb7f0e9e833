// The admission webhook end to end with the portal: a policy saved with PUT /api/admission-policy
// decides the reviews of POST /v1/admission, and GET /api/admission-decisions lists what was decided.
#include <boost/test/unit_test.hpp>

#include "admission_support.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

// Posts PodReview and asserts the answer; returns its verdict.
it::AdmissionAnswer Review(const std::string& key, const std::string& uid, const std::string& image) {
  return it::ExpectAnswer(it::PostReview(key, it::PodReview(uid, image)), uid);
}

// Enough reviews for every admission worker to have judged the image at least once (and to hold
// what it read in its cache).
constexpr int kRounds = 12;

// kRounds reviews of one image; each must be allowed (or each denied).
void ExpectEveryReview(const std::string& key, const std::string& image, bool allowed) {
  for (int i = 0; i < kRounds; i++) {
    it::AdmissionAnswer d = Review(key, "uid-round-" + it::RandomSuffix(8), image);
    BOOST_TEST_REQUIRE(d.allowed == allowed, "review " << i << " of " << image);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admission_portal)

BOOST_AUTO_TEST_CASE(a_policy_saved_in_the_portal_decides_every_following_review) {
  it::PortalTenant t;
  std::string key = t.tenant.CreateKey("admission");
  it::Image image = t.tenant.AddImage("policy-change", {{"1.0"}});
  it::InsertLatestScan(image.versions[0].id, {});  // scanned clean: requireScan passes
  std::string reference = image.repository + ":1.0";
  ExpectEveryReview(key, reference, true);
  it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireDigest": true})"));
  ExpectEveryReview(key, reference, false);
}

BOOST_AUTO_TEST_CASE(a_cve_watched_or_unwatched_in_the_portal_decides_every_following_review) {
  it::PortalTenant t;
  std::string key = t.tenant.CreateKey("admission");
  it::Image image = t.tenant.AddImage("watch-change", {{"1.0"}});
  it::InsertLatestScan(image.versions[0].id, {});  // scanned clean: requireScan passes
  std::string scan_id = it::InsertLatestScan(image.versions[0].id, {});
  it::PgQuery("INSERT INTO vulnerabilities (set_id, vuln_id, package_name, package_version, severity, fix_state) "
              "VALUES ($1, 'CVE-2024-3094', 'xz-utils', '5.6.0', 'low', 'fixed')",
              {scan_id});
  it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"denyWatchedCves": true})"));
  std::string reference = image.repository + ":1.0";
  ExpectEveryReview(key, reference, true);

  it::Response watched = it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "CVE-2024-3094"})");
  BOOST_TEST_REQUIRE(watched.status == 201, watched.Summary());
  rapidjson::Document watch = it::JsonOf(watched);
  ExpectEveryReview(key, reference, false);

  it::Response removed = it::Send("DELETE", "/api/cve-watches/" + it::StringMember(watch, "id"), t.As(t.admin));
  BOOST_TEST_REQUIRE(removed.status == 204, removed.Summary());
  ExpectEveryReview(key, reference, true);
}

BOOST_AUTO_TEST_CASE(policy_saved_in_the_portal_decides_and_its_decisions_are_listed_there) {
  it::PortalTenant t;
  std::string key = t.tenant.CreateKey("admission");
  it::Image image = t.tenant.AddImage("portal", {{"2.0"}});
  it::InsertLatestScan(image.versions[0].id, {});  // scanned clean: requireScan passes
  std::string reference = image.repository + ":2.0";

  it::Response put =
      it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"mode": "warn", "requireDigest": true})");
  it::ExpectJson200(put);
  it::AdmissionAnswer warned = Review(key, "uid-warn-" + it::RandomSuffix(6), reference);
  BOOST_TEST(warned.allowed);
  BOOST_TEST_REQUIRE(!warned.warnings.empty());
  BOOST_TEST(warned.warnings[0].find("requireDigest") != std::string::npos);

  it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireDigest": true})"));
  std::string denied_uid = "uid-deny-" + it::RandomSuffix(6);
  it::AdmissionAnswer denied = Review(key, denied_uid, reference);
  BOOST_TEST(!denied.allowed);
  // Pinned, the same image passes.
  BOOST_TEST(Review(key, "uid-pin-" + it::RandomSuffix(6), image.repository + "@" + image.versions[0].digest).allowed);

  rapidjson::Document list = it::ExpectJson200(it::Get("/api/admission-decisions", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(list["decisions"].Size() == 3u);
  const rapidjson::Value& d = list["decisions"][1];  // newest first: pinned, denied, warned
  BOOST_TEST(it::StringMember(d, "requestUid") == denied_uid);
  BOOST_TEST(!d["allowed"].GetBool());
  BOOST_TEST(it::StringMember(d, "mode") == "enforce");
  BOOST_TEST(it::StringMember(d, "kind") == "Pod");
  BOOST_TEST(it::StringMember(d, "namespace") == "web");
  BOOST_TEST(it::StringMember(d, "name") == "front");
  BOOST_TEST(!d["dryRun"].GetBool());
  // Which key asked, by its listed prefix, never the key itself.
  BOOST_TEST(it::StringMember(d, "keyPrefix") == key.substr(0, 14));
  BOOST_TEST(it::StringMember(d["images"][0], "reference") == reference);
  BOOST_TEST(it::StringMember(d["images"][0], "imageId") == image.id);
  BOOST_TEST(it::StringMember(d["reasons"][0], "rule") == "requireDigest");
  BOOST_TEST(it::StringMember(list["decisions"][2], "mode") == "warn");
  BOOST_TEST(list["decisions"][2]["allowed"].GetBool());

  rapidjson::Document refused = it::ExpectJson200(it::Get("/api/admission-decisions?allowed=false", t.As(t.user)));
  BOOST_TEST_REQUIRE(refused["decisions"].Size() == 1u);
  BOOST_TEST(it::StringMember(refused["decisions"][0], "requestUid") == denied_uid);
}

BOOST_AUTO_TEST_CASE(another_tenants_decisions_are_not_listed) {
  it::PortalTenant mine, theirs;
  std::string their_key = theirs.tenant.CreateKey("admission");
  Review(their_key, "uid-theirs-" + it::RandomSuffix(6), "nginx");
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-decisions", mine.As(mine.viewer)))["decisions"].Size() == 0u);
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-decisions", theirs.As(theirs.viewer)))["decisions"].Size() ==
             1u);
}

BOOST_AUTO_TEST_CASE(decision_records_are_compressed_with_lz4) {
  // pglz was the largest single cost of a review (V0008); the local Postgres has lz4.
  std::vector<it::PgRow> rows = it::PgQuery(
      "SELECT attname, attcompression::text FROM pg_attribute WHERE attrelid = 'admission_decisions'::regclass "
      "AND attname IN ('images', 'reasons') ORDER BY attname");
  BOOST_TEST_REQUIRE(rows.size() == 2u);
  for (const it::PgRow& row : rows) BOOST_TEST(row.at(1).value_or("") == "l", row.at(0).value_or(""));
}

BOOST_AUTO_TEST_SUITE_END()
