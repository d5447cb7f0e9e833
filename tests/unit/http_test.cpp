// Request accessors: query decoding, headers, path params; URL decoding; JSON replies.
#include <boost/test/unit_test.hpp>

#include "icat/http.hpp"

BOOST_AUTO_TEST_SUITE(http)

// The console's refresh token arrives in the Cookie header among the browser's other cookies.
BOOST_AUTO_TEST_CASE(cookie_value_finds_the_first_pair_of_that_exact_name) {
  BOOST_TEST(icat::CookieValue("icat_refresh=abc", "icat_refresh").value_or("<none>") == "abc");
  BOOST_TEST(icat::CookieValue("theme=dark; icat_refresh=a-b_c;lang=en", "icat_refresh").value_or("<none>") == "a-b_c");
  BOOST_TEST(icat::CookieValue("icat_refresh=one; icat_refresh=two", "icat_refresh").value_or("<none>") == "one");
  BOOST_TEST(icat::CookieValue(" icat_refresh = \"quoted\" ", "icat_refresh").value_or("<none>") == "quoted");
  BOOST_TEST(icat::CookieValue("icat_refresh=", "icat_refresh").value_or("<none>").empty());
  BOOST_TEST(!icat::CookieValue("", "icat_refresh").has_value());
  BOOST_TEST(!icat::CookieValue("xicat_refresh=1; icat_refreshx=2; icat_refresh", "icat_refresh").has_value());
  BOOST_TEST(!icat::CookieValue("a=icat_refresh=3", "icat_refresh").has_value());
  icat::Request request;
  request.headers["cookie"] = "a=1; icat_refresh=tok";
  BOOST_TEST(request.Cookie("icat_refresh").value_or("<none>") == "tok");
  BOOST_TEST(!icat::Request().Cookie("icat_refresh").has_value());
}

BOOST_AUTO_TEST_CASE(query_decodes_percent_escapes_and_plus) {
  icat::Request request;
  request.query = "q=nginx%2Fbase%20img&name=a+b&pct=100%25";
  BOOST_TEST(request.Query("q").value_or("<none>") == "nginx/base img");
  BOOST_TEST(request.Query("name").value_or("<none>") == "a b");
  BOOST_TEST(request.Query("pct").value_or("<none>") == "100%");
}

BOOST_AUTO_TEST_CASE(query_returns_the_first_of_repeated_parameters) {
  icat::Request request;
  request.query = "limit=5&limit=7&cursor=abc";
  BOOST_TEST(request.Query("limit").value_or("<none>") == "5");
  BOOST_TEST(request.Query("cursor").value_or("<none>") == "abc");
}

BOOST_AUTO_TEST_CASE(query_of_absent_parameter_is_nullopt_and_empty_value_is_empty) {
  icat::Request request;
  request.query = "limit=&q=x";
  BOOST_TEST(!request.Query("cursor").has_value());
  BOOST_TEST(!request.Query("lim").has_value());
  BOOST_TEST_REQUIRE(request.Query("limit").has_value());
  BOOST_TEST(request.Query("limit")->empty());
  icat::Request empty;
  BOOST_TEST(!empty.Query("q").has_value());
}

BOOST_AUTO_TEST_CASE(query_matches_decoded_parameter_names) {
  icat::Request request;
  request.query = "fix%53tate=fixed";
  BOOST_TEST(request.Query("fixState").value_or("<none>") == "fixed");
}

BOOST_AUTO_TEST_CASE(url_decode_decodes_percent_escapes_in_any_case) {
  BOOST_TEST(icat::UrlDecode("%41%2f%2F%7e") == "A//~");
  BOOST_TEST(icat::UrlEncode("registry.example.test/a:1@sha256:ab") == "registry.example.test%2Fa%3A1%40sha256%3Aab");
  BOOST_TEST(icat::UrlEncode("A-z_0.9~ é") == "A-z_0.9~%20%C3%A9");
  BOOST_TEST(icat::UrlDecode(icat::UrlEncode("a/b?c=d&e#f")) == "a/b?c=d&e#f");
  BOOST_TEST(icat::UrlDecode("plain") == "plain");
  BOOST_TEST(icat::UrlDecode("") == "");
  BOOST_TEST(icat::UrlDecode("a%20b") == "a b");
  BOOST_TEST(icat::UrlDecode("%e2%9c%93") == "\xe2\x9c\x93");
}

BOOST_AUTO_TEST_CASE(url_decode_keeps_plus_in_paths) {
  BOOST_TEST(icat::UrlDecode("c++") == "c++");
}

BOOST_AUTO_TEST_CASE(header_lookup_by_lower_case_name_and_missing_is_empty) {
  icat::Request request;
  request.headers["x-api-key"] = "k";
  BOOST_TEST(request.Header("x-api-key") == "k");
  BOOST_TEST(request.Header("authorization").empty());
}

BOOST_AUTO_TEST_CASE(path_param_of_unknown_name_is_empty) {
  icat::Request request;
  request.path_params["id"] = "42";
  BOOST_TEST(request.PathParam("id") == "42");
  BOOST_TEST(request.PathParam("vid").empty());
}

BOOST_AUTO_TEST_CASE(json_reply_has_status_body_and_json_content_type) {
  icat::Reply reply = icat::Reply::Json(201, "{\"a\":1}");
  BOOST_TEST(reply.status == 201);
  BOOST_TEST(reply.body == "{\"a\":1}");
  bool has_type = false;
  for (const auto& [name, value] : reply.headers) {
    if (name == "Content-Type" || name == "content-type") {
      has_type = true;
      BOOST_TEST(value.rfind("application/json", 0) == 0u, value);
    }
  }
  BOOST_TEST(has_type);
}

BOOST_AUTO_TEST_SUITE_END()
