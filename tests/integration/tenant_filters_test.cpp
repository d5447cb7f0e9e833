// The first wall on its own: every handler statement filters by tenant (and by licence) itself.
// The statements of handlers/*/queries.hpp run here as the owner role, which row-level security
// does not filter in its own sessions (sql/V0009), with tenant A's context and parameters, over
// rows of tenants A and B. Each answers for A and shows nothing of B.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "../../handlers/account/queries.hpp"
#include "../../handlers/admission/queries.hpp"
#include "../../handlers/auth/queries.hpp"
#include "../../handlers/catalog/queries.hpp"
#include "../../handlers/sbom/queries.hpp"
#include "../../handlers/vulns/queries.hpp"
#include "support.hpp"
#include "tenant_rows.hpp"

using namespace icat::test;

namespace {

using Params = std::vector<std::optional<std::string>>;

// An owner connection set to tenant A as the handlers set it; row-level security is out of the way.
class WithoutRowSecurity {
 public:
  WithoutRowSecurity(const TenantRows& a, const TenantRows& b) {
    db_.Query("SELECT set_config('app.tenant_id', $1, false)", {a.tenant.id()});
    // Proof that only the statements' own conditions stand between A and B's rows here.
    BOOST_TEST_REQUIRE(*db_.Query("SELECT count(*) FROM images WHERE id = $1", {b.image.id}).at(0).at(0) == "1");
    BOOST_TEST_REQUIRE(*db_.Query("SELECT count(*) FROM api_keys WHERE tenant_id = $1", {b.tenant.id()}).at(0).at(0) ==
                       "1");
  }
  // Runs a statement of a handler group.
  std::vector<PgRow> Run(const icat::Statement& statement, const Params& params) {
    return db_.Query(std::string(statement.sql), params);
  }
  PgConnection& db() { return db_; }

