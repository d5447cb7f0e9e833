// Postgres text-array parsing and literals (no server needed).
#include <boost/test/unit_test.hpp>
#include <string>
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
