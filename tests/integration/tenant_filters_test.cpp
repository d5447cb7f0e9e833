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
  // Runs the named statement of a handler group.
  std::vector<PgRow> Run(const std::vector<icat::Statement>& statements, std::string_view name, const Params& params) {
    for (const icat::Statement& statement : statements) {
      if (statement.name == name) return db_.Query(std::string(statement.sql), params);
    }
    BOOST_FAIL("no statement " << name);
    return {};
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
  const auto& q = icat::catalog::kStatements;
  const std::string t = a.tenant.id();
  std::vector<PgRow> list = db.Run(q, "list_images", {t, std::nullopt, std::nullopt, std::nullopt, "1000"});
  ExpectANotB(list, a.image.id, list, b.image.id);
  ExpectANotB(db.Run(q, "get_image", {t, a.image.id}), a.image.id,  //
                 db.Run(q, "get_image", {t, b.image.id}), b.image.id);
  ExpectANotB(db.Run(q, "list_versions", {t, a.image.id}), a.version_id,
                 db.Run(q, "list_versions", {t, b.image.id}), b.version_id);
  ExpectANotB(db.Run(q, "scan_history_version", {t, a.image.id, a.version_id}), a.version_id,
                 db.Run(q, "scan_history_version", {t, b.image.id, b.version_id}), b.version_id);
  const Params none(5, std::nullopt);
  auto history = [&](const TenantRows& of) {
    Params params = {t, of.version_id};
    params.insert(params.end(), none.begin(), none.end());
    params.push_back("100");
    return db.Run(q, "scan_history", params);
  };
  ExpectANotB(history(a), a.scan_id, history(b), b.scan_id);
}

BOOST_AUTO_TEST_CASE(vulns_statements_show_only_the_tenants_licensed_findings) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::vulns::kStatements;
  const std::string t = a.tenant.id();
  auto latest = [&](const TenantRows& of) {
    return db.Run(q, "findings_of_latest_version", {t, of.image.id, std::nullopt, std::nullopt, std::nullopt, "50"});
  };
  ExpectANotB(latest(a), a.cve, latest(b), b.cve);
  auto version = [&](const TenantRows& of) {
    return db.Run(q, "findings_of_version",
                  {t, of.image.id, std::nullopt, std::nullopt, std::nullopt, "50", of.version_id});
  };
  ExpectANotB(version(a), a.cve, version(b), b.cve);
  for (const char* name : {"cve_lookup_latest", "cve_lookup_all"}) {
    BOOST_TEST_CONTEXT(name) {
      ExpectANotB(db.Run(q, name, {t, a.cve}), a.image.id, db.Run(q, name, {t, b.cve}), b.image.id);
    }
  }
}

// The SBOM look-ups answer with the image, version and scan even when no SBOM is stored (left
// joins), so no SBOM record is needed here: none would be in the blob store.
BOOST_AUTO_TEST_CASE(sbom_statements_show_only_the_tenants_licensed_sboms) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::sbom::kStatements;
  const std::string t = a.tenant.id();
  ExpectANotB(db.Run(q, "sbom_of_latest_version", {t, a.image.id}), a.scan_id,
                 db.Run(q, "sbom_of_latest_version", {t, b.image.id}), b.scan_id);
  ExpectANotB(db.Run(q, "sbom_of_version", {t, a.image.id, a.version_id}), a.scan_id,
                 db.Run(q, "sbom_of_version", {t, b.image.id, b.version_id}), b.scan_id);
}

