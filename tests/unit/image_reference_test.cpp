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

// Found by the image_reference fuzz harness: "[C89]" passed as an IPv6 host, was lower-cased, and
// "[c89]/xxt:latest" then parsed as nothing.
BOOST_AUTO_TEST_CASE(a_bracketed_host_is_an_ipv6_address_with_a_colon_and_normalises_to_itself) {
  for (const char* text : {"[::1]/app", "[FE80::1]:5000/hardened/nginx:1.27", "[2001:DB8::1]/x"}) {
    BOOST_TEST_CONTEXT(text) {
      std::optional<icat::ImageReference> ref = icat::ParseImageReference(text);
      BOOST_TEST_REQUIRE(ref.has_value());
      std::optional<icat::ImageReference> again = icat::ParseImageReference(ref->Normalised());
      BOOST_TEST_REQUIRE(again.has_value());
      BOOST_TEST(again->Normalised() == ref->Normalised());
    }
  }
  BOOST_TEST(icat::ParseImageReference("[FE80::1]:5000/hardened/nginx:1.27")->domain == "[fe80::1]:5000");
  for (const char* bad : {"[C89]/xxt", "[abc]:5000/x", "[]/x", "[::1/x"}) {
    BOOST_TEST_CONTEXT(bad) { BOOST_TEST(!icat::ParseImageReference(bad).has_value()); }
  }
}

// A first component with capitals names a host, as Docker reads it ("MYHOST/app" is the registry
// MYHOST). Lower-cased, "myhost/app" would be Docker Hub's myhost/app: such a host keeps its
// capitals, so its normalised form names the same registry. Every other host is lower-cased.
BOOST_AUTO_TEST_CASE(a_host_known_only_by_its_capitals_keeps_them_and_normalises_to_itself) {
  for (const char* text : {"MYHOST/app", "Myhost/hardened/nginx:1.27",
                           "REGISTRY/x@sha256:"
                           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}) {
    BOOST_TEST_CONTEXT(text) {
      std::optional<icat::ImageReference> ref = icat::ParseImageReference(text);
      BOOST_TEST_REQUIRE(ref.has_value());
      BOOST_TEST(ref->domain != "docker.io");
      std::optional<icat::ImageReference> again = icat::ParseImageReference(ref->Normalised());
      BOOST_TEST_REQUIRE(again.has_value());
      BOOST_TEST(again->domain == ref->domain);
      BOOST_TEST(again->Normalised() == ref->Normalised());
    }
  }
  BOOST_TEST(icat::ParseImageReference("MYHOST/app")->Repository() == "MYHOST/app");
  BOOST_TEST(icat::ParseImageReference("myhost/app")->Repository() == "docker.io/myhost/app");
  BOOST_TEST(icat::ParseImageReference("MyHost.Example:5000/app")->domain == "myhost.example:5000");
  BOOST_TEST(icat::ParseImageReference("LOCALHOST:5000/app")->domain == "localhost:5000");
  BOOST_TEST(icat::ParseImageReference("LOCALHOST/app")->domain == "localhost");
}

// Found by the image_reference fuzz harness: a 251-character Docker Hub name fitted the limit as
// written, and its normalised form "docker.io/library/<251>:latest" did not.
BOOST_AUTO_TEST_CASE(the_255_character_limit_holds_for_the_normalised_name) {
  const std::string prefix = "docker.io/library/";
  BOOST_TEST(icat::ParseImageReference(std::string(255 - prefix.size(), 'a')).has_value());
  BOOST_TEST(!icat::ParseImageReference(std::string(256 - prefix.size(), 'a')).has_value());
  BOOST_TEST(!icat::ParseImageReference(std::string(251, 'a')).has_value());
  const std::string host = "registry.example.test/";
  BOOST_TEST(icat::ParseImageReference(host + std::string(255 - host.size(), 'a') + ":1.0").has_value());
  BOOST_TEST(!icat::ParseImageReference(host + std::string(256 - host.size(), 'a')).has_value());
  // index.docker.io is measured as docker.io, as Docker normalises it.
  const std::string index = "index.docker.io/x/";
  BOOST_TEST(icat::ParseImageReference(index + std::string(255 - std::string("docker.io/x/").size(), 'a')).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
