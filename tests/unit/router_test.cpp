// Route matching: literal segments and {name} placeholders, 404 versus 405.
#include "icat/router.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>

namespace {

icat::Reply ListImages(icat::Context&) { return icat::Reply::Json(200, "[]"); }
icat::Reply ShowImage(icat::Context&) { return icat::Reply::Json(200, "{}"); }
icat::Reply ShowSbom(icat::Context&) { return icat::Reply::Json(200, "{}"); }
icat::Reply CreateHook(icat::Context&) { return icat::Reply::Json(201, "{}"); }
icat::Reply DeleteHook(icat::Context&) { return icat::Reply::Json(204, ""); }

const std::vector<icat::Route>& Routes() {
  static const std::vector<icat::Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images",
       .access = icat::Access::kApiKey,
       .scope = icat::Scope::kReadCatalog,
       .handler = ICAT_HANDLER(ListImages)},
      {.method = "GET",
       .pattern = "/v1/images/{id}",
       .access = icat::Access::kApiKey,
       .scope = icat::Scope::kReadCatalog,
       .handler = ICAT_HANDLER(ShowImage)},
      {.method = "GET",
       .pattern = "/v1/images/{id}/sbom",
       .access = icat::Access::kApiKey,
       .scope = icat::Scope::kReadSbom,
       .handler = ICAT_HANDLER(ShowSbom)},
      {.method = "POST",
       .pattern = "/api/webhooks",
       .access = icat::Access::kPortalAdmin,
       .handler = ICAT_HANDLER(CreateHook),
       .json_body = true},
      {.method = "DELETE",
       .pattern = "/api/webhooks/{id}",
       .access = icat::Access::kPortalAdmin,
       .handler = ICAT_HANDLER(DeleteHook)},
  };
  return routes;
}

bool Allows(const icat::RouteMatch& match, std::string_view method) {
  return std::find(match.allowed_methods.begin(), match.allowed_methods.end(), method) != match.allowed_methods.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(router)

BOOST_AUTO_TEST_CASE(literal_path_matches_its_route_without_params) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", "/v1/images");
  BOOST_TEST_REQUIRE(match.route != nullptr);
  BOOST_TEST(match.route == &Routes()[0]);
  BOOST_TEST(match.path_params.empty());
  BOOST_TEST(match.allowed_methods.empty());
}

BOOST_AUTO_TEST_CASE(placeholder_matches_one_segment_and_is_decoded) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", "/v1/images/abc%20d%2Fef");
  BOOST_TEST_REQUIRE(match.route != nullptr);
  BOOST_TEST(match.route == &Routes()[1]);
  BOOST_TEST(match.path_params.size() == 1u);
  BOOST_TEST(match.path_params["id"] == "abc d/ef");
}

BOOST_AUTO_TEST_CASE(placeholder_followed_by_literal_matches_the_longer_route) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", "/v1/images/42/sbom");
  BOOST_TEST_REQUIRE(match.route != nullptr);
  BOOST_TEST(match.route == &Routes()[2]);
  BOOST_TEST(match.path_params["id"] == "42");
}

BOOST_AUTO_TEST_CASE(unknown_path_has_no_route_and_no_allowed_methods) {
  for (std::string_view path : {"/nope", "/", "", "/v1", "/v1/image", "/v1/images/x/y/z", "/v1/images/1/sbomx"}) {
    icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", path);
    BOOST_TEST(match.route == nullptr, "path " << path);
    BOOST_TEST(match.allowed_methods.empty(), "path " << path);
  }
}

BOOST_AUTO_TEST_CASE(wrong_method_has_no_route_and_lists_allowed_methods) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "POST", "/v1/images");
  BOOST_TEST(match.route == nullptr);
  BOOST_TEST(match.allowed_methods.size() == 1u);
  BOOST_TEST(Allows(match, "GET"));

  icat::RouteMatch hook = icat::MatchRoute(Routes(), "GET", "/api/webhooks/7");
  BOOST_TEST(hook.route == nullptr);
  BOOST_TEST(Allows(hook, "DELETE"));
  BOOST_TEST(!Allows(hook, "GET"));
}

BOOST_AUTO_TEST_CASE(method_is_case_sensitive) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "get", "/v1/images");
  BOOST_TEST(match.route == nullptr);
  BOOST_TEST(Allows(match, "GET"));
}

BOOST_AUTO_TEST_CASE(trailing_slash_does_not_match) {
  for (std::string_view path : {"/v1/images/", "/v1/images/abc/", "/v1/images//"}) {
    icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", path);
    BOOST_TEST(match.route == nullptr, "path " << path);
    BOOST_TEST(match.allowed_methods.empty(), "path " << path);
  }
}

