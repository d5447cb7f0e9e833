// The input checks every list shares: digit runs and UUIDs.
#include <boost/test/unit_test.hpp>

#include "icat/paging.hpp"

BOOST_AUTO_TEST_SUITE(paging)

BOOST_AUTO_TEST_CASE(digits_are_one_to_max_decimal_digits_and_nothing_else) {
  BOOST_TEST(icat::IsDigits("0", 1));
  BOOST_TEST(icat::IsDigits("123456789012345678", 18));
  BOOST_TEST(!icat::IsDigits("1234567890123456789", 18));
  BOOST_TEST(!icat::IsDigits("", 18));
  BOOST_TEST(!icat::IsDigits("-1", 18));
  BOOST_TEST(!icat::IsDigits("1e3", 18));
  BOOST_TEST(!icat::IsDigits(" 12", 18));
}

BOOST_AUTO_TEST_CASE(uuids_are_hex_in_the_8_4_4_4_12_form_only) {
  BOOST_TEST(icat::IsUuid("00000000-0000-4000-8000-000000000000"));
  BOOST_TEST(!icat::IsUuid("00000000000040008000000000000000"));
  BOOST_TEST(!icat::IsUuid("00000000-0000-4000-8000-00000000000g"));
  BOOST_TEST(!icat::IsUuid("00000000-0000-4000-8000-0000000000000"));
}

BOOST_AUTO_TEST_SUITE_END()
