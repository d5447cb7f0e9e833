// Access tokens: what verifies, and every way a token must fail.
#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "icat/jwt.hpp"

namespace {
const std::string kSecret = "0123456789abcdef0123456789abcdef";
constexpr long long kNow = 1800000000;

icat::AccessClaims Claims() {
  icat::AccessClaims c;
  c.user_id = "u-1";
  c.tenant_id = "t-1";
  c.tenant = "acme";
  c.role = "viewer";
  c.issued_at = kNow;
  c.expires_at = kNow + icat::kAccessTokenSeconds;
  c.token_id = "j-1";
  c.session_id = "s-1";
  return c;
}

// A token with the given header and claims JSON, signed with kSecret.
std::string Forge(const std::string& header, const std::string& claims) {
  std::string input = icat::Base64UrlEncode(header) + "." + icat::Base64UrlEncode(claims);
  return input + "." + icat::Base64UrlEncode(icat::HmacSha256(kSecret, input));
}

// A token of the given encoded parts, signed over them as they are.
std::string SignParts(const std::string& header_part, const std::string& claims_part) {
  std::string input = header_part + "." + claims_part;
  return input + "." + icat::Base64UrlEncode(icat::HmacSha256(kSecret, input));
}

// The same bytes spelled another way: the last character's lowest bit, unused when the length is
// not a multiple of 4, set. A lenient decoder reads both alike.
std::string WithUnusedBitSet(std::string part) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  BOOST_TEST_REQUIRE(part.size() % 4 != 0);
  part.back() = kAlphabet[kAlphabet.find(part.back()) ^ 1];
  return part;
}

// JSON with spaces added until its base64url has unused bits.
std::string Unaligned(std::string json) {
  while (json.size() % 3 == 0) json += ' ';
  return json;
}

// Claims of a canonical token with these times.
std::string TimedClaims(long long iat, long long exp) {
  return R"({"iss":"icat","aud":"icat-portal","sub":"u","tid":"t","ten":"acme","role":"admin","iat":)" +
         std::to_string(iat) + R"(,"exp":)" + std::to_string(exp) + R"(,"jti":"j","sid":"s"})";
}

const std::string kGoodClaims =
    R"({"iss":"icat","aud":"icat-portal","sub":"u","tid":"t","ten":"acme","role":"admin","iat":1800000000,"exp":1800000900,"jti":"j","sid":"s"})";
}  // namespace

BOOST_AUTO_TEST_SUITE(jwt)

BOOST_AUTO_TEST_CASE(issued_token_verifies_with_its_claims) {
  auto claims = icat::VerifyAccessToken(icat::IssueAccessToken(Claims(), kSecret), kSecret, kNow + 1);
  BOOST_TEST_REQUIRE(claims.has_value());
  BOOST_TEST(claims->user_id == "u-1");
  BOOST_TEST(claims->tenant_id == "t-1");
  BOOST_TEST(claims->tenant == "acme");
  BOOST_TEST(claims->role == "viewer");
  BOOST_TEST(claims->token_id == "j-1");
  BOOST_TEST(claims->session_id == "s-1");
}

BOOST_AUTO_TEST_CASE(a_token_without_its_session_fails) {
  // Tokens issued before sessions were named (sid) end at once: their holders refresh or sign in.
  std::string without_sid =
      R"({"iss":"icat","aud":"icat-portal","sub":"u","tid":"t","ten":"acme","role":"admin","iat":1800000000,"exp":1800000900,"jti":"j"})";
  BOOST_TEST(!icat::VerifyAccessToken(Forge(R"({"alg":"HS256","typ":"JWT"})", without_sid), kSecret, kNow).has_value());
  BOOST_TEST(icat::VerifyAccessToken(Forge(R"({"alg":"HS256","typ":"JWT"})", kGoodClaims), kSecret, kNow).has_value());
}

BOOST_AUTO_TEST_CASE(forged_hs256_token_with_all_claims_verifies) {
  BOOST_TEST(icat::VerifyAccessToken(Forge(R"({"alg":"HS256","typ":"JWT"})", kGoodClaims), kSecret, kNow).has_value());
}

BOOST_AUTO_TEST_CASE(expired_token_fails) {
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  BOOST_TEST(!icat::VerifyAccessToken(token, kSecret, kNow + icat::kAccessTokenSeconds).has_value());
}

BOOST_AUTO_TEST_CASE(token_from_the_future_fails) {
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  BOOST_TEST(!icat::VerifyAccessToken(token, kSecret, kNow - 3600).has_value());
}

BOOST_AUTO_TEST_CASE(other_secret_fails) {
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  BOOST_TEST(!icat::VerifyAccessToken(token, "another-secret-another-secret-xx", kNow).has_value());
}

BOOST_AUTO_TEST_CASE(tampered_claims_fail) {
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  size_t first = token.find('.'), second = token.find('.', first + 1);
  std::string admin_claims = icat::Base64UrlEncode(R"({"iss":"icat","aud":"icat-portal","sub":"u-1","tid":"t-1","ten":"acme","role":"admin","iat":1800000000,"exp":1800000900,"jti":"j-1","sid":"s-1"})");
  std::string tampered = token.substr(0, first + 1) + admin_claims + token.substr(second);
  BOOST_TEST(!icat::VerifyAccessToken(tampered, kSecret, kNow).has_value());
}

