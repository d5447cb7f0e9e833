// The safe JSON reader, the media-type rule and the reply-writing helpers.
#include "icat/json.hpp"

#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>

#include "icat/errors.hpp"

namespace {

bool IsMalformedJson(const icat::ApiError& e) { return e.error() == icat::Error::kMALFORMED_JSON; }

std::string Nested(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

std::string ReadError(std::string_view text, size_t max_depth = icat::kMaxBodyDepth) {
  return icat::ReadJson(text, max_depth).error;
}

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

BOOST_AUTO_TEST_CASE(nesting_up_to_the_limit_reads) {
  BOOST_TEST(ReadError(Nested(icat::kMaxBodyDepth)) == "");
  BOOST_TEST(ReadError(Nested(icat::kMaxDocumentDepth), icat::kMaxDocumentDepth) == "");
  BOOST_TEST(ReadError("{\"a\":" + Nested(icat::kMaxBodyDepth - 1) + "}") == "");
}

BOOST_AUTO_TEST_CASE(nesting_past_the_limit_is_refused_naming_the_limit) {
  BOOST_TEST(ReadError(Nested(icat::kMaxBodyDepth + 1)) ==
             "more than 64 levels of nested arrays and objects (at byte 64 of 130)");
  BOOST_TEST(ReadError("{\"a\":" + Nested(icat::kMaxBodyDepth) + "}").rfind("more than 64 levels", 0) == 0u);
  BOOST_TEST(ReadError(Nested(icat::kMaxDocumentDepth + 1), icat::kMaxDocumentDepth).rfind("more than 512 levels", 0) ==
             0u);
}

BOOST_AUTO_TEST_CASE(deep_unclosed_input_is_refused_without_recursion) {
  // 200,000 '[' overflowed the stack of RapidJSON's recursive parser and killed the worker.
  std::string open(200000, '[');
  BOOST_TEST(ReadError(open).rfind("more than 64 levels", 0) == 0u);
  BOOST_TEST(ReadError(open, 1000000) ==
             "invalid value (at byte 200000 of 200000)");  // under the limit: no crash either
  BOOST_CHECK_EXCEPTION(icat::ParseJson(open), icat::ApiError, IsMalformedJson);
}

BOOST_AUTO_TEST_CASE(bytes_after_the_value_are_refused_a_nul_included) {
  using namespace std::string_literals;
  BOOST_TEST(ReadError("{\"a\":1}\0"s) == "bytes after the JSON value (at byte 7 of 8)");
  BOOST_TEST(ReadError("{\"a\":1} \0garbage"s) == "bytes after the JSON value (at byte 8 of 16)");
  BOOST_TEST(ReadError("\0{}"s) != "");
  BOOST_TEST(ReadError("{\"a\":1} x") != "");
  BOOST_TEST(ReadError("{\"a\":1} \r\n\t") == "");  // trailing whitespace is allowed
  BOOST_CHECK_EXCEPTION(icat::ParseJson("{}\0"s), icat::ApiError, IsMalformedJson);
}

BOOST_AUTO_TEST_CASE(bad_utf8_is_refused) {
  for (std::string_view text :
       {"\"\xff\"", "\"\xc0\x80\"", "\"\xed\xa0\x80\"", "\"\xe2\x82\"", "\"\xf4\x90\x80\x80\"", "{\"\xfe\":1}"}) {
    BOOST_TEST(ReadError(text) != "", text);
  }
  BOOST_TEST(ReadError("\"caf\xc3\xa9 \xf0\x9f\x90\xb3\"") == "");
}

BOOST_AUTO_TEST_CASE(lone_surrogate_escapes_are_refused) {
  for (std::string_view text :
       {R"("\uD800")", R"("\uDC00")", R"("a\uDFFFb")", R"("\uD800\u0041")", R"({"\uDC00":1})"}) {
    BOOST_TEST(ReadError(text) != "", text);
  }
  BOOST_TEST(ReadError(R"("\uDC00")") == "a lone UTF-16 surrogate escape in a string (at byte 8 of 8)");
  icat::JsonRead pair = icat::ReadJson(R"("\uD83D\uDC33")", icat::kMaxBodyDepth);  // a surrogate pair is one character
  BOOST_TEST(pair.error == "");
  BOOST_TEST(std::string(pair.document.GetString()) == "\xf0\x9f\x90\xb3");
}

BOOST_AUTO_TEST_CASE(numbers_with_tiny_exponents_read_as_zero) {
  // "0E-67" once reached undefined behaviour in RapidJSON's full-precision path (found by fuzzing).
  icat::JsonRead read = icat::ReadJson("[0E-67, 1e-400, -0.0e-99]", icat::kMaxBodyDepth);
  BOOST_TEST_REQUIRE(read.error == "");
  for (const rapidjson::Value& n : read.document.GetArray()) BOOST_TEST(n.GetDouble() == 0.0);
}

BOOST_AUTO_TEST_CASE(numbers_too_large_for_a_double_are_refused) {
  // RapidJSON alone reads "2E308" as infinity, which no writer can put back (found by fuzzing).
  for (std::string_view text : {"2E308", "[-1.8e308]", "{\"a\": 99999999999999999999e300}", "1e309"}) {
    BOOST_TEST(ReadError(text).rfind("number too big to be stored in double", 0) == 0u, text);
  }
  BOOST_TEST(ReadError("1.7e308") == "");
}

BOOST_AUTO_TEST_CASE(refused_text_leaves_a_null_document) {
  icat::JsonRead read = icat::ReadJson("[1,2", icat::kMaxBodyDepth);
  BOOST_TEST(read.error == "missing a comma or ']' after an array element (at byte 4 of 4)");
  BOOST_TEST(read.document.IsNull());
}

BOOST_AUTO_TEST_CASE(malformed_json_message_says_why) {
  try {
    (void)icat::ParseJson(Nested(65));
    BOOST_FAIL("no exception");
  } catch (const icat::ApiError& e) {
    BOOST_TEST(
        std::string(e.what()) ==
        "The request body is not valid JSON: more than 64 levels of nested arrays and objects (at byte 64 of 130).");
  }
}

BOOST_AUTO_TEST_CASE(json_media_types_are_application_json_with_parameters) {
  for (std::string_view type :
       {"application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;charset=\"UTF-8\"",
        "application/json ; foo=bar", "application/json;"}) {
    BOOST_TEST(icat::IsJsonMediaType(type), type);
  }
}

BOOST_AUTO_TEST_CASE(other_media_types_are_not_json) {
  for (std::string_view type : {"", "application/jsonx", "application/json-patch+json", "application/jso", "text/json",
                                "application/json; charset=latin1", "application/json; charset",
                                "application/json, text/plain", "application/x-www-form-urlencoded"}) {
    BOOST_TEST(!icat::IsJsonMediaType(type), type);
  }
}

BOOST_AUTO_TEST_CASE(writers_emit_strings_nulls_numbers_and_arrays) {
  rapidjson::StringBuffer buffer;
  icat::JsonWriter w(buffer);
  w.StartObject();
  icat::WriteString(w, "name", "a\"b");
  icat::WriteOptionalString(w, "none", std::nullopt);
  icat::WriteOptionalString(w, "some", std::string("x"));
  icat::WriteInt(w, "n", 5000000000LL);
  icat::WriteOptionalDouble(w, "score", 9.8);
  icat::WriteOptionalDouble(w, "noscore", std::nullopt);
  icat::WriteBool(w, "flag", true);
  icat::WriteStringArray(w, "tags", {"a", "b"});
  icat::WriteKey(w, "raw");
  w.Int(1);
  w.EndObject();
  BOOST_TEST(std::string(buffer.GetString()) ==
             R"({"name":"a\"b","none":null,"some":"x","n":5000000000,"score":9.8,"noscore":null,"flag":true,"tags":["a","b"],"raw":1})");
}

BOOST_AUTO_TEST_SUITE_END()
