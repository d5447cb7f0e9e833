// The second wall: the handlers' role (icat_app) sees only the tenant set in its transaction and
// the images that tenant is licensed for, writes only what the handlers write, and the owner's
// functions it may call answer for that tenant only, whatever a query forgets to filter.
#include <libpq-fe.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../../handlers/account/queries.hpp"
#include "../../handlers/admission/queries.hpp"
#include "../../handlers/catalog/queries.hpp"
#include "../../handlers/sbom/queries.hpp"
#include "../../handlers/vulns/queries.hpp"
#include "icat/crypto.hpp"
#include "portal_support.hpp"
#include "support.hpp"
#include "tenant_rows.hpp"

using namespace icat::test;

namespace {

// A connection as icat_app (ICAT_PG_DSN), closed at scope end.
class AppConnection {
 public:
  AppConnection() {
    const char* dsn = std::getenv("ICAT_PG_DSN");
    BOOST_TEST_REQUIRE(dsn != nullptr);
    conn_ = PQconnectdb(dsn);
    BOOST_TEST_REQUIRE(PQstatus(conn_) == CONNECTION_OK, PQerrorMessage(conn_));
  }
  ~AppConnection() { PQfinish(conn_); }
  // Runs sql; returns the first cell, or "ERROR <sqlstate>" when the server refused it.
  std::string Scalar(const std::string& sql, const std::vector<std::optional<std::string>>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    PGresult* result =
        PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0);
    std::string out;
    if (PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0) {
      out = PQgetisnull(result, 0, 0) ? "NULL" : PQgetvalue(result, 0, 0);
    } else if (PQresultStatus(result) == PGRES_FATAL_ERROR) {
      out = std::string("ERROR ") + PQresultErrorField(result, PG_DIAG_SQLSTATE);
    }
    PQclear(result);
    return out;
  }
  // Runs sql; every row, or std::runtime_error when the server refused it.
  std::vector<PgRow> Rows(const std::string& sql, const std::vector<std::optional<std::string>>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    PGresult* result =
        PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0);
    if (PQresultStatus(result) != PGRES_TUPLES_OK) {
      std::string error = PQresultErrorMessage(result);
      PQclear(result);
      throw std::runtime_error(error);
    }
    std::vector<PgRow> rows;
    for (int r = 0; r < PQntuples(result); r++) {
      PgRow row;
      for (int c = 0; c < PQnfields(result); c++) {
        row.push_back(PQgetisnull(result, r, c) ? std::nullopt : std::optional<std::string>(PQgetvalue(result, r, c)));
      }
      rows.push_back(std::move(row));
    }
    PQclear(result);
    return rows;
  }
  // Opens a transaction as the tenant, as the handlers do.
  void BeginAs(const std::string& tenant_id) {
    Scalar("BEGIN");
    Scalar("SELECT set_config('app.tenant_id', $1, true)", {tenant_id});
  }

 private:
  PGconn* conn_ = nullptr;
};

using Params = std::vector<std::optional<std::string>>;

// The tables icat_app may read that have no row-level security, and why (docs/security.md, wall 4).
const std::map<std::string, std::string> kPublicOnPurpose = {
    {"signing_keys", "the public keys of every signature, listed to anyone at GET /v1/signing-keys"},
    {"dispatcher_heartbeats", "the webhook dispatchers' beats: process names, nothing of a tenant"},
    {"tenants", "sign-in finds the tenant by its subdomain before any tenant is set"},
    {"epss_scores", "FIRST's public EPSS scores, the same for every tenant (docs/feeds.md)"},
    {"kev_entries", "CISA's public KEV catalogue, the same for every tenant (docs/feeds.md)"},
    {"feed_loads", "which public feed files are loaded: nothing of a tenant (docs/feeds.md)"},
    {"kev_seen", "every CVE a public KEV catalogue has held: nothing of a tenant (docs/feeds.md)"},
};

