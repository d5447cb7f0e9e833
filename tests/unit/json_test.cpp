// The strict request-body parser and the reply-writing helpers.
#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>

#include "icat/errors.hpp"
#include "icat/json.hpp"

namespace {

bool IsMalformedJson(const icat::ApiError& e) { return e.error() == icat::Error::kMALFORMED_JSON; }

}  // namespace

BOOST_AUTO_TEST_SUITE(json)

BOOST_AUTO_TEST_CASE(bad_json_throws_malformed_json) {
  for (std::string_view text : {"{bad", "", "{\"a\":}", "[1,2", "{'a':1}", "nul", "{\"a\":1}}", "{} {}"}) {
    BOOST_CHECK_EXCEPTION(icat::ParseJson(text), icat::ApiError, IsMalformedJson);
  }
}

BOOST_AUTO_TEST_CASE(invalid_utf8_throws_malformed_json) {
  BOOST_CHECK_EXCEPTION(icat::ParseJson("{\"a\":\"\xff\xfe\"}"), icat::ApiError, IsMalformedJson);
}

BOOST_AUTO_TEST_CASE(valid_json_parses_to_its_value) {
  rapidjson::Document d = icat::ParseJson(R"({"email":"a@b.test","n":3,"tags":["x"]})");
  BOOST_TEST_REQUIRE(d.IsObject());
  BOOST_TEST(std::string(d["email"].GetString()) == "a@b.test");
  BOOST_TEST(d["n"].GetInt() == 3);
  BOOST_TEST(d["tags"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(parse_does_not_read_past_the_given_length) {
  std::string text = "{\"a\":1}garbage";
  rapidjson::Document d = icat::ParseJson(std::string_view(text).substr(0, 7));
  BOOST_TEST(d["a"].GetInt() == 1);
}

BOOST_AUTO_TEST_CASE(writers_emit_strings_nulls_numbers_and_arrays) {
  rapidjson::StringBuffer buffer;
  icat::JsonWriter w(buffer);
  w.StartObject();
  icat::WriteString(w, "name", "a\"b");
  icat::WriteOptionalString(w, "none", std::nullopt);
  icat::WriteOptionalString(w, "some", std::string("x"));
  icat::WriteInt(w, "n", 5000000000LL);
  icat::WriteBool(w, "flag", true);
  icat::WriteStringArray(w, "tags", {"a", "b"});
  icat::WriteKey(w, "raw");
  w.Int(1);
  w.EndObject();
  BOOST_TEST(std::string(buffer.GetString()) ==
             R"({"name":"a\"b","none":null,"some":"x","n":5000000000,"flag":true,"tags":["a","b"],"raw":1})");
}

BOOST_AUTO_TEST_SUITE_END()
