// The pure part of comparing two versions (compare.hpp): packages by identity, findings by id.
#include <algorithm>
#include <map>
#include <set>

#include "compare.hpp"
#include "icat/vocabulary.hpp"

namespace icat::vulns {

namespace {

// The rows of one identity starting at `i` of a list sorted by identity: [i, end).
size_t EndOfIdentity(const std::vector<PackageRow>& rows, size_t i) {
  size_t end = i;
  while (end < rows.size() && rows[end].identity == rows[i].identity) end++;
  return end;
}

// One identity present on both sides: purls on both are unchanged, the rest pair up as changed.
void DiffIdentity(const std::vector<PackageRow>& from, size_t f, size_t f_end, const std::vector<PackageRow>& to,
                  size_t t, size_t t_end, PackageDiff& diff) {
  std::vector<const PackageRow*> gone, come;
  while (f < f_end || t < t_end) {
    if (t == t_end || (f < f_end && from[f].purl < to[t].purl)) {
      gone.push_back(&from[f++]);
    } else if (f == f_end || to[t].purl < from[f].purl) {
      come.push_back(&to[t++]);
    } else {
      f++, t++;
    }
  }
  size_t pairs = std::min(gone.size(), come.size());
  for (size_t i = 0; i < pairs; i++) diff.changed.push_back({*gone[i], *come[i]});
  for (size_t i = pairs; i < gone.size(); i++) diff.removed.push_back({*gone[i], std::nullopt});
  for (size_t i = pairs; i < come.size(); i++) diff.added.push_back({std::nullopt, *come[i]});
}

// The findings of a side by id, each id's entry merged from its findings.
std::map<std::string, VulnChange> ById(const std::vector<FindingRow>& findings) {
  std::map<std::string, VulnChange> by_id;
  for (const FindingRow& f : findings) {
    VulnChange& v = by_id[f.vuln_id];
    if (v.id.empty()) {
      v.id = f.vuln_id;
      v.severity = f.severity;
      v.fix_state = f.fix_state;
    }
    for (const std::string& alias : f.aliases) {
      if (std::find(v.aliases.begin(), v.aliases.end(), alias) == v.aliases.end()) v.aliases.push_back(alias);
    }
    if (SeverityRank(f.severity) > SeverityRank(v.severity)) v.severity = f.severity;
    if (f.fix_state == "fixed") v.fix_state = "fixed";
    if (!v.feeds.epss) v.feeds.epss = f.feeds.epss;
    if (!v.feeds.kev) v.feeds.kev = f.feeds.kev;
    v.packages.push_back(f);
  }
  return by_id;
}

// Known exploited first, then EPSS score descending, then severity, then id.
bool RiskBefore(const VulnChange& a, const VulnChange& b) {
  if (a.feeds.kev.has_value() != b.feeds.kev.has_value()) return a.feeds.kev.has_value();
  double a_score = a.feeds.epss ? a.feeds.epss->score : -1, b_score = b.feeds.epss ? b.feeds.epss->score : -1;
  if (a_score != b_score) return a_score > b_score;
  if (SeverityRank(a.severity) != SeverityRank(b.severity)) return SeverityRank(a.severity) > SeverityRank(b.severity);
  return a.id < b.id;
}

void WritePackage(JsonWriter& w, const PackageChange& c) {
  const PackageRow& p = c.to ? *c.to : *c.from;
  w.StartObject();
  WriteString(w, "name", p.name);
  WriteString(w, "type", p.type);
  WriteString(w, "purl", p.identity);
  if (c.from) {
    WriteOptionalString(w, "fromVersion", c.from->version);
    WriteString(w, "fromPurl", c.from->purl);
  }
  if (c.to) {
    WriteOptionalString(w, "toVersion", c.to->version);
    WriteString(w, "toPurl", c.to->purl);
  }
  w.EndObject();
}

void WritePackageList(JsonWriter& w, const char* name, const char* count, const std::vector<PackageChange>& list) {
  WriteKey(w, name);
  w.StartArray();
  for (const PackageChange& c : list) WritePackage(w, c);
  w.EndArray();
  WriteInt(w, count, static_cast<long long>(list.size()));
}

void WriteVuln(JsonWriter& w, const VulnChange& v) {
  w.StartObject();
  WriteString(w, "id", v.id);
  WriteStringArray(w, "aliases", v.aliases);
  WriteString(w, "severity", v.severity);
  WriteString(w, "fixState", v.fix_state);
  WriteKey(w, "packages");
  WriteObjects(w, v.packages, [&](JsonWriter& w, const FindingRow& f) {
    WriteString(w, "name", f.package_name);
    WriteOptionalString(w, "version", f.package_version);
    WriteOptionalString(w, "purl", f.purl);
    WriteString(w, "severity", f.severity);
    WriteString(w, "fixState", f.fix_state);
  });
  WriteFeeds(w, v.feeds);
  w.EndObject();
}

void WriteVulnList(JsonWriter& w, const char* name, const char* count, const std::vector<VulnChange>& list) {
  WriteKey(w, name);
  w.StartArray();
  for (const VulnChange& v : list) WriteVuln(w, v);
  w.EndArray();
  WriteInt(w, count, static_cast<long long>(list.size()));
}

}  // namespace

PackageDiff DiffPackages(const std::vector<PackageRow>& from, const std::vector<PackageRow>& to) {
  PackageDiff diff;
  size_t f = 0, t = 0;
  while (f < from.size() || t < to.size()) {
    if (t == to.size() || (f < from.size() && from[f].identity < to[t].identity)) {
      diff.removed.push_back({from[f++], std::nullopt});
    } else if (f == from.size() || to[t].identity < from[f].identity) {
      diff.added.push_back({std::nullopt, to[t++]});
    } else {
      size_t f_end = EndOfIdentity(from, f), t_end = EndOfIdentity(to, t);
      DiffIdentity(from, f, f_end, to, t, t_end, diff);
      f = f_end, t = t_end;
    }
  }
  return diff;
}

VulnDiff DiffVulnerabilities(const std::vector<FindingRow>& from, const std::vector<FindingRow>& to) {
  std::map<std::string, VulnChange> before = ById(from), after = ById(to);
  VulnDiff diff;
  for (auto& [id, v] : before) {
    if (!after.count(id)) diff.fixed.push_back(std::move(v));
  }
  for (auto& [id, v] : after) (before.count(id) ? diff.remaining : diff.introduced).push_back(std::move(v));
  for (auto* list : {&diff.fixed, &diff.introduced, &diff.remaining}) std::sort(list->begin(), list->end(), RiskBefore);
  return diff;
}

void WritePackageDiff(JsonWriter& w, const PackageDiff& diff) {
  WriteKey(w, "packages");
  w.StartObject();
  WritePackageList(w, "added", "addedCount", diff.added);
  WritePackageList(w, "removed", "removedCount", diff.removed);
  WritePackageList(w, "changed", "changedCount", diff.changed);
  w.EndObject();
}

void WriteVulnDiff(JsonWriter& w, const VulnDiff& diff) {
  WriteKey(w, "vulnerabilities");
  w.StartObject();
  WriteVulnList(w, "fixed", "fixedCount", diff.fixed);
  WriteVulnList(w, "introduced", "introducedCount", diff.introduced);
  WriteVulnList(w, "remaining", "remainingCount", diff.remaining);
  w.EndObject();
}

}  // namespace icat::vulns
