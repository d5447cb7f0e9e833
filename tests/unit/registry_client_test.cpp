// The registry client's reading of a tags/list Link header (common/src/registry_client.cpp):
// the next page of the same repository's tags, and nothing else.
#include "icat/registry_client.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(registry_tags_link)

BOOST_AUTO_TEST_CASE(the_next_page_of_the_same_repository_is_followed) {
  BOOST_TEST(
      icat::NextTagsPage("</v2/hardened/nginx/tags/list?last=1.2&n=100>; rel=\"next\"", "hardened/nginx").value() ==
      "/v2/hardened/nginx/tags/list?last=1.2&n=100");
  BOOST_TEST(!icat::NextTagsPage("", "hardened/nginx").has_value());
  BOOST_TEST(!icat::NextTagsPage("  ", "hardened/nginx").has_value());
}

BOOST_AUTO_TEST_CASE(anything_else_is_an_answer_error) {
  for (const char* link : {
           "<http://evil.example/v2/hardened/nginx/tags/list?n=1>; rel=\"next\"",  // another host
           "</v2/hardened/other/tags/list?n=1>; rel=\"next\"",                     // another repository
           "</v2/hardened/nginx/manifests/1.0>; rel=\"next\"",                     // not the tags
           "</v2/hardened/nginx/tags/list?n=1>; rel=\"prev\"",                     // not the next page
           "</v2/hardened/nginx/tags/list?n=1 x>; rel=\"next\"",                   // a space in the target
           "/v2/hardened/nginx/tags/list?n=1; rel=\"next\"",                       // no angle brackets
           "</v2/hardened/nginx/tags/list?n=1",                                    // unclosed
       }) {
    BOOST_TEST_CONTEXT(link) {
      BOOST_CHECK_THROW(icat::NextTagsPage(link, "hardened/nginx"), icat::RegistryAnswerError);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
