// icatctl publisher create, revoke and list: the vendor's push credentials. The password is printed
// once, alone on stdout, is no API key, and only its SHA-256 is stored; a live name is not created
// twice; a revoke is in the table at once (the registry's push decision reads it on every request).
#include <boost/test/unit_test.hpp>
#include <regex>
#include <sstream>

#include "icat/api_key.hpp"
#include "icat/crypto.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

std::string NewPublisherName() { return "it-pub-" + it::RandomSuffix(8); }

// The publisher's row as registry_publisher() (sql/V0027) finds it for a client: a name and
// password that a push decision accepts now.
bool Accepted(const std::string& name, const std::string& password) {
  return !it::PgQuery("SELECT 1 FROM registry_publisher($1, decode($2, 'hex'))", {name, icat::Sha256Hex(password)})
              .empty();
}

// `icatctl publisher list`'s line of a publisher: its columns, split on runs of spaces.
std::vector<std::string> ListedColumns(const std::string& name) {
  std::string listed = it::IcatctlOk({"publisher", "list"});
  std::istringstream lines(listed);
  std::string line;
  std::getline(lines, line);
  BOOST_TEST(std::regex_match(line, std::regex("NAME +CREATED +REVOKED")), line);
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::vector<std::string> columns;
    for (std::string word; words >> word;) columns.push_back(word);
    if (!columns.empty() && columns[0] == name) return columns;
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(publishers)

BOOST_AUTO_TEST_CASE(create_prints_a_password_once_that_is_no_api_key_and_stores_only_its_hash) {
  std::string name = NewPublisherName();
  it::ProcessResult created = it::Icatctl({"publisher", "create", name});
  BOOST_TEST_REQUIRE(created.exit_code == 0, created.err);
  BOOST_TEST_REQUIRE(std::regex_match(created.out, std::regex("icatpub_[A-Za-z0-9_-]{43}\n")), created.out);
  std::string password = created.out.substr(0, created.out.size() - 1);
  BOOST_TEST(!icat::ApiKeyWellFormed(password, it::GetEnv().key_prefix));
  BOOST_TEST(!icat::ApiKeyWellFormed(password, "icatpub"));
  BOOST_TEST(created.err.find(password) == std::string::npos);
  BOOST_TEST(Accepted(name, password));

  // Stored: the SHA-256 of the password, never the password.
  std::vector<it::PgRow> rows =
      it::PgQuery("SELECT encode(secret_hash, 'hex'), revoked_at IS NULL FROM publishers WHERE name = $1", {name});
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(*rows[0][0] == icat::Sha256Hex(password));
  BOOST_TEST(*rows[0][1] == "t");

  // Two creates never print one password.
  std::string other = it::IcatctlOk({"publisher", "create", NewPublisherName()});
  BOOST_TEST(other != password);
  BOOST_TEST(!Accepted(name, other));

  std::vector<std::string> listed = ListedColumns(name);
  BOOST_TEST_REQUIRE(listed.size() == 3u);
  BOOST_TEST(std::regex_match(listed[1], std::regex("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ")), listed[1]);
  BOOST_TEST(listed[2] == "-");
  BOOST_TEST(it::IcatctlOk({"publisher", "list"}).find(password) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_live_name_is_refused_and_the_first_password_keeps_working) {
  std::string name = NewPublisherName();
  std::string password = it::IcatctlOk({"publisher", "create", name});
  it::ProcessResult again = it::Icatctl({"publisher", "create", name});
  BOOST_TEST(again.exit_code == 1);
  BOOST_TEST(again.out.empty());
  BOOST_TEST(again.err == "icatctl: publisher " + name + " exists and is live (revoke it first)\n");
  BOOST_TEST(Accepted(name, password));
}

BOOST_AUTO_TEST_CASE(revoke_refuses_the_password_at_once_and_a_new_create_gives_a_new_one) {
  std::string name = NewPublisherName();
  std::string password = it::IcatctlOk({"publisher", "create", name});
  BOOST_TEST(it::IcatctlOk({"publisher", "revoke", name}) == "revoked publisher " + name);
  BOOST_TEST(!Accepted(name, password));
  std::vector<std::string> listed = ListedColumns(name);
  BOOST_TEST_REQUIRE(listed.size() == 3u);
  BOOST_TEST(std::regex_match(listed[2], std::regex("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ")), listed[2]);
  BOOST_TEST(it::IcatctlOk({"publisher", "revoke", name}) == "publisher " + name + " was already revoked");

  // The name again: a new password; the revoked one stays refused.
  std::string renewed = it::IcatctlOk({"publisher", "create", name});
  BOOST_TEST(renewed != password);
  BOOST_TEST(Accepted(name, renewed));
  BOOST_TEST(!Accepted(name, password));
  BOOST_TEST(ListedColumns(name).at(2) == "-");
}

BOOST_AUTO_TEST_CASE(bad_names_are_usage_errors_and_unknown_ones_not_found) {
  for (const std::string& bad : {std::string("Upper"), std::string("-dash"), std::string("a b"), std::string(65, 'a'),
                                 std::string("ünicode"), std::string("")}) {
    BOOST_TEST_CONTEXT(bad) {
      it::ProcessResult created = it::Icatctl({"publisher", "create", bad});
      BOOST_TEST(created.exit_code == 2, created.err);
      BOOST_TEST(created.out.empty());
      BOOST_TEST(it::Icatctl({"publisher", "revoke", bad}).exit_code == 2);
    }
  }
  it::ProcessResult unknown = it::Icatctl({"publisher", "revoke", NewPublisherName()});
  BOOST_TEST(unknown.exit_code == 1);
  BOOST_TEST(unknown.err.find("not found") != std::string::npos, unknown.err);
}

BOOST_AUTO_TEST_SUITE_END()