// The catalogue tables a tenant reaches only through a licence, each with the owner's count of its
// rows of image $1 found through the rows' parents, not through the image_id its policy reads.
const std::map<std::string, std::string> kLicensedTables = {
    {"images", "SELECT count(*) FROM images WHERE id = $1"},
    {"image_versions", "SELECT count(*) FROM image_versions WHERE image_id = $1"},
    {"scans", "SELECT count(*) FROM scans s JOIN image_versions v ON v.id = s.version_id WHERE v.image_id = $1"},
    {"sboms",
     "SELECT count(*) FROM sboms b JOIN scans s ON s.id = b.scan_id JOIN image_versions v ON v.id = s.version_id "
     "WHERE v.image_id = $1"},
    {"findings_sets",
     "SELECT count(*) FROM findings_sets f JOIN image_versions v ON v.id = f.version_id WHERE v.image_id = $1"},
    {"vulnerabilities",
     "SELECT count(*) FROM vulnerabilities x JOIN findings_sets f ON f.id = x.set_id "
     "JOIN image_versions v ON v.id = f.version_id WHERE v.image_id = $1"},
    {"current_finding_aliases",
     "SELECT count(*) FROM current_finding_aliases a JOIN vulnerabilities x ON x.id = a.finding_id "
     "JOIN findings_sets f ON f.id = x.set_id JOIN image_versions v ON v.id = f.version_id WHERE v.image_id = $1"},
    {"vulnerability_first_seen",
     "SELECT count(*) FROM vulnerability_first_seen f JOIN image_versions v ON v.id = f.version_id "
     "WHERE v.image_id = $1"},
    {"vex_statements", "SELECT count(*) FROM vex_statements WHERE image_id = $1"},
    {"vex_statement_ids",
     "SELECT count(*) FROM vex_statement_ids k JOIN vex_statements st ON st.id = k.statement_id "
     "WHERE st.image_id = $1"},
    {"vex_documents",
     "SELECT count(*) FROM vex_documents d WHERE EXISTS (SELECT FROM vex_statements st "
     "WHERE st.document_id = d.id AND st.image_id = $1)"},
    {"vex_served_documents",
     "SELECT count(*) FROM vex_served_documents d JOIN image_versions v ON v.id = d.version_id WHERE v.image_id = $1"},
    {"attestations",
     "SELECT count(*) FROM attestations a JOIN image_versions v ON v.id = a.version_id WHERE v.image_id = $1"},
    {"package_sets",
     "SELECT count(*) FROM package_sets p JOIN scans s ON s.package_set_id = p.id "
     "JOIN image_versions v ON v.id = s.version_id WHERE v.image_id = $1"},
    {"packages",
     "SELECT count(*) FROM packages k JOIN scans s ON s.package_set_id = k.set_id "
     "JOIN image_versions v ON v.id = s.version_id WHERE v.image_id = $1"},
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

// A handler statement with its licence condition taken out: each join of licenses keeps only its
// tenant condition (any licence of the tenant will do, whatever the image), and the watch look-up
// reaches every image instead of the licensed ones. Unchanged for a statement without a licence
// condition (the admission findings of version ids).
std::string WithoutLicenceCondition(std::string_view sql) {
  std::string out = std::regex_replace(std::string(sql), std::regex(R"(l\.image_id = \w+\.(image_)?id AND )"), "");
  return std::regex_replace(out, std::regex(R"(JOIN images i ON i\.id = l\.image_id)"), "CROSS JOIN images i");
}

// One handler statement, the parameters asking for a tenant's rows (tenant A's context, the ids of
// `of`), and what in its answer shows them.
struct WallCase {
  icat::Statement statement;
  std::string request;
  std::function<Params(const TenantRows& of)> params;
  std::function<std::string(const TenantRows& of)> shows;
};

std::vector<WallCase> WallCases(const TenantRows& a, const std::map<const TenantRows*, std::string>& watch_of) {
  const std::string t = a.tenant.id();
  const std::optional<std::string> none;
  auto image = [](const TenantRows& of) { return of.image.id; };
  auto version = [](const TenantRows& of) { return of.version_id; };
  auto cve = [](const TenantRows& of) { return of.cve; };
  return {
      {icat::vulns::kFindingsOfLatestVersion, "the image's findings",
       [=](const TenantRows& of) { return Params{t, of.image.id, none, none, none, "50", none, none}; }, cve},
      {icat::vulns::kFindingsOfVersion, "the version's findings",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, none, none, none, "50", none, none, of.version_id, none};
       },
       cve},
      {icat::vulns::kCveLookupLatest, "the finding's id",
       [=](const TenantRows& of) {
         return Params{t, of.cve};
       },
       image},
      {icat::vulns::kCveLookupAll, "the finding's alias",
       [=](const TenantRows& of) {
         return Params{t, of.alias};
       },
       image},
      {icat::catalog::kListImages, "images named like it",
       [=](const TenantRows& of) {
         return Params{t, of.image.name, none, none, "1000"};
       },
       image},
      {icat::catalog::kGetImage, "the image",
       [=](const TenantRows& of) {
         return Params{t, of.image.id};
       },
       image},
      {icat::catalog::kListVersions, "the image's versions",
       [=](const TenantRows& of) {
         return Params{t, of.image.id};
       },
       version},
      {icat::catalog::kPageVersions, "a page of them",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, none, none, "50"};
       },
       version},
      {icat::catalog::kGetVersion, "the version",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, of.version_id, none};
       },
       version},
      {icat::catalog::kImagesByDigest, "the version's digest",
       [=](const TenantRows& of) {
         return Params{t, of.image.versions.at(0).digest};
       },
       image},
      {icat::catalog::kImageByReference, "a reference to the version",
       [=](const TenantRows& of) {
         return Params{t, "{" + of.image.versions.at(0).digest + "}", "{" + of.image.repository + "}", "{latest}"};
       },
       image},
      {icat::catalog::kScanHistoryVersion, "the version of a scan history",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, of.version_id};
       },
       version},
      {icat::catalog::kScanHistory, "the scan history",
       [=](const TenantRows& of) { return Params{t, of.version_id, none, none, none, none, none, "100"}; },
       [](const TenantRows& of) { return of.scan_id; }},
      {icat::sbom::kSbomOfLatestVersion, "the image's SBOM",
       [=](const TenantRows& of) {
         return Params{t, of.image.id};
       },
       [](const TenantRows& of) { return of.sbom_sha256; }},
      {icat::sbom::kSbomOfVersion, "the version's SBOM",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, of.version_id, none};
       },
       [](const TenantRows& of) { return of.sbom_sha256; }},
      {icat::sbom::kVexOfVersion, "the version's VEX document",
       [=](const TenantRows& of) {
         return Params{t, of.image.id, of.version_id, none, "openvex"};
       },
       [](const TenantRows& of) { return of.served_vex_sha256; }},
      {icat::admission::kResolveImages, "a reference to the version",
       [=](const TenantRows& of) {
         return Params{t, "{" + of.image.versions.at(0).digest + "}", "{" + of.image.repository + "}", "{1.0}"};
       },
       version},
      {icat::admission::kFindings, "the version's findings",
       [](const TenantRows& of) {
         return Params{"{" + of.version_id + "}", "0", "{}", "false", std::nullopt};
       },
       cve},
      {icat::account::kWatchedImages, "a watch of the finding's id",
       [=](const TenantRows& of) {
         return Params{t, "{" + watch_of.at(&of) + "}"};
       },
       image},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(row_security)

