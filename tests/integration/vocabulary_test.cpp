// The words of icat/vocabulary.hpp and the SQL CHECKs of the columns that hold them name the same
// set: a word added on one side only fails here, not at the first insert in production.
#include <boost/test/unit_test.hpp>
#include <regex>
#include <set>

#include "icat/vocabulary.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

// The quoted words of the CHECK constraint of table.column, as Postgres prints it
// (CHECK ((severity = ANY (ARRAY['critical'::text, ...])))); the column as a whole word, so the
// check of severity_sources is not severity's.
std::set<std::string> CheckedWords(const std::string& table, const std::string& column) {
  std::vector<it::PgRow> rows = it::PgQuery(
      "SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
      "WHERE t.relname = $1 AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ ('\\m' || $2 || '\\M')",
      {table, column});
  BOOST_TEST_REQUIRE(rows.size() == 1u, "one CHECK on " << table << "." << column);
  const std::string definition = *rows[0][0];
  std::set<std::string> words;
  static const std::regex kQuoted("'([^']*)'::text");
  for (std::sregex_iterator m(definition.begin(), definition.end(), kQuoted), end; m != end; ++m) words.insert((*m)[1]);
  return words;
}

template <size_t N>
std::set<std::string> Words(const std::array<std::string_view, N>& words) {
  return {words.begin(), words.end()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vocabulary)

BOOST_AUTO_TEST_CASE(each_list_is_the_set_its_sql_check_allows) {
  BOOST_TEST((CheckedWords("vulnerabilities", "severity") == Words(icat::kSeverities)));
  BOOST_TEST((CheckedWords("vulnerabilities", "fix_state") == Words(icat::kFixStates)));
  BOOST_TEST((CheckedWords("api_keys", "scopes") == Words(icat::kScopes)));
  BOOST_TEST((CheckedWords("users", "role") == Words(icat::kRoles)));
  BOOST_TEST((CheckedWords("webhooks", "events") == Words(icat::kEventTypes)));
  BOOST_TEST((CheckedWords("vex_statements", "status") == Words(icat::kVexStatuses)));
  BOOST_TEST((CheckedWords("vex_statements", "justification") == Words(icat::kVexJustifications)));
  BOOST_TEST((CheckedWords("vex_documents", "format") == Words(icat::kVexFormats)));
  BOOST_TEST((CheckedWords("vex_served_documents", "format") == Words(icat::kVexFormats)));
}

BOOST_AUTO_TEST_SUITE_END()
