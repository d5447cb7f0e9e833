// GET /v1/images and GET /v1/images/{id}: shapes, ordering, pagination, filters, counts, 404s
// and tenant isolation.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <set>

#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

const std::string kUnknownId = "00000000-0000-4000-8000-000000000000";

// The list of images of one page, parsed; fails the test when the response is not a list.
struct Page {
  std::vector<std::string> names;
  std::vector<std::string> ids;
  std::optional<std::string> next_cursor;
  rapidjson::Document body;
};

Page GetPage(const std::string& key, const std::string& query) {
  it::Response r = it::Get("/v1/images" + query, it::Bearer(key));
  Page page;
  page.body = it::ExpectJson200(r);
  BOOST_TEST_REQUIRE((page.body.IsObject() && page.body.HasMember("images") && page.body["images"].IsArray()),
                     r.Summary());
  for (const rapidjson::Value& image : page.body["images"].GetArray()) {
    page.names.push_back(it::StringMember(image, "name"));
    page.ids.push_back(it::StringMember(image, "id"));
  }
  BOOST_TEST_REQUIRE(page.body.HasMember("nextCursor"), "nextCursor missing: " << r.Summary());
  const rapidjson::Value& next = page.body["nextCursor"];
  BOOST_TEST_REQUIRE((next.IsNull() || next.IsString()));
  if (next.IsString()) page.next_cursor = next.GetString();
  return page;
}

// Percent-encodes a query value.
std::string Encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

std::vector<std::string> WalkAllPages(const std::string& key, int limit, int* pages_out = nullptr) {
  std::vector<std::string> names;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    std::string query = "?limit=" + std::to_string(limit) + (cursor ? "&cursor=" + Encode(*cursor) : "");
    Page page = GetPage(key, query);
    BOOST_TEST(page.names.size() <= static_cast<size_t>(limit));
    if (page.next_cursor) BOOST_TEST(page.names.size() == static_cast<size_t>(limit), "short page before the end");
    names.insert(names.end(), page.names.begin(), page.names.end());
    cursor = page.next_cursor;
    BOOST_TEST_REQUIRE(++pages < 100, "pagination does not end");
  } while (cursor);
  if (pages_out) *pages_out = pages;
  return names;
}

void ExpectTimeEquals(const std::string& actual, const std::string& expected) {
  std::optional<long long> a = it::ParseRfc3339(actual), e = it::ParseRfc3339(expected);
  BOOST_TEST_REQUIRE(a.has_value(), "not RFC 3339: '" << actual << "'");
  BOOST_TEST_REQUIRE(e.has_value());
  BOOST_TEST(*a == *e, actual << " is not " << expected);
}

std::vector<std::string> StringArray(const rapidjson::Value& object, const char* name) {
  std::vector<std::string> values;
  bool ok = object.IsObject() && object.HasMember(name) && object[name].IsArray();
  BOOST_TEST(ok, name << " missing or not an array");
  if (!ok) return values;
  for (const rapidjson::Value& v : object[name].GetArray()) {
    BOOST_TEST(v.IsString());
    if (v.IsString()) values.emplace_back(v.GetString());
  }
  return values;
}

// A version object of a list or detail: id, tag, digest, sizeBytes, publishedAt, hardeningTags.
void ExpectVersion(const rapidjson::Value& v, const it::Version& expected) {
  BOOST_TEST_CONTEXT("version " << expected.tag) {
    BOOST_TEST_REQUIRE(v.IsObject());
    BOOST_TEST(it::StringMember(v, "id") == expected.id);
    BOOST_TEST(it::StringMember(v, "tag") == expected.tag);
    BOOST_TEST(it::StringMember(v, "digest") == expected.digest);
    if (expected.size_bytes) {
      BOOST_TEST(it::IntMember(v, "sizeBytes") == *expected.size_bytes);
    } else {
      BOOST_TEST(it::IsNullMember(v, "sizeBytes"));
    }
    std::string published = it::StringMember(v, "publishedAt");
    if (expected.published) {
      ExpectTimeEquals(published, *expected.published);
    } else {
      BOOST_TEST(it::ParseRfc3339(published).has_value(), "not RFC 3339: " << published);
    }
    BOOST_TEST((StringArray(v, "hardeningTags") == expected.hardening_tags));
  }
}