BOOST_AUTO_TEST_CASE(app_role_sees_only_the_tenant_set_in_its_transaction) {
  Tenant a, b;
  a.CreateKey();
  b.CreateKey();
  b.CreateKey();
  AppConnection app;
  BOOST_TEST(app.Scalar("SELECT count(*) FROM api_keys") == "0");  // no tenant set: nothing
  app.Scalar("BEGIN");
  app.Scalar("SELECT set_config('app.tenant_id', '" + a.id() + "', true)");
  BOOST_TEST(app.Scalar("SELECT count(*) FROM api_keys") == "1");
  BOOST_TEST(app.Scalar("SELECT count(*) FROM api_keys WHERE tenant_id = '" + b.id() + "'") == "0");
  app.Scalar("COMMIT");
  BOOST_TEST(app.Scalar("SELECT count(*) FROM api_keys") == "0");  // the setting ended with it
}

BOOST_AUTO_TEST_CASE(app_role_cannot_write_rows_of_another_tenant) {
  Tenant a, b;
  AppConnection app;
  app.Scalar("BEGIN");
  app.Scalar("SELECT set_config('app.tenant_id', '" + a.id() + "', true)");
  std::string insert =
      app.Scalar("INSERT INTO cve_watches (tenant_id, cve_id) VALUES ('" + b.id() + "', 'CVE-2024-3094') RETURNING id");
  BOOST_TEST(insert == "ERROR 42501");  // insufficient_privilege: the policy's WITH CHECK
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(app_role_cannot_write_the_catalogue_or_own_anything) {
  AppConnection app;
  BOOST_TEST(app.Scalar("INSERT INTO images (name, repository) VALUES ('x-rls', 'r/x-rls') RETURNING id") ==
             "ERROR 42501");
  BOOST_TEST(app.Scalar("UPDATE image_versions SET size_bytes = 1 RETURNING id").rfind("ERROR 42501", 0) == 0);
  BOOST_TEST(app.Scalar("SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner "
                        "WHERE r.rolname = current_user") == "0");
}

BOOST_AUTO_TEST_CASE(every_tenant_table_has_forced_row_security) {
  // A table with a tenant_id and no forced row-level security would show every tenant's rows to a
  // query that forgets its filter, or to any function the owner runs for the handlers.
  std::vector<PgRow> unforced = PgQuery(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'public' AND c.relkind = 'r' AND NOT (c.relrowsecurity AND c.relforcerowsecurity) "
      "AND (c.relrowsecurity OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid "
      "AND a.attname = 'tenant_id' AND NOT a.attisdropped) OR c.relname IN ('images', 'image_versions')) "
      "ORDER BY 1");
  for (const PgRow& row : unforced) BOOST_ERROR("row-level security is not forced on " << *row.at(0));
}

BOOST_AUTO_TEST_CASE(app_role_sees_no_row_of_another_tenant_in_any_tenant_table) {
  TenantRows a, b;
  std::vector<PgRow> tables = PgQuery(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped "
      "WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1");
  BOOST_TEST(tables.size() >= 12u);
  AppConnection app;
  for (const PgRow& row : tables) {
    std::string count = "SELECT count(*) FROM " + *row.at(0) + " WHERE tenant_id = $1";
    BOOST_TEST_CONTEXT(*row.at(0)) {
      BOOST_TEST(*PgQuery(count, {b.tenant.id()}).at(0).at(0) != "0", "TenantRows writes no row here: add one");
      app.BeginAs(a.tenant.id());
      BOOST_TEST(app.Scalar(count, {a.tenant.id()}) != "0");
      BOOST_TEST(app.Scalar(count, {b.tenant.id()}) == "0");
      app.Scalar("ROLLBACK");
    }
  }
}

BOOST_AUTO_TEST_CASE(app_role_sees_only_licensed_images_and_versions) {
  Tenant a;
  Image licensed = a.AddImage("walls", {{"1.0"}});
  Image other = CreateImage("walls-other");
  AddVersion(other, {"1.0"});
  AppConnection app;
  const std::string images = "SELECT count(*) FROM images WHERE id = $1";
  const std::string versions = "SELECT count(*) FROM image_versions WHERE image_id = $1";
  BOOST_TEST(app.Scalar(images, {licensed.id}) == "0");  // no tenant set: no catalogue
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(images, {licensed.id}) == "1");
  BOOST_TEST(app.Scalar(versions, {licensed.id}) == "1");
  BOOST_TEST(app.Scalar(images, {other.id}) == "0");
  BOOST_TEST(app.Scalar(versions, {other.id}) == "0");
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(app_role_writes_only_what_the_handlers_write) {
  Tenant a;
  Image image = CreateImage("walls-licence");
  const std::string t = "'" + a.id() + "'";
  // Each refused for want of the right (42501), whatever rows it would touch: the audit log is
  // append-only, licences belong to the operator, a row's tenant and secrets never change, a user's
  // password hash is neither read nor written (the functions of sql/V0015 write it), set-up tokens
  // are used up only by auth_complete_setup.
  const std::vector<std::string> refused = {
      "INSERT INTO licenses (tenant_id, image_id) VALUES (" + t + ", '" + image.id + "')",
      "DELETE FROM licenses",
      "UPDATE audit_log SET action = 'x'",
      "DELETE FROM audit_log",
      "TRUNCATE audit_log",
      "INSERT INTO users (tenant_id, email, password_hash, role) VALUES (" + t + ", 'x@y.test', 'x', 'admin')",
      "INSERT INTO users (id, tenant_id, email, role) VALUES (gen_random_uuid(), " + t + ", 'x@y.test', 'admin')",
      "UPDATE users SET password_hash = 'x'",
      "UPDATE users SET email = 'x@y.test'",
      "UPDATE users SET tenant_id = tenant_id",
      "UPDATE users SET created_at = now()",
      "SELECT password_hash FROM users",
      "SELECT * FROM users",
      "UPDATE setup_tokens SET tenant_id = tenant_id",
      "UPDATE setup_tokens SET user_id = user_id",
      "DELETE FROM setup_tokens",
      "UPDATE api_keys SET tenant_id = tenant_id",
      "UPDATE api_keys SET key_hash = key_hash",
      "DELETE FROM api_keys",
      "DELETE FROM refresh_tokens",
      "UPDATE webhooks SET secret = 'x'",
      "UPDATE feature_requests SET status = 'done'",
      "DELETE FROM feature_requests",
      "UPDATE admission_decisions SET allowed = true",
      "DELETE FROM admission_decisions",
      "DELETE FROM admission_policies",
      "DELETE FROM events",
      "DELETE FROM deliveries",
  };
  AppConnection app;
  for (const std::string& sql : refused) {
    app.BeginAs(a.id());
    BOOST_TEST(app.Scalar(sql) == "ERROR 42501", sql);
    app.Scalar("ROLLBACK");
  }
  app.BeginAs(a.id());  // appending is what the handlers do
  BOOST_TEST(app.Scalar("INSERT INTO audit_log (tenant_id, actor, action) VALUES ($1, 'operator', 'test.append') "
                        "RETURNING id",
                        {a.id()}) == "1");
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(every_table_the_app_role_reads_is_walled_or_public_on_purpose) {
  // Forced row-level security, or listed in kPublicOnPurpose with the reason; and the catalogue
  // tables that are walled without a tenant of their own are the ones the tests below read.
  std::vector<PgRow> readable = PgQuery(
      "SELECT c.relname, c.relrowsecurity AND c.relforcerowsecurity, EXISTS (SELECT FROM pg_attribute a "
      "WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) "
      "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'public' AND c.relkind = 'r' AND has_any_column_privilege('icat_app', c.oid, 'SELECT') "
      "ORDER BY 1");
  std::set<std::string> walled_catalogue;
  for (const PgRow& row : readable) {
    const std::string& table = *row.at(0);
    bool walled = *row.at(1) == "t", tenant_owned = *row.at(2) == "t";
    BOOST_TEST((walled != (kPublicOnPurpose.count(table) == 1)),
               table << ": forced row-level security, or public on purpose (kPublicOnPurpose), one of the two");
    if (walled && !tenant_owned) walled_catalogue.insert(table);
  }
  std::set<std::string> tested;
  for (const auto& [table, count] : kLicensedTables) tested.insert(table);
  BOOST_TEST(walled_catalogue == tested, "every walled catalogue table is in kLicensedTables, and only those");
}

BOOST_AUTO_TEST_CASE(app_role_reads_no_row_of_an_unlicensed_image_in_any_catalogue_table) {
  // A licenses its image only and B another: as A, a plain SELECT of each table shows exactly the
  // rows of A's image (the owner counts them through their parents), never B's; without a tenant,
  // nothing.
  TenantRows a, b;
  AppConnection app;
  for (const auto& [table, count_of_image] : kLicensedTables) {
    BOOST_TEST_CONTEXT(table) {
      std::string of_a = *PgQuery(count_of_image, {a.image.id}).at(0).at(0);
      BOOST_TEST(of_a != "0", "TenantRows writes no row of its image here: add one");
      BOOST_TEST(*PgQuery(count_of_image, {b.image.id}).at(0).at(0) != "0");
      const std::string all = "SELECT count(*) FROM " + table;
      BOOST_TEST(app.Scalar(all) == "0");
      app.BeginAs(a.tenant.id());
      BOOST_TEST(app.Scalar(all) == of_a);
      app.Scalar("ROLLBACK");
    }
  }
}

BOOST_AUTO_TEST_CASE(no_writer_chooses_the_image_a_row_is_checked_against) {
  // The policies read image_id: it is part of each row's foreign key to its parent, so a row naming
  // another image than its parent's is refused, and one naming none gets its parent's.
  TenantRows a, b;
  const std::string finding =
      "INSERT INTO vulnerabilities (set_id, vuln_id, package_name, severity, fix_state, "
      "image_id) VALUES ($1, $2, 'zlib', 'low', 'fixed', $3) RETURNING image_id";
  BOOST_CHECK_THROW(PgQuery(finding, {b.scan_id, b.cve, a.image.id}), std::runtime_error);
  BOOST_CHECK_THROW(PgQuery("UPDATE scans SET image_id = $1 WHERE id = $2", {a.image.id, b.scan_id}),
                    std::runtime_error);
  BOOST_CHECK_THROW(
      PgQuery("UPDATE vulnerability_first_seen SET image_id = $1 WHERE version_id = $2", {a.image.id, b.version_id}),
      std::runtime_error);
  BOOST_TEST(*PgQuery(finding, {b.scan_id, b.cve, std::nullopt}).at(0).at(0) == b.image.id);
  AppConnection app;
  app.BeginAs(a.tenant.id());
  BOOST_TEST(app.Scalar("SELECT count(*) FROM vulnerabilities WHERE set_id = $1", {b.scan_id}) == "0");
  BOOST_TEST(app.Scalar("SELECT count(*) FROM scans WHERE id = $1", {b.scan_id}) == "0");
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(handler_statements_without_their_licence_condition_show_nothing_unlicensed) {
  // The handlers' own statements with their licence conditions taken out: as the owner (the first
  // wall alone, tenant_filters' setting) they now show B's rows to A, which proves the condition is
  // gone; as icat_app with A set, Postgres alone keeps them out, and A's rows read as before.
  TenantRows a, b;
  std::map<const TenantRows*, std::string> watch_of = {{&a, a.watch_id}};
  watch_of[&b] =
      *PgQuery("INSERT INTO cve_watches (tenant_id, cve_id) VALUES ($1, $2) RETURNING id", {a.tenant.id(), b.cve})
           .at(0)
           .at(0);
  PgConnection owner;
  owner.Query("SELECT set_config('app.tenant_id', $1, false)", {a.tenant.id()});
  AppConnection app;
  app.BeginAs(a.tenant.id());
  for (const WallCase& c : WallCases(a, watch_of)) {
    BOOST_TEST_CONTEXT(c.statement.name << " (" << c.request << ")") {
      std::string sql = WithoutLicenceCondition(c.statement.sql);
      BOOST_TEST((sql != c.statement.sql || c.statement.name == icat::admission::kFindings.name),
                 "no licence condition was taken out");
      BOOST_TEST(Mentions(owner.Query(sql, c.params(b)), c.shows(b)), "the owner does not see B's rows");
      BOOST_TEST(!Mentions(app.Rows(sql, c.params(b)), c.shows(b)), "icat_app sees B's rows");
      BOOST_TEST(Mentions(app.Rows(sql, c.params(a)), c.shows(a)), "icat_app does not see A's rows");
    }
  }
  // A's finding still carries the vendor's statement on it (through its alias and its document).
  std::vector<PgRow> page =
      app.Rows(std::string(icat::vulns::kFindingsOfLatestVersion.sql),
               {a.tenant.id(), a.image.id, std::nullopt, std::nullopt, std::nullopt, "50", std::nullopt, std::nullopt});
  BOOST_TEST_REQUIRE(page.size() == 1u);
  BOOST_TEST(Mentions(page, "not_affected"));
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(owner_sees_every_row_of_the_catalogue_tables) {
  // icatctl (ingest, retention, gc, VEX ingest) works as the owner: its policy shows it every row,
  // as many as the superuser, whom no policy filters, counts.
  TenantRows a;
  icat::test::PgConnection owner;
  const std::string superuser = GetEnv().pg_admin_dsn + " user=postgres";
  PGconn* unfiltered = PQconnectdb(superuser.c_str());
  BOOST_TEST_REQUIRE(PQstatus(unfiltered) == CONNECTION_OK, PQerrorMessage(unfiltered));
  for (const auto& [table, count_of_image] : kLicensedTables) {
    const std::string all = "SELECT count(*) FROM " + table;
    PGresult* result = PQexec(unfiltered, all.c_str());
    std::string expected = PQresultStatus(result) == PGRES_TUPLES_OK ? PQgetvalue(result, 0, 0) : "?";
    PQclear(result);
    BOOST_TEST(*owner.Query(all).at(0).at(0) == expected, table);
  }
  PQfinish(unfiltered);
}

BOOST_AUTO_TEST_CASE(login_look_up_gives_nothing_of_another_tenant) {
  PortalTenant a, b;
  AppConnection app;
  const std::string hash = "SELECT password_hash FROM auth_login_user($1)";
  BOOST_TEST(app.Scalar("SELECT count(*) FROM auth_login_user($1)", {a.admin.email}) == "0");  // no tenant set
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(hash, {a.admin.email}).rfind("$scrypt$", 0) == 0u);
  BOOST_TEST(app.Scalar(hash, {b.admin.email}) == "NULL");
  BOOST_TEST(app.Scalar("SELECT count(*) FROM auth_login_user($1) WHERE user_id IS NOT NULL", {b.admin.email}) == "0");
  app.Scalar("ROLLBACK");
  // V0003's look-up by subdomain, which answered for any tenant, is gone.
  BOOST_TEST(app.Scalar("SELECT password_hash FROM auth_login_user($1, $2)", {b.subdomain(), b.admin.email}) ==
             "ERROR 42883");
}

BOOST_AUTO_TEST_CASE(app_role_manages_its_tenants_users_and_no_others) {
  PortalTenant a, b;
  AppConnection app;
  app.BeginAs(a.id());
  // What the portal's user management does, on its own tenant: a pending user, a role, disabled.
  std::string created = app.Scalar("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'viewer') RETURNING id",
                                   {a.id(), "new-" + RandomSuffix(6) + "@a.test"});
  BOOST_TEST_REQUIRE(created.size() == 36u, created);
  BOOST_TEST(app.Scalar("SELECT has_password FROM users WHERE id = $1", {created}) == "f");
  BOOST_TEST(app.Scalar("UPDATE users SET role = 'user' WHERE id = $1 RETURNING role", {a.viewer.id}) == "user");
  BOOST_TEST(app.Scalar("UPDATE users SET disabled_at = now() WHERE id = $1 RETURNING id", {a.user.id}) == a.user.id);
  BOOST_TEST(app.Scalar("DELETE FROM users WHERE id = $1 RETURNING id", {created}) == created);
  // Another tenant's users are out of sight: nothing changes, nothing is refused, nothing is told.
  BOOST_TEST(app.Scalar("UPDATE users SET role = 'viewer' WHERE id = $1 RETURNING id", {b.admin.id}) == "");
  BOOST_TEST(app.Scalar("UPDATE users SET disabled_at = now() WHERE id = $1 RETURNING id", {b.user.id}) == "");
  BOOST_TEST(app.Scalar("DELETE FROM users WHERE id = $1 RETURNING id", {b.viewer.id}) == "");
  BOOST_TEST(app.Scalar("INSERT INTO users (tenant_id, email, role) VALUES ($1, 'x@b.test', 'admin') RETURNING id",
                        {b.id()}) == "ERROR 42501");
  app.Scalar("ROLLBACK");
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar("INSERT INTO setup_tokens (user_id, tenant_id, token_hash, expires_at) "
                        "VALUES ($1, $2, sha256('x'), now()) RETURNING user_id",
                        {b.viewer.id, b.id()}) == "ERROR 42501");
  app.Scalar("ROLLBACK");
  std::vector<PgRow> untouched =
      PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1 AND role <> 'user' AND disabled_at IS NULL", {b.id()});
  BOOST_TEST(*untouched.at(0).at(0) == "2");  // admin and viewer, as made
  BOOST_TEST(*PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1", {b.id()}).at(0).at(0) == "3");
}

BOOST_AUTO_TEST_CASE(password_hashes_are_written_only_through_the_tenants_own_functions) {
  PortalTenant a, b;
  const std::string token_a = RandomSuffix(32), token_b = RandomSuffix(32);
  const std::string pending_a =
      *PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'user') RETURNING id",
               {a.id(), "p-" + RandomSuffix(6) + "@a.test"})
           .at(0)
           .at(0);
  const std::string pending_b =
      *PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'user') RETURNING id",
               {b.id(), "p-" + RandomSuffix(6) + "@b.test"})
           .at(0)
           .at(0);
  const std::string insert =
      "INSERT INTO setup_tokens (user_id, tenant_id, token_hash, expires_at) "
      "VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), now() + interval '1 hour')";
  PgQuery(insert, {pending_a, a.id(), token_a});
  PgQuery(insert, {pending_b, b.id(), token_b});
  const std::string scrypt = icat::HashPassword("a password of the test");
  const std::string complete = "SELECT user_id FROM auth_complete_setup(sha256(convert_to($1, 'UTF8')), $2)";
  AppConnection app;
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(complete, {token_b, scrypt}) == "");                   // B's token, while A is set: nothing
  BOOST_TEST(app.Scalar(complete, {token_a, "plain text"}) == "ERROR 22023");  // only scrypt hashes
  app.Scalar("ROLLBACK");
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(complete, {token_a, scrypt}) == pending_a);
  BOOST_TEST(app.Scalar(complete, {token_a, scrypt}) == "");  // used up
  // A password change needs the stored hash (compare-and-set), and only for the tenant set.
  const std::string change = "SELECT auth_change_password($1::uuid, $2, $3)";
  BOOST_TEST(app.Scalar(change, {pending_a, "$scrypt$not-the-hash", scrypt}) == "f");
  BOOST_TEST(app.Scalar(change, {pending_a, scrypt, icat::HashPassword("another one of the test")}) == "t");
  BOOST_TEST(app.Scalar(change, {b.admin.id, "x", scrypt}) == "f");
  app.Scalar("COMMIT");
  BOOST_TEST(*PgQuery("SELECT has_password::text FROM users WHERE id = $1", {pending_b}).at(0).at(0) == "false");
  BOOST_TEST(
      *PgQuery("SELECT count(*) FROM setup_tokens WHERE user_id = $1 AND used_at IS NULL", {pending_b}).at(0).at(0) ==
      "1");
  // Without a tenant the functions find nothing.
  BOOST_TEST(app.Scalar(complete, {token_b, scrypt}) == "");
}

