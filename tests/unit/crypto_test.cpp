// Hashes, MACs, encodings, the key checksum and password hashing against known vectors.
#include "icat/crypto.hpp"

#include <boost/test/unit_test.hpp>
#include <regex>
#include <string>

BOOST_AUTO_TEST_SUITE(crypto)

BOOST_AUTO_TEST_CASE(sha256_hex_of_abc_is_the_fips_vector) {
  BOOST_TEST(icat::Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(icat::Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

BOOST_AUTO_TEST_CASE(sha256_is_32_raw_bytes_matching_the_hex) {
  std::string raw = icat::Sha256("abc");
  BOOST_TEST(raw.size() == 32u);
  BOOST_TEST(icat::HexEncode(raw) == icat::Sha256Hex("abc"));
}

BOOST_AUTO_TEST_CASE(hmac_sha256_matches_rfc4231_test_case_2) {
  std::string mac = icat::HmacSha256("Jefe", "what do ya want for nothing?");
  BOOST_TEST(mac.size() == 32u);
  BOOST_TEST(icat::HexEncode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

BOOST_AUTO_TEST_CASE(hex_encode_is_lower_case_two_digits_per_byte) {
  BOOST_TEST(icat::HexEncode(std::string("\x00\x0f\xab\xff", 4)) == "000fabff");
  BOOST_TEST(icat::HexEncode("") == "");
}

BOOST_AUTO_TEST_CASE(base64_matches_rfc4648_vectors_both_ways) {
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    BOOST_TEST(icat::Base64Encode(plain) == encoded);
    auto decoded = icat::Base64Decode(encoded);
    BOOST_TEST_REQUIRE(decoded.has_value(), "could not decode " << encoded);
    BOOST_TEST(*decoded == plain);
  }
}

BOOST_AUTO_TEST_CASE(base64_decode_of_invalid_text_is_nullopt) {
  BOOST_TEST(!icat::Base64Decode("Zm9v!!!!").has_value());
}

BOOST_AUTO_TEST_CASE(base64url_uses_dash_underscore_and_no_padding) {
  const std::string bytes("\xfb\xff\xbf", 3);
  BOOST_TEST(icat::Base64Encode(bytes) == "+/+/");
  BOOST_TEST(icat::Base64UrlEncode(bytes) == "-_-_");
  BOOST_TEST(icat::Base64UrlEncode("f") == "Zg");
  BOOST_TEST(icat::Base64UrlEncode("fo") == "Zm8");
  auto decoded = icat::Base64UrlDecode("Zm8");
  BOOST_TEST_REQUIRE(decoded.has_value());
  BOOST_TEST(*decoded == "fo");
}

// Only the URL-safe alphabet: blanks would otherwise decode to nothing (a cursor of spaces read as
// one empty field; found by cursor_fuzz).
BOOST_AUTO_TEST_CASE(base64url_refuses_what_is_not_its_alphabet) {
  for (std::string_view text : {"    ", "Zm 8", "Zm8\n", "Zm8=", "Zm+8", "Zm/8"}) {
    BOOST_TEST_CONTEXT(text) { BOOST_TEST(!icat::Base64UrlDecode(text).has_value()); }
  }
}

BOOST_AUTO_TEST_CASE(base64_and_base64url_round_trip_every_length) {
  std::string bytes;
  for (int length = 0; length <= 70; length++) {
    BOOST_TEST_CONTEXT("length " << length) {
      auto standard = icat::Base64Decode(icat::Base64Encode(bytes));
      BOOST_TEST_REQUIRE(standard.has_value());
      BOOST_TEST((*standard == bytes));
      std::string url_text = icat::Base64UrlEncode(bytes);
      BOOST_TEST(url_text.find_first_of("+/=") == std::string::npos);
      auto url = icat::Base64UrlDecode(url_text);
      BOOST_TEST_REQUIRE(url.has_value());
      BOOST_TEST((*url == bytes));
    }
    bytes += static_cast<char>((length * 97 + 13) & 0xff);
  }
}

BOOST_AUTO_TEST_CASE(base62_encodes_known_values_left_padded) {
  BOOST_TEST(icat::Base62Encode(std::string("\x00", 1), 1) == "0");
  BOOST_TEST(icat::Base62Encode("\x3d", 1) == "z");
  BOOST_TEST(icat::Base62Encode("\x3e", 2) == "10");
  BOOST_TEST(icat::Base62Encode(std::string("\x00\x01", 2), 6) == "000001");
  BOOST_TEST(icat::Base62Encode(std::string("\x0f\x04", 2), 6) == "000100");  // 3844 = 62^2
  BOOST_TEST(icat::Base62Encode(std::string("\x01\x02", 2), 4) == "004A");    // 258
  BOOST_TEST(icat::Base62Encode(std::string(4, '\xff'), 6) == "4gfFC3");      // 2^32 - 1
  BOOST_TEST(icat::Base62Encode(std::string("\xcb\xf4\x39\x26", 4), 6) == "3jZRME");
  BOOST_TEST(icat::Base62Encode(std::string(4, '\0'), 6) == "000000");
}

BOOST_AUTO_TEST_CASE(base62_of_32_max_bytes_fills_43_characters) {
  BOOST_TEST(icat::Base62Encode(std::string(32, '\xff'), 43) == "yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp1");
}

BOOST_AUTO_TEST_CASE(crc32_of_check_string_is_cbf43926) {
  BOOST_TEST(icat::Crc32("123456789") == 0xCBF43926u);
  BOOST_TEST(icat::Crc32("") == 0u);
}

BOOST_AUTO_TEST_CASE(constant_time_equal_compares_content_and_length) {
  BOOST_TEST(icat::ConstantTimeEqual("abc", "abc"));
  BOOST_TEST(icat::ConstantTimeEqual("", ""));
  BOOST_TEST(!icat::ConstantTimeEqual("abc", "abd"));
  BOOST_TEST(!icat::ConstantTimeEqual("abc", "abcd"));
  BOOST_TEST(!icat::ConstantTimeEqual("abcd", "abc"));
  BOOST_TEST(!icat::ConstantTimeEqual("", "a"));
}

BOOST_AUTO_TEST_CASE(random_bytes_have_the_size_asked_and_differ) {
  BOOST_TEST(icat::RandomBytes(0).empty());
  std::string a = icat::RandomBytes(32), b = icat::RandomBytes(32);
  BOOST_TEST(a.size() == 32u);
  BOOST_TEST((a != b));
}

BOOST_AUTO_TEST_CASE(random_uuid_is_lower_case_version_4) {
  const std::regex v4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::string a = icat::RandomUuid(), b = icat::RandomUuid();
  BOOST_TEST(std::regex_match(a, v4), a);
  BOOST_TEST(std::regex_match(b, v4), b);
  BOOST_TEST(a != b);
}

BOOST_AUTO_TEST_CASE(password_hash_verifies_and_rejects_a_wrong_password) {
  const std::string phc = icat::HashPassword("correct horse battery staple");
  BOOST_TEST(phc.rfind("$scrypt$ln=17,r=8,p=1$", 0) == 0u, phc);
  // "$scrypt$ln=17,r=8,p=1$<salt>$<hash>": two more non-empty fields.
  std::string rest = phc.substr(std::string("$scrypt$ln=17,r=8,p=1$").size());
  size_t dollar = rest.find('$');
  BOOST_TEST_REQUIRE(dollar != std::string::npos);
  BOOST_TEST(dollar > 0u);
  BOOST_TEST(dollar + 1 < rest.size());
  BOOST_TEST(icat::VerifyPassword("correct horse battery staple", phc));
  BOOST_TEST(!icat::VerifyPassword("correct horse battery stapler", phc));
  BOOST_TEST(!icat::VerifyPassword("", phc));
}

BOOST_AUTO_TEST_CASE(password_hashes_of_one_password_differ_by_salt) {
  BOOST_TEST(icat::HashPassword("same") != icat::HashPassword("same"));
}

BOOST_AUTO_TEST_CASE(verify_against_a_malformed_hash_is_false) {
  BOOST_TEST(!icat::VerifyPassword("x", ""));
  BOOST_TEST(!icat::VerifyPassword("x", "$scrypt$ln=17,r=8,p=1$"));
  BOOST_TEST(!icat::VerifyPassword("x", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"));
  BOOST_TEST(!icat::VerifyPassword("x", "plaintext"));
}

BOOST_AUTO_TEST_CASE(sealed_secrets_open_only_with_their_key_and_context) {
  const std::string key(32, 'k');
  std::string sealed = icat::Seal(key, "client-secret", "sso_configs.client_secret:t1");
  BOOST_TEST(sealed.size() == 12 + 13 + 16);
  BOOST_TEST(sealed.find("client-secret") == std::string::npos);
  BOOST_TEST(icat::Unseal(key, sealed, "sso_configs.client_secret:t1").value_or("") == "client-secret");
  BOOST_TEST(!icat::Unseal(std::string(32, 'x'), sealed, "sso_configs.client_secret:t1").has_value());
  BOOST_TEST(!icat::Unseal(key, sealed, "sso_configs.client_secret:t2").has_value());
  std::string flipped = sealed;
  flipped[14] ^= 1;
  BOOST_TEST(!icat::Unseal(key, flipped, "sso_configs.client_secret:t1").has_value());
  BOOST_TEST(!icat::Unseal(key, sealed.substr(0, 20), "sso_configs.client_secret:t1").has_value());
  BOOST_TEST(icat::Seal(key, "client-secret", "c") != icat::Seal(key, "client-secret", "c"));  // a new nonce each time
  BOOST_TEST(icat::Unseal(key, icat::Seal(key, "", "c"), "c").value_or("x") == "");
}

BOOST_AUTO_TEST_SUITE_END()
