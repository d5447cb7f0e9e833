// Every version on /v1 (issue 17): the versions of an image, one version by id or tag, its SBOM and
// findings (an older version's, never the latest's), look-ups by digest and by image reference, and
// query parameters an endpoint does not know refused by name.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kUnknownId, it::kAllReads, it::kAlpine310, it::kNginxGrype, it::kMinecraftGrype;

// An image of two scanned versions licensed to tenant: 1.0 (older, the Alpine report) and 2.0 (the
// latest, the nginx report), so their SBOMs and findings differ.
struct TwoVersions {
  it::Image image;
  it::ScannedVersion older, latest;
};

TwoVersions ScanTwoVersions(it::Tenant& tenant, const it::TempDir& dir, const std::string& label) {
  TwoVersions t;
  t.image.name = "it-" + label + "-" + it::RandomSuffix(6);
  t.image.repository = "registry.example.test/it/" + t.image.name;
  t.older = it::IngestScannedVersion(dir, t.image, "1.0", kAlpine310, "2021-08-25T12:20:30Z", "2021-08-26T00:00:00Z");
  t.latest = it::IngestScannedVersion(dir, t.image, "2.0", kNginxGrype, "2022-07-01T17:00:00Z", "2022-07-02T00:00:00Z");
  t.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {t.image.name}).at(0).at(0);
  tenant.License(t.image);
  return t;
}

std::string ImagePath(const TwoVersions& t) { return "/v1/images/" + t.image.id; }

// A download of one of a version's SBOM files: its exact bytes and the headers of GET .../sbom.
void ExpectDownload(const it::Response& r, const std::string& file, const std::string& format,
                    const std::string& image, const std::string& tag) {
  BOOST_TEST_CONTEXT(format << " download of " << file) {
    BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
    std::string bytes = it::ReadFileBytes(file);
    std::string hex = it::Sha256HexOf(bytes);
    BOOST_TEST((r.body == bytes), "the bytes are not the file's");
    BOOST_TEST(r.Header("content-type") ==
               (format == "spdx" ? "application/spdx+json" : "application/vnd.cyclonedx+json; version=1.5"));
    BOOST_TEST(r.Header("content-disposition") ==
               "attachment; filename=\"" + image + "_" + tag + (format == "spdx" ? ".spdx.json" : ".cdx.json") + "\"");
    BOOST_TEST(r.Header("etag") == "\"sha256:" + hex + "\"");
    BOOST_TEST(r.Header("repr-digest") == "sha-256=:" + icat::Base64Encode(icat::Sha256(bytes)) + ":");
    BOOST_TEST(r.Header("cache-control") == "private, no-cache");
    std::optional<std::string> failure =
        it::OpensslVerifyFailure(file, r.Header("x-signature"), r.Header("x-signature-key-id"));
    BOOST_TEST(!failure.has_value(), failure.value_or(""));
  }
}

// The ids of a look-up's images, and each one's matchedVersion tag.
std::map<std::string, std::string> Matches(const rapidjson::Document& body) {
  std::map<std::string, std::string> matches;
  BOOST_TEST_REQUIRE((body.IsObject() && body["images"].IsArray()));
  BOOST_TEST(body["nextCursor"].IsNull());
  for (const rapidjson::Value& image : body["images"].GetArray()) {
    BOOST_TEST_REQUIRE(image.HasMember("matchedVersion"));
    matches[it::StringMember(image, "id")] = it::StringMember(image["matchedVersion"], "tag");
  }
  return matches;
}