BOOST_AUTO_TEST_CASE(postgres_keeps_the_last_active_admin_of_a_tenant) {
  PortalTenant t;  // one admin, a user and a viewer
  AppConnection app;
  for (const std::string& sql : {std::string("UPDATE users SET role = 'user' WHERE id = $1 RETURNING id"),
                                 std::string("UPDATE users SET disabled_at = now() WHERE id = $1 RETURNING id"),
                                 std::string("DELETE FROM users WHERE id = $1 RETURNING id")}) {
    app.BeginAs(t.id());
    BOOST_TEST(app.Scalar(sql, {t.admin.id}) == "ERROR IC001", sql);
    app.Scalar("ROLLBACK");
  }
  // The owner (icatctl) is held to it too; a pending admin (no password) does not count.
  BOOST_CHECK_THROW(PgQuery("UPDATE users SET role = 'viewer' WHERE id = $1", {t.admin.id}), std::runtime_error);
  PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'admin')",
          {t.id(), "pa-" + RandomSuffix(6) + "@t.test"});
  BOOST_CHECK_THROW(PgQuery("DELETE FROM users WHERE id = $1", {t.admin.id}), std::runtime_error);
  // With a second active admin, either may go; deleting the tenant takes every user along.
  PortalUser second = t.AddUser("admin");
  app.BeginAs(t.id());
  BOOST_TEST(app.Scalar("UPDATE users SET role = 'user' WHERE id = $1 RETURNING id", {t.admin.id}) == t.admin.id);
  BOOST_TEST(app.Scalar("UPDATE users SET role = 'user' WHERE id = $1 RETURNING id", {second.id}) == "ERROR IC001");
  app.Scalar("ROLLBACK");
  PgQuery("DELETE FROM tenants WHERE id = $1", {t.id()});
  BOOST_TEST(*PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1", {t.id()}).at(0).at(0) == "0");
}

