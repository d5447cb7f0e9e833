// Postgres text-array parsing and literals (no server needed), and the deadlines of every wait for
// the server (a socket that never answers stands in for a frozen one).
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "icat/db.hpp"

using Strings = std::vector<std::string>;

BOOST_AUTO_TEST_SUITE(db)

BOOST_AUTO_TEST_CASE(empty_array_parses_to_no_elements) {
  BOOST_TEST(icat::ParseTextArray("{}").empty());
}

BOOST_AUTO_TEST_CASE(unquoted_elements_parse_in_order) {
  BOOST_TEST((icat::ParseTextArray("{a,b}") == Strings{"a", "b"}));
  BOOST_TEST((icat::ParseTextArray("{read:catalog,read:sbom}") == Strings{"read:catalog", "read:sbom"}));
  BOOST_TEST((icat::ParseTextArray("{single}") == Strings{"single"}));
}

BOOST_AUTO_TEST_CASE(quoted_elements_keep_spaces_and_unescape_quotes_and_backslashes) {
  BOOST_TEST((icat::ParseTextArray(R"({"a b","c\"d"})") == Strings{"a b", "c\"d"}));
  BOOST_TEST((icat::ParseTextArray(R"({"x\\y","a,b",plain})") == Strings{"x\\y", "a,b", "plain"}));
  BOOST_TEST((icat::ParseTextArray(R"({"",z})") == Strings{"", "z"}));
}

BOOST_AUTO_TEST_CASE(text_array_literal_of_nothing_is_empty_braces) {
  BOOST_TEST(icat::TextArrayLiteral({}) == "{}");
}

BOOST_AUTO_TEST_CASE(text_array_literal_round_trips_awkward_elements) {
  const Strings elements = {"plain", "with space", "quote\"inside", "back\\slash", "comma,here",
                            "{braces}", "", "NULL", "ünïcødé", "trailing\\"};
  std::string literal = icat::TextArrayLiteral(elements);
  BOOST_TEST(literal.front() == '{');
  BOOST_TEST(literal.back() == '}');
  BOOST_TEST((icat::ParseTextArray(literal) == elements), literal);
  for (const std::string& one : elements) {
    BOOST_TEST((icat::ParseTextArray(icat::TextArrayLiteral({one})) == Strings{one}), one);
  }
}

BOOST_AUTO_TEST_CASE(text_array_literal_quotes_null_and_empty_so_postgres_reads_strings) {
  // Unquoted NULL is SQL NULL and an unquoted empty element is a syntax error in Postgres.
  std::string literal = icat::TextArrayLiteral({"NULL", ""});
  BOOST_TEST(literal.find("\"NULL\"") != std::string::npos, literal);
  BOOST_TEST(literal.find("\"\"") != std::string::npos, literal);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// What a frozen Postgres (every process stopped) is to a client: a socket that accepts connections,
// since the kernel queues them, and never answers. Not a server: nothing reads what is sent. Named
// as libpq looks for a server's Unix socket, <dir>/.s.PGSQL.<port>.
class SilentSocket {
 public:
  SilentSocket() {
    char pattern[] = "/tmp/icat-silent-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    path_ = dir_ + "/.s.PGSQL.5432";
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
    fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd_, 16) != 0) {
      throw std::runtime_error("cannot listen on " + path_);
    }
  }
  ~SilentSocket() {
    close(fd_);
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  SilentSocket(const SilentSocket&) = delete;
  SilentSocket& operator=(const SilentSocket&) = delete;
  std::string Dsn() const { return "host=" + dir_ + " port=5432 dbname=none user=none"; }

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

using Clock = std::chrono::steady_clock;

// How one query ended, and when.
struct Outcome {
  std::string error;  // DbError's text; empty when it was answered
  bool connection_lost = false;
  long long ms = 0;
};

Outcome Query(icat::Db& db) {
  Outcome outcome;
  auto started = Clock::now();
  try {
    (void)db.RunSql("SELECT 1");
  } catch (const icat::DbError& e) {
    outcome.error = e.what();
    outcome.connection_lost = e.connection_lost;
  }
  outcome.ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  return outcome;
}

bool Says(const Outcome& outcome, const char* words) { return outcome.error.find(words) != std::string::npos; }

// Statement timeout 200 ms: a budget of 700 ms (kBudgetMargin 500 ms). A second of slack on top
// for a loaded machine; the lower bounds show the wait ran to its deadline.
constexpr int kStatementTimeoutMs = 200;
constexpr long long kBudgetMs = kStatementTimeoutMs + icat::kBudgetMargin.count();
constexpr long long kSlackMs = 1000;

}  // namespace

