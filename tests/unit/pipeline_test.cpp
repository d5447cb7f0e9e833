// The request pipeline (HandleRequest) without Postgres or Redis: its checks and phases in their
// order (route, texts, body; identify, authorise, rate limit, the handler in its transaction mode,
// commit or rollback, after-effects) and its error mapping. A recording Db stands in at the seam the pipeline has (the transaction scope);
// each test says which stage must answer and which later stages must not have run.
#include "icat/pipeline.hpp"

#include <boost/test/unit_test.hpp>
#include <ctime>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "icat/api_key.hpp"
#include "icat/auth.hpp"
#include "icat/errors.hpp"
#include "icat/jwt.hpp"

namespace {

using icat::Access;
using icat::Reply;
using icat::Scope;
using Headers = std::vector<std::pair<std::string, std::string>>;

// Rows of a result with the given text columns, as libpq would hand them over.
icat::Rows TextRows(const std::vector<std::string>& columns, const std::vector<std::vector<std::string>>& rows) {
  PGresult* result = PQmakeEmptyPGresult(nullptr, PGRES_TUPLES_OK);
  std::vector<PGresAttDesc> attributes(columns.size());
  for (size_t i = 0; i < columns.size(); i++) {
    attributes[i].name = const_cast<char*>(columns[i].c_str());
    attributes[i].typid = 25;  // text
    attributes[i].typlen = -1;
  }
  PQsetResultAttrs(result, static_cast<int>(columns.size()), attributes.data());
  for (size_t row = 0; row < rows.size(); row++) {
    for (size_t col = 0; col < columns.size(); col++) {
      std::string value = rows[row][col];
      PQsetvalue(result, static_cast<int>(row), static_cast<int>(col), value.data(), static_cast<int>(value.size()));
    }
  }
  return icat::Rows(result);
}

// One person per role, signed in with a token of that role (Token).
std::string UserId(const std::string& role) {
  return role == "admin"  ? "aaaaaaaa-0000-4000-8000-000000000001"
         : role == "user" ? "aaaaaaaa-0000-4000-8000-000000000002"
                          : "aaaaaaaa-0000-4000-8000-000000000003";
}

// Records the transaction scope the pipeline opens and ends, and the statements it runs. The
// signed-in person's look-up answers from `people` (user id -> stored role; each person has their
// token's role unless a test changes it, or erases them), an API key's from `api_key` (any key: the
// row, or none); any other statement would fail (no Postgres).
class RecordingDb : public icat::Db {
 public:
  RecordingDb() : icat::Db("host=/nonexistent-icat-unit-test dbname=none connect_timeout=1", {}) {}
  icat::Rows Run(const icat::Statement& statement, const std::vector<icat::Param>& params) override {
    calls.push_back("run " + std::string(statement.name));
    if (statement.name == "auth_lookup_key") {
      std::vector<std::vector<std::string>> rows;
      if (api_key) rows.push_back(*api_key);
      return TextRows({"key_id", "tenant_id", "scopes", "expires_at", "revoked"}, rows);
    }
    if (statement.name.rfind("auth_current_person", 0) != 0) return icat::Db::Run(statement, params);
    auto person = people.find(params.at(1).value().value_or(""));
    if (person == people.end()) return TextRows({"role", "email"}, {});
    return TextRows({"role", "email"}, {{person->second, person->second + "@example.test"}});
  }
  void BeginForTenant(std::string_view tenant) override { calls.push_back("begin " + std::string(tenant)); }
  void ReadAsTenant(std::string_view tenant) override { calls.push_back("read " + std::string(tenant)); }
  void Commit() override { calls.push_back("commit"); }
  void Rollback() override { calls.push_back("rollback"); }
  std::vector<std::string> calls;
  std::map<std::string, std::string> people = {
      {UserId("admin"), "admin"}, {UserId("user"), "user"}, {UserId("viewer"), "viewer"}};
  std::optional<std::vector<std::string>> api_key;  // key_id, tenant_id, scopes, expires_at, revoked
};

// What the handlers of the test routes saw, and what they do.
struct Script {
  int runs = 0;
  std::vector<std::string> db_calls_at_run;  // the scope already open when the handler ran
  std::function<Reply(icat::Context&)> act = [](icat::Context&) { return Reply::Json(200, "{}"); };
};
Script* script = nullptr;

Reply Handle(icat::Context& ctx) {
  script->runs++;
  script->db_calls_at_run = static_cast<RecordingDb&>(ctx.db).calls;
  return script->act(ctx);
}

const std::vector<icat::Route>& Routes() {
  static const std::vector<icat::Route> routes = {
      {.method = "GET", .pattern = "/public", .access = Access::kPublic, .handler = ICAT_HANDLER(Handle)},
      {.method = "POST",
       .pattern = "/public",
       .access = Access::kPublic,
       .handler = ICAT_HANDLER(Handle),
       .json_body = true},
      {.method = "GET",
       .pattern = "/v1/things",
       .access = Access::kApiKey,
       .scope = Scope::kReadCatalog,
       .handler = ICAT_HANDLER(Handle)},
      {.method = "POST",
       .pattern = "/v1/things",
       .access = Access::kApiKey,
       .scope = Scope::kAdmission,
       .query = {icat::query::Text("q")},
       .handler = ICAT_HANDLER(Handle),
       .json_body = true},
      {.method = "GET",
       .pattern = "/api/things",
       .access = Access::kPortal,
       .query = {icat::query::Text("q"), icat::query::Limit()},
       .handler = ICAT_HANDLER(Handle)},
      {.method = "POST",
       .pattern = "/api/things",
       .access = Access::kPortalAdmin,
       .handler = ICAT_HANDLER(Handle),
       .json_body = true},
      {.method = "GET",
       .pattern = "/api/snapshot",
       .access = Access::kPortal,
       .handler = ICAT_HANDLER(Handle),
       .transaction = icat::Transaction::kWrite},
  };
  return routes;
}

const std::string kSecret(40, 's');
const std::string kTenantId = "11111111-2222-4333-8444-555555555555";

std::string Token(const std::string& role) {
  long long now = std::time(nullptr);
  return icat::IssueAccessToken(
      {UserId(role), kTenantId, "acme", role, now, now + 600, "jti-1", "bbbbbbbb-0000-4000-8000-000000000001"},
      kSecret);
}

// One request through the pipeline; the Db it used is in `db`.
struct Run {
  Script script;
  RecordingDb db;
  Reply reply;
  std::optional<icat::KeyTouch> key_touch;  // what the worker writes after the reply

