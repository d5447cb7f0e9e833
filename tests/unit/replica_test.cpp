// WAL positions and the Redis keys of a client's last write (replica.hpp), without servers.
#include "icat/replica.hpp"

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(replica)

BOOST_AUTO_TEST_CASE(lsn_text_parses_to_its_position) {
  BOOST_TEST(*icat::ParseLsn("0/0") == 0u);
  BOOST_TEST(*icat::ParseLsn("16/B374D848") == ((0x16ull << 32) | 0xB374D848ull));
  BOOST_TEST(*icat::ParseLsn("1/0") > *icat::ParseLsn("0/FFFFFFFF"));
}

BOOST_AUTO_TEST_CASE(text_that_is_no_lsn_is_refused) {
  for (const char* text : {"", "/", "0/", "/0", "16B374D848", "1/2/3", "G/0", "0/1 ", "100000000/0"}) {
    BOOST_TEST(!icat::ParseLsn(text).has_value(), text);
  }
}

BOOST_AUTO_TEST_CASE(client_keys_name_credential_and_address_and_skip_empty_parts) {
  BOOST_TEST(icat::ClientWriteKeys("k1", "", "127.0.0.1") ==
                 (std::vector<std::string>{"icat:written:key:k1", "icat:written:address:127.0.0.1"}),
             boost::test_tools::per_element());
  BOOST_TEST(icat::ClientWriteKeys("", "u1", "") == (std::vector<std::string>{"icat:written:user:u1"}),
             boost::test_tools::per_element());
  BOOST_TEST(icat::ClientWriteKeys("", "", "").empty());
}

BOOST_AUTO_TEST_SUITE_END()