// A query value percent-encoded: everything but letters, digits and -._~.
std::string Encoded(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(versions_api)

BOOST_AUTO_TEST_CASE(versions_list_newest_first_in_pages_and_each_version_is_the_details_by_id_or_tag) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "versions");
  std::string key = tenant.CreateKey("read:catalog");
  rapidjson::Document detail = it::ExpectJson200(it::Get(ImagePath(t), it::Bearer(key)));
  BOOST_TEST_REQUIRE(detail["versions"].Size() == 2u);

  rapidjson::Document all = it::ExpectJson200(it::Get(ImagePath(t) + "/versions", it::Bearer(key)));
  BOOST_TEST_REQUIRE(all["versions"].Size() == 2u);
  BOOST_TEST(all["nextCursor"].IsNull());
  BOOST_TEST(it::StringMember(all["versions"][0], "tag") == "2.0");
  BOOST_TEST(it::StringMember(all["versions"][1], "tag") == "1.0");
  // Each element is the detail's element, field for field (counts, scan status, completeness).
  BOOST_TEST((all["versions"][0] == detail["versions"][0]));
  BOOST_TEST((all["versions"][1] == detail["versions"][1]));
  BOOST_TEST(it::StringMember(all["versions"][1], "scanStatus") == "scanned");
  BOOST_TEST(all["versions"][1]["sbomCompleteness"].IsObject());

  // Pages of one walk both, newest first.
  rapidjson::Document first = it::ExpectJson200(it::Get(ImagePath(t) + "/versions?limit=1", it::Bearer(key)));
  BOOST_TEST_REQUIRE(first["nextCursor"].IsString());
  BOOST_TEST((first["versions"][0] == detail["versions"][0]));
  rapidjson::Document second = it::ExpectJson200(it::Get(
      ImagePath(t) + "/versions?limit=1&cursor=" + std::string(first["nextCursor"].GetString()), it::Bearer(key)));
  BOOST_TEST_REQUIRE(second["versions"].Size() == 1u);
  BOOST_TEST((second["versions"][0] == detail["versions"][1]));
  BOOST_TEST(second["nextCursor"].IsNull());
  it::Response bad_cursor = it::Get(ImagePath(t) + "/versions?cursor=bogus", it::Bearer(key));
  it::ExpectError(bad_cursor, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(bad_cursor) == std::vector<std::string>{"cursor"}));

  // One version, by id and by tag: the same reply.
  for (const std::string& name : {t.older.id, t.older.tag}) {
    BOOST_TEST_CONTEXT("versionId " << name) {
      rapidjson::Document one = it::ExpectJson200(it::Get(it::V1VersionPath(t.image.id, name), it::Bearer(key)));
      BOOST_TEST((one == detail["versions"][1]));
    }
  }
  // An image without versions has an empty list.
  it::Image bare = tenant.AddImage("bare");
  rapidjson::Document none = it::ExpectJson200(it::Get("/v1/images/" + bare.id + "/versions", it::Bearer(key)));
  BOOST_TEST(none["versions"].Size() == 0u);
  BOOST_TEST(none["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_CASE(an_older_versions_sbom_is_that_versions_file_byte_for_byte_in_both_formats_with_its_headers) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "oldsbom");
  std::string key = tenant.CreateKey(kAllReads);
  for (const std::string& name : {t.older.id, t.older.tag}) {
    BOOST_TEST_CONTEXT("versionId " << name) {
      std::string base = it::V1VersionPath(t.image.id, name) + "/sbom";
      ExpectDownload(it::Get(base + "?format=spdx", it::Bearer(key)), t.older.spdx_path, "spdx", t.image.name, "1.0");
      ExpectDownload(it::Get(base + "?format=cyclonedx", it::Bearer(key)), t.older.cyclonedx_path, "cyclonedx",
                     t.image.name, "1.0");
      // format omitted is the CycloneDX one, as on the latest-version endpoint
      ExpectDownload(it::Get(base, it::Bearer(key)), t.older.cyclonedx_path, "cyclonedx", t.image.name, "1.0");
      it::Headers again = it::Bearer(key);
      again.emplace_back("If-None-Match", "\"sha256:" + it::Sha256HexOf(it::ReadFileBytes(t.older.spdx_path)) + "\"");
      BOOST_TEST(it::Get(base + "?format=spdx", again).status == 304);
      it::Response bad = it::Get(base + "?format=xml", it::Bearer(key));
      it::ExpectError(bad, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(bad) == std::vector<std::string>{"format"}));
    }
  }
  // The latest version's, by its tag, is the latest endpoint's file, which is not the older one.
  it::Response latest = it::Get(ImagePath(t) + "/sbom?format=spdx", it::Bearer(key));
  ExpectDownload(latest, t.latest.spdx_path, "spdx", t.image.name, "2.0");
  ExpectDownload(it::Get(it::V1VersionPath(t.image.id, "2.0") + "/sbom?format=spdx", it::Bearer(key)),
                 t.latest.spdx_path, "spdx", t.image.name, "2.0");
  BOOST_TEST((latest.body != it::ReadFileBytes(t.older.spdx_path)));
}