 private:
  PgConnection db_;
};

// Whether any cell of rows holds text (ids appear alone, in arrays and in JSON).
bool Mentions(const std::vector<PgRow>& rows, const std::string& text) {
  for (const PgRow& row : rows) {
    for (const auto& cell : row) {
      if (cell && cell->find(text) != std::string::npos) return true;
    }
  }
  return false;
}

// The statement answered A with A's row, and neither A nor B with B's.
void ExpectANotB(const std::vector<PgRow>& rows_of_a, const std::string& a_text, const std::vector<PgRow>& rows_of_b,
                 const std::string& b_text) {
  BOOST_TEST(Mentions(rows_of_a, a_text), "A's answer lacks " << a_text);
  BOOST_TEST(!Mentions(rows_of_a, b_text), "A's answer shows B's " << b_text);
  BOOST_TEST(!Mentions(rows_of_b, b_text), "the answer to B's ids shows B's " << b_text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tenant_filters)

BOOST_AUTO_TEST_CASE(catalog_statements_show_only_the_tenants_licensed_images) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  std::vector<PgRow> list = db.Run(icat::catalog::kListImages, {t, std::nullopt, std::nullopt, std::nullopt, "1000"});
  ExpectANotB(list, a.image.id, list, b.image.id);
  ExpectANotB(db.Run(icat::catalog::kGetImage, {t, a.image.id}), a.image.id,  //
              db.Run(icat::catalog::kGetImage, {t, b.image.id}), b.image.id);
  ExpectANotB(db.Run(icat::catalog::kListVersions, {t, a.image.id}), a.version_id,
              db.Run(icat::catalog::kListVersions, {t, b.image.id}), b.version_id);
  ExpectANotB(db.Run(icat::catalog::kPageVersions, {t, a.image.id, std::nullopt, std::nullopt, "50"}), a.version_id,
              db.Run(icat::catalog::kPageVersions, {t, b.image.id, std::nullopt, std::nullopt, "50"}), b.version_id);
  for (const TenantRows* of : {&a, &b}) {
    BOOST_TEST_CONTEXT((of == &a ? "A's" : "B's") << " version by id and by tag") {
      std::vector<PgRow> by_id = db.Run(icat::catalog::kGetVersion, {t, of->image.id, of->version_id, of->version_id});
      std::vector<PgRow> by_tag =
          db.Run(icat::catalog::kGetVersion, {t, of->image.id, std::nullopt, of->image.versions.at(0).tag});
      BOOST_TEST(Mentions(by_id, of->version_id) == (of == &a));
      BOOST_TEST(Mentions(by_tag, of->version_id) == (of == &a));
    }
  }
  auto by_digest = [&](const TenantRows& of) {
    return db.Run(icat::catalog::kImagesByDigest, {t, of.image.versions.at(0).digest});
  };
  ExpectANotB(by_digest(a), a.image.id, by_digest(b), b.image.id);
  auto by_reference = [&](const TenantRows& of) {
    return db.Run(icat::catalog::kImageByReference,
                  {t, "{" + of.image.versions.at(0).digest + "}", "{" + of.image.repository + "}", "{latest}"});
  };
  ExpectANotB(by_reference(a), a.image.id, by_reference(b), b.image.id);
  ExpectANotB(db.Run(icat::catalog::kScanHistoryVersion, {t, a.image.id, a.version_id}), a.version_id,
              db.Run(icat::catalog::kScanHistoryVersion, {t, b.image.id, b.version_id}), b.version_id);
  const Params none(5, std::nullopt);
  auto history = [&](const TenantRows& of) {
    Params params = {t, of.version_id};
    params.insert(params.end(), none.begin(), none.end());
    params.push_back("100");
    return db.Run(icat::catalog::kScanHistory, params);
  };
  ExpectANotB(history(a), a.scan_id, history(b), b.scan_id);
}

BOOST_AUTO_TEST_CASE(vulns_statements_show_only_the_tenants_licensed_findings) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  auto latest = [&](const TenantRows& of) {
    return db.Run(icat::vulns::kFindingsOfLatestVersion,
                  {t, of.image.id, std::nullopt, std::nullopt, std::nullopt, "50", std::nullopt, std::nullopt});
  };
  ExpectANotB(latest(a), a.cve, latest(b), b.cve);
  auto version = [&](const TenantRows& of) {
    return db.Run(icat::vulns::kFindingsOfVersion,
                  {t, of.image.id, std::nullopt, std::nullopt, std::nullopt, "50", std::nullopt, std::nullopt,
                   of.version_id, std::nullopt});
  };
  ExpectANotB(version(a), a.cve, version(b), b.cve);
  auto by_tag = [&](const TenantRows& of) {
    return db.Run(icat::vulns::kFindingsOfVersion, {t, of.image.id, std::nullopt, std::nullopt, std::nullopt, "50",
                                                    std::nullopt, std::nullopt, std::nullopt,
                                                    of.image.versions.at(0).tag});
  };
  ExpectANotB(by_tag(a), a.cve, by_tag(b), b.cve);
  for (const icat::Statement& lookup : {icat::vulns::kCveLookupLatest, icat::vulns::kCveLookupAll}) {
    BOOST_TEST_CONTEXT(lookup.name) {
      ExpectANotB(db.Run(lookup, {t, a.cve}), a.image.id, db.Run(lookup, {t, b.cve}), b.image.id);
    }
  }
}

// The SBOM look-ups answer with the image, version and scan even when no SBOM is stored (left
// joins), so no SBOM record is needed here: none would be in the blob store.
BOOST_AUTO_TEST_CASE(sbom_statements_show_only_the_tenants_licensed_sboms) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  ExpectANotB(db.Run(icat::sbom::kSbomOfLatestVersion, {t, a.image.id}), a.scan_id,
              db.Run(icat::sbom::kSbomOfLatestVersion, {t, b.image.id}), b.scan_id);
  ExpectANotB(db.Run(icat::sbom::kSbomOfVersion, {t, a.image.id, a.version_id, std::nullopt}), a.scan_id,
              db.Run(icat::sbom::kSbomOfVersion, {t, b.image.id, b.version_id, std::nullopt}), b.scan_id);
  // A version named by its tag (GET /v1/images/{id}/versions/{versionId}/sbom).
  ExpectANotB(db.Run(icat::sbom::kSbomOfVersion, {t, a.image.id, std::nullopt, a.image.versions.at(0).tag}), a.scan_id,
              db.Run(icat::sbom::kSbomOfVersion, {t, b.image.id, std::nullopt, b.image.versions.at(0).tag}), b.scan_id);
}