BOOST_AUTO_TEST_CASE(extra_segments_do_not_match) {
  icat::RouteMatch match = icat::MatchRoute(Routes(), "GET", "/v1/images/abc/def");
  BOOST_TEST(match.route == nullptr);
  BOOST_TEST(match.allowed_methods.empty());
  icat::RouteMatch prefix = icat::MatchRoute(Routes(), "GET", "/x/v1/images");
  BOOST_TEST(prefix.route == nullptr);
}

// The table's own rules: a portal write is admin-only, an API-key route names its scope, only an
// API-key route takes its key from the path.
BOOST_AUTO_TEST_CASE(route_tables_that_break_their_rules_are_refused_at_start) {
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(Routes()));
  std::vector<icat::Route> open_write = {{.method = "PUT",
                                          .pattern = "/api/x",
                                          .access = icat::Access::kPortal,
                                          .handler = ICAT_HANDLER(CreateHook),
                                          .json_body = true}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(open_write), std::logic_error);
  std::vector<icat::Route> no_scope = {
      {.method = "GET", .pattern = "/v1/x", .access = icat::Access::kApiKey, .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(no_scope), std::logic_error);
  // A scope is a Scope (vocabulary.hpp), so an unknown one does not compile; one on a route that
  // takes no key would be a rule nobody enforces.
  std::vector<icat::Route> portal_scope = {{.method = "GET",
                                            .pattern = "/api/x",
                                            .access = icat::Access::kPortal,
                                            .scope = icat::Scope::kReadCatalog,
                                            .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(portal_scope), std::logic_error);
  std::vector<icat::Route> admin_read = {{.method = "GET",
                                          .pattern = "/api/x",
                                          .access = icat::Access::kPortalAdmin,
                                          .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(admin_read));
  std::vector<icat::Route> key_in_path = {{.method = "POST",
                                           .pattern = "/v1/x/{key}",
                                           .access = icat::Access::kApiKey,
                                           .scope = icat::Scope::kAdmission,
                                           .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(key_in_path));
  std::vector<icat::Route> public_key = {{.method = "POST",
                                          .pattern = "/v1/x/{key}",
                                          .access = icat::Access::kPublic,
                                          .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(public_key), std::logic_error);
  std::vector<icat::Route> portal_key = {{.method = "GET",
                                          .pattern = "/api/x/{key}",
                                          .access = icat::Access::kPortal,
                                          .handler = ICAT_HANDLER(CreateHook)}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(portal_key), std::logic_error);
  // A write for any role is only ever the caller's own account, under /api/auth/.
  std::vector<icat::Route> own_password = {{.method = "POST",
                                            .pattern = "/api/auth/password",
                                            .access = icat::Access::kPortalSelf,
                                            .handler = ICAT_HANDLER(CreateHook),
                                            .json_body = true}};
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(own_password));
  std::vector<icat::Route> self_elsewhere = {{.method = "POST",
                                              .pattern = "/api/users",
                                              .access = icat::Access::kPortalSelf,
                                              .handler = ICAT_HANDLER(CreateHook),
                                              .json_body = true}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(self_elsewhere), std::logic_error);
  std::vector<icat::Route> self_lookalike = {{.method = "PUT",
                                              .pattern = "/api/authx/y",
                                              .access = icat::Access::kPortalSelf,
                                              .handler = ICAT_HANDLER(CreateHook),
                                              .json_body = true}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(self_lookalike), std::logic_error);
}

// A route's transaction mode: by default as its method says; a read may declare a transaction, a
// write may not declare a read, and a public route declares nothing (the pipeline has no tenant to set).
BOOST_AUTO_TEST_CASE(a_routes_transaction_mode_follows_its_method_unless_declared_and_never_reads_a_write) {
  BOOST_TEST((icat::TransactionOf(Routes()[0]) == icat::Transaction::kRead));
  BOOST_TEST((icat::TransactionOf(Routes()[3]) == icat::Transaction::kWrite));
  BOOST_TEST((icat::TransactionOf(Routes()[4]) == icat::Transaction::kWrite));
  std::vector<icat::Route> snapshot = {{.method = "GET",
                                        .pattern = "/api/x",
                                        .access = icat::Access::kPortal,
                                        .handler = ICAT_HANDLER(ShowImage),
                                        .transaction = icat::Transaction::kWrite}};
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(snapshot));
  BOOST_TEST((icat::TransactionOf(snapshot[0]) == icat::Transaction::kWrite));
  std::vector<icat::Route> write_as_read = {{.method = "DELETE",
                                             .pattern = "/api/x/{id}",
                                             .access = icat::Access::kPortalAdmin,
                                             .handler = ICAT_HANDLER(DeleteHook),
                                             .transaction = icat::Transaction::kRead}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(write_as_read), std::logic_error);
  std::vector<icat::Route> public_transaction = {{.method = "POST",
                                                  .pattern = "/api/x",
                                                  .access = icat::Access::kPublic,
                                                  .handler = ICAT_HANDLER(CreateHook),
                                                  .transaction = icat::Transaction::kWrite}};
  BOOST_CHECK_THROW(icat::CheckRouteTable(public_transaction), std::logic_error);
}

BOOST_AUTO_TEST_CASE(query_parameters_outside_the_route_list_are_named_once_each_in_order) {
  // `accepted`: the names a route declares, comma-separated.
  auto unknown = [](std::string query, std::string_view accepted) {
    icat::Request request;
    request.query = std::move(query);
    std::vector<icat::QueryParam> declared;
    for (std::string_view rest = accepted; !rest.empty();) {
      size_t comma = rest.find(',');
      declared.push_back(icat::query::Text(rest.substr(0, comma)));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return icat::UnknownQueryParameters(request.QueryParameters(), declared);
  };
  using Names = std::vector<std::string>;
  BOOST_TEST(unknown("", "") == Names{});
  BOOST_TEST(unknown("format=spdx", "format") == Names{});
  BOOST_TEST(unknown("q=a&limit=5&cursor=x", "q,limit,cursor") == Names{});
  // The case: the latest SBOM knows no version, so ?version= is refused, never ignored.
  BOOST_TEST(unknown("format=spdx&version=1.27.2", "format") == (Names{"version"}));
  BOOST_TEST(unknown("version=1&Format=spdx&version=2", "format") == (Names{"version", "Format"}));
  BOOST_TEST(unknown("limit=5", "") == Names{"limit"});
  // Names are compared decoded; a list entry matches whole names only.
  BOOST_TEST(unknown("fix%53tate=fixed", "fixState") == Names{});
  BOOST_TEST(unknown("lim=5&limits=5", "limit") == (Names{"lim", "limits"}));
  // A name without a value is still a name; empty pairs are nothing.
  BOOST_TEST(unknown("debug", "format") == Names{"debug"});
  BOOST_TEST(unknown("&&format=spdx&", "format") == Names{});
  BOOST_TEST(unknown("=x", "format") == Names{""});
}

BOOST_AUTO_TEST_CASE(a_route_declares_each_query_parameter_soundly) {
  namespace query = icat::query;
  using icat::CursorField;
  auto table = [](std::vector<icat::QueryParam> params) {
    return std::vector<icat::Route>{{.method = "GET",
                                     .pattern = "/v1/x",
                                     .access = icat::Access::kApiKey,
                                     .scope = icat::Scope::kReadCatalog,
                                     .query = std::move(params),
                                     .handler = ICAT_HANDLER(ListImages)}};
  };
  BOOST_CHECK_NO_THROW(icat::CheckRouteTable(table(
      {query::Text("q", 0, 200), query::Limit(), query::Words("fixState", {"fixed"}), query::Time("from"),
       query::Time("to", "from"), query::Cursor({CursorField::kUuid}), query::Number("n", 5),
       query::RefusedOnRead(query::Word("versions", {"latest", "all"}, "must be latest or all"))})));
  std::vector<std::pair<std::string, std::vector<icat::QueryParam>>> bad = {
      {"a name with a comma", {query::Text("q,")}},
      {"a name with a space", {query::Text("q limit")}},
      {"no name", {query::Text("")}},
      {"a name twice", {query::Limit(), query::Limit()}},
      {"a cursor of no fields", {query::Cursor({})}},
      {"a word of no words", {query::Word("format", {}, "must be spdx")}},
      {"a word with no problem", {query::Word("format", {"spdx"}, "")}},
      {"words of no words", {query::Words("severity", {})}},
      {"a text longer at least than at most", {query::Text("action", 5, 2)}},
      {"a text with a least but no most", {query::Text("action", 1, 0)}},
      {"a number of no maximum", {query::Number("n", 0)}},
      {"not before an unknown parameter", {query::Time("to", "from")}},
      {"not before a later parameter", {query::Time("to", "from"), query::Time("from")}},
      {"not before a parameter that is no time", {query::Text("from"), query::Time("to", "from")}},
  };
  for (const auto& [what, params] : bad) {
    BOOST_TEST_CONTEXT(what) { BOOST_CHECK_THROW(icat::CheckRouteTable(table(params)), std::logic_error); }
  }
}

BOOST_AUTO_TEST_SUITE_END()
