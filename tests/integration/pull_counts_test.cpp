// Pull counts (docs/registry.md, "Pull counts"): each version in the image detail of both APIs, and
// in /v1's version reads, shows how often the calling tenant pulled it and when last; another
// tenant's pulls never show. The rows are written as the registry's auth decision writes them,
// here straight into version_pulls as the owner.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <tuple>

#include "../../handlers/catalog/queries.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

// A pull record of one tenant and version, as the auth decision leaves it.
void RecordPulls(const it::Tenant& tenant, const it::Version& version, int count, const std::string& last) {
  it::PgQuery(
      "INSERT INTO version_pulls (tenant_id, version_id, pull_count, last_pulled_at) VALUES ($1, $2, $3, $4) "
      "ON CONFLICT (tenant_id, version_id) DO UPDATE SET pull_count = EXCLUDED.pull_count, "
      "last_pulled_at = EXCLUDED.last_pulled_at",
      {tenant.id(), version.id, std::to_string(count), last});
}

struct Pulls {
  long long count;
  std::optional<std::string> last;  // RFC 3339 as written; none: never
};

void ExpectPulls(const rapidjson::Value& version, const Pulls& expected, const std::string& where) {
  BOOST_TEST_CONTEXT(where) {
    BOOST_TEST_REQUIRE(version.IsObject());
    BOOST_TEST(it::IntMember(version, "pullCount") == expected.count);
    if (!expected.last) {
      BOOST_TEST(it::IsNullMember(version, "lastPulledAt"));
    } else {
      std::string shown = it::StringMember(version, "lastPulledAt");
      BOOST_TEST((it::ParseRfc3339(shown) && it::ParseRfc3339(shown) == it::ParseRfc3339(*expected.last)),
                 shown << " is not " << *expected.last);
    }
  }
}

// The image's detail as the tenant reads it on /v1 (afresh: a reply a worker cached before the
// pull may be up to ICAT_WORKER_CACHE_SECONDS old) and on the portal.
std::vector<std::pair<std::string, rapidjson::Document>> Details(const it::Tenant& tenant, const std::string& key,
                                                                 const it::Image& image) {
  it::Headers fresh = it::Bearer(key);
  fresh.emplace_back("Cache-Control", "no-cache");
  std::vector<std::pair<std::string, rapidjson::Document>> out;
  out.emplace_back("/v1", it::ExpectJson200(it::Get("/v1/images/" + image.id, fresh)));
  out.emplace_back("portal", it::ExpectJson200(it::Get("/api/docker-images/" + image.id, it::PortalHeaders(tenant))));
  return out;
}

// Every place a version shows the tenant's pulls: the detail's latestVersion and versions (newest
// first: 2.0, 1.0) in both APIs, and /v1's version list and single version.
void ExpectEverywhere(it::Tenant& tenant, const it::Image& image, const Pulls& v10, const Pulls& v20) {
  std::string key = tenant.CreateKey();
  for (auto& [api, d] : Details(tenant, key, image)) {
    ExpectPulls(d["latestVersion"], v20, api + " latestVersion");
    BOOST_TEST_REQUIRE(d["versions"].Size() == 2u);
    ExpectPulls(d["versions"][0], v20, api + " versions[0] (2.0)");
    ExpectPulls(d["versions"][1], v10, api + " versions[1] (1.0)");
  }
  it::Headers fresh = it::Bearer(key);
  fresh.emplace_back("Cache-Control", "no-cache");
  rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images/" + image.id + "/versions", fresh));
  BOOST_TEST_REQUIRE(list["versions"].Size() == 2u);
  ExpectPulls(list["versions"][0], v20, "version list 2.0");
  ExpectPulls(list["versions"][1], v10, "version list 1.0");
  rapidjson::Document one = it::ExpectJson200(it::Get("/v1/images/" + image.id + "/versions/1.0", fresh));
  ExpectPulls(one, v10, "version 1.0");
}

std::vector<it::VersionSpec> TwoVersions() {
  return {{"1.0", 100, std::nullopt, "2026-01-01T00:00:00Z", {}},
          {"2.0", 200, std::nullopt, "2026-02-01T00:00:00Z", {}}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pull_counts)

BOOST_AUTO_TEST_CASE(a_version_never_pulled_shows_zero_and_null) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("pulls-none", TwoVersions());
  ExpectEverywhere(tenant, image, {0, std::nullopt}, {0, std::nullopt});
}

