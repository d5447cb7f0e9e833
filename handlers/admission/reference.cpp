// Glob patterns and registry prefixes of the admission policy (references: icat/image_reference.hpp).
#include <algorithm>

#include "admission.hpp"

#include "icat/text.hpp"

namespace icat::admission {

namespace {
// The text with its host (what precedes the first '/') in lower case.
std::string LowerHost(std::string_view text) {
  size_t slash = text.find('/');
  return Lower(text.substr(0, slash)) + std::string(slash == std::string_view::npos ? "" : text.substr(slash));
}
}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point: linear in practice, no recursion.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      p++;
      t++;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') p++;
  return p == pattern.size();
}

bool RegistryAllowed(const std::vector<std::string>& prefixes, std::string_view repository_as_parsed) {
  if (prefixes.empty()) return true;
  std::string repository = LowerHost(repository_as_parsed);  // a host known only by its capitals keeps them
  for (std::string prefix : prefixes) {
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    if (prefix.empty()) continue;
    prefix = LowerHost(prefix);
    if (repository == prefix) return true;
    if (repository.size() > prefix.size() && repository.substr(0, prefix.size()) == prefix &&
        repository[prefix.size()] == '/') {
      return true;
    }
  }
  return false;
}

}  // namespace icat::admission
