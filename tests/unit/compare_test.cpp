// The pure diff of a comparison (handlers/vulns/compare_diff.cpp): packages by identity, findings by id.
#include "../../handlers/vulns/compare.hpp"

#include <boost/test/unit_test.hpp>

namespace v = icat::vulns;

namespace {

v::PackageRow Pkg(const std::string& identity, const std::string& version) {
  return {identity, identity + "@" + version, identity.substr(identity.rfind('/') + 1), "npm", version};
}

v::FindingRow Finding(const std::string& id, const std::string& severity, std::optional<double> epss = std::nullopt,
                      bool kev = false) {
  v::FindingRow f;
  f.vuln_id = id;
  f.severity = severity;
  f.fix_state = "not-fixed";
  f.package_name = "p";
  if (epss) f.feeds.epss = icat::EpssView{*epss, 0.5, "2025-08-25"};
  if (kev) f.feeds.kev = icat::KevView{"2025-01-02", "2025-01-23", "Known"};
  return f;
}

std::vector<std::string> Ids(const std::vector<v::VulnChange>& list) {
  std::vector<std::string> ids;
  for (const v::VulnChange& c : list) ids.push_back(c.id);
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_diff)

BOOST_AUTO_TEST_CASE(packages_are_added_removed_or_changed_by_identity) {
  v::PackageDiff d = v::DiffPackages({Pkg("pkg:npm/a", "1"), Pkg("pkg:npm/b", "1"), Pkg("pkg:npm/c", "1")},
                                     {Pkg("pkg:npm/b", "2"), Pkg("pkg:npm/c", "1"), Pkg("pkg:npm/d", "1")});
  BOOST_TEST_REQUIRE(d.removed.size() == 1u);
  BOOST_TEST(d.removed[0].from->identity == "pkg:npm/a");
  BOOST_TEST(!d.removed[0].to);
  BOOST_TEST_REQUIRE(d.added.size() == 1u);
  BOOST_TEST(d.added[0].to->identity == "pkg:npm/d");
  BOOST_TEST_REQUIRE(d.changed.size() == 1u);
  BOOST_TEST(*d.changed[0].from->version == "1");
  BOOST_TEST(*d.changed[0].to->version == "2");
}

BOOST_AUTO_TEST_CASE(an_identity_with_several_purls_keeps_the_shared_ones_and_pairs_the_rest) {
  // from: x@1, x@2, x@3; to: x@2, x@4: x@2 stays, x@1 -> x@4 changed, x@3 removed.
  v::PackageDiff d = v::DiffPackages({Pkg("pkg:npm/x", "1"), Pkg("pkg:npm/x", "2"), Pkg("pkg:npm/x", "3")},
                                     {Pkg("pkg:npm/x", "2"), Pkg("pkg:npm/x", "4")});
  BOOST_TEST_REQUIRE(d.changed.size() == 1u);
  BOOST_TEST(*d.changed[0].from->version == "1");
  BOOST_TEST(*d.changed[0].to->version == "4");
  BOOST_TEST_REQUIRE(d.removed.size() == 1u);
  BOOST_TEST(*d.removed[0].from->version == "3");
  BOOST_TEST(d.added.empty());
}

BOOST_AUTO_TEST_CASE(identical_and_empty_lists_change_nothing) {
  v::PackageDiff same = v::DiffPackages({Pkg("pkg:npm/a", "1")}, {Pkg("pkg:npm/a", "1")});
  BOOST_TEST((same.added.empty() && same.removed.empty() && same.changed.empty()));
  v::PackageDiff all_new = v::DiffPackages({}, {Pkg("pkg:npm/a", "1"), Pkg("pkg:npm/b", "1")});
  BOOST_TEST(all_new.added.size() == 2u);
}

BOOST_AUTO_TEST_CASE(vulnerabilities_are_fixed_introduced_or_remaining_in_risk_order) {
  std::vector<v::FindingRow> from = {Finding("CVE-1", "low"), Finding("CVE-2", "critical"),
                                     Finding("CVE-3", "medium", 0.9), Finding("CVE-4", "low", std::nullopt, true),
                                     Finding("CVE-5", "high")};
  std::vector<v::FindingRow> to = {Finding("CVE-5", "high"), Finding("CVE-6", "low", 0.1),
                                   Finding("CVE-7", "critical")};
  v::VulnDiff d = v::DiffVulnerabilities(from, to);
  // Known exploited first, then EPSS descending (no score last), then severity.
  BOOST_TEST(Ids(d.fixed) == std::vector<std::string>({"CVE-4", "CVE-3", "CVE-2", "CVE-1"}));
  BOOST_TEST(Ids(d.introduced) == std::vector<std::string>({"CVE-6", "CVE-7"}));
  BOOST_TEST(Ids(d.remaining) == std::vector<std::string>({"CVE-5"}));
}

BOOST_AUTO_TEST_CASE(a_vulnerability_in_several_packages_takes_its_highest_severity_and_any_fix) {
  v::FindingRow low = Finding("CVE-1", "low"), high = Finding("CVE-1", "high");
  high.fix_state = "fixed";
  high.aliases = {"GHSA-x"};
  v::VulnDiff d = v::DiffVulnerabilities({}, {low, high});
  BOOST_TEST_REQUIRE(d.introduced.size() == 1u);
  BOOST_TEST(d.introduced[0].severity == "high");
  BOOST_TEST(d.introduced[0].fix_state == "fixed");
  BOOST_TEST(d.introduced[0].packages.size() == 2u);
  BOOST_TEST(d.introduced[0].aliases == std::vector<std::string>({"GHSA-x"}));
}

BOOST_AUTO_TEST_SUITE_END()