BOOST_AUTO_TEST_CASE(portal_lists_show_only_the_tenants_rows) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::account::kStatements;
  const std::string t = a.tenant.id();
  const std::optional<std::string> null;
  std::vector<PgRow> keys = db.Run(q, "account_list_keys", {t, null, null, "200"});
  ExpectANotB(keys, a.key_id, keys, b.key_id);
  std::vector<PgRow> watches = db.Run(q, "account_list_watches", {t, null, null, "200"});
  ExpectANotB(watches, a.watch_id, watches, b.watch_id);
  ExpectANotB(db.Run(q, "account_watched_images", {t, "{" + a.watch_id + "}"}), a.image.id,
                 db.Run(q, "account_watched_images", {t, "{" + b.watch_id + "}"}), b.image.id);
  std::vector<PgRow> requests = db.Run(q, "account_list_requests", {t, null, null, null, null, "200"});
  ExpectANotB(requests, a.request_id, requests, b.request_id);
  ExpectANotB(db.Run(q, "account_visible_images", {t, "{" + a.image.id + "}"}), a.image.id,
                 db.Run(q, "account_visible_images", {t, "{" + b.image.id + "}"}), b.image.id);
  BOOST_TEST(db.Run(q, "account_image_visible", {t, b.image.id}).empty());
  std::vector<PgRow> webhooks = db.Run(q, "account_list_webhooks", {t, null, null, "200"});
  ExpectANotB(webhooks, a.webhook_id, webhooks, b.webhook_id);
  BOOST_TEST(db.Run(q, "account_webhook_exists", {t, b.webhook_id}).empty());
  BOOST_TEST(db.Run(q, "account_webhook_for_ping", {t, b.webhook_id}).empty());
  ExpectANotB(db.Run(q, "account_list_deliveries", {t, a.webhook_id, null, null, null, "50"}), a.delivery_id,
                 db.Run(q, "account_list_deliveries", {t, b.webhook_id, null, null, null, "50"}), b.delivery_id);
  std::vector<PgRow> policy = db.Run(q, "account_get_policy", {t});
  ExpectANotB(policy, a.marker, policy, b.marker);
  std::vector<PgRow> decisions = db.Run(q, "account_list_decisions", {t, null, null, null, "200"});
  ExpectANotB(decisions, a.decision_id, decisions, b.decision_id);
  std::vector<PgRow> audit = db.Run(q, "account_list_audit", {t, null, null, "200"});
  ExpectANotB(audit, a.marker, audit, b.marker);
  BOOST_TEST(db.Run(q, "account_key_for_revoke", {t, b.key_id}).empty());
}

BOOST_AUTO_TEST_CASE(portal_writes_touch_only_the_tenants_rows) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::account::kStatements;
  const std::string t = a.tenant.id();
  db.db().Query("BEGIN");
  BOOST_TEST(db.Run(q, "account_delete_watch", {t, b.watch_id}).empty());
  BOOST_TEST(db.Run(q, "account_delete_webhook", {t, b.webhook_id}).empty());
  BOOST_TEST(db.Run(q, "account_update_webhook", {t, b.webhook_id, "https://x.example.test/", "{ping}", "true"}).empty());
  db.Run(q, "account_revoke_key", {t, b.key_id});
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM api_keys WHERE id = $1 AND revoked_at IS NULL", {b.key_id})[0][0] ==
             "1");
  db.db().Query("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(admission_statements_show_only_the_tenants_policy_watches_and_images) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::admission::kStatements;
  const std::string t = a.tenant.id();
  std::vector<PgRow> rules = db.Run(q, icat::admission::kTenantRules, {t});
  ExpectANotB(rules, a.marker, rules, b.marker);
  ExpectANotB(rules, a.cve, rules, b.cve);
  auto resolve = [&](const TenantRows& of) {
    return db.Run(q, icat::admission::kResolveImages,
                  {t, "{" + of.image.versions.at(0).digest + "}", "{" + of.image.repository + "}", "{1.0}"});
  };
  ExpectANotB(resolve(a), a.version_id, resolve(b), b.version_id);
}

BOOST_AUTO_TEST_CASE(auth_statements_show_only_the_tenants_sessions_and_users) {
  TenantRows a, b;
  WithoutRowSecurity db(a, b);
  const auto& q = icat::auth::kStatements;
  const std::string t = a.tenant.id();
  ExpectANotB(db.Run(q, icat::auth::kFindRefresh, {t, a.refresh_hash}), a.refresh_id,
                 db.Run(q, icat::auth::kFindRefresh, {t, b.refresh_hash}), b.refresh_id);
  ExpectANotB(db.Run(q, icat::auth::kGetMe, {t, a.user_id}), a.user_id,  //
                 db.Run(q, icat::auth::kGetMe, {t, b.user_id}), b.user_id);
  db.db().Query("BEGIN");
  db.Run(q, icat::auth::kMarkRefreshUsed, {t, b.refresh_id});
  db.Run(q, icat::auth::kRevokeFamily, {t, b.refresh_family});
  BOOST_TEST(*db.db().Query("SELECT count(*) FROM refresh_tokens WHERE id = $1 AND used_at IS NULL "
                            "AND revoked_at IS NULL",
                            {b.refresh_id})[0][0] == "1");
  db.db().Query("ROLLBACK");
}

BOOST_AUTO_TEST_SUITE_END()