void ExpectCounts(const rapidjson::Value& object, const it::Counts& c) {
  BOOST_TEST_REQUIRE((object.IsObject() && object.HasMember("vulnerabilityCounts") && object["vulnerabilityCounts"].IsObject()),
                     "vulnerabilityCounts missing");
  const rapidjson::Value& counts = object["vulnerabilityCounts"];
  BOOST_TEST(it::IntMember(counts, "critical") == c.critical);
  BOOST_TEST(it::IntMember(counts, "high") == c.high);
  BOOST_TEST(it::IntMember(counts, "medium") == c.medium);
  BOOST_TEST(it::IntMember(counts, "low") == c.low);
  BOOST_TEST(it::IntMember(counts, "unknown") == c.unknown);
  BOOST_TEST(counts.MemberCount() == 5u);
}

// Error and message of a 404 body, to compare 404s with each other.
std::pair<std::string, std::string> NotFoundBody(const it::Response& r) {
  it::ExpectError(r, 404, "NOT_FOUND");
  rapidjson::Document body = it::JsonOf(r);
  BOOST_TEST(!body.HasMember("details"));
  return {it::StringMember(body, "error"), it::StringMember(body, "message")};
}

// Three versions; 1.5 is added last but 2.0 is the newest published, so 2.0 is the latest.
std::vector<it::VersionSpec> ThreeVersions() {
  return {
      {"1.0", 100, std::nullopt, "2024-01-01T00:00:00Z", {"fips", "stig"}},
      {"2.0", 200, std::nullopt, "2024-06-01T12:30:00Z", {"fips"}},
      {"1.5", 150, std::nullopt, "2024-03-01T00:00:00+02:00", {}},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(image_list)

BOOST_AUTO_TEST_CASE(list_shows_only_licensed_images_by_name_with_their_latest_version) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image versioned = tenant.AddImage("listb", ThreeVersions());
  it::Image bare = it::CreateImage("lista", std::nullopt);
  tenant.License(bare);
  it::Image unlicensed = it::CreateImage("listc");
  it::AddVersion(unlicensed, {"1.0"});

  Page page = GetPage(key, "");
  BOOST_TEST((page.names == std::vector<std::string>{bare.name, versioned.name}));
  BOOST_TEST(!page.next_cursor.has_value());
  const rapidjson::Value& images = page.body["images"];
  BOOST_TEST_REQUIRE(images.Size() == 2u);

  const rapidjson::Value& a = images[0];
  BOOST_TEST(it::StringMember(a, "id") == bare.id);
  BOOST_TEST(it::StringMember(a, "description") == bare.description);
  BOOST_TEST(it::StringMember(a, "repository") == bare.repository);
  BOOST_TEST(it::IsNullMember(a, "baseOs"));
  BOOST_TEST(it::IsNullMember(a, "latestVersion"));

  const rapidjson::Value& b = images[1];
  BOOST_TEST(it::StringMember(b, "id") == versioned.id);
  BOOST_TEST(it::StringMember(b, "name") == versioned.name);
  BOOST_TEST(it::StringMember(b, "description") == versioned.description);
  BOOST_TEST(it::StringMember(b, "repository") == versioned.repository);
  BOOST_TEST(it::StringMember(b, "baseOs") == "debian-12");
  BOOST_TEST_REQUIRE(b.HasMember("latestVersion"));
  ExpectVersion(b["latestVersion"], versioned.versions[1]);
}

BOOST_AUTO_TEST_CASE(pages_walk_every_licensed_image_once_in_name_order) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::vector<std::string> expected;
  for (int i = 0; i < 7; i++) expected.push_back(tenant.AddImage("page" + std::to_string(i), {{"1.0"}}).name);
  std::sort(expected.begin(), expected.end());
  int pages = 0;
  BOOST_TEST((WalkAllPages(key, 3, &pages) == expected));
  BOOST_TEST(pages == 3);
  BOOST_TEST((WalkAllPages(key, 1, &pages) == expected));
  BOOST_TEST(pages == 7);
  // A page exactly as long as what is left ends the list.
  Page all = GetPage(key, "?limit=7");
  BOOST_TEST((all.names == expected));
  BOOST_TEST(!all.next_cursor.has_value());
}

