// Image specs, severity levels and the fail-on rule (rules.hpp).
#include "rules.hpp"

#include <algorithm>
#include <set>

#include "icat/image_reference.hpp"
#include "icat/vocabulary.hpp"

namespace icat::client {

namespace {

// The catalogue's version digests are sha256 (image_versions.digest); the grammar's check of it.
bool IsDigest(std::string_view digest) { return digest.rfind("sha256:", 0) == 0 && IsImageDigest(digest); }

bool Excluded(const Finding& f) {
  return f.fix_state == "not-affected" || f.fix_state == "wont-fix" || f.vex_status == "not_affected";
}

}  // namespace

std::optional<ImageSpec> ParseImageSpec(std::string_view text, std::string* why) {
  ImageSpec spec;
  size_t at = text.find('@');
  if (at != std::string_view::npos) {
    std::string_view digest = text.substr(at + 1);
    if (!IsDigest(digest)) {
      *why = "'" + std::string(digest) + "' is not a digest of the form sha256:<64 lower-case hex>";
      return std::nullopt;
    }
    spec.digest = std::string(digest);
    text = text.substr(0, at);
  }
  // The tag follows the last ':' after the last '/': a ':' before it is a registry's port.
  size_t slash = text.rfind('/');
  size_t colon = text.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    std::string_view tag = text.substr(colon + 1);
    if (!IsImageTag(tag)) {
      *why = "'" + std::string(tag) + "' is not a version tag";
      return std::nullopt;
    }
    spec.tag = std::string(tag);
    text = text.substr(0, colon);
  }
  // A ':' left in the last component is neither a port nor the tag ("nginx::1", "nginx:1.x:2"): such
  // a name could not be written alone, where the ':' would start a tag.
  size_t last_slash = text.rfind('/');
  bool colon_in_name = text.find(':', last_slash == std::string_view::npos ? 0 : last_slash) != std::string_view::npos;
  if (text.empty() || text.front() == '/' || text.back() == '/' || colon_in_name ||
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) || std::iscntrl(c); })) {
    *why = "'" + std::string(text) + "' is not an image name or repository";
    return std::nullopt;
  }
  spec.image = std::string(text);
  return spec;
}

std::optional<int> ParseLevel(std::string_view level) {
  int rank = SeverityRank(level);
  if (rank == 0) return std::nullopt;
  return rank;
}

bool CountsForFailOn(const Finding& finding, int level) {
  int rank = SeverityRank(finding.severity);
  return rank > 0 && rank >= level && !Excluded(finding);
}

Judgement Judge(const std::vector<Finding>& findings, int level) {
  Judgement judgement;
  std::map<std::string, int> counted_rank;  // id -> highest rank among its counted findings
  std::set<std::string> blocking, excluded_only;
  for (const Finding& f : findings) {
    if (CountsForFailOn(f, level)) blocking.insert(f.id);
    if (Excluded(f)) {
      if (SeverityRank(f.severity) >= level && SeverityRank(f.severity) > 0) excluded_only.insert(f.id);
      continue;
    }
    auto [entry, added] = counted_rank.emplace(f.id, SeverityRank(f.severity));
    if (!added) entry->second = std::max(entry->second, SeverityRank(f.severity));
  }
  for (std::string_view severity : kSeverities) judgement.counts[std::string(severity)] = 0;
  for (const auto& [id, rank] : counted_rank) judgement.counts[std::string(SeverityOfRank(rank))]++;
  for (const std::string& id : blocking) excluded_only.erase(id);
  judgement.at_or_above = static_cast<int>(blocking.size());
  judgement.excluded = static_cast<int>(excluded_only.size());
  judgement.failed = judgement.at_or_above > 0;
  return judgement;
}

std::string CountsText(const std::map<std::string, int>& counts) {
  std::string text;
  for (std::string_view severity : kSeverities) {
    auto found = counts.find(std::string(severity));
    text += (text.empty() ? "" : ", ") + std::string(severity) + " " +
            std::to_string(found == counts.end() ? 0 : found->second);
  }
  return text;
}

}  // namespace icat::client
