// The error table (errors.def) and the error body every failure is answered with.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>
#include <set>
#include <string>

#include "icat/auth.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"

namespace {

rapidjson::Document Parse(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.c_str());
  BOOST_TEST_REQUIRE(!document.HasParseError(), "not JSON: " << text);
  BOOST_TEST_REQUIRE(document.IsObject(), "not an object: " << text);
  return document;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(errors)

BOOST_AUTO_TEST_CASE(error_names_are_unique_upper_snake_case) {
  std::set<std::string> names;
  for (const icat::ErrorInfo& info : icat::AllErrors()) {
    BOOST_TEST_CONTEXT("error " << info.name) {
      BOOST_TEST(!info.name.empty());
      BOOST_TEST(info.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string_view::npos);
      BOOST_TEST(names.insert(std::string(info.name)).second, "duplicate name " << info.name);
    }
  }
  BOOST_TEST(names.size() == icat::AllErrors().size());
}

BOOST_AUTO_TEST_CASE(error_statuses_are_4xx_or_5xx_and_messages_are_set) {
  for (const icat::ErrorInfo& info : icat::AllErrors()) {
    BOOST_TEST_CONTEXT("error " << info.name) {
      BOOST_TEST(info.status >= 400);
      BOOST_TEST(info.status <= 599);
      BOOST_TEST(!info.message.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(describe_returns_the_table_row_of_each_error) {
  for (const icat::ErrorInfo& info : icat::AllErrors()) {
    const icat::ErrorInfo& described = icat::Describe(info.error);
    BOOST_TEST(std::string(described.name) == std::string(info.name));
    BOOST_TEST(described.status == info.status);
    BOOST_TEST(std::string(described.message) == std::string(info.message));
    BOOST_TEST(static_cast<int>(described.error) == static_cast<int>(info.error));
  }
}

BOOST_AUTO_TEST_CASE(design_error_names_have_their_statuses) {
  // DESIGN.md section 5: published names and statuses never change.
  const std::pair<icat::Error, std::pair<std::string_view, int>> expected[] = {
      {icat::Error::kVALIDATION_ERROR, {"VALIDATION_ERROR", 400}},
      {icat::Error::kMALFORMED_JSON, {"MALFORMED_JSON", 400}},
      {icat::Error::kUNAUTHENTICATED, {"UNAUTHENTICATED", 401}},
      {icat::Error::kFORBIDDEN, {"FORBIDDEN", 403}},
      {icat::Error::kINSUFFICIENT_SCOPE, {"INSUFFICIENT_SCOPE", 403}},
      {icat::Error::kNOT_FOUND, {"NOT_FOUND", 404}},
      {icat::Error::kMETHOD_NOT_ALLOWED, {"METHOD_NOT_ALLOWED", 405}},
      {icat::Error::kCONFLICT, {"CONFLICT", 409}},
      {icat::Error::kPAYLOAD_TOO_LARGE, {"PAYLOAD_TOO_LARGE", 413}},
      {icat::Error::kUNSUPPORTED_MEDIA_TYPE, {"UNSUPPORTED_MEDIA_TYPE", 415}},
      {icat::Error::kRATE_LIMITED, {"RATE_LIMITED", 429}},
      {icat::Error::kINTERNAL_ERROR, {"INTERNAL_ERROR", 500}},
      {icat::Error::kSERVICE_UNAVAILABLE, {"SERVICE_UNAVAILABLE", 503}},
      {icat::Error::kDATABASE_UNAVAILABLE, {"DATABASE_UNAVAILABLE", 503}},
  };
  for (const auto& [error, row] : expected) {
    BOOST_TEST(std::string(icat::Describe(error).name) == std::string(row.first));
    BOOST_TEST(icat::Describe(error).status == row.second);
  }
}

BOOST_AUTO_TEST_CASE(error_body_without_details_has_only_error_and_message) {
  rapidjson::Document body = Parse(icat::ErrorBody(icat::Error::kNOT_FOUND, "No such image."));
  BOOST_TEST(body.MemberCount() == 2u);
  BOOST_TEST_REQUIRE(body.HasMember("error"));
  BOOST_TEST_REQUIRE(body["error"].IsString());
  BOOST_TEST(std::string(body["error"].GetString()) == "NOT_FOUND");
  BOOST_TEST_REQUIRE(body.HasMember("message"));
  BOOST_TEST_REQUIRE(body["message"].IsString());
  BOOST_TEST(std::string(body["message"].GetString()) == "No such image.");
  BOOST_TEST(!body.HasMember("details"));
}

BOOST_AUTO_TEST_CASE(error_body_with_empty_message_uses_the_default_message) {
  rapidjson::Document body = Parse(icat::ErrorBody(icat::Error::kRATE_LIMITED, ""));
  BOOST_TEST_REQUIRE(body["message"].IsString());
  BOOST_TEST(std::string(body["message"].GetString()) == std::string(icat::Describe(icat::Error::kRATE_LIMITED).message));
}

BOOST_AUTO_TEST_CASE(error_body_with_details_lists_field_and_issue) {
  rapidjson::Document body = Parse(icat::ErrorBody(icat::Error::kVALIDATION_ERROR, "Bad \"limit\"\n",
                                                   {{"limit", "must be 1 to 200"}, {"cursor", "is not valid"}}));
  BOOST_TEST(body.MemberCount() == 3u);
  BOOST_TEST(std::string(body["error"].GetString()) == "VALIDATION_ERROR");
  BOOST_TEST(std::string(body["message"].GetString()) == "Bad \"limit\"\n");
  BOOST_TEST_REQUIRE(body.HasMember("details"));
  const rapidjson::Value& details = body["details"];
  BOOST_TEST_REQUIRE(details.IsArray());
  BOOST_TEST_REQUIRE(details.Size() == 2u);
  BOOST_TEST(details[0].MemberCount() == 2u);
  BOOST_TEST(std::string(details[0]["field"].GetString()) == "limit");
  BOOST_TEST(std::string(details[0]["issue"].GetString()) == "must be 1 to 200");
  BOOST_TEST(std::string(details[1]["field"].GetString()) == "cursor");
  BOOST_TEST(std::string(details[1]["issue"].GetString()) == "is not valid");
}

BOOST_AUTO_TEST_CASE(api_error_without_message_carries_the_default_message) {
  icat::ApiError error(icat::Error::kNOT_FOUND);
  BOOST_TEST(std::string(error.what()) == std::string(icat::Describe(icat::Error::kNOT_FOUND).message));
  BOOST_TEST(error.details().empty());
}

BOOST_AUTO_TEST_CASE(throw_invalid_is_validation_error_naming_the_field) {
  try {
    icat::ThrowInvalid("limit", "must be from 1 to 200");
    BOOST_FAIL("ThrowInvalid returned");
  } catch (const icat::ApiError& e) {
    BOOST_TEST(static_cast<int>(e.error()) == static_cast<int>(icat::Error::kVALIDATION_ERROR));
    BOOST_TEST_REQUIRE(e.details().size() == 1u);
    BOOST_TEST(e.details()[0].field == "limit");
    BOOST_TEST(e.details()[0].issue == "must be from 1 to 200");
    BOOST_TEST(std::string(e.what()).find("limit") != std::string::npos, "message: " << e.what());
    BOOST_TEST(std::string(e.what()).find("must be from 1 to 200") != std::string::npos, "message: " << e.what());
  }
}

// sqlstates.def: the longest matching code decides; the database's own trouble is a 503 to retry.
BOOST_AUTO_TEST_CASE(postgres_failures_map_by_their_sqlstate) {
  struct Case {
    const char* sqlstate;
    icat::Error error;
  };
  for (const Case& c : {Case{"23505", icat::Error::kCONFLICT}, Case{"23503", icat::Error::kCONFLICT},
                        Case{"23514", icat::Error::kVALIDATION_ERROR}, Case{"23502", icat::Error::kVALIDATION_ERROR},
                        Case{"22021", icat::Error::kVALIDATION_ERROR}, Case{"22003", icat::Error::kVALIDATION_ERROR},
                        Case{"40001", icat::Error::kSERVICE_UNAVAILABLE}, Case{"40P01", icat::Error::kSERVICE_UNAVAILABLE},
                        Case{"08006", icat::Error::kDATABASE_UNAVAILABLE}, Case{"08001", icat::Error::kDATABASE_UNAVAILABLE},
                        Case{"57014", icat::Error::kDATABASE_UNAVAILABLE}, Case{"57P01", icat::Error::kDATABASE_UNAVAILABLE},
                        Case{"53300", icat::Error::kDATABASE_UNAVAILABLE},
                        Case{"42P01", icat::Error::kINTERNAL_ERROR}, Case{"XX000", icat::Error::kINTERNAL_ERROR},
                        Case{"", icat::Error::kINTERNAL_ERROR}, Case{"2", icat::Error::kINTERNAL_ERROR}}) {
    icat::ApiError e = icat::ErrorOfSqlState(c.sqlstate, false);
    BOOST_TEST((e.error() == c.error), c.sqlstate);
    bool retry_after = !e.headers.empty() && e.headers[0].first == "Retry-After";
    BOOST_TEST(retry_after == (icat::Describe(c.error).status == 503), c.sqlstate);
  }
  // A lost or refused connection, and a wait past the request's budget (db.cpp), whatever libpq said.
  for (const char* sqlstate : {"", "23505"}) {
    icat::ApiError lost = icat::ErrorOfSqlState(sqlstate, true);
    BOOST_TEST((lost.error() == icat::Error::kDATABASE_UNAVAILABLE), sqlstate);
    BOOST_TEST_REQUIRE(lost.headers.size() == 1u);
    BOOST_TEST(lost.headers[0].first == "Retry-After");
  }
  BOOST_TEST(icat::IsRetryableSqlState("40001"));
  BOOST_TEST(icat::IsRetryableSqlState("40P01"));
  BOOST_TEST(!icat::IsRetryableSqlState("23505"));
}

// A revoke's COMMIT that failed took no effect only when the server said it rolled back; anything
// that ends the connection leaves the outcome unknown (api_keys.cpp, icatctl key revoke).
BOOST_AUTO_TEST_CASE(a_revoke_commit_rolled_back_only_when_the_server_said_so) {
  BOOST_TEST(icat::RevokeCommitRolledBack(icat::DbError("could not serialize", "40001", false)));
  BOOST_TEST(icat::RevokeCommitRolledBack(icat::DbError("deadlock detected", "40P01", false)));
  BOOST_TEST(icat::RevokeCommitRolledBack(icat::DbError("deferred constraint", "23503", false)));
  BOOST_TEST(!icat::RevokeCommitRolledBack(icat::DbError("server closed the connection", "", true)));
  BOOST_TEST(!icat::RevokeCommitRolledBack(icat::DbError("terminating connection", "57P01", true)));
  BOOST_TEST(!icat::RevokeCommitRolledBack(icat::DbError("terminating connection", "57P01", false)));
  BOOST_TEST(!icat::RevokeCommitRolledBack(icat::DbError("no answer", "", false)));
}

BOOST_AUTO_TEST_SUITE_END()
