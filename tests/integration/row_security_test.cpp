// The second wall: the handlers' role (icat_app) sees only the tenant set in its transaction and
// the images that tenant is licensed for, writes only what the handlers write, and the owner's
// functions it may call answer for that tenant only, whatever a query forgets to filter.
#include <boost/test/unit_test.hpp>
#include <libpq-fe.h>

#include <cstdlib>
#include <future>
#include <string>
#include <vector>

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
    PGresult* result = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                    nullptr, nullptr, 0);
    std::string out;
    if (PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0) {
      out = PQgetisnull(result, 0, 0) ? "NULL" : PQgetvalue(result, 0, 0);
    } else if (PQresultStatus(result) == PGRES_FATAL_ERROR) {
      out = std::string("ERROR ") + PQresultErrorField(result, PG_DIAG_SQLSTATE);
    }
    PQclear(result);
    return out;
  }
  // Opens a transaction as the tenant, as the handlers do.
  void BeginAs(const std::string& tenant_id) {
    Scalar("BEGIN");
    Scalar("SELECT set_config('app.tenant_id', $1, true)", {tenant_id});
  }

 private:
  PGconn* conn_ = nullptr;
};

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
  std::string insert = app.Scalar(
      "INSERT INTO cve_watches (tenant_id, cve_id) VALUES ('" + b.id() + "', 'CVE-2024-3094') RETURNING id");
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
  const std::string pending_a = *PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'user') RETURNING id",
                                         {a.id(), "p-" + RandomSuffix(6) + "@a.test"}).at(0).at(0);
  const std::string pending_b = *PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'user') RETURNING id",
                                         {b.id(), "p-" + RandomSuffix(6) + "@b.test"}).at(0).at(0);
  const std::string insert = "INSERT INTO setup_tokens (user_id, tenant_id, token_hash, expires_at) "
                             "VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), now() + interval '1 hour')";
  PgQuery(insert, {pending_a, a.id(), token_a});
  PgQuery(insert, {pending_b, b.id(), token_b});
  const std::string scrypt = icat::HashPassword("a password of the test");
  const std::string complete = "SELECT user_id FROM auth_complete_setup(sha256(convert_to($1, 'UTF8')), $2)";
  AppConnection app;
  app.BeginAs(a.id());
  BOOST_TEST(app.Scalar(complete, {token_b, scrypt}) == "");  // B's token, while A is set: nothing
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
  BOOST_TEST(*PgQuery("SELECT count(*) FROM setup_tokens WHERE user_id = $1 AND used_at IS NULL", {pending_b})
                  .at(0)
                  .at(0) == "1");
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
  PgQuery("INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'admin')", {t.id(), "pa-" + RandomSuffix(6) + "@t.test"});
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