BOOST_AUTO_TEST_CASE(alg_none_and_other_algorithms_fail) {
  std::string claims = icat::Base64UrlEncode(kGoodClaims);
  BOOST_TEST(!icat::VerifyAccessToken(icat::Base64UrlEncode(R"({"alg":"none"})") + "." + claims + ".", kSecret, kNow));
  BOOST_TEST(!icat::VerifyAccessToken(Forge(R"({"alg":"HS512","typ":"JWT"})", kGoodClaims), kSecret, kNow));
  BOOST_TEST(!icat::VerifyAccessToken(Forge(R"({"alg":"RS256","typ":"JWT"})", kGoodClaims), kSecret, kNow));
}

BOOST_AUTO_TEST_CASE(wrong_issuer_audience_or_role_fail) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string c = kGoodClaims;
    c.replace(c.find(from), from.size(), to);
    return Forge(R"({"alg":"HS256"})", c);
  };
  BOOST_TEST(!icat::VerifyAccessToken(with(R"("iss":"icat")", R"("iss":"evil")"), kSecret, kNow));
  BOOST_TEST(!icat::VerifyAccessToken(with(R"("aud":"icat-portal")", R"("aud":"other")"), kSecret, kNow));
  BOOST_TEST(!icat::VerifyAccessToken(with(R"("role":"admin")", R"("role":"root")"), kSecret, kNow));
  BOOST_TEST(!icat::VerifyAccessToken(with(R"("sub":"u",)", ""), kSecret, kNow));
}

BOOST_AUTO_TEST_CASE(signature_with_an_unused_bit_set_fails) {
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  size_t dot = token.rfind('.');
  std::string signature = WithUnusedBitSet(token.substr(dot + 1));
  BOOST_TEST((icat::Base64UrlDecode(signature) == icat::Base64UrlDecode(token.substr(dot + 1))));
  BOOST_TEST(!icat::VerifyAccessToken(token.substr(0, dot + 1) + signature, kSecret, kNow + 1).has_value());
  BOOST_TEST(icat::VerifyAccessToken(token, kSecret, kNow + 1).has_value());
}

BOOST_AUTO_TEST_CASE(header_or_claims_with_an_unused_bit_set_fail_though_signed_as_sent) {
  std::string header = icat::Base64UrlEncode(Unaligned(R"({"alg":"HS256"})"));
  std::string claims = icat::Base64UrlEncode(Unaligned(kGoodClaims));
  BOOST_TEST(icat::VerifyAccessToken(SignParts(header, claims), kSecret, kNow).has_value());
  BOOST_TEST(!icat::VerifyAccessToken(SignParts(WithUnusedBitSet(header), claims), kSecret, kNow).has_value());
  BOOST_TEST(!icat::VerifyAccessToken(SignParts(header, WithUnusedBitSet(claims)), kSecret, kNow).has_value());
}

BOOST_AUTO_TEST_CASE(padded_or_spaced_parts_fail) {
  std::string header = icat::Base64UrlEncode(Unaligned(R"({"alg":"HS256"})"));
  std::string claims = icat::Base64UrlEncode(Unaligned(kGoodClaims));
  std::string padded_claims = claims;
  while (padded_claims.size() % 4 != 0) padded_claims += '=';
  BOOST_TEST(!icat::VerifyAccessToken(SignParts(header, padded_claims), kSecret, kNow).has_value());
  BOOST_TEST(!icat::VerifyAccessToken(SignParts(" " + header, claims), kSecret, kNow).has_value());
  std::string token = icat::IssueAccessToken(Claims(), kSecret);
  BOOST_TEST(!icat::VerifyAccessToken(token + "=", kSecret, kNow + 1).has_value());
  BOOST_TEST(!icat::VerifyAccessToken(token + " ", kSecret, kNow + 1).has_value());
}

BOOST_AUTO_TEST_CASE(token_living_longer_than_sign_in_issues_fails) {
  std::string header = icat::Base64UrlEncode(R"({"alg":"HS256"})");
  auto verifies = [&](long long iat, long long exp) {
    return icat::VerifyAccessToken(SignParts(header, icat::Base64UrlEncode(TimedClaims(iat, exp))), kSecret, kNow)
        .has_value();
  };
  BOOST_TEST(verifies(kNow, kNow + icat::kAccessTokenSeconds));
  BOOST_TEST(!verifies(kNow, kNow + icat::kAccessTokenSeconds + 1));
  BOOST_TEST(!verifies(kNow, kNow + 10LL * 365 * 24 * 3600));  // ten years
  BOOST_TEST(!verifies(kNow - 3600, kNow + 3600));
  BOOST_TEST(!verifies(kNow + 10, kNow + 5));  // expires before it is issued
  BOOST_TEST(!verifies(-9223372036854775807LL - 1, kNow + 60));  // exp - iat would overflow
}

BOOST_AUTO_TEST_CASE(token_issued_more_than_a_minute_ahead_fails) {
  std::string header = icat::Base64UrlEncode(R"({"alg":"HS256"})");
  auto verifies = [&](long long iat) {
    std::string claims = TimedClaims(iat, iat + icat::kAccessTokenSeconds);
    return icat::VerifyAccessToken(SignParts(header, icat::Base64UrlEncode(claims)), kSecret, kNow).has_value();
  };
  BOOST_TEST(verifies(kNow + 60));  // clocks a minute apart still work
  BOOST_TEST(!verifies(kNow + 61));
  BOOST_TEST(!verifies(kNow + 3600));
}

BOOST_AUTO_TEST_CASE(garbage_fails) {
  for (std::string token : {"", "a", "a.b", "a.b.c", "a.b.c.d", "..", "eyJ.eyJ.sig"}) {
    BOOST_TEST(!icat::VerifyAccessToken(token, kSecret, kNow).has_value(), token);
  }
}

BOOST_AUTO_TEST_SUITE_END()
