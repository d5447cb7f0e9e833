// Prepared statements at start: one that does not prepare stops a program before it serves, an
// unreachable Postgres does not; result columns are found by name, once and unambiguously.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "icat/db.hpp"
#include "support.hpp"

using namespace icat::test;

namespace {

std::string AppDsn() {
  const char* dsn = std::getenv("ICAT_PG_DSN");
  BOOST_TEST_REQUIRE(dsn != nullptr, "ICAT_PG_DSN is not set");
  return dsn;
}

// The stack's Postgres, as the app role, with a search path that holds none of the service's
// tables or functions: every statement naming one fails to prepare, as after a schema drift.
std::string DsnWithoutSchema() { return AppDsn() + " options='-c search_path=icat_no_such_schema'"; }

// Nothing listens on port 1: the connection is refused at once, as when Postgres is down.
constexpr const char* kUnreachableDsn = "host=127.0.0.1 port=1 dbname=icat user=icat_app";

// icat-dispatcher with ICAT_PG_DSN replaced, without metrics (the stack's dispatcher keeps its
// own), stopped by SIGTERM after `seconds` if it is still running then (exit status 124).
ProcessResult DispatcherFor(const std::string& dsn, int seconds) {
  return RunProcess({"timeout", std::to_string(seconds), "/usr/bin/env", "ICAT_PG_DSN=" + dsn,
                     "ICAT_METRICS_DIR=", GetEnv().bin_dir + "/icat-dispatcher"});
}

// A catalog pool with ICAT_PG_DSN replaced, on a socket of its own, as DispatcherFor.
ProcessResult CatalogPoolFor(const std::string& dsn, int seconds) {
  std::string socket = GetEnv().stack_dir + "/run/statements-test-" + RandomSuffix(6) + ".sock";
  return RunProcess({"timeout", std::to_string(seconds), "/usr/bin/env", "ICAT_PG_DSN=" + dsn, "ICAT_METRICS_DIR=",
                     GetEnv().bin_dir + "/icat-catalog", "--socket", socket, "--workers", "1"});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(statements)

BOOST_AUTO_TEST_CASE(statement_that_does_not_prepare_is_named_at_connect) {
  icat::Db db(AppDsn(),
              {{"statements_test_fine", "SELECT 1"}, {"statements_test_typo", "SELECT no_such_column FROM images"}});
  try {
    (void)db.ConnectAtStart();
    BOOST_FAIL("a statement naming a missing column prepared");
  } catch (const icat::DbError& e) {
    std::string message = e.what();
    BOOST_TEST(message.find("statement statements_test_typo does not prepare") != std::string::npos, message);
    BOOST_TEST(message.find("no_such_column") != std::string::npos, message);
    BOOST_TEST(e.sqlstate == "42703");  // undefined_column
    BOOST_TEST(!e.connection_lost);
  }
}

BOOST_AUTO_TEST_CASE(statements_that_prepare_connect_at_start) {
  icat::Db db(AppDsn(), {{"statements_test_fine", "SELECT count(*) AS n FROM images"}});
  BOOST_TEST(db.ConnectAtStart());
}

BOOST_AUTO_TEST_CASE(unreachable_postgres_at_connect_is_not_a_statement_failure) {
  icat::Db db(kUnreachableDsn, {{"statements_test_typo", "SELECT no_such_column FROM images"}});
  BOOST_TEST(!db.ConnectAtStart());
}

BOOST_AUTO_TEST_CASE(dispatcher_whose_statement_does_not_prepare_exits_2_at_start) {
  ProcessResult run = DispatcherFor(DsnWithoutSchema(), 20);
  BOOST_TEST(run.exit_code == 2, "exit " << run.exit_code << ", stderr: " << run.err);
  // Its first statement reads a function of sql/V0011 that the search path hides.
  BOOST_TEST(run.err.find("icat-dispatcher: statement dispatch_tenants does not prepare") != std::string::npos,
             run.err);
}

BOOST_AUTO_TEST_CASE(dispatcher_starts_while_postgres_is_unreachable) {
  ProcessResult run = DispatcherFor(kUnreachableDsn, 2);
  BOOST_TEST(run.exit_code == 124, "exit " << run.exit_code << " before the timeout, stderr: " << run.err);
  BOOST_TEST(run.err.find("postgres unreachable at start") != std::string::npos, run.err);
  // It waits between tries (a beat every 2 s, a look every poll): a handful of lines, not a flood.
  size_t lines = std::count(run.err.begin(), run.err.end(), '\n');
  BOOST_TEST(lines < 40u, lines << " lines in 2 s: " << run.err.substr(0, 2000));
}

BOOST_AUTO_TEST_CASE(pool_whose_statement_does_not_prepare_exits_2_at_start) {
  ProcessResult run = CatalogPoolFor(DsnWithoutSchema(), 20);
  BOOST_TEST(run.exit_code == 2, "exit " << run.exit_code << ", stderr: " << run.err);
  BOOST_TEST(run.err.find("icat-catalog: statement ") != std::string::npos, run.err);
  BOOST_TEST(run.err.find(" does not prepare") != std::string::npos, run.err);
}

BOOST_AUTO_TEST_CASE(pool_starts_while_postgres_is_unreachable) {
  ProcessResult run = CatalogPoolFor(kUnreachableDsn, 2);
  BOOST_TEST(run.exit_code == 124, "exit " << run.exit_code << " before the timeout, stderr: " << run.err);
}

BOOST_AUTO_TEST_CASE(column_is_found_by_name_and_refused_when_missing_or_ambiguous) {
  icat::Db db(AppDsn(), {});
  icat::Rows rows = db.RunSql("SELECT 1 AS a, 2 AS b, 3 AS b", {});
  BOOST_TEST(rows.Column("a") == 0);
  BOOST_TEST(rows.Text(0, rows.Column("a")) == "1");
  BOOST_CHECK_THROW(rows.Column("b"), std::logic_error);
  BOOST_CHECK_THROW(rows.Column("c"), std::logic_error);
}

BOOST_AUTO_TEST_SUITE_END()