BOOST_AUTO_TEST_CASE(two_admins_demoting_each_other_at_once_leave_one_admin) {
  // Each statement alone sees another admin; the tenant's lock makes the second wait for the first
  // to commit, and then it sees none.
  PortalTenant t;
  PortalUser second = t.AddUser("admin");
  AppConnection first_app, second_app;
  first_app.BeginAs(t.id());
  BOOST_TEST(first_app.Scalar("UPDATE users SET role = 'user' WHERE id = $1 RETURNING id", {second.id}) == second.id);
  second_app.BeginAs(t.id());
  std::future<std::string> waiting = std::async(std::launch::async, [&] {
    return second_app.Scalar("UPDATE users SET role = 'user' WHERE id = $1 RETURNING id", {t.admin.id});
  });
  BOOST_TEST((waiting.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout));  // it waits
  first_app.Scalar("COMMIT");
  BOOST_TEST(waiting.get() == "ERROR IC001");
  second_app.Scalar("ROLLBACK");
  BOOST_TEST(*PgQuery("SELECT count(*) FROM users WHERE tenant_id = $1 AND role = 'admin'", {t.id()}).at(0).at(0) ==
             "1");
}

BOOST_AUTO_TEST_CASE(owner_functions_answer_for_the_tenant_set_only) {
  // The owner's key look-up runs before the tenant is known, so it sees every tenant; once a tenant
  // is set, forced row-level security holds inside it too.
  Tenant a, b;
  std::string key_hash = "\\x" + icat::Sha256Hex(b.CreateKey());
  const std::string look_up = "SELECT count(*) FROM auth_api_key($1::bytea)";
  AppConnection app;
  BOOST_TEST(app.Scalar(look_up, {key_hash}) == "1");
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(look_up, {key_hash}) == "0");
  app.Scalar("ROLLBACK");
  app.BeginAs(b.id());
  BOOST_TEST(app.Scalar(look_up, {key_hash}) == "1");
  app.Scalar("ROLLBACK");
}

