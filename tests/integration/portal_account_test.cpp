// What an admin manages in the portal: API keys over HTTP, CVE watches, feature requests, webhook
// subscriptions, the admission policy and decisions, the audit log; and the portal's image views.
#include <boost/test/unit_test.hpp>
#include <set>

#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;

namespace {

// The scan of a version, carrying one finding of vuln_id in package, made the version's latest.
void AddFinding(const std::string& version_id, const std::string& vuln_id, const std::string& package,
                const std::string& aliases = "{}") {
  std::string scan = it::InsertLatestScan(version_id, {1, 0, 0, 0, 0});
  it::PgQuery(
      "INSERT INTO vulnerabilities (set_id, vuln_id, aliases, package_name, severity, fix_state) "
      "VALUES ($1, $2, $3::text[], $4, 'critical', 'fixed')",
      {scan, vuln_id, aliases, package});
}

std::vector<std::string> Ids(const rapidjson::Value& list) {
  std::vector<std::string> ids;
  for (const rapidjson::Value& item : list.GetArray()) ids.push_back(it::StringMember(item, "id"));
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(portal_api_keys)

BOOST_AUTO_TEST_CASE(created_key_is_shown_once_works_on_v1_and_is_listed_without_secret) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("keys");
  it::Response created =
      it::Send("POST", "/api/api-keys", t.As(t.admin),
               R"({"name": "ci pipeline", "scopes": ["read:catalog", "read:sbom", "read:catalog"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  BOOST_TEST(created.Header("cache-control") == "no-store");
  rapidjson::Document key = it::JsonOf(created);
  std::string secret = it::StringMember(key, "secret");
  BOOST_TEST(secret.rfind(it::GetEnv().key_prefix + "_live_", 0) == 0u);
  BOOST_TEST(it::StringMember(key, "prefix") == secret.substr(0, 14));
  BOOST_TEST(key["scopes"].Size() == 2u);
  BOOST_TEST(it::StringMember(key, "state") == "active");
  BOOST_TEST(it::StringMember(key, "createdBy") == t.admin.id);
  BOOST_TEST(it::IsNullMember(key, "expiresAt"));
  BOOST_TEST(it::IsNullMember(key, "lastUsedAt"));
  // The key works on the public API at once.
  it::ExpectJson200(it::Get("/v1/images/" + image.id, it::Bearer(secret)));

  rapidjson::Document list = it::ExpectJson200(it::Get("/api/api-keys", t.As(t.admin)));
  BOOST_TEST_REQUIRE(list["apiKeys"].Size() == 1u);
  const rapidjson::Value& listed = list["apiKeys"][0];
  BOOST_TEST(!listed.HasMember("secret"));
  BOOST_TEST(list.GetObject().MemberCount() == 2u);  // apiKeys and nextCursor, nothing else
  BOOST_TEST(it::StringMember(listed, "name") == "ci pipeline");
  for (const char* field : {"id", "prefix", "createdAt", "state"}) BOOST_TEST(listed.HasMember(field), field);
  // The secret is stored only as its hash.
  BOOST_TEST(it::PgQuery("SELECT 1 FROM api_keys WHERE key_hash = sha256(convert_to($1, 'UTF8'))", {secret}).size() ==
             1u);
  std::vector<it::PgRow> audit = it::AuditRows(t.id(), "key.created");
  BOOST_TEST_REQUIRE(audit.size() == 1u);
  BOOST_TEST(*audit[0][0] == "user:" + t.admin.id);
  BOOST_TEST(*audit[0][3] == created.Header("x-request-id"));
}

BOOST_AUTO_TEST_CASE(revoke_over_http_is_immediate_idempotent_and_audited) {
  it::PortalTenant t;
  rapidjson::Document key = it::JsonOf(
      it::Send("POST", "/api/api-keys", t.As(t.admin), R"({"name": "soon gone", "scopes": ["read:catalog"]})"));
  std::string secret = it::StringMember(key, "secret"), id = it::StringMember(key, "id");
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(secret)));  // cached now
  it::Response revoked = it::Send("DELETE", "/api/api-keys/" + id, t.As(t.admin));
  BOOST_TEST(revoked.status == 204, revoked.Summary());
  it::ExpectError(it::Get("/v1/images", it::Bearer(secret)), 401, "UNAUTHENTICATED");
  BOOST_TEST(it::Send("DELETE", "/api/api-keys/" + id, t.As(t.admin)).status == 204);
  rapidjson::Document list = it::ExpectJson200(it::Get("/api/api-keys", t.As(t.admin)));
  BOOST_TEST(it::StringMember(list["apiKeys"][0], "state") == "revoked");
  BOOST_TEST(it::AuditRows(t.id(), "key.revoked").size() == 1u);
  it::ExpectError(it::Send("DELETE", "/api/api-keys/not-a-uuid", t.As(t.admin)), 404, "NOT_FOUND");
  it::ExpectError(it::Send("DELETE", "/api/api-keys/00000000-0000-4000-8000-000000000000", t.As(t.admin)), 404,
                  "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(key_with_expiry_is_listed_with_it_and_a_past_expiry_is_refused) {
  it::PortalTenant t;
  it::Response future = it::Send("POST", "/api/api-keys", t.As(t.admin),
                                 R"({"name": "k", "scopes": ["admission"], "expiresAt": "2099-01-01T00:00:00+01:00"})");
  BOOST_TEST_REQUIRE(future.status == 201, future.Summary());
  BOOST_TEST(it::StringMember(it::JsonOf(future), "expiresAt") == "2098-12-31T23:00:00Z");
  it::Response past = it::Send("POST", "/api/api-keys", t.As(t.admin),
                               R"({"name": "k", "scopes": ["read:catalog"], "expiresAt": "2020-01-01T00:00:00Z"})");
  it::ExpectError(past, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(past) == std::vector<std::string>{"expiresAt"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(key_body_problems_are_one_detail_each) {
  it::PortalTenant t;
  it::Response r = it::Send(
      "POST", "/api/api-keys", t.As(t.admin),
      R"({"name": "", "scopes": ["read:catalog", "write:everything"], "expiresAt": "tomorrow", "owner": "me"})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> expected = {"name", "scopes[1]", "expiresAt", "owner"};
  BOOST_TEST(it::DetailFields(r) == expected, boost::test_tools::per_element());
  it::Response empty = it::Send("POST", "/api/api-keys", t.As(t.admin), R"({"scopes": []})");
  std::vector<std::string> missing = {"name", "scopes"};
  BOOST_TEST(it::DetailFields(empty) == missing, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(key_list_pages_with_a_cursor_newest_first) {
  it::PortalTenant t;
  std::vector<std::string> created;
  for (int i = 0; i < 5; i++) {
    created.push_back(it::StringMember(
        it::JsonOf(it::Send("POST", "/api/api-keys", t.As(t.admin),
                            R"({"name": "k)" + std::to_string(i) + R"(", "scopes": ["read:catalog"]})")),
        "id"));
  }
  std::vector<std::string> seen;
  std::string url = "/api/api-keys?limit=2";
  for (int page = 0; page < 5; page++) {
    rapidjson::Document d = it::ExpectJson200(it::Get(url, t.As(t.admin)));
    for (const std::string& id : Ids(d["apiKeys"])) seen.push_back(id);
    if (d["nextCursor"].IsNull()) break;
    url = "/api/api-keys?limit=2&cursor=" + it::StringMember(d, "nextCursor");
  }
  std::vector<std::string> newest_first(created.rbegin(), created.rend());
  BOOST_TEST(seen == newest_first, boost::test_tools::per_element());
  it::ExpectError(it::Get("/api/api-keys?cursor=bm9wZQ", t.As(t.admin)), 400, "VALIDATION_ERROR");
  it::ExpectError(it::Get("/api/api-keys?limit=0", t.As(t.admin)), 400, "VALIDATION_ERROR");
  it::ExpectError(it::Get("/api/api-keys?limit=201", t.As(t.admin)), 400, "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_cve_watches)

BOOST_AUTO_TEST_CASE(watch_is_normalised_lists_images_carrying_it_now_and_a_duplicate_is_409) {
  it::PortalTenant t;
  it::Image carrying = t.tenant.AddImage("watch-hit", {{"1.0"}});
  it::Image by_alias = t.tenant.AddImage("watch-alias", {{"2.0"}});
  it::Image clean = t.tenant.AddImage("watch-clean", {{"1.0"}});
  it::Image unlicensed = it::CreateImage("watch-unlicensed");
  it::AddVersion(unlicensed, {"1.0"});
  std::string cve = "CVE-2031-" + std::to_string(10000 + std::stoi(it::RandomSuffix(4), nullptr, 16));
  AddFinding(carrying.versions[0].id, cve, "xz-utils");
  AddFinding(by_alias.versions[0].id, "GHSA-aaaa-bbbb-cccc", "liblzma", "{" + cve + "}");
  AddFinding(clean.versions[0].id, "CVE-2000-0001", "zlib");
  AddFinding(unlicensed.versions[0].id, cve, "xz-utils");

  std::string lower = cve;
  for (char& c : lower) c = static_cast<char>(std::tolower(c));
  it::Response created =
      it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": ")" + lower + R"(", "note": "backdoor"})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  rapidjson::Document watch = it::JsonOf(created);
  BOOST_TEST(it::StringMember(watch, "cveId") == cve);
  BOOST_TEST(it::StringMember(watch, "note") == "backdoor");
  std::set<std::string> names;
  for (const rapidjson::Value& image : watch["images"].GetArray()) names.insert(it::StringMember(image, "name"));
  BOOST_TEST((names == std::set<std::string>{carrying.name, by_alias.name}));

  it::ExpectError(it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": ")" + cve + "\"}"), 409, "CONFLICT");
  rapidjson::Document list = it::ExpectJson200(it::Get("/api/cve-watches", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(list["cveWatches"].Size() == 1u);
  const rapidjson::Value& listed = list["cveWatches"][0];
  BOOST_TEST(listed["images"].Size() == 2u);
  for (const rapidjson::Value& image : listed["images"].GetArray()) {
    BOOST_TEST(image["packages"].Size() == 1u);
    BOOST_TEST(!it::StringMember(image, "versionId").empty());
  }
  // A new version without the CVE becomes the latest: the image no longer carries it now.
  it::Version fixed = it::AddVersion(carrying, {"1.1", std::nullopt, std::nullopt, "2099-01-01T00:00:00Z"});
  it::InsertLatestScan(fixed.id, {});
  rapidjson::Document after = it::ExpectJson200(it::Get("/api/cve-watches", t.As(t.viewer)));
  BOOST_TEST(after["cveWatches"][0]["images"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(watch_ids_are_checked_and_delete_removes_it) {
  it::PortalTenant t;
  it::Response bad = it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "CVE-24-1", "note": 5, "x": 1})");
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  std::vector<std::string> expected = {"cveId", "note", "x"};
  BOOST_TEST(it::DetailFields(bad) == expected, boost::test_tools::per_element());
  it::Response ghsa = it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "ghsa-jfh8-c2jp-5v3q"})");
  BOOST_TEST_REQUIRE(ghsa.status == 201, ghsa.Summary());
  std::string id = it::StringMember(it::JsonOf(ghsa), "id");
  BOOST_TEST(it::StringMember(it::JsonOf(ghsa), "cveId") == "GHSA-JFH8-C2JP-5V3Q");
  BOOST_TEST(it::Send("DELETE", "/api/cve-watches/" + id, t.As(t.admin)).status == 204);
  it::ExpectError(it::Send("DELETE", "/api/cve-watches/" + id, t.As(t.admin)), 404, "NOT_FOUND");
  BOOST_TEST(it::ExpectJson200(it::Get("/api/cve-watches", t.As(t.admin)))["cveWatches"].Size() == 0u);
  BOOST_TEST(it::AuditRows(t.id(), "cve_watch.deleted").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_feature_requests)

BOOST_AUTO_TEST_CASE(request_is_filed_open_listed_with_its_author_and_its_status_set_by_icatctl) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("fr");
  it::Response created = it::Send("POST", "/api/feature-requests", t.As(t.admin),
                                  R"({"type": "package", "title": "Add jq", "description": "Line one\nline two",
                                      "packageName": "jq", "imageId": ")" +
                                      image.id + R"(", "cveId": "cve-2024-3094"})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  rapidjson::Document request = it::JsonOf(created);
  std::string id = it::StringMember(request, "id");
  BOOST_TEST(it::StringMember(request, "status") == "open");
  BOOST_TEST(it::StringMember(request, "imageName") == image.name);
  BOOST_TEST(it::StringMember(request, "cveId") == "CVE-2024-3094");
  BOOST_TEST(it::StringMember(request, "description") == "Line one\nline two");
  BOOST_TEST(it::StringMember(request["createdBy"], "email") == t.admin.email);

  it::IcatctlOk({"request", "status", "--tenant", t.subdomain(), id, "planned"});
  rapidjson::Document list = it::ExpectJson200(it::Get("/api/feature-requests", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(list["featureRequests"].Size() == 1u);
  BOOST_TEST(it::StringMember(list["featureRequests"][0], "status") == "planned");
  BOOST_TEST(
      it::ExpectJson200(it::Get("/api/feature-requests?status=open", t.As(t.viewer)))["featureRequests"].Size() == 0u);
  BOOST_TEST(
      it::ExpectJson200(it::Get("/api/feature-requests?type=package&status=planned", t.As(t.viewer)))["featureRequests"]
          .Size() == 1u);
  it::ExpectError(it::Get("/api/feature-requests?status=maybe", t.As(t.viewer)), 400, "VALIDATION_ERROR");
  BOOST_TEST(it::AuditRows(t.id(), "feature_request.status_changed").size() == 1u);
  // icatctl refuses an unknown status, and another tenant's request.
  BOOST_TEST(it::Icatctl({"request", "status", "--tenant", t.subdomain(), id, "someday"}).exit_code == 2);
  BOOST_TEST(it::Icatctl({"request", "status", "--tenant", it::PortalTenant().subdomain(), id, "done"}).exit_code == 1);
}

BOOST_AUTO_TEST_CASE(request_fields_are_checked_one_detail_each) {
  it::PortalTenant t;
  it::Image unlicensed = it::CreateImage("fr-unlicensed");
  it::Response r = it::Send("POST", "/api/feature-requests", t.As(t.admin),
                            R"({"type": "wish", "title": ")" + std::string(201, 'x') + R"(", "imageId": ")" +
                                unlicensed.id + R"(", "cveId": "nope", "priority": "high"})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> expected = {"type", "title", "description", "imageId", "cveId", "priority"};
  BOOST_TEST(it::DetailFields(r) == expected, boost::test_tools::per_element());
  it::Response package = it::Send("POST", "/api/feature-requests", t.As(t.admin),
                                  R"({"type": "package", "title": "t", "description": "d"})");
  BOOST_TEST(it::DetailFields(package) == std::vector<std::string>{"packageName"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_webhooks)

BOOST_AUTO_TEST_CASE(post_creates_with_a_secret_shown_once_and_upserts_by_url) {
  it::PortalTenant t;
  it::Response created =
      it::Send("POST", "/api/webhooks", t.As(t.admin),
               R"({"url": "https://93.184.215.14/hooks/icat", "events": ["scan.completed", "ping"]})");
  BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
  BOOST_TEST(created.Header("cache-control") == "no-store");
  rapidjson::Document hook = it::JsonOf(created);
  std::string secret = it::StringMember(hook, "secret");
  BOOST_TEST(secret.rfind("whsec_", 0) == 0u);
  BOOST_TEST(icat::Base64Decode(secret.substr(6)).value_or("").size() == 32u);
  BOOST_TEST(hook["active"].GetBool());

  it::Response upserted =
      it::Send("POST", "/api/webhooks", t.As(t.admin),
               R"({"url": "https://93.184.215.14/hooks/icat", "events": ["vulnerability.detected"], "active": false})");
  BOOST_TEST_REQUIRE(upserted.status == 200, upserted.Summary());
  rapidjson::Document same = it::JsonOf(upserted);
  BOOST_TEST(it::StringMember(same, "id") == it::StringMember(hook, "id"));
  BOOST_TEST(!same.HasMember("secret"));
  BOOST_TEST(same["events"].Size() == 1u);
  BOOST_TEST(!same["active"].GetBool());
  BOOST_TEST(*it::PgQuery("SELECT secret FROM webhooks WHERE id = $1", {it::StringMember(hook, "id")})[0][0] == secret);

  rapidjson::Document list = it::ExpectJson200(it::Get("/api/webhooks", t.As(t.user)));
  BOOST_TEST_REQUIRE(list["webhooks"].Size() == 1u);
  BOOST_TEST(!list["webhooks"][0].HasMember("secret"));
  BOOST_TEST(it::AuditRows(t.id(), "webhook.created").size() == 1u);
  BOOST_TEST(it::AuditRows(t.id(), "webhook.updated").size() == 1u);
}

BOOST_AUTO_TEST_CASE(refused_urls_are_400_with_the_reason) {
  it::PortalTenant t;
  // The test stack allows http and 127.0.0.1 for the dispatcher's receivers (tests/run-tests); these stay refused.
  const std::pair<const char*, const char*> cases[] = {
      {"https://169.254.169.254/latest/meta-data/", "metadata"},
      {"https://10.0.0.8/hook", "private"},
      {"https://192.168.1.20/hook", "private"},
      {"https://100.64.3.4/hook", "carrier-grade NAT"},
      {"https://127.0.0.2/hook", "loopback"},
      {"https://[::1]/hook", "loopback"},
      {"https://[fe80::1]/hook", "link-local"},
      {"https://0.0.0.0/hook", "unspecified"},
      {"https://224.0.0.5/hook", "multicast"},
      {"https://user:secret@93.184.215.14/hook", "credentials"},
      {"ftp://93.184.215.14/hook", "https"},
      {"https://no-such-host.invalid/hook", "does not resolve"},
  };
  for (const auto& [url, reason] : cases) {
    it::Response r = it::Send("POST", "/api/webhooks", t.As(t.admin),
                              R"({"url": ")" + std::string(url) + R"(", "events": ["ping"]})");
    BOOST_TEST_CONTEXT(url) {
      it::ExpectError(r, 400, "VALIDATION_ERROR");
      rapidjson::Document body = it::JsonOf(r);
      BOOST_TEST_REQUIRE(body.HasMember("details"));
      BOOST_TEST(it::StringMember(body["details"][0], "field") == "url");
      BOOST_TEST(it::StringMember(body["details"][0], "issue").find(reason) != std::string::npos, r.Summary());
    }
  }
  it::Response events =
      it::Send("POST", "/api/webhooks", t.As(t.admin), R"({"url": "https://93.184.215.14/", "events": []})");
  BOOST_TEST(it::DetailFields(events) == std::vector<std::string>{"events"}, boost::test_tools::per_element());
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM webhooks WHERE tenant_id = $1", {t.id()})[0][0] == "0");
}

BOOST_AUTO_TEST_CASE(put_replaces_and_delete_removes) {
  it::PortalTenant t;
  std::string a = it::StringMember(it::JsonOf(it::Send("POST", "/api/webhooks", t.As(t.admin),
                                                       R"({"url": "https://93.184.215.14/a", "events": ["ping"]})")),
                                   "id");
  std::string b = it::StringMember(it::JsonOf(it::Send("POST", "/api/webhooks", t.As(t.admin),
                                                       R"({"url": "https://93.184.215.14/b", "events": ["ping"]})")),
                                   "id");
  it::PgQuery("UPDATE webhooks SET active = false, disabled_reason = 'too many failures' WHERE id = $1", {a});
  it::Response put =
      it::Send("PUT", "/api/webhooks/" + a, t.As(t.admin),
               R"({"url": "https://93.184.215.14/a2", "events": ["cve_watch.matched"], "active": true})");
  rapidjson::Document updated = it::ExpectJson200(put);
  BOOST_TEST(it::StringMember(updated, "url") == "https://93.184.215.14/a2");
  BOOST_TEST(it::IsNullMember(updated, "disabledReason"));
  BOOST_TEST(!updated.HasMember("secret"));
  it::ExpectError(it::Send("PUT", "/api/webhooks/" + b, t.As(t.admin),
                           R"({"url": "https://93.184.215.14/a2", "events": ["ping"]})"),
                  409, "CONFLICT");
  it::ExpectError(
      it::Send("PUT", "/api/webhooks/" + b, t.As(t.admin), R"({"url": "https://10.1.1.1/", "events": ["ping"]})"), 400,
      "VALIDATION_ERROR");
  BOOST_TEST(it::Send("DELETE", "/api/webhooks/" + b, t.As(t.admin)).status == 204);
  it::ExpectError(it::Send("DELETE", "/api/webhooks/" + b, t.As(t.admin)), 404, "NOT_FOUND");
  it::ExpectError(
      it::Send("PUT", "/api/webhooks/" + b, t.As(t.admin), R"({"url": "https://93.184.215.14/z", "events": ["ping"]})"),
      404, "NOT_FOUND");
  BOOST_TEST(it::ExpectJson200(it::Get("/api/webhooks", t.As(t.admin)))["webhooks"].Size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_admission_policy)

BOOST_AUTO_TEST_CASE(get_without_a_stored_policy_is_the_defaults) {
  it::PortalTenant t;
  rapidjson::Document p = it::ExpectJson200(it::Get("/api/admission-policy", t.As(t.viewer)));
  BOOST_TEST(it::StringMember(p, "mode") == "enforce");
  BOOST_TEST(p["requireCatalogImages"].GetBool());
  BOOST_TEST(p["requireScan"].GetBool());
  BOOST_TEST(it::StringMember(p, "severityThreshold") == "critical");
  BOOST_TEST(p["exemptNamespaces"].Size() == 1u);
  BOOST_TEST(p["exceptions"].Size() == 0u);
  BOOST_TEST(p["trustVendorVex"].GetBool());
  BOOST_TEST(!p["requireDigest"].GetBool());
  BOOST_TEST(!p["requireCatalogRegistry"].GetBool());
  BOOST_TEST(!p["denyKnownExploited"].GetBool());
  BOOST_TEST(p["maxEpss"].IsNull());
  BOOST_TEST(p.MemberCount() == 16u);
}

// The registry and digest rules: booleans, each problem named by its field, nothing stored on a 400;
// a later PUT that leaves them out turns them off again.
BOOST_AUTO_TEST_CASE(put_checks_and_stores_require_catalog_registry_and_require_digest) {
  it::PortalTenant t;
  it::Response bad = it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                              R"({"requireDigest": 1, "requireCatalogRegistry": "localhost:8443"})");
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(bad) == (std::vector<std::string>{"requireDigest", "requireCatalogRegistry"}),
             boost::test_tools::per_element());
  BOOST_TEST(bad.body.find("must be true or false") != std::string::npos, bad.body);
  it::Response misnamed = it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireRegistry": true})");
  it::ExpectError(misnamed, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(misnamed) == std::vector<std::string>{"requireRegistry"},
             boost::test_tools::per_element());
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_policies WHERE tenant_id = $1", {t.id()}).empty());

  rapidjson::Document on = it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                                                      R"({"requireDigest": true, "requireCatalogRegistry": true})"));
  BOOST_TEST(on["requireDigest"].GetBool());
  BOOST_TEST(on["requireCatalogRegistry"].GetBool());
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-policy", t.As(t.viewer)))["requireCatalogRegistry"].GetBool());
  rapidjson::Document off =
      it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"mode": "warn"})"));
  BOOST_TEST(!off["requireDigest"].GetBool());
  BOOST_TEST(!off["requireCatalogRegistry"].GetBool());
}

// Issue 31's rules: a boolean and a number from 0 to 1 or null, each problem named, nothing stored
// on a 400; the stored values are what GET shows and what the webhook reads.
BOOST_AUTO_TEST_CASE(put_checks_and_stores_deny_known_exploited_and_max_epss) {
  it::PortalTenant t;
  it::Response bad = it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                              R"({"denyKnownExploited": "yes", "maxEpss": 1.5})");
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  BOOST_TEST(it::DetailFields(bad) == (std::vector<std::string>{"denyKnownExploited", "maxEpss"}),
             boost::test_tools::per_element());
  BOOST_TEST(bad.body.find("must be a number from 0 to 1") != std::string::npos, bad.body);
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_policies WHERE tenant_id = $1", {t.id()}).empty());
  rapidjson::Document on = it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                                                      R"({"denyKnownExploited": true, "maxEpss": 0.35})"));
  BOOST_TEST(on["denyKnownExploited"].GetBool());
  BOOST_TEST(on["maxEpss"].GetDouble() == 0.35);
  rapidjson::Document read = it::ExpectJson200(it::Get("/api/admission-policy", t.As(t.viewer)));
  BOOST_TEST(read["maxEpss"].GetDouble() == 0.35);
  rapidjson::Document off =
      it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"maxEpss": null})"));
  BOOST_TEST(!off["denyKnownExploited"].GetBool());
  BOOST_TEST(off["maxEpss"].IsNull());
}

BOOST_AUTO_TEST_CASE(put_stores_fields_given_and_defaults_the_rest) {
  it::PortalTenant t;
  it::Image image = t.tenant.AddImage("policy");
  it::Response put = it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                              R"({"mode": "warn", "severityThreshold": null,
      "gracePeriodDays": 7, "exceptions": [{"cveId": "cve-2024-3094", "imageId": ")" +
                                  image.id + R"(",
      "justification": "patched upstream", "expiresAt": "2027-06-30T12:00:00+02:00"}]})");
  rapidjson::Document stored = it::ExpectJson200(put);
  BOOST_TEST(it::StringMember(stored, "mode") == "warn");
  BOOST_TEST(it::IsNullMember(stored, "severityThreshold"));
  BOOST_TEST(stored["requireCatalogImages"].GetBool());  // left out: the default
  BOOST_TEST(it::StringMember(stored["exceptions"][0], "cveId") == "CVE-2024-3094");
  rapidjson::Document got = it::ExpectJson200(it::Get("/api/admission-policy", t.As(t.user)));
  BOOST_TEST(it::StringMember(got, "mode") == "warn");
  BOOST_TEST(got["gracePeriodDays"].GetInt() == 7);
  // A second PUT replaces the whole document: what it leaves out goes back to the default.
  rapidjson::Document again =
      it::ExpectJson200(it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"requireDigest": true})"));
  BOOST_TEST(it::StringMember(again, "mode") == "enforce");
  BOOST_TEST(again["exceptions"].Size() == 0u);
  BOOST_TEST(it::AuditRows(t.id(), "admission_policy.updated").size() == 2u);
}

BOOST_AUTO_TEST_CASE(put_checks_every_field_and_exception_images_must_be_licensed) {
  it::PortalTenant t;
  it::Image unlicensed = it::CreateImage("policy-unlicensed");
  it::Response r = it::Send("PUT", "/api/admission-policy", t.As(t.admin),
                            R"({"mode": "strict", "gracePeriodDays": "7",
      "exemptNamespaces": ["Bad_NS"], "exceptions": [{"cveId": "CVE-2024-3094", "imageId": ")" +
                                unlicensed.id +
                                R"(", "justification": "j", "expiresAt": "2027-02-30T00:00:00Z"}],
      "extra": 1})");
  it::ExpectError(r, 400, "VALIDATION_ERROR");
  std::vector<std::string> expected = {"mode", "exemptNamespaces[0]", "gracePeriodDays", "exceptions[0].expiresAt",
                                       "extra"};
  BOOST_TEST(it::DetailFields(r) == expected, boost::test_tools::per_element());
  it::Response image_only =
      it::Send("PUT", "/api/admission-policy", t.As(t.admin), R"({"exceptions": [{"cveId": "CVE-2024-3094",
      "imageId": ")" + unlicensed.id + R"(", "justification": "j", "expiresAt": "2027-01-01T00:00:00Z"}]})");
  BOOST_TEST(it::DetailFields(image_only) == std::vector<std::string>{"exceptions[0].imageId"},
             boost::test_tools::per_element());
  BOOST_TEST(it::PgQuery("SELECT 1 FROM admission_policies WHERE tenant_id = $1", {t.id()}).empty());
}

BOOST_AUTO_TEST_CASE(decisions_are_listed_newest_first_and_filtered) {
  it::PortalTenant t;
  for (const char* allowed : {"true", "false", "true"}) {
    it::PgQuery(
        "INSERT INTO admission_decisions (tenant_id, request_uid, operation, kind, namespace, name, images, "
        "allowed, mode, reasons) VALUES ($1, $2, 'CREATE', 'Pod', 'default', 'web', "
        "'[{\"image\": \"registry.example.test/hardened/nginx:1.27.3\"}]', $3::boolean, 'enforce', "
        "'[\"CVE-2024-3094 is critical\"]')",
        {t.id(), it::RandomSuffix(8), std::string(allowed)});
  }
  rapidjson::Document all = it::ExpectJson200(it::Get("/api/admission-decisions", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(all["decisions"].Size() == 3u);
  const rapidjson::Value& d = all["decisions"][0];
  BOOST_TEST(it::StringMember(d, "kind") == "Pod");
  BOOST_TEST(d["images"].IsArray());
  BOOST_TEST(d["reasons"][0].GetString() == std::string("CVE-2024-3094 is critical"));
  BOOST_TEST(it::ExpectJson200(it::Get("/api/admission-decisions?allowed=false", t.As(t.viewer)))["decisions"].Size() ==
             1u);
  it::ExpectError(it::Get("/api/admission-decisions?allowed=maybe", t.As(t.viewer)), 400, "VALIDATION_ERROR");
  rapidjson::Document page = it::ExpectJson200(it::Get("/api/admission-decisions?limit=2", t.As(t.viewer)));
  BOOST_TEST_REQUIRE(page["nextCursor"].IsString());
  rapidjson::Document rest = it::ExpectJson200(
      it::Get("/api/admission-decisions?limit=2&cursor=" + it::StringMember(page, "nextCursor"), t.As(t.viewer)));
  BOOST_TEST(rest["decisions"].Size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_audit_log)

BOOST_AUTO_TEST_CASE(audit_log_lists_writes_with_actor_target_time_and_request_id) {
  it::PortalTenant t;
  it::Response write = it::Send("POST", "/api/cve-watches", t.As(t.admin), R"({"cveId": "CVE-2022-0001"})");
  std::string watch_id = it::StringMember(it::JsonOf(write), "id");
  it::Send("POST", "/api/webhooks", t.As(t.viewer),
           R"({"url": "https://93.184.215.14/", "events": ["ping"]})");  // denied
  rapidjson::Document log = it::ExpectJson200(it::Get("/api/audit-log", t.As(t.admin)));
  BOOST_TEST_REQUIRE(log["entries"].Size() == 2u);
  const rapidjson::Value& denied = log["entries"][0];
  BOOST_TEST(it::StringMember(denied, "action") == "role.denied");
  BOOST_TEST(it::StringMember(denied, "actor") == "user:" + t.viewer.id);
  const rapidjson::Value& created = log["entries"][1];
  BOOST_TEST(it::StringMember(created, "action") == "cve_watch.created");
  BOOST_TEST(it::StringMember(created, "actor") == "user:" + t.admin.id);
  BOOST_TEST(it::StringMember(created, "target") == watch_id);
  BOOST_TEST(it::StringMember(created, "requestId") == write.Header("x-request-id"));
  BOOST_TEST(it::ParseRfc3339(it::StringMember(created, "at")).has_value());
  BOOST_TEST(it::StringMember(created["detail"], "cveId") == "CVE-2022-0001");
  rapidjson::Document only = it::ExpectJson200(it::Get("/api/audit-log?action=role.denied", t.As(t.admin)));
  BOOST_TEST(only["entries"].Size() == 1u);
  rapidjson::Document first = it::ExpectJson200(it::Get("/api/audit-log?limit=1", t.As(t.admin)));
  rapidjson::Document second = it::ExpectJson200(
      it::Get("/api/audit-log?limit=1&cursor=" + it::StringMember(first, "nextCursor"), t.As(t.admin)));
  BOOST_TEST(it::StringMember(second["entries"][0], "action") == "cve_watch.created");
  BOOST_TEST(second["nextCursor"].IsNull());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portal_images)

BOOST_AUTO_TEST_CASE(portal_lists_licensed_images_with_latest_version_and_pages) {
  it::PortalTenant t;
  std::string label = "pimg" + it::RandomSuffix(4);
  it::Image a = t.tenant.AddImage(label + "-a", {{"1.0", 100, std::nullopt, "2026-01-01T00:00:00Z", {"fips"}}});
  it::Image b = t.tenant.AddImage(label + "-b");
  it::CreateImage(label + "-unlicensed");
  rapidjson::Document all = it::ExpectJson200(it::Get("/api/docker-images?q=" + label, t.As(t.viewer)));
  BOOST_TEST_REQUIRE(all["images"].Size() == 2u);
  BOOST_TEST(it::StringMember(all["images"][0], "id") == a.id);
  BOOST_TEST(it::StringMember(all["images"][0]["latestVersion"], "tag") == "1.0");
  BOOST_TEST(it::IsNullMember(all["images"][1], "latestVersion"));
  rapidjson::Document page = it::ExpectJson200(it::Get("/api/docker-images?limit=1&q=" + label, t.As(t.viewer)));
  BOOST_TEST(page["images"].Size() == 1u);
  BOOST_TEST(page["nextCursor"].IsString());
  (void)b;
}

BOOST_AUTO_TEST_CASE(portal_detail_has_versions_with_tags_digests_sizes_times_hardening_and_counts) {
  it::PortalTenant t;
  it::Image image =
      t.tenant.AddImage("pdetail", {{"1.0", 100, "Debian 12", "2026-01-01T00:00:00Z", {"fips"}},
                                    {"1.1", 200, "Debian 12", "2026-02-01T00:00:00Z", {"fips", "non-root"}}});
  it::InsertLatestScan(image.versions[1].id, {2, 1, 0, 0, 0});
  rapidjson::Document d = it::ExpectJson200(it::Get("/api/docker-images/" + image.id, t.As(t.viewer)));
  BOOST_TEST(d["hardeningTags"].Size() == 2u);
  BOOST_TEST_REQUIRE(d["versions"].Size() == 2u);
  const rapidjson::Value& newest = d["versions"][0];
  BOOST_TEST(it::StringMember(newest, "tag") == "1.1");
  BOOST_TEST(it::StringMember(newest, "digest") == image.versions[1].digest);
  BOOST_TEST(it::IntMember(newest, "sizeBytes") == 200);
  BOOST_TEST(it::StringMember(newest, "publishedAt") == "2026-02-01T00:00:00Z");
  BOOST_TEST(newest["hardeningTags"].Size() == 2u);
  BOOST_TEST(it::IntMember(newest["vulnerabilityCounts"], "critical") == 2);
  BOOST_TEST(it::IntMember(d["versions"][1]["vulnerabilityCounts"], "critical") == 0);
  it::ExpectError(it::Get("/api/docker-images/not-a-uuid", t.As(t.viewer)), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/api/docker-images/" + it::CreateImage("pdetail-unlicensed").id, t.As(t.viewer)), 404,
                  "NOT_FOUND");
}

BOOST_AUTO_TEST_SUITE_END()