BOOST_AUTO_TEST_CASE(default_limit_is_50_and_the_cursor_continues_after_it) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::string batch = it::RandomSuffix(8);
  std::vector<it::PgRow> created = it::PgQuery(
      "INSERT INTO images (name, description, repository) "
      "SELECT 'it-bulk-' || $1 || '-' || lpad(g::text, 3, '0'), 'bulk', 'registry.example.test/it/bulk-' || $1 || '-' || g "
      "FROM generate_series(1, 51) g RETURNING id",
      {batch});
  BOOST_TEST_REQUIRE(created.size() == 51u);
  it::PgQuery("INSERT INTO licenses (tenant_id, image_id) SELECT $1::uuid, id FROM images WHERE name LIKE $2",
              {tenant.id(), "it-bulk-" + batch + "-%"});
  Page first = GetPage(key, "");
  BOOST_TEST(first.names.size() == 50u);
  BOOST_TEST_REQUIRE(first.next_cursor.has_value());
  Page second = GetPage(key, "?cursor=" + Encode(*first.next_cursor));
  BOOST_TEST_REQUIRE(second.names.size() == 1u);
  BOOST_TEST(second.names[0] == "it-bulk-" + batch + "-051");
  BOOST_TEST(!second.next_cursor.has_value());
}

BOOST_AUTO_TEST_CASE(limits_1_and_200_are_accepted) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  tenant.AddImage("lim1");
  tenant.AddImage("lim2");
  BOOST_TEST(GetPage(key, "?limit=1").names.size() == 1u);
  BOOST_TEST(GetPage(key, "?limit=200").names.size() == 2u);
}

BOOST_AUTO_TEST_CASE(limit_out_of_range_or_not_a_number_is_400_naming_limit) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  for (const char* limit : {"0", "201", "abc", "-1", "1.5", "10x", "99999999999999999999"}) {
    BOOST_TEST_CONTEXT("limit=" << limit) {
      it::Response r = it::Get(std::string("/v1/images?limit=") + limit, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      std::vector<std::string> fields = it::DetailFields(r);
      BOOST_TEST((std::find(fields.begin(), fields.end(), "limit") != fields.end()), r.Summary());
    }
  }
}

BOOST_AUTO_TEST_CASE(garbage_cursor_is_400_naming_cursor) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  for (const char* cursor : {"garbage", "%21%21%21", "eyJ4IjoxfQ", "AAAA"}) {
    BOOST_TEST_CONTEXT("cursor=" << cursor) {
      it::Response r = it::Get(std::string("/v1/images?cursor=") + cursor, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      std::vector<std::string> fields = it::DetailFields(r);
      BOOST_TEST((std::find(fields.begin(), fields.end(), "cursor") != fields.end()), r.Summary());
    }
  }
}

