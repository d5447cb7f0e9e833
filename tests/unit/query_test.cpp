// Query parameters as data (common/src/query.cpp): each kind of value accepted, and refused with
// the detail the spec words.
#include "icat/query.hpp"

#include <boost/test/unit_test.hpp>

#include "../../handlers/account/account.hpp"
#include "../../handlers/sbom/sbom.hpp"
#include "icat/paging.hpp"

namespace {

namespace query = icat::query;
using icat::CursorField;
using icat::QueryParam;
using icat::QueryValues;

// The values `params` parse from a raw query string. The declarations must outlive the values.
QueryValues Parse(const std::vector<QueryParam>& params, std::string raw) {
  icat::Request request;
  request.query = std::move(raw);
  return QueryValues(params, request.QueryParameters());
}

// "field: issue" of the 400 VALIDATION_ERROR fn throws, "" when it throws nothing.
template <typename Fn>
std::string Refusal(Fn fn) {
  try {
    fn();
  } catch (const icat::ApiError& e) {
    BOOST_TEST((e.error() == icat::Error::kVALIDATION_ERROR));
    BOOST_TEST_REQUIRE(e.details().size() == 1u);
    BOOST_TEST(std::string(e.what()) == "Invalid " + e.details()[0].field + ": " + e.details()[0].issue + ".");
    return e.details()[0].field + ": " + e.details()[0].issue;
  }
  return "";
}

// The refusal of `raw` by `params` before the handler.
std::string RefusalOf(const std::vector<QueryParam>& params, std::string raw) {
  return Refusal([&] { Parse(params, std::move(raw)).RefuseInvalid(); });
}

// The refusal a GET route of a real table declares for its query parameter `name`.
std::string ProblemOf(const std::vector<icat::Route>& routes, std::string_view pattern, std::string_view name) {
  for (const icat::Route& route : routes) {
    if (route.method != "GET" || route.pattern != pattern) continue;
    for (const QueryParam& param : route.query) {
      if (param.name == name) return param.problem;
    }
  }
  return "(no such parameter)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(query_values)

BOOST_AUTO_TEST_CASE(limit_is_1_to_200_and_50_when_absent) {
  const std::vector<QueryParam> params = {query::Limit()};
  BOOST_TEST(Parse(params, "").Limit() == 50);
  BOOST_TEST(Parse(params, "limit=1").Limit() == 1);
  BOOST_TEST(Parse(params, "limit=200").Limit() == 200);
  for (const char* bad : {"limit=0", "limit=201", "limit=", "limit=-1", "limit=1e2", "limit=00050", "limit=+5"}) {
    BOOST_TEST(RefusalOf(params, bad) == "limit: must be a whole number from 1 to 200", bad);
  }
}

BOOST_AUTO_TEST_CASE(a_cursor_has_the_declared_fields_each_of_its_form) {
  const std::vector<QueryParam> params = {query::Cursor({CursorField::kDigits, CursorField::kUuid})};
  const std::string uuid = "00000000-0000-4000-8000-000000000000";
  BOOST_TEST(!Parse(params, "").Cursor().has_value());
  std::string good = icat::EncodeCursor({"1700000000000000", uuid});
  BOOST_TEST((*Parse(params, "cursor=" + good).Cursor() == std::vector<std::string>{"1700000000000000", uuid}));
  for (const std::string& bad :
       {std::string(""), std::string("bogus!"), icat::EncodeCursor({"17"}), icat::EncodeCursor({"17", uuid, "x"}),
        icat::EncodeCursor({"x17", uuid}), icat::EncodeCursor({"17", "not-a-uuid"})}) {
    BOOST_TEST(RefusalOf(params, "cursor=" + bad) == "cursor: is not a cursor returned by this list", bad);
  }
  const std::vector<QueryParam> others = {query::Cursor({CursorField::kTime, CursorField::kTag, CursorField::kText})};
  BOOST_TEST(RefusalOf(others, "cursor=" + icat::EncodeCursor({"2026-01-31T12:00:00Z", "1.27", "any"})) == "");
  BOOST_TEST(RefusalOf(others, "cursor=" + icat::EncodeCursor({"yesterday", "1.27", "any"})) ==
             "cursor: is not a cursor returned by this list");
  BOOST_TEST(RefusalOf(others, "cursor=" + icat::EncodeCursor({"2026-01-31T12:00:00Z", "a tag", "any"})) ==
             "cursor: is not a cursor returned by this list");
}

BOOST_AUTO_TEST_CASE(a_word_is_one_of_its_list_and_refused_with_the_row_s_problem) {
  const std::vector<QueryParam> params = {
      query::Word("format", {"cyclonedx", "spdx"}, "must be one of: cyclonedx, spdx")};
  BOOST_TEST(*Parse(params, "format=spdx").Text("format") == "spdx");
  BOOST_TEST(!Parse(params, "").Text("format").has_value());
  for (const char* bad : {"format=", "format=SPDX", "format=spdx,cyclonedx"}) {
    BOOST_TEST(RefusalOf(params, bad) == "format: must be one of: cyclonedx, spdx", bad);
  }
}

BOOST_AUTO_TEST_CASE(a_word_without_a_problem_is_refused_as_a_body_field_s_enum_is) {
  const std::vector<QueryParam> params = {query::Word("state", {"pending", "succeeded", "failed"})};
  BOOST_TEST(RefusalOf(params, "state=done") == "state: must be one of pending, succeeded, failed");
  BOOST_TEST(RefusalOf(params, "state=failed") == "");
}

// The route tables derive these from their vocabularies; the texts are the spec's, as they were written.
BOOST_AUTO_TEST_CASE(the_route_tables_word_refusals_read_as_the_spec_words_them) {
  const std::vector<icat::Route>& account = icat::account::Routes();
  BOOST_TEST(ProblemOf(account, "/api/feature-requests", "status") == "must be one of open, planned, done, declined");
  BOOST_TEST(ProblemOf(account, "/api/feature-requests", "type") == "must be one of feature, package, bug");
  BOOST_TEST(ProblemOf(account, "/api/webhooks/{id}/deliveries", "state") ==
             "must be one of pending, succeeded, failed");
  const std::vector<icat::Route>& sbom = icat::sbom::Routes();
  for (const char* path : {"/v1/images/{id}/sbom", "/v1/images/{id}/versions/{versionId}/sbom"}) {
    BOOST_TEST(ProblemOf(sbom, path, "format") == "must be one of: cyclonedx, spdx", path);
  }
  for (const char* path :
       {"/v1/images/{id}/versions/{versionId}/vex", "/api/docker-images/{imageId}/versions/{versionId}/vex"}) {
    BOOST_TEST(ProblemOf(sbom, path, "format") == "must be one of: openvex, cyclonedx", path);
  }
}

BOOST_AUTO_TEST_CASE(words_are_one_or_more_of_the_list_comma_separated) {
  const std::vector<QueryParam> params = {query::Words("severity", {"critical", "high"})};
  BOOST_TEST(
      (*Parse(params, "severity=high,critical").Words("severity") == std::vector<std::string>{"high", "critical"}));
  for (const char* bad : {"severity=", "severity=high,", "severity=low", "severity=High"}) {
    BOOST_TEST(RefusalOf(params, bad) == "severity: must be one or more of critical, high (comma-separated)", bad);
  }
}

BOOST_AUTO_TEST_CASE(a_time_is_rfc_3339_and_not_before_the_one_it_names) {
  const std::vector<QueryParam> params = {query::Time("from"), query::Time("to", "from")};
  QueryValues values = Parse(params, "from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00%2B01:00");
  BOOST_TEST(*values.Text("to") == "2026-02-01T00:00:00+01:00");  // as sent
  BOOST_TEST(RefusalOf(params, "from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z") == "");
  BOOST_TEST(RefusalOf(params, "from=2026-01-31") == "from: must be an RFC 3339 time such as 2026-01-31T12:00:00Z");
  BOOST_TEST(RefusalOf(params, "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z") == "to: must not be before from");
  // A malformed from is what is refused, not the order.
  BOOST_TEST(RefusalOf(params, "from=x&to=2026-01-01T00:00:00Z") ==
             "from: must be an RFC 3339 time such as 2026-01-31T12:00:00Z");
}

BOOST_AUTO_TEST_CASE(a_text_has_its_length_in_bytes_within_bounds) {
  const std::vector<QueryParam> params = {query::Text("action", 1, 100), query::Text("q", 0, 200), query::Text("last")};
  BOOST_TEST(RefusalOf(params, "action=" + std::string(100, 'a') + "&q=" + std::string(200, 'b')) == "");
  BOOST_TEST(RefusalOf(params, "action=") == "action: must have 1 to 100 characters");
  BOOST_TEST(RefusalOf(params, "action=" + std::string(101, 'a')) == "action: must have 1 to 100 characters");
  BOOST_TEST(RefusalOf(params, "q=" + std::string(201, 'b')) == "q: must be at most 200 characters");
  BOOST_TEST(*Parse(params, "last=" + std::string(5000, 'c')).Text("last") == std::string(5000, 'c'));
}

BOOST_AUTO_TEST_CASE(a_digest_is_sha256_and_a_reference_parses) {
  const std::vector<QueryParam> params = {query::Digest("digest"), query::Reference("reference")};
  const std::string hex(64, 'a');
  BOOST_TEST(RefusalOf(params, "digest=sha256:" + hex) == "");
  for (std::string bad : {"sha256:" + std::string(64, 'A'), "sha512:" + hex, hex}) {
    BOOST_TEST(RefusalOf(params, "digest=" + bad) == "digest: must be sha256: and 64 lower-case hexadecimal digits");
  }
  QueryValues values = Parse(params, "reference=registry.example.test/hardened/nginx:1.27");
  BOOST_TEST(values.Reference("reference")->EffectiveTag() == "1.27");
  BOOST_TEST(RefusalOf(params, "reference=Not A Reference") ==
             "reference: must be an image reference such as registry.example.test/hardened/nginx:1.27, "
             "...nginx@sha256:<64 hex> or ...nginx:1.27@sha256:<64 hex>");
}

BOOST_AUTO_TEST_CASE(a_number_is_0_to_its_maximum) {
  const std::vector<QueryParam> params = {query::Number("n", 1000)};
  BOOST_TEST(*Parse(params, "n=0").Number("n") == 0);
  BOOST_TEST(*Parse(params, "n=1000").Number("n") == 1000);
  BOOST_TEST(!Parse(params, "").Number("n").has_value());
  for (const char* bad : {"n=", "n=abc", "n=1001", "n=-1", "n=5x", "n=99999999999999999999"}) {
    BOOST_TEST(RefusalOf(params, bad) == "n: must be a number from 0 to 1000", bad);
  }
}

BOOST_AUTO_TEST_CASE(the_first_invalid_value_in_the_row_s_order_is_refused_and_the_first_of_a_name_counts) {
  const std::vector<QueryParam> params = {query::Word("state", {"failed"}, "must be failed"), query::Limit()};
  BOOST_TEST(RefusalOf(params, "limit=0&state=x") == "state: must be failed");
  BOOST_TEST(RefusalOf(params, "limit=5&limit=0") == "");
  BOOST_TEST(Parse(params, "limit=5&limit=0").Limit() == 5);
  // A parameter not declared reads as absent.
  BOOST_TEST(!Parse(params, "q=x").Text("q").has_value());
}

BOOST_AUTO_TEST_CASE(a_value_refused_on_read_passes_the_check_before_the_handler_and_throws_when_read) {
  const std::vector<QueryParam> params = {query::RefusedOnRead(query::Limit()), query::Text("q")};
  QueryValues values = Parse(params, "limit=0&q=x");
  BOOST_TEST(Refusal([&] { values.RefuseInvalid(); }) == "");
  BOOST_TEST(values.Has("limit"));
  BOOST_TEST(*values.Text("q") == "x");
  BOOST_TEST(Refusal([&] { values.Limit(); }) == "limit: must be a whole number from 1 to 200");
}

BOOST_AUTO_TEST_SUITE_END()
