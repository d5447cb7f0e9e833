// The reply cache of the /v1 catalogue reads: replies are reused (Cache-Status: hit), never across
// tenants, never past a catalogue change icatctl made, and never past a key revocation.
#include <boost/test/unit_test.hpp>

#include "support.hpp"

namespace it = icat::test;

namespace {

// Enough requests for every worker of a pool to have answered the URL at least once.
constexpr int kRounds = 12;

// GETs url kRounds times; every answer must have `status`. Returns how many were cache hits.
int GetRounds(const std::string& url, const std::string& key, long status) {
  int hits = 0;
  for (int i = 0; i < kRounds; i++) {
    it::Response r = it::Get(url, it::Bearer(key));
    BOOST_TEST_REQUIRE(r.status == status, url << ": " << r.Summary());
    if (r.Header("cache-status") == "icat; hit") hits++;
  }
  return hits;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reply_cache)

BOOST_AUTO_TEST_CASE(repeated_reads_are_answered_from_the_cache_with_the_same_bytes) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("cached", {{"1.0"}});
  std::string key = tenant.CreateKey("read:catalog,read:vulns");
  const std::vector<std::string> urls = {"/v1/images/" + image.id, "/v1/images?limit=5",
                                         "/v1/images/" + image.id + "/vulnerabilities", "/v1/cve/CVE-2014-0160"};
  for (const std::string& url : urls) {
    it::Response first = it::Get(url, it::Bearer(key));
    BOOST_TEST_REQUIRE(first.status == 200, first.Summary());
    BOOST_TEST(first.Header("cache-status").rfind("icat; ", 0) == 0u, first.Summary());
    BOOST_TEST(GetRounds(url, key, 200) > 0, url << " was never answered from the cache");
    it::Response again = it::Get(url, it::Bearer(key));
    BOOST_TEST(again.body == first.body, url);
    BOOST_TEST(again.Has("ratelimit"), "a cached reply still counts against the key's limit: " << again.Summary());
  }
}

// Cache-Control: no-cache (RFC 9111) asks for a fresh reply: never a stored one, however often.
BOOST_AUTO_TEST_CASE(a_request_with_cache_control_no_cache_is_answered_afresh) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("no-cache", {{"1.0"}});
  std::string key = tenant.CreateKey();
  std::string url = "/v1/images/" + image.id;
  BOOST_TEST_REQUIRE(GetRounds(url, key, 200) > 0);
  for (const char* directives : {"no-cache", "max-age=0, No-Cache", "no-cache,no-store"}) {
    for (int i = 0; i < kRounds; i++) {
      it::Headers headers = it::Bearer(key);
      headers.emplace_back("Cache-Control", directives);
      it::Response r = it::Get(url, headers);
      BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
      BOOST_TEST(r.Header("cache-status") == "icat; fwd=request", directives);
    }
  }
  // Not the directive: a stored reply is still used.
  it::Headers other = it::Bearer(key);
  other.emplace_back("Cache-Control", "no-cache-please, max-age=60");
  int hits = 0;
  for (int i = 0; i < kRounds; i++) hits += it::Get(url, other).Header("cache-status") == "icat; hit";
  BOOST_TEST(hits > 0);
}

BOOST_AUTO_TEST_CASE(a_licence_revoke_hides_the_image_on_the_very_next_request) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("revoked-licence", {{"1.0"}});
  std::string key = tenant.CreateKey();
  GetRounds("/v1/images/" + image.id, key, 200);
  it::IcatctlOk({"license", "revoke", "--tenant", tenant.subdomain(), "--image", image.name});
  GetRounds("/v1/images/" + image.id, key, 404);
}

BOOST_AUTO_TEST_CASE(a_new_version_shows_on_the_very_next_request) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("new-version", {{"1.0"}});
  std::string key = tenant.CreateKey();
  GetRounds("/v1/images/" + image.id, key, 200);
  it::AddVersion(image, {"2.0"});
  for (int i = 0; i < kRounds; i++) {
    rapidjson::Document body = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
    BOOST_TEST_REQUIRE(body["versions"].Size() == 2u, "round " << i << " still shows the old versions");
    BOOST_TEST(it::StringMember(body["latestVersion"], "tag") == "2.0");
  }
}

BOOST_AUTO_TEST_CASE(the_same_url_answers_each_tenant_its_own_catalogue) {
  it::Tenant a, b;
  it::Image only_a = a.AddImage("tenant-a-only", {{"1.0"}});
  std::string key_a = a.CreateKey(), key_b = b.CreateKey();
  GetRounds("/v1/images/" + only_a.id, key_a, 200);
  GetRounds("/v1/images/" + only_a.id, key_b, 404);
  for (int i = 0; i < kRounds; i++) {
    rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images", it::Bearer(key_b)));
    BOOST_TEST_REQUIRE(list["images"].Size() == 0u, "tenant b sees tenant a's images");
  }
}

BOOST_AUTO_TEST_CASE(a_revoked_key_is_refused_although_its_reply_is_cached) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("revoked-key", {{"1.0"}});
  std::string key = tenant.CreateKey();
  GetRounds("/v1/images/" + image.id, key, 200);
  tenant.RevokeKey(key);
  for (int i = 0; i < kRounds; i++)
    it::ExpectError(it::Get("/v1/images/" + image.id, it::Bearer(key)), 401, "UNAUTHENTICATED");
}

BOOST_AUTO_TEST_CASE(errors_are_not_cached) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  const std::string unknown = "/v1/images/00000000-0000-4000-8000-000000000000";
  for (int i = 0; i < kRounds; i++) {
    it::Response r = it::Get(unknown, it::Bearer(key));
    it::ExpectError(r, 404, "NOT_FOUND");
    BOOST_TEST(r.Header("cache-status") != "icat; hit", r.Summary());
  }
}

BOOST_AUTO_TEST_SUITE_END()