BOOST_AUTO_TEST_CASE(an_older_versions_vulnerabilities_are_its_own_not_the_latests) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "oldvulns");
  std::string key = tenant.CreateKey(kAllReads);
  std::vector<it::ExpectedFinding> older = it::DeriveFindings(t.older.report);
  std::vector<it::ExpectedFinding> latest = it::DeriveFindings(t.latest.report);
  BOOST_TEST_REQUIRE((older != latest));
  for (const std::string& name : {t.older.id, t.older.tag}) {
    BOOST_TEST_CONTEXT("versionId " << name) {
      rapidjson::Document page;
      std::vector<it::ExpectedFinding> listed =
          it::ListedFindingsAt(key, it::V1VersionPath(t.image.id, name) + "/vulnerabilities", &page);
      BOOST_TEST((listed == older), "the findings are not version 1.0's");
      BOOST_TEST(it::StringMember(page["version"], "tag") == "1.0");
      BOOST_TEST(it::StringMember(page["version"], "id") == t.older.id);
      BOOST_TEST(it::StringMember(page, "scanStatus") == "scanned");
    }
  }
  BOOST_TEST((it::ListedFindings(key, t.image.id) == latest));
  BOOST_TEST((it::ListedFindingsAt(key, it::V1VersionPath(t.image.id, "2.0") + "/vulnerabilities") == latest));
  // Filters and their refusals, as on the latest version's list.
  rapidjson::Document critical = it::ExpectJson200(
      it::Get(it::V1VersionPath(t.image.id, "1.0") + "/vulnerabilities?severity=critical&limit=200", it::Bearer(key)));
  for (const rapidjson::Value& v : critical["vulnerabilities"].GetArray()) {
    BOOST_TEST(it::StringMember(v, "severity") == "critical");
  }
  it::Response bad =
      it::Get(it::V1VersionPath(t.image.id, "1.0") + "/vulnerabilities?severity=severe", it::Bearer(key));
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(bad) == std::vector<std::string>{"severity"}));
}

BOOST_AUTO_TEST_CASE(unknown_tags_and_ids_versions_of_other_images_and_other_tenants_images_are_404) {
  it::Tenant tenant, other;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "missing");
  TwoVersions theirs = ScanTwoVersions(other, dir, "theirs");
  std::string key = tenant.CreateKey(kAllReads);
  auto every_endpoint = [](const std::string& version_path) {
    return std::vector<std::string>{version_path, version_path + "/sbom", version_path + "/sbom?format=spdx",
                                    version_path + "/vulnerabilities"};
  };
  std::vector<std::string> paths;
  for (const std::string& version : {std::string("9.9"), kUnknownId, std::string("-bad"), std::string("a%20b"),
                                     theirs.older.id, std::string(129, 'a')}) {
    for (const std::string& p : every_endpoint(it::V1VersionPath(t.image.id, version))) paths.push_back(p);
  }
  // Another tenant's image, by id and by tag of its versions; and an unknown image.
  for (const std::string& p : every_endpoint(it::V1VersionPath(theirs.image.id, "1.0"))) paths.push_back(p);
  for (const std::string& p : every_endpoint(it::V1VersionPath(theirs.image.id, theirs.older.id))) paths.push_back(p);
  for (const std::string& p : every_endpoint("/v1/images/" + kUnknownId + "/versions/1.0")) paths.push_back(p);
  paths.push_back(ImagePath(theirs) + "/versions");
  paths.push_back("/v1/images/not-a-uuid/versions");
  for (const std::string& path : paths) {
    BOOST_TEST_CONTEXT(path) { it::ExpectError(it::Get(path, it::Bearer(key)), 404, "NOT_FOUND"); }
  }
  // Their owner sees them.
  std::string their_key = other.CreateKey(kAllReads);
  BOOST_TEST(it::Get(it::V1VersionPath(theirs.image.id, "1.0") + "/sbom", it::Bearer(their_key)).status == 200);
}

