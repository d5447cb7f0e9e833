// How /v1 names a version ({versionId}: an id or a tag) and which digests and tags the grammar takes.
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "icat/image_reference.hpp"

BOOST_AUTO_TEST_SUITE(image_reference)

BOOST_AUTO_TEST_CASE(a_version_ref_of_uuid_form_is_an_id_and_a_tag_any_other_tag_only_a_tag) {
  const std::string uuid = "7f1d2c3b-0000-4000-8000-000000000001";
  std::optional<icat::VersionRef> by_id = icat::ParseVersionRef(uuid);
  BOOST_TEST_REQUIRE(by_id.has_value());
  BOOST_TEST(by_id->id.value_or("") == uuid);
  BOOST_TEST(by_id->tag.value_or("") == uuid);  // looked up as a tag when no version has that id
  for (const std::string& tag : std::vector<std::string>{"1.27.2", "latest", "_x", "1.0-rc.1", "V2", std::string(128, 'a')}) {
    BOOST_TEST_CONTEXT(tag) {
      std::optional<icat::VersionRef> ref = icat::ParseVersionRef(tag);
      BOOST_TEST_REQUIRE(ref.has_value());
      BOOST_TEST(!ref->id.has_value());
      BOOST_TEST(ref->tag.value_or("") == tag);
    }
  }
  // Neither: 404 without a query.
  for (const std::string& bad : std::vector<std::string>{"", "-1.0", ".x", "a b", "1.0/2", "a:b", std::string(129, 'a'), "é"}) {
    BOOST_TEST_CONTEXT("\"" << bad << "\"") { BOOST_TEST(!icat::ParseVersionRef(bad).has_value()); }
  }
}

BOOST_AUTO_TEST_CASE(digests_are_of_a_known_algorithm_in_lower_case_hex_of_its_length) {
  const std::string hex(64, 'a');
  BOOST_TEST(icat::IsImageDigest("sha256:" + hex));
  BOOST_TEST(icat::IsImageDigest("sha512:" + hex + hex));
  BOOST_TEST(!icat::IsImageDigest("sha256:" + std::string(64, 'A')));
  BOOST_TEST(!icat::IsImageDigest("sha256:" + hex.substr(1)));
  BOOST_TEST(!icat::IsImageDigest("md5:" + hex.substr(32)));
  BOOST_TEST(!icat::IsImageDigest(hex));
}

BOOST_AUTO_TEST_SUITE_END()
