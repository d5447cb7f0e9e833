// One-time codes against the RFCs' own vectors, base32, the step window and reuse, the otpauth URI
// and recovery codes.
#include "icat/totp.hpp"

#include <boost/test/unit_test.hpp>
#include <regex>
#include <set>
#include <string>

namespace {
// The key of RFC 4226 appendix D and RFC 6238 appendix B (SHA-1).
const std::string kRfcKey = "12345678901234567890";
}  // namespace

BOOST_AUTO_TEST_SUITE(totp)

BOOST_AUTO_TEST_CASE(hotp_gives_rfc_4226_appendix_d_codes) {
  const char* expected[] = {"755224", "287082", "359152", "969429", "338314",
                            "254676", "287922", "162583", "399871", "520489"};
  for (uint64_t counter = 0; counter < 10; counter++) {
    BOOST_TEST(icat::Hotp(kRfcKey, counter) == expected[counter], "counter " << counter);
  }
}

BOOST_AUTO_TEST_CASE(totp_gives_rfc_6238_appendix_b_sha1_codes) {
  struct Vector {
    int64_t time;
    const char* code;
  };
  const Vector vectors[] = {{59, "94287082"},         {1111111109, "07081804"}, {1111111111, "14050471"},
                            {1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"}};
  for (const Vector& v : vectors) BOOST_TEST(icat::Totp(kRfcKey, v.time, 8) == v.code, "time " << v.time);
  BOOST_TEST(icat::TotpStep(1111111109) == 0x00000000023523ECu);
  BOOST_TEST(icat::Totp(kRfcKey, 59) == "287082");  // six digits: the last six of the eight
}

BOOST_AUTO_TEST_CASE(a_code_matches_within_one_step_either_side_and_never_beyond) {
  const int64_t now = 1234567890;
  const uint64_t step = icat::TotpStep(now);
  for (int64_t offset : {-30, 0, 30}) {
    BOOST_TEST(
        icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now + offset), now, 0).value_or(0) == icat::TotpStep(now + offset),
        "offset " << offset);
  }
  BOOST_TEST(!icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now - 60), now, 0));
  BOOST_TEST(!icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now + 60), now, 0));
  BOOST_TEST(!icat::MatchTotp("another key of twenty", icat::Totp(kRfcKey, now), now, 0));
  BOOST_TEST(!icat::MatchTotp(kRfcKey, "", now, 0));
  BOOST_TEST(!icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now, 8), now, 0));
  BOOST_TEST(icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now), now, step - 1).value_or(0) == step);
}

BOOST_AUTO_TEST_CASE(a_step_once_used_is_refused_and_so_is_an_earlier_one) {
  const int64_t now = 1234567890;
  const uint64_t step = icat::TotpStep(now);
  BOOST_TEST(!icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now), now, step));
  BOOST_TEST(!icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now - 30), now, step));
  // The next step is still good (the person signs in again within the window).
  BOOST_TEST(icat::MatchTotp(kRfcKey, icat::Totp(kRfcKey, now + 30), now, step).value_or(0) == step + 1);
}

BOOST_AUTO_TEST_CASE(base32_encodes_rfc_4648_vectors_without_padding_and_decodes_either_case) {
  const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                         {"f", "MY"},
                                                         {"fo", "MZXQ"},
                                                         {"foo", "MZXW6"},
                                                         {"foob", "MZXW6YQ"},
                                                         {"fooba", "MZXW6YTB"},
                                                         {"foobar", "MZXW6YTBOI"}};
  for (const auto& [bytes, text] : vectors) {
    BOOST_TEST(icat::Base32Encode(bytes) == text);
    BOOST_TEST(icat::Base32Decode(text).value_or("not decoded") == bytes);
  }
  BOOST_TEST(icat::Base32Decode("mzxw6ytboi").value_or("not decoded") == "foobar");
  BOOST_TEST(icat::Base32Encode(kRfcKey) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
}

BOOST_AUTO_TEST_CASE(base32_refuses_padding_foreign_characters_and_impossible_lengths) {
  for (const char* text : {"MY======", "MZ1W", "MZ W6", "M", "MZX", "MZXW6Y"}) {
    BOOST_TEST(!icat::Base32Decode(text), text);
  }
}

BOOST_AUTO_TEST_CASE(otpauth_uri_names_issuer_and_account_encoded_and_the_parameters) {
  BOOST_TEST(icat::OtpauthUri("icat acme", "ana@acme.test", "GEZDGNBV") ==
             "otpauth://totp/icat%20acme:ana%40acme.test?secret=GEZDGNBV&issuer=icat%20acme&algorithm=SHA1&digits=6"
             "&period=30");
}

BOOST_AUTO_TEST_CASE(recovery_codes_are_ten_distinct_80_bit_codes_and_normalise_as_typed) {
  std::vector<std::string> codes = icat::NewRecoveryCodes();
  BOOST_TEST(codes.size() == 10u);
  const std::regex shape("[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}");
  for (const std::string& code : codes) BOOST_TEST(std::regex_match(code, shape), code);
  BOOST_TEST(std::set<std::string>(codes.begin(), codes.end()).size() == 10u);
  BOOST_TEST(icat::NormalRecoveryCode(" ABCD-efgh ijkl-MNOP") == "abcdefghijklmnop");
}

BOOST_AUTO_TEST_SUITE_END()