BOOST_AUTO_TEST_CASE(portal_lists_show_only_the_tenants_rows) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  const std::optional<std::string> null;
  std::vector<PgRow> keys = db.Run(icat::account::kListKeys, {t, null, null, "200"});
  ExpectANotB(keys, a.key_id, keys, b.key_id);
  std::vector<PgRow> watches = db.Run(icat::account::kListWatches, {t, null, null, "200"});
  ExpectANotB(watches, a.watch_id, watches, b.watch_id);
  ExpectANotB(db.Run(icat::account::kWatchedImages, {t, "{" + a.watch_id + "}"}), a.image.id,
              db.Run(icat::account::kWatchedImages, {t, "{" + b.watch_id + "}"}), b.image.id);
  std::vector<PgRow> requests = db.Run(icat::account::kListRequests, {t, null, null, null, null, "200"});
  ExpectANotB(requests, a.request_id, requests, b.request_id);
  ExpectANotB(db.Run(icat::account::kVisibleImages, {t, "{" + a.image.id + "}"}), a.image.id,
              db.Run(icat::account::kVisibleImages, {t, "{" + b.image.id + "}"}), b.image.id);
  BOOST_TEST(db.Run(icat::account::kImageVisible, {t, b.image.id}).empty());
  std::vector<PgRow> webhooks = db.Run(icat::account::kListWebhooks, {t, null, null, "200"});
  ExpectANotB(webhooks, a.webhook_id, webhooks, b.webhook_id);
  BOOST_TEST(db.Run(icat::account::kWebhookExists, {t, b.webhook_id}).empty());
  BOOST_TEST(db.Run(icat::account::kWebhookForPing, {t, b.webhook_id}).empty());
  ExpectANotB(db.Run(icat::account::kListDeliveries, {t, a.webhook_id, null, null, null, "50"}), a.delivery_id,
              db.Run(icat::account::kListDeliveries, {t, b.webhook_id, null, null, null, "50"}), b.delivery_id);
  std::vector<PgRow> policy = db.Run(icat::account::kGetPolicy, {t});
  ExpectANotB(policy, a.marker, policy, b.marker);
  std::vector<PgRow> decisions = db.Run(icat::account::kListDecisions, {t, null, null, null, "200"});
  ExpectANotB(decisions, a.decision_id, decisions, b.decision_id);
  std::vector<PgRow> audit = db.Run(icat::account::kListAudit, {t, null, null, "200"});
  ExpectANotB(audit, a.marker, audit, b.marker);
  BOOST_TEST(db.Run(icat::account::kKeyForRevoke, {t, b.key_id}).empty());
}

BOOST_AUTO_TEST_CASE(portal_writes_touch_only_the_tenants_rows) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  db.db().Query("BEGIN");
  BOOST_TEST(db.Run(icat::account::kDeleteWatch, {t, b.watch_id}).empty());
  BOOST_TEST(db.Run(icat::account::kDeleteWebhook, {t, b.webhook_id}).empty());
  BOOST_TEST(
      db.Run(icat::account::kUpdateWebhook, {t, b.webhook_id, "https://x.example.test/", "{ping}", "true"}).empty());
  db.Run(icat::account::kRevokeKey, {t, b.key_id});
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM api_keys WHERE id = $1 AND revoked_at IS NULL", {b.key_id})[0][0] ==
             "1");
  db.db().Query("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(admission_statements_show_only_the_tenants_policy_watches_and_images) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  std::vector<PgRow> rules = db.Run(icat::admission::kTenantRules, {t});
  ExpectANotB(rules, a.marker, rules, b.marker);
  ExpectANotB(rules, a.cve, rules, b.cve);
  auto resolve = [&](const TenantRows& of) {
    return db.Run(icat::admission::kResolveImages,
                  {t, "{" + of.image.versions.at(0).digest + "}", "{" + of.image.repository + "}", "{1.0}"});
  };
  ExpectANotB(resolve(a), a.version_id, resolve(b), b.version_id);
}