  Reply Send(std::string method, std::string path, Headers headers = {}, std::string body = "",
             std::string query = "") {
    icat::Config config;
    config.max_body_bytes = 1024;
    config.jwt_secret = kSecret;
    config.key_prefix = "icat";
    config.key_failure_limit_per_minute = 10;
    icat::Redis redis(icat::RedisEndpoint{}, 10);
    icat::ReplyCache cache(0, 0);
    icat::Request request;
    request.method = std::move(method);
    request.path = std::move(path);
    request.query = std::move(query);
    request.request_id = "rid-unit";
    for (auto& [name, value] : headers) request.headers[name] = value;
    request.content_length = static_cast<long>(body.size());
    request.body = std::move(body);
    ::script = &this->script;
    icat::Handled handled = icat::HandleRequest(Routes(), std::move(request), db, redis, cache, config, "unit");
    reply = std::move(handled.reply);
    key_touch = std::move(handled.key_touch);
    ::script = nullptr;
    return reply;
  }
  std::string Error() const {
    size_t at = reply.body.find("\"error\":\"");
    return at == std::string::npos ? "" : reply.body.substr(at + 9, reply.body.find('"', at + 9) - at - 9);
  }
  std::string Header(const std::string& name) const {
    for (const auto& [n, v] : reply.headers) {
      if (n == name) return v;
    }
    return "";
  }
};

Headers Json() { return {{"content-type", "application/json"}}; }
Headers Portal(const std::string& role) {
  return {{"authorization", "Bearer " + Token(role)}, {"x-tenant", "acme"}, {"content-type", "application/json"}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pipeline_order)

BOOST_AUTO_TEST_CASE(routing_answers_404_and_405_with_allow_before_anything_else) {
  Run run;
  run.Send("GET", "/nowhere");
  BOOST_TEST(run.reply.status == 404);
  BOOST_TEST(run.Error() == "NOT_FOUND");
  run.Send("DELETE", "/public", {}, "", "q=%ff");  // bad text too: the route is judged first
  BOOST_TEST(run.reply.status == 405);
  BOOST_TEST(run.Header("Allow") == "GET, POST");
  BOOST_TEST(run.script.runs == 0);
}

BOOST_AUTO_TEST_CASE(head_is_answered_by_the_get_route_as_a_read) {
  Run run;
  run.Send("HEAD", "/api/things", Portal("viewer"));
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(run.script.runs == 1);
  BOOST_TEST(run.script.db_calls_at_run == (std::vector<std::string>{"read " + kTenantId, "run auth_current_person"}));
}

BOOST_AUTO_TEST_CASE(unknown_query_parameters_are_refused_naming_them_before_the_body_and_the_credential) {
  Run run;
  run.Send("POST", "/v1/things", {{"content-type", "text/plain"}}, "x", "q=1&version=2&debug");
  BOOST_TEST(run.reply.status == 400);
  BOOST_TEST(run.Error() == "VALIDATION_ERROR");
  BOOST_TEST(run.reply.body.find("{\"field\":\"version\",\"issue\":\"is not a parameter of this endpoint\"}") !=
                 std::string::npos,
             run.reply.body);
  BOOST_TEST(run.reply.body.find("\"field\":\"debug\"") != std::string::npos, run.reply.body);
  BOOST_TEST(run.script.runs == 0);
  // The route's own parameters pass.
  run.Send("GET", "/api/things", Portal("viewer"), "", "q=a&limit=5");
  BOOST_TEST(run.reply.status == 200);
  run.Send("GET", "/api/things", Portal("viewer"), "", "q=a&cursor=x");
  BOOST_TEST(run.reply.status == 400);
  BOOST_TEST(run.reply.body.find("\"field\":\"cursor\"") != std::string::npos, run.reply.body);
}

BOOST_AUTO_TEST_CASE(texts_are_checked_before_the_body_and_the_body_before_the_credential) {
  Run run;
  // Bad UTF-8 in the query, an oversized body of the wrong type, no credential: the texts answer.
  run.Send("POST", "/v1/things", {{"content-type", "text/plain"}}, std::string(2000, 'x'), "q=%ff");
  BOOST_TEST(run.reply.status == 400);
  BOOST_TEST(run.Error() == "VALIDATION_ERROR");
  // The size before the type, both before the credential.
  run.Send("POST", "/v1/things", {{"content-type", "text/plain"}}, std::string(2000, 'x'));
  BOOST_TEST(run.Error() == "PAYLOAD_TOO_LARGE");
  run.Send("POST", "/v1/things", {{"content-type", "text/plain"}}, "{}");
  BOOST_TEST(run.Error() == "UNSUPPORTED_MEDIA_TYPE");
  run.Send("POST", "/v1/things", Json(), "{\"a\":");
  BOOST_TEST(run.Error() == "MALFORMED_JSON");
  // A well-formed body without a key: now the credential.
  run.Send("POST", "/v1/things", Json(), "{}");
  BOOST_TEST(run.reply.status == 401);
  BOOST_TEST(run.Error() == "UNAUTHENTICATED");
  BOOST_TEST(run.Header("WWW-Authenticate") == "Bearer");
  BOOST_TEST(run.script.runs == 0);
  BOOST_TEST(run.db.calls == std::vector<std::string>(5, "rollback"));  // a failure leaves nothing open
}

BOOST_AUTO_TEST_CASE(the_credential_is_checked_before_any_transaction_and_the_role_in_it_before_the_handler) {
  Run run;
  run.Send("POST", "/api/things", Json(), "{}");
  BOOST_TEST(run.reply.status == 401);
  run.Send("POST", "/api/things", {{"authorization", "Bearer not-a-token"}, {"x-tenant", "acme"}}, "{}");
  BOOST_TEST(run.reply.status == 415);                                  // the body is judged before the token
  BOOST_TEST(run.db.calls == std::vector<std::string>(2, "rollback"));  // no scope was opened for either
  run.db.calls.clear();
  run.Send("POST", "/api/things", Portal("viewer"), "{}");
  BOOST_TEST(run.reply.status == 403);
  BOOST_TEST(run.Error() == "FORBIDDEN");
  BOOST_TEST(run.script.runs == 0);
  // The role is the stored one, read in the write's transaction, which is rolled back; the denial's
  // audit entry is written in a scope of its own (here it fails: no Postgres).
  BOOST_TEST((std::vector<std::string>(run.db.calls.begin(), run.db.calls.begin() + 3) ==
              std::vector<std::string>{"begin " + kTenantId, "run auth_current_person", "rollback"}));
}

BOOST_AUTO_TEST_CASE(a_write_runs_in_the_tenants_transaction_which_commits_after_the_handler) {
  Run run;
  run.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(run.script.db_calls_at_run == (std::vector<std::string>{"begin " + kTenantId, "run auth_current_person"}));
  BOOST_TEST(run.db.calls == (std::vector<std::string>{"begin " + kTenantId, "run auth_current_person", "commit"}));
}

BOOST_AUTO_TEST_CASE(a_failing_handler_rolls_back_and_never_commits) {
  Run run;
  run.script.act = [](icat::Context&) -> Reply { throw icat::ApiError(icat::Error::kCONFLICT, "no"); };
  run.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(run.reply.status == 409);
  BOOST_TEST(run.db.calls == (std::vector<std::string>{"begin " + kTenantId, "run auth_current_person", "rollback"}));
}

BOOST_AUTO_TEST_CASE(query_values_are_refused_after_the_credential_and_the_role_just_before_the_handler) {
  Run run;
  run.Send("GET", "/api/things", {}, "", "limit=0");  // no credential: that answers first
  BOOST_TEST(run.reply.status == 401);
  Run refused;  // the person is read and authorised, then the value is refused
  refused.Send("GET", "/api/things", Portal("viewer"), "", "limit=0");
  BOOST_TEST(refused.reply.status == 400);
  BOOST_TEST(refused.reply.body.find("{\"field\":\"limit\",\"issue\":\"must be a whole number from 1 to 200\"}") !=
                 std::string::npos,
             refused.reply.body);
  BOOST_TEST(refused.script.runs == 0);
  BOOST_TEST(refused.db.calls ==
             (std::vector<std::string>{"read " + kTenantId, "run auth_current_person", "rollback"}));
  // A valid value reaches the handler parsed.
  int limit_seen = 0;
  run.script.act = [&](icat::Context& ctx) {
    limit_seen = ctx.query.Limit();
    return Reply::Json(200, "{}");
  };
  run.Send("GET", "/api/things", Portal("viewer"), "", "q=a&limit=7");
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(limit_seen == 7);
}

BOOST_AUTO_TEST_SUITE_END()

// A token outlives a deletion, a disabling or a demotion; a request acts as the person is stored now.
BOOST_AUTO_TEST_SUITE(pipeline_current_person)

BOOST_AUTO_TEST_CASE(a_person_deleted_or_disabled_since_the_token_is_401_on_reads_and_writes) {
  Run run;
  run.db.people.erase(UserId("admin"));  // the look-up finds neither a deleted nor a disabled person
  run.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(run.reply.status == 401);
  BOOST_TEST(run.Error() == "UNAUTHENTICATED");
  BOOST_TEST(run.Header("WWW-Authenticate") == "Bearer");
  run.Send("GET", "/api/things", Portal("admin"));
  BOOST_TEST(run.reply.status == 401);
  BOOST_TEST(run.script.runs == 0);
}

BOOST_AUTO_TEST_CASE(a_demoted_admin_is_403_on_admin_routes_and_reads_as_what_they_are_now) {
  Run run;
  run.db.people[UserId("admin")] = "viewer";
  run.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(run.reply.status == 403);
  BOOST_TEST(run.Error() == "FORBIDDEN");
  BOOST_TEST(run.script.runs == 0);
  std::string role_seen;
  run.script.act = [&](icat::Context& ctx) {
    role_seen = ctx.principal.role;
    return Reply::Json(200, "{}");
  };
  run.Send("GET", "/api/things", Portal("admin"));
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(role_seen == "viewer");
}

BOOST_AUTO_TEST_CASE(a_person_promoted_since_the_token_writes_with_the_stored_role) {
  Run run;
  run.db.people[UserId("viewer")] = "admin";
  std::string email_seen;
  run.script.act = [&](icat::Context& ctx) {
    email_seen = ctx.principal.email;  // what the audit log records beside the id
    return Reply::Json(200, "{}");
  };
  run.Send("POST", "/api/things", Portal("viewer"), "{}");
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(email_seen == "admin@example.test");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pipeline_errors)

BOOST_AUTO_TEST_CASE(postgres_failures_become_the_api_errors_of_sqlstates_def) {
  struct Case {
    std::string sqlstate;
    int status;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{{"23505", 409, "CONFLICT"},
                                         {"23503", 409, "CONFLICT"},
                                         {"23514", 400, "VALIDATION_ERROR"},
                                         {"22021", 400, "VALIDATION_ERROR"},
                                         {"57014", 503, "DATABASE_UNAVAILABLE"},
                                         {"08006", 503, "DATABASE_UNAVAILABLE"},
                                         {"42P01", 500, "INTERNAL_ERROR"}}) {
    BOOST_TEST_CONTEXT("SQLSTATE " << c.sqlstate) {
      Run run;
      run.script.act = [&](icat::Context&) -> Reply { throw icat::DbError("boom", c.sqlstate, false); };
      run.Send("GET", "/public");
      BOOST_TEST(run.reply.status == c.status);
      BOOST_TEST(run.Error() == c.error);
      BOOST_TEST(run.script.runs == 1);
      BOOST_TEST(run.reply.body.find("boom") == std::string::npos);  // Postgres' words stay in the log
    }
  }
}

BOOST_AUTO_TEST_CASE(a_serialization_failure_is_run_once_more_then_answered_503) {
  Run once;
  once.script.act = [&](icat::Context&) -> Reply {
    if (once.script.runs == 1) throw icat::DbError("could not serialize", "40001", false);
    return Reply::Json(200, "{}");
  };
  once.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(once.reply.status == 200);
  BOOST_TEST(once.script.runs == 2);
  BOOST_TEST(once.db.calls == (std::vector<std::string>{"begin " + kTenantId, "run auth_current_person", "rollback",
                                                        "begin " + kTenantId, "run auth_current_person", "commit"}));
  Run always;
  always.script.act = [](icat::Context&) -> Reply { throw icat::DbError("deadlock detected", "40P01", false); };
  always.Send("POST", "/api/things", Portal("admin"), "{}");
  BOOST_TEST(always.reply.status == 503);
  BOOST_TEST(always.Header("Retry-After") == "1");
  BOOST_TEST(always.script.runs == 2);
}

BOOST_AUTO_TEST_CASE(an_unexpected_exception_is_a_500_naming_the_request_id_only) {
  Run run;
  run.script.act = [](icat::Context&) -> Reply { throw std::runtime_error("secret internals"); };
  run.Send("GET", "/public");
  BOOST_TEST(run.reply.status == 500);
  BOOST_TEST(run.Error() == "INTERNAL_ERROR");
  BOOST_TEST(run.reply.body.find("rid-unit") != std::string::npos);
  BOOST_TEST(run.reply.body.find("secret internals") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pipeline_probe)

BOOST_AUTO_TEST_CASE(the_pool_probe_is_answered_204_before_any_stage) {
  Run run;
  run.Send("GET", std::string(icat::kPoolProbePath), {}, "", "q=%ff");
  BOOST_TEST(run.reply.status == 204);
  BOOST_TEST(run.reply.body.empty());
  BOOST_TEST(run.db.calls.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pipeline_ready)

BOOST_AUTO_TEST_CASE(the_ready_probe_is_503_while_postgres_cannot_be_reached) {
  Run run;  // its Db points at a socket that does not exist
  run.Send("GET", std::string(icat::kPoolReadyPath));
  BOOST_TEST(run.reply.status == 503);
  BOOST_TEST(run.script.runs == 0);
}

BOOST_AUTO_TEST_SUITE_END()

// The route's transaction mode (Route::transaction): by default a GET reads and any other method
// writes; a route may declare a transaction for a read.
BOOST_AUTO_TEST_SUITE(pipeline_transaction_mode)

BOOST_AUTO_TEST_CASE(a_get_runs_in_a_read_scope_unless_its_route_declares_a_transaction) {
  Run run;
  run.Send("GET", "/api/things", Portal("viewer"));
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(run.db.calls == (std::vector<std::string>{"read " + kTenantId, "run auth_current_person", "commit"}));
  run.db.calls.clear();
  run.Send("GET", "/api/snapshot", Portal("viewer"));
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(run.db.calls == (std::vector<std::string>{"begin " + kTenantId, "run auth_current_person", "commit"}));
}

BOOST_AUTO_TEST_SUITE_END()

// An API key through identify, authorise and the after-effects. Without Redis (as here) every key is
// looked up in Postgres and nothing is counted, so its last-used mark is always due.
BOOST_AUTO_TEST_SUITE(pipeline_api_key)

const std::string kKeyId = "cccccccc-0000-4000-8000-000000000001";

BOOST_AUTO_TEST_CASE(a_live_key_with_the_scope_is_served_and_its_last_used_mark_left_for_after_the_reply) {
  Run run;
  const std::string key = icat::GenerateApiKey("icat").secret;
  run.db.api_key = {kKeyId, kTenantId, "{read:sbom,read:catalog}", "0", "f"};
  run.Send("GET", "/v1/things", {{"authorization", "Bearer " + key}});
  BOOST_TEST(run.reply.status == 200);
  BOOST_TEST(run.db.calls == (std::vector<std::string>{"run auth_lookup_key", "read " + kTenantId, "commit"}));
  BOOST_TEST_REQUIRE(run.key_touch.has_value());
  BOOST_TEST(run.key_touch->tenant_id == kTenantId);
  BOOST_TEST(run.key_touch->key_id == kKeyId);
  BOOST_TEST(run.key_touch->key_prefix == key.substr(0, icat::kKeyListedPrefixChars));
  BOOST_TEST(run.key_touch->request_id == "rid-unit");
  BOOST_TEST(run.Header("RateLimit").empty());  // nothing counted, no limit to tell
}

BOOST_AUTO_TEST_CASE(a_key_without_the_routes_scope_is_403_naming_it_and_leaves_no_mark) {
  Run run;
  run.db.api_key = {kKeyId, kTenantId, "{read:sbom}", "0", "f"};
  run.Send("GET", "/v1/things", {{"x-api-key", icat::GenerateApiKey("icat").secret}});
  BOOST_TEST(run.reply.status == 403);
  BOOST_TEST(run.Error() == "INSUFFICIENT_SCOPE");
  BOOST_TEST(run.Header("WWW-Authenticate") == "Bearer error=\"insufficient_scope\", scope=\"read:catalog\"");
  BOOST_TEST(run.script.runs == 0);
  BOOST_TEST(!run.key_touch.has_value());
}

BOOST_AUTO_TEST_CASE(a_failing_handler_still_leaves_the_mark_as_every_check_before_it_passed) {
  Run run;
  run.db.api_key = {kKeyId, kTenantId, "{read:catalog}", "0", "f"};
  run.script.act = [](icat::Context&) -> Reply { throw icat::ApiError(icat::Error::kNOT_FOUND, "no"); };
  run.Send("GET", "/v1/things", {{"x-api-key", icat::GenerateApiKey("icat").secret}});
  BOOST_TEST(run.reply.status == 404);
  BOOST_TEST(run.key_touch.has_value());
}

BOOST_AUTO_TEST_CASE(an_unknown_revoked_or_expired_key_is_401_before_any_scope_check) {
  Run run;
  const std::string key = icat::GenerateApiKey("icat").secret;
  run.Send("GET", "/v1/things", {{"x-api-key", key}});
  BOOST_TEST(run.reply.status == 401);
  BOOST_TEST(run.reply.body.find("The API key is not valid.") != std::string::npos, run.reply.body);
  run.db.api_key = {kKeyId, kTenantId, "{}", "0", "t"};
  run.Send("GET", "/v1/things", {{"x-api-key", key}});
  BOOST_TEST(run.reply.body.find("The API key has been revoked.") != std::string::npos, run.reply.body);
  run.db.api_key = {kKeyId, kTenantId, "{}", "1000", "f"};
  run.Send("GET", "/v1/things", {{"x-api-key", key}});
  BOOST_TEST(run.reply.body.find("The API key has expired.") != std::string::npos, run.reply.body);
  BOOST_TEST(run.Header("WWW-Authenticate") == "Bearer");
  BOOST_TEST(run.script.runs == 0);
  BOOST_TEST(!run.key_touch.has_value());
}

BOOST_AUTO_TEST_CASE(a_key_of_the_wrong_form_is_401_without_a_look_up) {
  Run run;
  std::string key = icat::GenerateApiKey("icat").secret;
  key.back() = key.back() == 'a' ? 'b' : 'a';  // its checksum fails
  run.Send("GET", "/v1/things", {{"x-api-key", key}});
  BOOST_TEST(run.reply.status == 401);
  BOOST_TEST(run.db.calls == std::vector<std::string>{"rollback"});
}

BOOST_AUTO_TEST_SUITE_END()

// The per-key rate limit (auth.hpp LimitRate): what the pipeline adds to every reply, and its 429.
BOOST_AUTO_TEST_SUITE(rate_limit)

BOOST_AUTO_TEST_CASE(the_ratelimit_headers_count_down_and_past_the_limit_a_429_says_when_to_retry) {
  icat::Config config;
  config.rate_limit_per_minute = 5;
  icat::KeyUse use{.requests_in_window = 5, .at = 6000 + 45};  // 45 seconds into a window: 15 left
  const Headers told = {{"RateLimit-Policy", "5;w=60"}, {"RateLimit", "limit=5, remaining=0, reset=15"}};
  icat::RateLimit at_limit = icat::LimitRate(config, use);
  BOOST_TEST((at_limit.headers == told));
  BOOST_TEST(!at_limit.refusal.has_value());
  use.requests_in_window = 6;
  icat::RateLimit past = icat::LimitRate(config, use);
  BOOST_TEST((past.headers == told));
  BOOST_TEST_REQUIRE(past.refusal.has_value());
  BOOST_TEST((past.refusal->error() == icat::Error::kRATE_LIMITED));
  BOOST_TEST(std::string(past.refusal->what()) == "Rate limit of 5 requests per minute exceeded for this API key.");
  BOOST_TEST((past.refusal->headers == Headers{{"Retry-After", "15"}}));
  use.requests_in_window = 2;
  BOOST_TEST(icat::LimitRate(config, use).headers.at(1).second == "limit=5, remaining=3, reset=15");
}

BOOST_AUTO_TEST_CASE(no_limit_or_no_count_tells_nothing_and_refuses_nothing) {
  icat::Config config;
  icat::KeyUse use{.requests_in_window = 1000, .at = 6000};
  icat::RateLimit off = icat::LimitRate(config, use);  // ICAT_RATE_LIMIT_PER_MINUTE=0
  BOOST_TEST(off.headers.empty());
  BOOST_TEST(!off.refusal.has_value());
  config.rate_limit_per_minute = 5;
  use.requests_in_window.reset();  // Redis did not count: the limit fails open
  icat::RateLimit uncounted = icat::LimitRate(config, use);
  BOOST_TEST(uncounted.headers.empty());
  BOOST_TEST(!uncounted.refusal.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