BOOST_AUTO_TEST_CASE(a_query_parameter_an_endpoint_does_not_know_is_400_naming_it) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "params");
  std::string key = tenant.CreateKey(kAllReads);
  struct Case {
    std::string path;
    std::vector<std::string> unknown;
  };
  for (const Case& c : std::vector<Case>{
           // The issue's case: never the latest version's document under another version's name.
           {ImagePath(t) + "/sbom?format=spdx&version=1.0", {"version"}},
           {ImagePath(t) + "/sbom?Format=spdx", {"Format"}},
           {ImagePath(t) + "/vulnerabilities?version=1.0&tag=1.0", {"version", "tag"}},
           {ImagePath(t) + "?versions=all", {"versions"}},
           {ImagePath(t) + "/versions?q=1", {"q"}},
           {it::V1VersionPath(t.image.id, "1.0") + "?format=spdx", {"format"}},
           {it::V1VersionPath(t.image.id, "1.0") + "/sbom?fromat=spdx", {"fromat"}},
           {it::V1VersionPath(t.image.id, "1.0") + "/vulnerabilities?severities=high", {"severities"}},
           {"/v1/images?name=nginx", {"name"}},
           {"/v1/cve/CVE-2021-44228?version=all", {"version"}},
           {"/v1/signing-keys?kid=0123456789abcdef", {"kid"}},  // format= is one since issue 27
       }) {
    BOOST_TEST_CONTEXT(c.path) {
      it::Response r = it::Get(c.path, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST(it::DetailFields(r) == c.unknown);
      BOOST_TEST(r.body.find("is not a parameter of this endpoint") != std::string::npos, r.body);
    }
  }
  // Refused before the credential is looked at: a typo is answered the same with any key or none.
  it::Response anonymous = it::Get(ImagePath(t) + "/sbom?version=1.0");
  it::ExpectError(anonymous, 400, "VALIDATION_ERROR");
  // The portal's routes know their own parameters only: no look-up there.
  it::Response portal = it::Get("/api/docker-images?digest=" + t.older.digest, it::PortalHeaders(tenant));
  it::ExpectError(portal, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(portal) == std::vector<std::string>{"digest"}));
  // Known parameters still pass.
  BOOST_TEST(it::Get(ImagePath(t) + "/sbom?format=spdx", it::Bearer(key)).status == 200);
  BOOST_TEST(it::Get("/v1/images?q=it-params&limit=5", it::Bearer(key)).status == 200);
}