BOOST_AUTO_TEST_CASE(auth_statements_show_only_the_tenants_sessions_and_users) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  ExpectANotB(db.Run(icat::auth::kFindRefresh, {t, a.refresh_hash}), a.refresh_id,
              db.Run(icat::auth::kFindRefresh, {t, b.refresh_hash}), b.refresh_id);
  ExpectANotB(db.Run(icat::auth::kGetMe, {t, a.user_id}), a.user_id,  //
              db.Run(icat::auth::kGetMe, {t, b.user_id}), b.user_id);
  db.db().Query("BEGIN");
  db.Run(icat::auth::kMarkRefreshUsed, {t, b.refresh_id});
  db.Run(icat::auth::kRevokeFamily, {t, b.refresh_family});
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM refresh_tokens WHERE id = $1 AND used_at IS NULL "
                            "AND revoked_at IS NULL",
                            {b.refresh_id})[0][0] == "1");
  db.db().Query("ROLLBACK");
  ExpectANotB(db.Run(icat::auth::kFindSetupToken, {t, a.setup_hash}), a.pending_user_id,
              db.Run(icat::auth::kFindSetupToken, {t, b.setup_hash}), b.pending_user_id);
  db.db().Query("BEGIN");
  db.Run(icat::auth::kRecordLogin, {t, b.user_id});
  BOOST_TEST(*db.Run(icat::kRevokeUserSessions, {t, b.user_id}).at(0).at(0) == "0");
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM users WHERE id = $1 AND last_login_at IS NULL", {b.user_id})[0][0] ==
             "1");
  db.db().Query("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(user_management_statements_touch_only_the_tenants_users) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const std::string t = a.tenant.id();
  const std::optional<std::string> null;
  std::vector<PgRow> users = db.Run(icat::account::kListUsers, {t, null, null, "200"});
  ExpectANotB(users, a.user_id, users, b.user_id);
  BOOST_TEST(db.Run(icat::kCurrentPerson, {t, b.user_id, b.refresh_family}).empty());
  BOOST_TEST(db.Run(icat::kCurrentPerson, {t, a.user_id, a.refresh_family}).size() == 1u);
  db.db().Query("BEGIN");
  BOOST_TEST(db.Run(icat::account::kUserForChange, {t, b.user_id}).empty());
  BOOST_TEST(db.Run(icat::account::kUpdateUser, {t, b.user_id, "viewer", "true"}).empty());
  BOOST_TEST(*db.Run(icat::kRevokeUserSessions, {t, b.user_id}).at(0).at(0) == "0");
  db.Run(icat::account::kDeleteUser, {t, b.user_id});
  std::string token_hash = "\\x" + RandomSuffix(64);
  BOOST_TEST(db.Run(icat::account::kIssueSetupToken, {t, b.pending_user_id, token_hash, "1"}).empty());
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM setup_tokens WHERE token_hash = $1::bytea", {b.setup_hash})[0][0] ==
             "1");
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM users WHERE id = $1 AND role = 'admin' AND disabled_at IS NULL",
                            {b.user_id})[0][0] == "1");
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM refresh_tokens WHERE id = $1 AND revoked_at IS NULL",
                            {b.refresh_id})[0][0] == "1");
  db.db().Query("ROLLBACK");
}

BOOST_AUTO_TEST_SUITE_END()