BOOST_AUTO_TEST_SUITE(db_deadlines)

BOOST_AUTO_TEST_CASE(a_server_that_never_answers_fails_the_query_at_the_budgets_end_with_or_without_one_started) {
  for (bool started : {true, false}) {
    BOOST_TEST_CONTEXT((started ? "StartBudget (a request)" : "no budget (the dispatcher)")) {
      SilentSocket frozen;
      icat::Db db(frozen.Dsn(), {}, kStatementTimeoutMs);
      if (started) db.StartBudget();
      Outcome missed = Query(db);
      BOOST_TEST(Says(missed, "did not answer in time"), missed.error);
      BOOST_TEST(missed.connection_lost);  // a 503 DATABASE_UNAVAILABLE (ErrorOfSqlState)
      BOOST_TEST(missed.ms >= kBudgetMs - 50);
      BOOST_TEST(missed.ms < kBudgetMs + kSlackMs);
    }
  }
}

BOOST_AUTO_TEST_CASE(after_a_missed_deadline_the_db_fails_at_once_for_a_while_then_waits_again) {
  SilentSocket frozen;
  icat::Db db(frozen.Dsn(), {}, kStatementTimeoutMs);
  db.StartBudget();
  BOOST_TEST_REQUIRE(Says(Query(db), "did not answer in time"));
  db.StartBudget();
  Outcome at_once = Query(db);
  BOOST_TEST(Says(at_once, "not waiting again yet"), at_once.error);
  BOOST_TEST(at_once.connection_lost);
  BOOST_TEST(at_once.ms < 100);
  BOOST_TEST(!db.Ping());  // the health check knows too, without waiting
  std::this_thread::sleep_for(icat::kUnavailableFor);
  db.StartBudget();
  Outcome again = Query(db);
  BOOST_TEST(Says(again, "did not answer in time"), again.error);
  BOOST_TEST(again.ms >= kBudgetMs - 50);
}

BOOST_AUTO_TEST_CASE(a_shortened_budget_ends_the_ping_sooner) {
  SilentSocket frozen;
  icat::Db db(frozen.Dsn(), {}, 5000);
  db.StartBudget();
  db.ShortenBudget(std::chrono::milliseconds(100));
  auto started = Clock::now();
  BOOST_TEST(!db.Ping());
  long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  BOOST_TEST(ms >= 90);
  BOOST_TEST(ms < 100 + kSlackMs);
}

BOOST_AUTO_TEST_CASE(a_budget_spent_before_the_query_fails_it_at_once_without_judging_postgres) {
  SilentSocket frozen;
  icat::Db db(frozen.Dsn(), {}, kStatementTimeoutMs);
  db.StartBudget();
  std::this_thread::sleep_for(std::chrono::milliseconds(kBudgetMs + 50));
  Outcome spent = Query(db);
  BOOST_TEST(Says(spent, "time for postgres is spent"), spent.error);
  BOOST_TEST(spent.ms < 100);
  db.StartBudget();  // the next request waits again: Postgres was not found silent
  Outcome next = Query(db);
  BOOST_TEST(Says(next, "did not answer in time"), next.error);
}

BOOST_AUTO_TEST_CASE(without_a_statement_timeout_only_connecting_is_bounded) {
  SilentSocket frozen;
  icat::Db db(frozen.Dsn(), {}, 0);  // icatctl, migrations
  db.StartBudget();
  Outcome missed = Query(db);
  BOOST_TEST(Says(missed, "did not answer in time"), missed.error);
  BOOST_TEST(missed.ms >= icat::kConnectTimeout.count() - 50);
  BOOST_TEST(missed.ms < icat::kConnectTimeout.count() + kSlackMs);
}

BOOST_AUTO_TEST_SUITE_END()