BOOST_AUTO_TEST_CASE(audit_ids_number_each_tenants_entries_alone) {
  // Entries of two tenants written in turn: each tenant's ids are 1, 2, 3, as if it were alone,
  // and the list's cursor walks them all.
  PortalTenant a, b;
  for (int i = 0; i < 3; i++) {
    for (PortalTenant* t : {&a, &b}) {
      std::string cve = "CVE-2098-" + std::to_string(10000 + i);
      Response created = Send("POST", "/api/cve-watches", t->As(t->admin), R"({"cveId": ")" + cve + "\"}");
      BOOST_TEST_REQUIRE(created.status == 201, created.Summary());
    }
  }
  for (PortalTenant* t : {&a, &b}) {
    std::vector<long long> ids;
    std::string url = "/api/audit-log?limit=1";
    for (int page = 0; page < 20; page++) {
      rapidjson::Document body = ExpectJson200(Get(url, t->As(t->admin)));
      for (const rapidjson::Value& entry : body["entries"].GetArray()) ids.push_back(IntMember(entry, "id"));
      if (body["nextCursor"].IsNull()) break;
      url = "/api/audit-log?limit=1&cursor=" + std::string(body["nextCursor"].GetString());
    }
    BOOST_TEST_REQUIRE(ids.size() >= 3u);
    for (size_t i = 0; i < ids.size(); i++) BOOST_TEST(ids[i] == static_cast<long long>(ids.size() - i));
  }
}

BOOST_AUTO_TEST_SUITE_END()