BOOST_AUTO_TEST_CASE(keys_without_the_scope_get_403_on_the_versioned_endpoints) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "vscopes");
  std::string catalog_only = tenant.CreateKey("read:catalog");
  std::string sbom_only = tenant.CreateKey("read:sbom");
  std::string vulns_only = tenant.CreateKey("read:vulns");
  struct Case {
    std::string path, key, scope;
  };
  for (const Case& c : std::vector<Case>{
           {it::V1VersionPath(t.image.id, "1.0") + "/sbom", catalog_only, "read:sbom"},
           {it::V1VersionPath(t.image.id, "1.0") + "/sbom?format=spdx", vulns_only, "read:sbom"},
           {it::V1VersionPath(t.image.id, "1.0") + "/vulnerabilities", sbom_only, "read:vulns"},
           {it::V1VersionPath(t.image.id, "1.0"), sbom_only, "read:catalog"},
           {ImagePath(t) + "/versions", vulns_only, "read:catalog"},
           {"/v1/images?digest=" + t.older.digest, sbom_only, "read:catalog"},
       }) {
    BOOST_TEST_CONTEXT(c.path << " with a key lacking " << c.scope) {
      it::Response r = it::Get(c.path, it::Bearer(c.key));
      it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
      BOOST_TEST(r.Header("www-authenticate") == "Bearer error=\"insufficient_scope\", scope=\"" + c.scope + "\"");
    }
  }
  BOOST_TEST(it::Get(it::V1VersionPath(t.image.id, "1.0") + "/sbom", it::Bearer(sbom_only)).status == 200);
  BOOST_TEST(it::Get(it::V1VersionPath(t.image.id, "1.0") + "/vulnerabilities", it::Bearer(vulns_only)).status == 200);
  BOOST_TEST(it::Get(it::V1VersionPath(t.image.id, "1.0"), it::Bearer(catalog_only)).status == 200);
}

