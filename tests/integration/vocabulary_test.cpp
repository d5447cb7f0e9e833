// The words of icat/vocabulary.hpp and the SQL CHECKs of the columns that hold them name the same
// set: a word added on one side only fails here, not at the first insert in production.
#include "icat/vocabulary.hpp"

#include <boost/test/unit_test.hpp>
#include <regex>
#include <set>

#include "../../handlers/admission/queries.hpp"
#include "icat/attestation.hpp"
#include "portal_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

// The quoted words of the CHECK constraint of table.column, as Postgres prints it
// (CHECK ((severity = ANY (ARRAY['critical'::text, ...])))); the column as a whole word, so the
// check of severity_sources is not severity's, and the check with a list (ARRAY[...]), so a rule
// across columns (sql/V0035: an email channel has no url) is not the column's vocabulary.
std::set<std::string> CheckedWords(const std::string& table, const std::string& column) {
  std::vector<it::PgRow> rows = it::PgQuery(
      "SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
      "WHERE t.relname = $1 AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ ('\\m' || $2 || '\\M') "
      "AND pg_get_constraintdef(c.oid) LIKE '%ARRAY[%'",
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

// A finding of the scan's findings set, of a package of its own.
void AddFinding(const std::string& scan, const std::string& vuln_id, std::string_view severity) {
  it::PgQuery(
      "INSERT INTO vulnerabilities (set_id, vuln_id, package_name, severity, fix_state) "
      "VALUES ($1, $2, 'pkg-' || gen_random_uuid(), $3, 'not-fixed')",
      {scan, vuln_id, std::string(severity)});
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
  BOOST_TEST((CheckedWords("sboms", "format") == Words(icat::kSbomFormats)));
  BOOST_TEST((CheckedWords("feature_requests", "type") == Words(icat::kRequestTypes)));
  BOOST_TEST((CheckedWords("feature_requests", "status") == Words(icat::kRequestStatuses)));
  BOOST_TEST((CheckedWords("deliveries", "state") == Words(icat::kDeliveryStates)));
  BOOST_TEST((CheckedWords("notification_channels", "type") == Words(icat::kChannelTypes)));
  BOOST_TEST((CheckedWords("notification_channels", "min_severity") == Words(icat::kSeverities)));
  BOOST_TEST((CheckedWords("notification_channels", "digest") == Words(icat::kDigestPeriods)));
  BOOST_TEST((CheckedWords("notification_addresses", "state") == Words(icat::kAddressStates)));
  std::set<std::string> attestation_types;
  for (const icat::AttestationType& type : icat::kAttestationTypes) attestation_types.emplace(type.name);
  BOOST_TEST((CheckedWords("attestations", "type") == attestation_types));
}

// An API key's state is worked out in SQL by two listings, the portal's (handlers/account) and
// `icatctl key list`: for a key in each state, both name it alike, and the states named are kKeyStates.
BOOST_AUTO_TEST_CASE(both_key_listings_name_the_states_of_kkeystates) {
  it::PortalTenant t;
  const std::vector<std::string> keys = {t.tenant.CreateKey(), t.tenant.CreateKey(), t.tenant.CreateKey()};
  const std::string of_key = " WHERE key_hash = sha256(convert_to($1, 'UTF8'))";
  it::PgQuery("UPDATE api_keys SET expires_at = now() - interval '1 hour'" + of_key, {keys[1]});
  it::PgQuery("UPDATE api_keys SET revoked_at = now()" + of_key, {keys[2]});
  rapidjson::Document portal = it::ExpectJson200(it::Get("/api/api-keys", t.As(t.admin)));
  std::set<std::string> states;
  for (const std::string& key : keys) {
    rapidjson::Document listed = t.tenant.KeyEntry(key);
    BOOST_TEST_REQUIRE(listed.IsObject());
    const std::string state = it::StringMember(listed, "state");
    states.insert(state);
    int found = 0;
    for (const rapidjson::Value& entry : portal["apiKeys"].GetArray()) {
      if (it::StringMember(entry, "prefix") != it::StringMember(listed, "prefix")) continue;
      found++;
      BOOST_TEST(it::StringMember(entry, "state") == state, "the portal and icatctl name key " << key.substr(0, 14));
    }
    BOOST_TEST(found == 1);
  }
  BOOST_TEST((states == Words(icat::kKeyStates)));
}

// sql/V0034's severity_rank (what notification channels' minimum severity compares) is SeverityRank,
// for every severity and for a word that is none.
BOOST_AUTO_TEST_CASE(sql_severity_rank_is_severity_rank) {
  for (std::string_view severity : {"critical", "high", "medium", "low", "unknown", "negligible"}) {
    std::vector<it::PgRow> rank = it::PgQuery("SELECT severity_rank($1)", {std::string(severity)});
    BOOST_TEST(*rank.at(0).at(0) == std::to_string(icat::SeverityRank(severity)), severity);
  }
  static_assert(icat::kSeverities.size() == 5, "a new severity: add it to the list above");
}

// sql/V0020's scan_recount counts an id once, at its most severe finding. For each severity alone
// and each pair of severities, a scan of one id with a finding at each: the one count it makes is
// the severity SeverityRank puts first only if the SQL ranks and names the severities as it does.
BOOST_AUTO_TEST_CASE(scan_recount_ranks_severities_as_severity_rank_does) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("ranking", {{"1.0"}});
  std::string columns;
  for (std::string_view severity : icat::kSeverities) {
    columns += (columns.empty() ? "" : ", ") + std::string(severity) + "_count";
  }
  for (std::string_view one : icat::kSeverities) {
    for (std::string_view other : icat::kSeverities) {
      if (icat::SeverityRank(other) > icat::SeverityRank(one)) continue;  // each pair once, and each alone
      std::string scan = it::InsertLatestScan(image.versions[0].id, {});
      AddFinding(scan, "CVE-2024-1", one);
      if (other != one) AddFinding(scan, "CVE-2024-1", other);
      std::vector<it::PgRow> counts = it::PgQuery("SELECT " + columns + " FROM scan_recount($1)", {scan});
      std::string counted;
      for (size_t i = 0; i < icat::kSeverities.size(); i++) {
        if (*counts.at(0).at(i) != "0") counted += (counted.empty() ? "" : " ") + std::string(icat::kSeverities[i]);
      }
      BOOST_TEST(counted == one, one << " with " << other << " counted as " << counted);
    }
  }
}

// The admission findings query keeps the findings at or above a rank threshold: exactly those
// whose SeverityRank is at least the threshold, for every threshold.
BOOST_AUTO_TEST_CASE(admission_findings_rank_severities_as_severity_rank_does) {
  it::Tenant tenant;
  it::Image image = tenant.AddImage("ranking", {{"1.0"}});
  std::string scan = it::InsertLatestScan(image.versions[0].id, {});
  for (std::string_view severity : icat::kSeverities) AddFinding(scan, "CVE-" + std::string(severity), severity);
  for (int threshold = 0; threshold <= icat::SeverityRank(icat::kSeverities.front()) + 1; threshold++) {
    std::set<std::string> expected, got;
    for (std::string_view severity : icat::kSeverities) {
      if (icat::SeverityRank(severity) >= threshold) expected.insert("CVE-" + std::string(severity));
    }
    // The feed rules off: denyKnownExploited false, maxEpss NULL.
    for (const it::PgRow& row :
         it::PgQuery(std::string(icat::admission::kFindings.sql),
                     {"{" + image.versions[0].id + "}", std::to_string(threshold), "{}", "false", std::nullopt})) {
      got.insert(*row.at(1));
    }
    BOOST_TEST((got == expected), "threshold " << threshold);
  }
}

BOOST_AUTO_TEST_SUITE_END()