BOOST_AUTO_TEST_CASE(q_filters_by_case_insensitive_substring_of_the_name) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image alpha = tenant.AddImage("alpha");
  it::Image beta = tenant.AddImage("beta");
  BOOST_TEST((GetPage(key, "?q=ALPHA").names == std::vector<std::string>{alpha.name}));
  BOOST_TEST((GetPage(key, "?q=eTa").names == std::vector<std::string>{beta.name}));
  // The random part of a name, upper-cased, finds just that image.
  std::string tail = beta.name.substr(beta.name.size() - 6);
  std::transform(tail.begin(), tail.end(), tail.begin(), ::toupper);
  BOOST_TEST((GetPage(key, "?q=" + tail).names == std::vector<std::string>{beta.name}));
  Page none = GetPage(key, "?q=no-such-image-name");
  BOOST_TEST(none.names.empty());
  BOOST_TEST(!none.next_cursor.has_value());
}

BOOST_AUTO_TEST_CASE(q_with_like_wildcards_matches_them_literally) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  tenant.AddImage("wild");
  BOOST_TEST(GetPage(key, "?q=%25").names.empty());  // %
  BOOST_TEST(GetPage(key, "?q=_").names.empty());
  BOOST_TEST(GetPage(key, "?q=%5C").names.empty());  // backslash
}

BOOST_AUTO_TEST_CASE(q_and_cursor_together_page_through_the_matching_images_only_in_name_order) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::vector<std::string> matching;
  for (int i = 0; i < 5; i++) matching.push_back(tenant.AddImage("qpage" + std::to_string(i), {{"1.0"}}).name);
  for (int i = 0; i < 3; i++) tenant.AddImage("other" + std::to_string(i), {{"1.0"}});
  std::sort(matching.begin(), matching.end());
  // Two dozen different requests, so that the workers also answer from the plan Postgres caches
  // for a statement after its first five runs on a connection.
  for (const std::string q : {"QPAGE", "qPage"}) {
    for (int limit = 1; limit <= 4; limit++) {
      BOOST_TEST_CONTEXT("q=" << q << " limit=" << limit) {
        std::vector<std::string> seen;
        std::optional<std::string> cursor;
        int pages = 0;
        do {
          std::string query =
              "?q=" + q + "&limit=" + std::to_string(limit) + (cursor ? "&cursor=" + Encode(*cursor) : "");
          Page page = GetPage(key, query);
          seen.insert(seen.end(), page.names.begin(), page.names.end());
          for (const rapidjson::Value& image : page.body["images"].GetArray()) {
            BOOST_TEST(it::StringMember(image["latestVersion"], "tag") == "1.0");
          }
          cursor = page.next_cursor;
          BOOST_TEST_REQUIRE(++pages < 10, "pagination does not end");
        } while (cursor);
        BOOST_TEST((seen == matching));
        BOOST_TEST(pages == (5 + limit - 1) / limit);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(image_detail)

BOOST_AUTO_TEST_CASE(detail_has_latest_size_counts_and_versions_newest_published_first) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("detail", ThreeVersions());
  const it::Version& v10 = image.versions[0];
  const it::Version& v20 = image.versions[1];
  const it::Version& v15 = image.versions[2];
  it::InsertLatestScan(v20.id, {1, 2, 3, 4, 5});
  it::InsertLatestScan(v10.id, {9, 0, 0, 0, 1});

  rapidjson::Document d = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  BOOST_TEST(it::StringMember(d, "id") == image.id);
  BOOST_TEST(it::StringMember(d, "name") == image.name);
  BOOST_TEST(it::StringMember(d, "description") == image.description);
  BOOST_TEST(it::StringMember(d, "repository") == image.repository);
  BOOST_TEST(it::StringMember(d, "baseOs") == "debian-12");
  BOOST_TEST(it::IntMember(d, "sizeBytes") == 200);
  BOOST_TEST_REQUIRE(d.HasMember("latestVersion"));
  ExpectVersion(d["latestVersion"], v20);
  ExpectCounts(d, {1, 2, 3, 4, 5});

  BOOST_TEST_REQUIRE((d.HasMember("versions") && d["versions"].IsArray()));
  const rapidjson::Value& versions = d["versions"];
  BOOST_TEST_REQUIRE(versions.Size() == 3u);
  ExpectVersion(versions[0], v20);
  ExpectCounts(versions[0], {1, 2, 3, 4, 5});
  ExpectVersion(versions[1], v15);
  ExpectCounts(versions[1], {});
  ExpectVersion(versions[2], v10);
  ExpectCounts(versions[2], {9, 0, 0, 0, 1});
}

BOOST_AUTO_TEST_CASE(detail_counts_come_from_the_latest_scan_of_the_latest_version) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("rescan", {{"1.0", 10}});
  it::InsertLatestScan(image.versions[0].id, {5, 5, 5, 5, 5});
  it::InsertLatestScan(image.versions[0].id, {0, 1, 0, 0, 0});  // a newer scan found fewer
  rapidjson::Document d = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  ExpectCounts(d, {0, 1, 0, 0, 0});
}

BOOST_AUTO_TEST_CASE(detail_without_scan_or_size_has_zero_counts_and_null_size) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("noscan", {{"1.0"}});
  rapidjson::Document d = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  BOOST_TEST(it::IsNullMember(d, "sizeBytes"));
  ExpectCounts(d, {});
  BOOST_TEST_REQUIRE((d.HasMember("versions") && d["versions"].IsArray() && d["versions"].Size() == 1u));
  ExpectVersion(d["versions"][0], image.versions[0]);
  ExpectCounts(d["versions"][0], {});
}