BOOST_AUTO_TEST_CASE(each_tenant_sees_its_own_pulls_of_each_version_and_never_another_s) {
  it::Tenant a, b, c;
  it::Image image = a.AddImage("pulls", TwoVersions());
  b.License(image);
  c.License(image);
  const it::Version& v10 = image.versions[0];
  const it::Version& v20 = image.versions[1];
  RecordPulls(a, v20, 3, "2026-11-20T10:00:00Z");
  RecordPulls(b, v10, 7, "2026-11-21T11:30:00Z");
  RecordPulls(b, v20, 11, "2026-11-22T12:45:00Z");

  ExpectEverywhere(a, image, {0, std::nullopt}, {3, "2026-11-20T10:00:00Z"});
  ExpectEverywhere(b, image, {7, "2026-11-21T11:30:00Z"}, {11, "2026-11-22T12:45:00Z"});
  ExpectEverywhere(c, image, {0, std::nullopt}, {0, std::nullopt});  // licensed, never pulled

  // Another pull moves the figures of that tenant only.
  RecordPulls(a, v20, 4, "2026-11-23T08:00:00Z");
  ExpectEverywhere(a, image, {0, std::nullopt}, {4, "2026-11-23T08:00:00Z"});
  ExpectEverywhere(b, image, {7, "2026-11-21T11:30:00Z"}, {11, "2026-11-22T12:45:00Z"});
}

// A tenant's pulls of an image it is no longer licensed for stay its own: the image is a 404 like
// any other unlicensed one, and no other tenant's reply carries them.
BOOST_AUTO_TEST_CASE(pulls_of_an_image_no_longer_licensed_show_nowhere) {
  it::Tenant a, b;
  it::Image image = a.AddImage("pulls-gone", TwoVersions());
  b.License(image);
  RecordPulls(a, image.versions[1], 5, "2026-11-20T10:00:00Z");
  it::IcatctlOk({"license", "revoke", "--tenant", a.subdomain(), "--image", image.name});
  std::string key = a.CreateKey();
  it::ExpectError(it::Get("/v1/images/" + image.id, it::Bearer(key)), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/api/docker-images/" + image.id, it::PortalHeaders(a)), 404, "NOT_FOUND");
  ExpectEverywhere(b, image, {0, std::nullopt}, {0, std::nullopt});
}

// Each wall alone (as tenant_filters_test.cpp and row_security_test.cpp test the others), over an
// image both A and B are licensed for: the statements' own tenant condition, run as the owner, whom
// row-level security does not filter; and row-level security, the statements run as icat_app with
// that condition taken out. Either way A sees its own pulls and none of B's.
BOOST_AUTO_TEST_CASE(each_wall_alone_hides_another_tenant_s_pulls) {
  it::Tenant a, b;
  it::Image image = a.AddImage("pulls-wall", TwoVersions());
  b.License(image);
  const it::Version& v10 = image.versions[0];
  const it::Version& v20 = image.versions[1];
  RecordPulls(a, v10, 424242, "2026-11-21T12:45:00Z");
  RecordPulls(b, v20, 987654, "2026-11-22T12:45:00Z");
  const std::string condition = "p.tenant_id = $1 AND ";
  it::PgConnection owner;
  const char* app_dsn = std::getenv("ICAT_PG_DSN");
  BOOST_TEST_REQUIRE(app_dsn != nullptr);
  it::PgConnection app(app_dsn);
  for (it::PgConnection* db : {&owner, &app}) db->Query("SELECT set_config('app.tenant_id', $1, false)", {a.id()});
  BOOST_TEST_REQUIRE(owner.Query("SELECT 1 FROM version_pulls WHERE pull_count = 987654").size() == 1u,
                     "the owner sees B's row: only the statements' condition stands between A and it");

  using namespace icat::catalog;
  struct Read {
    const icat::Statement* statement;
    std::vector<std::optional<std::string>> params;
    bool shows_v10;  // and so A's own pulls
  };
  const std::vector<Read> reads = {
      {&kListVersions, {a.id(), image.id}, true},
      {&kPageVersions, {a.id(), image.id, std::nullopt, std::nullopt, "50"}, true},
      {&kGetVersion, {a.id(), image.id, v20.id, v20.tag}, false},
      {&kGetVersion, {a.id(), image.id, v10.id, v10.tag}, true},
  };
  for (const auto& [statement, params, shows_v10] : reads) {
    std::string sql(statement->sql);
    size_t at = sql.find(condition);
    BOOST_TEST_REQUIRE(at != std::string::npos, statement->name);
    std::string without_condition = sql.substr(0, at) + sql.substr(at + condition.size());
    for (const auto& [db, text, wall] : {std::tuple(&owner, sql, "the statement's condition"),
                                         std::tuple(&app, without_condition, "row-level security")}) {
      bool own = false, other = false;
      for (const it::PgRow& row : db->Query(text, params)) {
        for (const auto& cell : row) {
          own = own || (cell && *cell == "424242");
          other = other || (cell && *cell == "987654");
        }
      }
      BOOST_TEST(!other, statement->name << " with " << wall << " alone shows B's pulls to A");
      if (shows_v10) BOOST_TEST(own, statement->name << " with " << wall << " alone hides A's own pulls");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
