// The API-key format: <prefix>_live_<43 base62 random chars><6 base62 CRC32 chars>.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icat/vocabulary.hpp"

namespace icat {

inline constexpr size_t kKeyRandomChars = 43;    // 32 random bytes in base62
inline constexpr size_t kKeyChecksumChars = 6;   // CRC32 in base62
inline constexpr size_t kKeyListedPrefixChars = 14;

inline const std::vector<std::string_view>& AllScopes() {
  static const std::vector<std::string_view> scopes = AsList(kScopes);
  return scopes;
}
bool IsScope(std::string_view scope);

struct NewApiKey {
  std::string secret;  // the full key, shown once
  std::string prefix;  // its first 14 characters
  std::string hash;    // SHA-256 of the full key, 32 raw bytes: the only thing stored
};

NewApiKey GenerateApiKey(std::string_view key_prefix);

// True when `key` has the form and its checksum matches: typos are refused without a look-up.
bool ApiKeyWellFormed(std::string_view key, std::string_view key_prefix);

}  // namespace icat
