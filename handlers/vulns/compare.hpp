// Comparing two versions of an image (docs/compare.md): the pure diff of their packages and
// findings, unit-tested on its own (tests/unit/compare_test.cpp), and the JSON of the answer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icat/feeds.hpp"
#include "icat/json.hpp"

namespace icat::vulns {

// A package of a version's SBOMs as stored (sql/V0032): identity is the purl without version,
// qualifiers and subpath.
struct PackageRow {
  std::string identity, purl, name, type;
  std::optional<std::string> version;
};

// One entry of added, removed or changed: `from` and/or `to` set as applies.
struct PackageChange {
  std::optional<PackageRow> from, to;
};

struct PackageDiff {
  std::vector<PackageChange> added, removed, changed;
};

// Both lists sorted by (identity, purl). Per identity, the purls on both sides are unchanged; the
// rest pair up in purl order as changed (one from-purl with one to-purl), and what is left over on
// one side only is removed or added. Each list comes out by identity, then purl.
PackageDiff DiffPackages(const std::vector<PackageRow>& from, const std::vector<PackageRow>& to);

// One finding of a version (fix state not-affected left out), with the feeds' facts about its id.
struct FindingRow {
  std::string vuln_id;
  std::vector<std::string> aliases;
  std::string severity, fix_state, package_name;
  std::optional<std::string> package_version, purl;
  FeedFacts feeds;  // its EPSS score and KEV entry (finding_feeds)
};

// One vulnerability id of a comparison, with the findings of it on the side that has it (the to
// side for remaining ones): its highest severity, "fixed" when some package has a fix.
struct VulnChange {
  std::string id;
  std::vector<std::string> aliases;
  std::string severity, fix_state;
  std::vector<FindingRow> packages;
  FeedFacts feeds;  // of the first of its findings that has them
};

struct VulnDiff {
  std::vector<VulnChange> fixed, introduced, remaining;
};

// By vulnerability id: in from only fixed, in to only introduced, in both remaining. Each list in
// risk order: known exploited first, then EPSS score descending, then severity, then id.
VulnDiff DiffVulnerabilities(const std::vector<FindingRow>& from, const std::vector<FindingRow>& to);

// "packages": {"added", "addedCount", "removed", "removedCount", "changed", "changedCount"} and
// "vulnerabilities": {"fixed", "fixedCount", "introduced", "introducedCount", "remaining", "remainingCount"}.
void WritePackageDiff(JsonWriter& w, const PackageDiff& diff);
void WriteVulnDiff(JsonWriter& w, const VulnDiff& diff);

}  // namespace icat::vulns
