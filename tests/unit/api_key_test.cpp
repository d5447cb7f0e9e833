// The API-key format and its offline check: <prefix>_live_<43 base62><6 base62 CRC32>.
#include <boost/test/unit_test.hpp>
#include <string>

#include "icat/api_key.hpp"
#include "icat/crypto.hpp"

namespace {

constexpr std::string_view kPrefix = "icat";
const std::string kHead = "icat_live_";

bool IsBase62(std::string_view text) {
  return text.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
         std::string_view::npos;
}

// A different base62 character than c.
char Other(char c) { return c == 'a' ? 'b' : 'a'; }

}  // namespace

BOOST_AUTO_TEST_SUITE(api_key)

BOOST_AUTO_TEST_CASE(generated_key_has_prefix_live_43_random_and_6_checksum_chars) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  BOOST_TEST(key.secret.size() == kHead.size() + 43 + 6);
  BOOST_TEST(key.secret.rfind(kHead, 0) == 0u, key.secret);
  BOOST_TEST(IsBase62(std::string_view(key.secret).substr(kHead.size())), key.secret);
}

BOOST_AUTO_TEST_CASE(generated_key_lists_its_first_14_characters_as_prefix) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  BOOST_TEST(key.prefix.size() == 14u);
  BOOST_TEST(key.prefix == key.secret.substr(0, 14));
}

BOOST_AUTO_TEST_CASE(generated_key_hash_is_sha256_of_the_whole_key) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  BOOST_TEST(key.hash.size() == 32u);
  BOOST_TEST((key.hash == icat::Sha256(key.secret)));
}

BOOST_AUTO_TEST_CASE(generated_keys_differ) {
  BOOST_TEST(icat::GenerateApiKey(kPrefix).secret != icat::GenerateApiKey(kPrefix).secret);
}

BOOST_AUTO_TEST_CASE(generated_key_uses_the_configured_prefix) {
  icat::NewApiKey key = icat::GenerateApiKey("acme");
  BOOST_TEST(key.secret.rfind("acme_live_", 0) == 0u);
  BOOST_TEST(icat::ApiKeyWellFormed(key.secret, "acme"));
  BOOST_TEST(!icat::ApiKeyWellFormed(key.secret, "icat"));
}

BOOST_AUTO_TEST_CASE(generated_key_is_well_formed) {
  for (int i = 0; i < 50; i++) {
    icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
    BOOST_TEST(icat::ApiKeyWellFormed(key.secret, kPrefix), key.secret);
  }
}

BOOST_AUTO_TEST_CASE(key_with_one_random_character_changed_is_not_well_formed) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  for (size_t i = kHead.size(); i < kHead.size() + 43; i++) {
    std::string typo = key.secret;
    typo[i] = Other(typo[i]);
    BOOST_TEST(!icat::ApiKeyWellFormed(typo, kPrefix), "changed position " << i << ": " << typo);
  }
}

BOOST_AUTO_TEST_CASE(key_with_checksum_changed_is_not_well_formed) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  for (size_t i = kHead.size() + 43; i < key.secret.size(); i++) {
    std::string typo = key.secret;
    typo[i] = Other(typo[i]);
    BOOST_TEST(!icat::ApiKeyWellFormed(typo, kPrefix), "changed position " << i << ": " << typo);
  }
}

BOOST_AUTO_TEST_CASE(key_with_wrong_prefix_or_kind_is_not_well_formed) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  std::string body = key.secret.substr(kHead.size());
  BOOST_TEST(!icat::ApiKeyWellFormed("icax_live_" + body, kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed("icat_test_" + body, kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed("icat-live-" + body, kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed(body, kPrefix));
}

BOOST_AUTO_TEST_CASE(key_of_wrong_length_is_not_well_formed) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  BOOST_TEST(!icat::ApiKeyWellFormed(key.secret.substr(0, key.secret.size() - 1), kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed(key.secret + "0", kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed(key.secret + " ", kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed("", kPrefix));
  BOOST_TEST(!icat::ApiKeyWellFormed(kHead, kPrefix));
}

BOOST_AUTO_TEST_CASE(key_with_non_base62_character_is_not_well_formed) {
  icat::NewApiKey key = icat::GenerateApiKey(kPrefix);
  for (char bad : std::string("-_+/=. \x00\xc3", 9)) {
    std::string typo = key.secret;
    typo[kHead.size() + 5] = bad;
    BOOST_TEST(!icat::ApiKeyWellFormed(typo, kPrefix), "character code " << int(static_cast<unsigned char>(bad)));
  }
}

// The spec's four, and `pull` for the registry (docs/registry.md).
BOOST_AUTO_TEST_CASE(scopes_are_the_four_of_the_spec_and_pull) {
  BOOST_TEST(icat::AllScopes().size() == 5u);
  for (std::string_view scope : {"read:catalog", "read:sbom", "read:vulns", "admission", "pull"}) {
    BOOST_TEST(icat::IsScope(scope), scope);
  }
  BOOST_TEST(!icat::IsScope("write:catalog"));
  BOOST_TEST(!icat::IsScope("READ:CATALOG"));
  BOOST_TEST(!icat::IsScope(""));
}

BOOST_AUTO_TEST_SUITE_END()
