// API keys: generation and the offline well-formedness check (form and CRC32 checksum).
#include "icat/api_key.hpp"

#include <algorithm>

#include "icat/crypto.hpp"

namespace icat {

namespace {
std::string Checksum(std::string_view random_part) {
  uint32_t crc = Crc32(random_part);
  std::string big_endian = {static_cast<char>(crc >> 24), static_cast<char>(crc >> 16), static_cast<char>(crc >> 8),
                            static_cast<char>(crc)};
  return Base62Encode(big_endian, kKeyChecksumChars);
}

bool IsBase62(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  });
}
}  // namespace

bool IsScope(std::string_view scope) {
  const auto& scopes = AllScopes();
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

NewApiKey GenerateApiKey(std::string_view key_prefix) {
  std::string random_part = Base62Encode(RandomBytes(32), kKeyRandomChars);
  NewApiKey key;
  key.secret = std::string(key_prefix) + "_live_" + random_part + Checksum(random_part);
  key.prefix = key.secret.substr(0, kKeyListedPrefixChars);
  key.hash = Sha256(key.secret);
  return key;
}

bool ApiKeyWellFormed(std::string_view key, std::string_view key_prefix) {
  std::string head = std::string(key_prefix) + "_live_";
  if (key.size() != head.size() + kKeyRandomChars + kKeyChecksumChars || key.substr(0, head.size()) != head) {
    return false;
  }
  std::string_view random_part = key.substr(head.size(), kKeyRandomChars);
  std::string_view checksum = key.substr(head.size() + kKeyRandomChars);
  return IsBase62(random_part) && IsBase62(checksum) && ConstantTimeEqual(Checksum(random_part), checksum);
}

}  // namespace icat
