// The order of package versions and the look-up's version ranges (handlers/vulns/version_range.cpp).
#include "../../handlers/vulns/version_range.hpp"

#include <boost/test/unit_test.hpp>

namespace v = icat::vulns;

namespace {

// a sorts strictly before b, and b after a.
bool Before(std::string_view a, std::string_view b) { return v::VersionOrder(a, b) < 0 && v::VersionOrder(b, a) > 0; }

bool In(std::string_view range, std::string_view version) {
  std::optional<std::vector<v::VersionBound>> bounds = v::ParseVersionRange(range);
  BOOST_TEST_REQUIRE(bounds.has_value(), range);
  return v::InVersionRange(*bounds, version);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(version_range)

BOOST_AUTO_TEST_CASE(numbers_compare_as_numbers_not_text) {
  BOOST_TEST(Before("2.9", "2.17"));
  BOOST_TEST(Before("2.14.1", "2.17.1"));
  BOOST_TEST(Before("1.2", "1.2.1"));
  BOOST_TEST(v::VersionOrder("1.02", "1.2") == 0);
  BOOST_TEST(v::VersionOrder("2.17.1", "2.17.1") == 0);
}

BOOST_AUTO_TEST_CASE(debian_and_alpine_versions) {
  BOOST_TEST(Before("3.0.14-1~deb12u1", "3.0.14-1~deb12u2"));
  BOOST_TEST(Before("1.0~rc1", "1.0"));  // '~' before the end
  BOOST_TEST(Before("2.36-9+deb12u8", "2.37"));
  BOOST_TEST(Before("9:1.0", "1:2.0") == false);  // the epoch first
  BOOST_TEST(Before("1:1.0", "2:0.1"));
  BOOST_TEST(Before("1.2.2-r7", "1.2.2-r10"));  // apk's revisions
  BOOST_TEST(Before("1.1.20-r4", "1.2.2-r7"));
  BOOST_TEST(Before("1.0a", "1.0+b"));  // letters before other characters
}

BOOST_AUTO_TEST_CASE(pre_releases_sort_before_their_release) {
  BOOST_TEST(Before("2.0.0-rc.1", "2.0.0"));
  BOOST_TEST(Before("2.0.0-alpha", "2.0.0-beta"));
  BOOST_TEST(Before("2.0.0-rc.1", "2.0.0-rc.2"));
  BOOST_TEST(Before("2.0-SNAPSHOT", "2.0"));
  BOOST_TEST(Before("2.0.0rc1", "2.0.0"));
  BOOST_TEST(Before("1.2.3_rc1", "1.2.3"));
  BOOST_TEST(Before("1.9", "2.0.0-beta"));
  // Not pre-release words: a Debian revision, a word that only begins like one.
  BOOST_TEST(Before("1.0", "1.0-devel"));
  BOOST_TEST(Before("1.2.2", "1.2.2-r7"));
}

BOOST_AUTO_TEST_CASE(a_leading_v_is_ignored) {
  BOOST_TEST(v::VersionOrder("v0.3.0", "0.3.0") == 0);
  BOOST_TEST(Before("v0.3.0", "0.3.8"));
}

BOOST_AUTO_TEST_CASE(ranges_hold_every_bound) {
  BOOST_TEST(In(">=2.0.0,<2.17.1", "2.14.1"));
  BOOST_TEST(In(">=2.0.0,<2.17.1", "2.0.0"));
  BOOST_TEST(!In(">=2.0.0,<2.17.1", "2.17.1"));
  BOOST_TEST(!In(">=2.0.0,<2.17.1", "1.9"));
  BOOST_TEST(!In(">=2.0.0,<2.17.1", "2.0.0-beta9"));
  BOOST_TEST(In(" >= 2.0 , <= 2.1 ", "2.1"));
  BOOST_TEST(In("=1.2.3", "1.2.3"));
  BOOST_TEST(!In("=1.2.3", "1.2.4"));
  BOOST_TEST(In(">1.2.2-r7", "1.2.2-r8"));
  BOOST_TEST(!In(">1.2.2-r7", "1.2.2-r7"));
  BOOST_TEST(In("<3", "2.99"));
}

BOOST_AUTO_TEST_CASE(a_text_that_is_no_range_is_refused) {
  for (std::string_view text : {"", "2.0", ">=", ">=2.0,", ",<2", "=>2.0", ">=2.0 <3", "~2.0", "^1.2", ">= 2.0,,<3"}) {
    BOOST_TEST(!v::ParseVersionRange(text).has_value(), text);
  }
}

BOOST_AUTO_TEST_SUITE_END()