// Zero counts of a version never scanned are no news that it is clean: scanStatus says which,
// in the list, the detail and the portal's detail.
BOOST_AUTO_TEST_CASE(a_version_never_scanned_says_so_in_the_list_the_detail_and_the_portal) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("unscanned", {{"1.0", std::nullopt, std::nullopt, "2026-01-01T00:00:00Z"},
                                                  {"2.0", std::nullopt, std::nullopt, "2026-02-01T00:00:00Z"}});
  it::InsertLatestScan(image.versions[0].id, {});  // 1.0 scanned clean; 2.0, the latest, never
  rapidjson::Document list = it::ExpectJson200(it::Get("/v1/images?q=" + image.name, it::Bearer(key)));
  BOOST_TEST_REQUIRE(list["images"].Size() == 1u);
  BOOST_TEST(it::StringMember(list["images"][0]["latestVersion"], "scanStatus") == "unscanned");
  BOOST_TEST(it::IsNullMember(list["images"][0]["latestVersion"], "lastScannedAt"));
  rapidjson::Document portal =
      it::ExpectJson200(it::Get("/api/docker-images/" + image.id, it::PortalHeaders(tenant)));
  rapidjson::Document v1 = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  for (const rapidjson::Document* d : {&v1, &portal}) {
    BOOST_TEST(it::StringMember(*d, "scanStatus") == "unscanned");
    BOOST_TEST(it::IsNullMember(*d, "lastScannedAt"));
    BOOST_TEST(it::IsNullMember(*d, "sbomCompleteness"));
    BOOST_TEST_REQUIRE((*d)["versions"].Size() == 2u);
    BOOST_TEST(it::StringMember((*d)["versions"][0], "tag") == "2.0");
    BOOST_TEST(it::StringMember((*d)["versions"][0], "scanStatus") == "unscanned");
    BOOST_TEST(it::StringMember((*d)["versions"][1], "scanStatus") == "scanned");
    BOOST_TEST(!it::IsNullMember((*d)["versions"][1], "lastScannedAt"));
  }
}

BOOST_AUTO_TEST_CASE(detail_of_image_without_versions_has_null_latest_and_no_versions) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image image = tenant.AddImage("empty");
  rapidjson::Document d = it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(key)));
  BOOST_TEST(it::IsNullMember(d, "latestVersion"));
  BOOST_TEST(it::IsNullMember(d, "sizeBytes"));
  ExpectCounts(d, {});
  BOOST_TEST_REQUIRE((d.HasMember("versions") && d["versions"].IsArray()));
  BOOST_TEST(d["versions"].Size() == 0u);
}