BOOST_AUTO_TEST_CASE(a_digest_finds_the_licensed_images_having_it_with_the_matched_version) {
  it::Tenant tenant, other;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "bydigest");
  std::string key = tenant.CreateKey("read:catalog");
  // Another tenant's image of a digest this tenant has no image of.
  it::Image theirs;
  theirs.name = "it-theirdigest-" + it::RandomSuffix(6);
  theirs.repository = "registry.example.test/it/" + theirs.name;
  it::ScannedVersion their_version =
      it::IngestScannedVersion(dir, theirs, "7.0", kMinecraftGrype, "2022-07-01T17:00:00Z", "2022-07-01T18:00:00Z");
  theirs.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {theirs.name}).at(0).at(0);
  other.License(theirs);

  // The older version's digest: this image, matched on 1.0, with the list's fields.
  rapidjson::Document hit = it::ExpectJson200(it::Get("/v1/images?digest=" + t.older.digest, it::Bearer(key)));
  BOOST_TEST((Matches(hit) == std::map<std::string, std::string>{{t.image.id, "1.0"}}));
  const rapidjson::Value& image = hit["images"][0];
  BOOST_TEST(it::StringMember(image["matchedVersion"], "id") == t.older.id);
  BOOST_TEST(it::StringMember(image["matchedVersion"], "digest") == t.older.digest);
  BOOST_TEST(it::StringMember(image, "name") == t.image.name);
  BOOST_TEST(it::StringMember(image["latestVersion"], "tag") == "2.0");
  BOOST_TEST(image["vulnerabilityCounts"].IsObject());
  // The listed image is the list's entry for it, plus matchedVersion.
  rapidjson::Document listed =
      it::ExpectJson200(it::Get("/v1/images?q=" + t.image.name, it::Bearer(key)));
  BOOST_TEST_REQUIRE(listed["images"].Size() == 1u);
  rapidjson::Document without;
  without.CopyFrom(image, without.GetAllocator());
  without.RemoveMember("matchedVersion");
  BOOST_TEST((without == listed["images"][0]));
  rapidjson::Document newer = it::ExpectJson200(it::Get("/v1/images?digest=" + t.latest.digest, it::Bearer(key)));
  BOOST_TEST((Matches(newer) == std::map<std::string, std::string>{{t.image.id, "2.0"}}));

  // A digest of no image: an empty list. Another tenant's image's digest: nothing either; the
  // owner finds it.
  rapidjson::Document miss = it::ExpectJson200(it::Get("/v1/images?digest=" + it::RandomDigest(), it::Bearer(key)));
  BOOST_TEST(Matches(miss).empty());
  rapidjson::Document hidden = it::ExpectJson200(it::Get("/v1/images?digest=" + their_version.digest, it::Bearer(key)));
  BOOST_TEST(Matches(hidden).count(theirs.id) == 0u);
  rapidjson::Document owner = it::ExpectJson200(
      it::Get("/v1/images?digest=" + their_version.digest, it::Bearer(other.CreateKey("read:catalog"))));
  BOOST_TEST((Matches(owner) == std::map<std::string, std::string>{{theirs.id, "7.0"}}));

  // Malformed digests and combinations: 400 naming the parameter.
  std::string hex = t.older.digest.substr(7);
  std::string upper = hex;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& bad : {hex, "sha256:" + upper, "sha256:" + hex.substr(1), "sha512:" + hex + hex,
                                 std::string(""), "sha256:" + hex + "0"}) {
    BOOST_TEST_CONTEXT("digest=" << bad) {
      it::Response r = it::Get("/v1/images?digest=" + bad, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"digest"}));
    }
  }
  struct Combination {
    std::string query;
    std::vector<std::string> fields;
  };
  for (const Combination& c : std::vector<Combination>{
           {"digest=" + t.older.digest + "&reference=" + Encoded(t.image.repository + ":1.0"), {"reference"}},
           {"digest=" + t.older.digest + "&q=it", {"q"}},
           {"reference=" + Encoded(t.image.repository + ":1.0") + "&cursor=abc", {"cursor"}},
           {"digest=" + t.older.digest + "&limit=0", {"limit"}},
           // A combination is refused before any value; on the list, limit and cursor before q.
           {"digest=sha256:bad&q=it", {"q"}},
           {"q=" + std::string(201, 'a') + "&limit=0", {"limit"}}}) {
    BOOST_TEST_CONTEXT(c.query) {
      it::Response r = it::Get("/v1/images?" + c.query, it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST(it::DetailFields(r) == c.fields);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_reference_resolves_as_the_admission_webhook_resolves_it_digest_first) {
  it::Tenant tenant;
  it::TempDir dir;
  TwoVersions t = ScanTwoVersions(tenant, dir, "byref");
  std::string key = tenant.CreateKey("read:catalog");
  struct Case {
    std::string reference;
    std::optional<std::string> tag;  // the matched version; none: an empty list
  };
  for (const Case& c : std::vector<Case>{
           {t.image.repository + ":1.0", "1.0"},
           {t.image.repository + ":2.0", "2.0"},
           {t.image.repository + "@" + t.older.digest, "1.0"},
           // Both: the digest wins, whatever the tag says (the runtime pulls those bytes).
           {t.image.repository + ":2.0@" + t.older.digest, "1.0"},
           {t.image.repository + ":9.9", std::nullopt},
           // No tag is :latest, which this image does not have.
           {t.image.repository, std::nullopt},
           {"registry.example.test/it/other-" + it::RandomSuffix(4) + ":1.0", std::nullopt},
           {t.image.repository + "@" + it::RandomDigest(), std::nullopt},
       }) {
    BOOST_TEST_CONTEXT("reference=" << c.reference) {
      rapidjson::Document body =
          it::ExpectJson200(it::Get("/v1/images?reference=" + Encoded(c.reference), it::Bearer(key)));
      std::map<std::string, std::string> expected;
      if (c.tag) expected[t.image.id] = *c.tag;
      BOOST_TEST((Matches(body) == expected));
    }
  }
  for (const std::string& bad : {std::string("UPPER/Case::x"), t.image.repository + ":bad tag",
                                 t.image.repository + "@sha256:1234", std::string("")}) {
    BOOST_TEST_CONTEXT("reference=" << bad) {
      it::Response r = it::Get("/v1/images?reference=" + Encoded(bad), it::Bearer(key));
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      BOOST_TEST((it::DetailFields(r) == std::vector<std::string>{"reference"}));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
