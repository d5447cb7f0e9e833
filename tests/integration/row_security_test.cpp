// The second wall: the handlers' role (icat_app) sees only the tenant set in its transaction,
// and cannot write the catalogue at all, whatever a query forgets to filter.
#include <boost/test/unit_test.hpp>
#include <libpq-fe.h>

#include <cstdlib>
#include <string>

#include "support.hpp"

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
  std::string Scalar(const std::string& sql) {
    PGresult* result = PQexec(conn_, sql.c_str());
    std::string out;
    if (PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0) {
      out = PQgetvalue(result, 0, 0);
    } else if (PQresultStatus(result) == PGRES_FATAL_ERROR) {
      out = std::string("ERROR ") + PQresultErrorField(result, PG_DIAG_SQLSTATE);
    }
    PQclear(result);
    return out;
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

BOOST_AUTO_TEST_SUITE_END()