BOOST_AUTO_TEST_CASE(unknown_malformed_and_unlicensed_ids_are_identical_404s) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::Image unlicensed = it::CreateImage("unlic");
  auto unknown = NotFoundBody(it::Get("/v1/images/" + kUnknownId, it::Bearer(key)));
  auto malformed = NotFoundBody(it::Get("/v1/images/not-a-uuid", it::Bearer(key)));
  auto upper = NotFoundBody(it::Get("/v1/images/%27%3B--", it::Bearer(key)));
  auto other = NotFoundBody(it::Get("/v1/images/" + unlicensed.id, it::Bearer(key)));
  BOOST_TEST((malformed == unknown));
  BOOST_TEST((upper == unknown));
  BOOST_TEST((other == unknown));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tenant_isolation)

BOOST_AUTO_TEST_CASE(other_tenant_image_is_not_listed_and_is_404) {
  it::Tenant a, b;
  std::string key_a = a.CreateKey();
  std::string key_b = b.CreateKey();
  it::Image mine = a.AddImage("mine", {{"1.0"}});
  it::Image theirs = b.AddImage("theirs", {{"1.0"}});
  it::Image shared = a.AddImage("shared");
  b.License(shared);

  std::vector<std::string> expected_a = {mine.name, shared.name};
  std::sort(expected_a.begin(), expected_a.end());
  BOOST_TEST((WalkAllPages(key_a, 200) == expected_a));
  std::vector<std::string> expected_b = {shared.name, theirs.name};
  std::sort(expected_b.begin(), expected_b.end());
  BOOST_TEST((WalkAllPages(key_b, 200) == expected_b));
  BOOST_TEST(GetPage(key_a, "?q=" + theirs.name).names.empty());

  auto hidden = NotFoundBody(it::Get("/v1/images/" + theirs.id, it::Bearer(key_a)));
  auto unknown = NotFoundBody(it::Get("/v1/images/" + kUnknownId, it::Bearer(key_a)));
  BOOST_TEST((hidden == unknown));
  it::ExpectJson200(it::Get("/v1/images/" + theirs.id, it::Bearer(key_b)));
  it::ExpectJson200(it::Get("/v1/images/" + shared.id, it::Bearer(key_a)));
  it::ExpectJson200(it::Get("/v1/images/" + shared.id, it::Bearer(key_b)));
}

BOOST_AUTO_TEST_CASE(cursor_of_one_tenant_does_not_reveal_another_tenants_images) {
  it::Tenant a, b;
  std::string key_a = a.CreateKey();
  std::string key_b = b.CreateKey();
  a.AddImage("cura1");
  a.AddImage("cura2");
  it::Image theirs = b.AddImage("curb");
  Page first = GetPage(key_a, "?limit=1");
  BOOST_TEST_REQUIRE(first.next_cursor.has_value());
  // B replaying A's cursor is refused (400) or sees only B's own images after that position, never A's.
  it::Response replay = it::Get("/v1/images?limit=1&cursor=" + Encode(*first.next_cursor), it::Bearer(key_b));
  if (replay.status == 400) {
    it::ExpectError(replay, 400, "VALIDATION_ERROR");
    return;
  }
  std::vector<std::string> seen;
  std::optional<std::string> cursor = first.next_cursor;
  while (cursor) {
    Page page = GetPage(key_b, "?limit=1&cursor=" + Encode(*cursor));
    seen.insert(seen.end(), page.names.begin(), page.names.end());
    cursor = page.next_cursor;
    BOOST_TEST_REQUIRE(seen.size() < 10u);
  }
  for (const std::string& name : seen) BOOST_TEST(name == theirs.name);
}

BOOST_AUTO_TEST_SUITE_END()
