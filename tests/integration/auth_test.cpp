// API-key authentication on /v1: how keys are sent, refused, scoped, revoked, expired and limited.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <thread>

#include "icat/api_key.hpp"
#include "icat/auth.hpp"
#include "icat/crypto.hpp"
#include "support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// A key with one checksum character changed: well-formed in length and alphabet, wrong CRC.
std::string WithBadChecksum(const std::string& key) {
  std::string bad = key;
  bad.back() = bad.back() == 'a' ? 'b' : 'a';
  return bad;
}

void ExpectUnauthenticated(const it::Response& r) {
  it::ExpectError(r, 401, "UNAUTHENTICATED");
  BOOST_TEST(r.Header("www-authenticate").rfind("Bearer", 0) == 0u, r.Summary());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(api_key_auth)

BOOST_AUTO_TEST_CASE(missing_key_is_401_unauthenticated_with_www_authenticate) {
  ExpectUnauthenticated(it::Get("/v1/images"));
  ExpectUnauthenticated(it::Get("/v1/images/00000000-0000-4000-8000-000000000000"));
}

BOOST_AUTO_TEST_CASE(key_works_as_bearer_and_as_x_api_key) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
  it::ExpectJson200(it::Get("/v1/images", it::XApiKey(key)));
  // The scheme of Authorization is case-insensitive (RFC 9110 section 11.1).
  it::ExpectJson200(it::Get("/v1/images", {{"Authorization", "bearer " + key}}));
}

BOOST_AUTO_TEST_CASE(well_formed_unknown_key_is_401) {
  std::string key = icat::GenerateApiKey(it::GetEnv().key_prefix).secret;
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(key)));
  ExpectUnauthenticated(it::Get("/v1/images", it::XApiKey(key)));
}

BOOST_AUTO_TEST_CASE(key_with_bad_checksum_is_401) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(WithBadChecksum(key))));
}

BOOST_AUTO_TEST_CASE(malformed_credentials_are_401) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::string other_prefix = "zz" + key.substr(key.find('_'));
  const it::Headers cases[] = {
      {{"Authorization", "Bearer hello"}},
      {{"Authorization", "Bearer "}},
      {{"Authorization", "Basic " + key}},
      {{"Authorization", key}},
      {{"Authorization", "Bearer " + key + "x"}},
      {{"Authorization", "Bearer " + other_prefix}},
      {{"X-API-Key", "hello"}},
      {{"X-API-Key", key.substr(0, key.size() - 1)}},
  };
  for (const it::Headers& headers : cases) {
    BOOST_TEST_CONTEXT(headers[0].first << ": " << headers[0].second) { ExpectUnauthenticated(it::Get("/v1/images", headers)); }
  }
}

BOOST_AUTO_TEST_CASE(key_without_catalog_scope_is_403_insufficient_scope) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:sbom");
  it::Image image = tenant.AddImage("scope403");
  for (const std::string& path : {std::string("/v1/images"), "/v1/images/" + image.id}) {
    it::Response r = it::Get(path, it::Bearer(key));
    BOOST_TEST_CONTEXT(path) {
      it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
      BOOST_TEST(r.Header("www-authenticate") == "Bearer error=\"insufficient_scope\", scope=\"read:catalog\"", r.Summary());
    }
  }
}

BOOST_AUTO_TEST_CASE(key_with_several_scopes_including_catalog_is_200) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:sbom,read:catalog,read:vulns");
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
}

BOOST_AUTO_TEST_CASE(revoked_key_is_401_on_the_next_request_and_listed_revoked) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));  // now cached
  {
    rapidjson::Document entry = tenant.KeyEntry(key);
    BOOST_TEST_REQUIRE(entry.IsObject());
    BOOST_TEST(it::StringMember(entry, "state") == "active");
  }
  tenant.RevokeKey(key);
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(key)));
  ExpectUnauthenticated(it::Get("/v1/images", it::XApiKey(key)));
  rapidjson::Document entry = tenant.KeyEntry(key);
  BOOST_TEST_REQUIRE(entry.IsObject(), "revoked key missing from the list");
  BOOST_TEST(it::StringMember(entry, "state") == "revoked");
}

BOOST_AUTO_TEST_CASE(revoking_one_key_leaves_the_tenants_other_key_working) {
  it::Tenant tenant;
  std::string revoked = tenant.CreateKey();
  std::string kept = tenant.CreateKey();
  tenant.RevokeKey(revoked);
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(revoked)));
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(kept)));
}

BOOST_AUTO_TEST_CASE(revoke_under_concurrent_load_leaves_no_success_after_it_returns) {
  using Clock = std::chrono::steady_clock;
  struct Sample {
    Clock::time_point start, end;
    long status;
  };
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  constexpr int kThreads = 4;
  constexpr int kAfterRevokePerThread = 10;
  // Requests before the revoke stay under the per-key limit: a 429 would hide what revocation does.
  const int budget_before_revoke = it::GetEnv().rate_limit_per_minute - 20;
  BOOST_TEST_REQUIRE(budget_before_revoke >= 40, "ICAT_RATE_LIMIT_PER_MINUTE too low for this test");

  // Until Postgres shows the key revoked, its live cache entry is deleted over and over, so the
  // handlers keep refilling the cache from Postgres while the revoke runs: the race a plain DEL
  // on revoke (or a fill that overwrites) loses. Only the live entry, exactly as cached before,
  // is deleted (compare and delete in one Lua script), never whatever the revoke leaves there.
  // That race needs a fill delayed across the revoke, so this makes it likely, not certain; a
  // revoke that does not reach the cache at all fails here every time.
  const std::string cache_key = icat::ApiKeyCacheKey(icat::Sha256Hex(key));
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
  std::optional<icat::RedisReply> live = it::RedisCommand({"GET", cache_key});
  BOOST_TEST_REQUIRE((live && live->type == icat::RedisReply::Type::kString),
                     "no cache entry " << cache_key << " after a request");
  std::atomic<bool> stop_flushing{false};
  std::atomic<int> flushes{0};
  std::thread flusher([&] {
    it::PgConnection pg;
    while (!stop_flushing.load()) {
      std::vector<it::PgRow> state = pg.Query(
          "SELECT revoked_at IS NOT NULL FROM api_keys WHERE key_hash = sha256(convert_to($1, 'UTF8'))", {key});
      if (state.empty() || state[0][0] == "t") break;
      std::optional<icat::RedisReply> deleted = it::RedisCommand(
          {"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", "1",
           cache_key, live->text});
      if (deleted && deleted->integer == 1) flushes++;
    }
  });

  std::atomic<int> completed{0};
  std::atomic<int> budget{0};
  std::atomic<bool> revoked{false};
  std::vector<std::vector<Sample>> samples(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      it::HttpClient client;
      int after = 0;
      for (int i = 0; i < 500 && after < kAfterRevokePerThread; i++) {
        if (!revoked.load() && budget.fetch_add(1) >= budget_before_revoke) {
          while (!revoked.load()) std::this_thread::sleep_for(1ms);
        }
        bool was_revoked = revoked.load();
        Clock::time_point start = Clock::now();
        it::Response r = client.Get("/v1/images", it::Bearer(key));
        samples[t].push_back({start, Clock::now(), r.status});
        completed++;
        if (was_revoked) after++;
      }
    });
  }
  bool warmed = it::WaitFor([&] { return completed.load() >= 24; }, 10s, 1ms);
  Clock::time_point revoke_started = Clock::now();
  it::ProcessResult revoke = it::Icatctl({"key", "revoke", "--tenant", tenant.subdomain(), key.substr(0, 14)});
  Clock::time_point revoke_returned = Clock::now();
  revoked = true;
  stop_flushing = true;
  flusher.join();
  for (std::thread& thread : threads) thread.join();

  BOOST_TEST(warmed, "the threads did not get going");
  BOOST_TEST_REQUIRE(revoke.exit_code == 0, "icatctl key revoke: " << revoke.err);
  int before = 0, in_flight = 0, after = 0;
  for (int t = 0; t < kThreads; t++) {
    for (const Sample& s : samples[t]) {
      if (s.start > revoke_returned) {
        after++;
        BOOST_TEST(s.status == 401, "thread " << t << ": a request started after the revoke returned got " << s.status);
      } else if (s.end < revoke_started) {
        before++;
        BOOST_TEST(s.status == 200, "thread " << t << ": a request before the revoke got " << s.status);
      } else {
        in_flight++;
        BOOST_TEST((s.status == 200 || s.status == 401), "thread " << t << ": a request during the revoke got " << s.status);
      }
    }
  }
  BOOST_TEST(flushes.load() > 0, "the cache entry was never flushed");
  BOOST_TEST_MESSAGE("revoke under load: " << flushes.load() << " cache flushes, " << before << " before, " << in_flight << " during ("
                     << std::chrono::duration_cast<std::chrono::milliseconds>(revoke_returned - revoke_started).count()
                     << " ms), " << after << " after");
  BOOST_TEST(before >= 20);
  BOOST_TEST(after >= kThreads * kAfterRevokePerThread);
}

BOOST_AUTO_TEST_CASE(key_past_its_expiry_is_401_and_listed_expired) {
  it::Tenant tenant;
  auto expires = std::chrono::system_clock::now() + 4s;
  std::string key = tenant.CreateKey("read:catalog", it::Rfc3339(expires));
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));  // valid, and now cached
  std::this_thread::sleep_until(expires + 1500ms);
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(key)));
  rapidjson::Document entry = tenant.KeyEntry(key);
  BOOST_TEST_REQUIRE(entry.IsObject());
  BOOST_TEST(it::StringMember(entry, "state") == "expired");
  BOOST_TEST(!it::IsNullMember(entry, "expiresAt"));
}

BOOST_AUTO_TEST_CASE(key_expired_in_postgres_before_first_use_is_401) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  std::vector<it::PgRow> rows = it::PgQuery(
      "UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE key_hash = sha256(convert_to($1, 'UTF8')) "
      "RETURNING id",
      {key});
  BOOST_TEST_REQUIRE(rows.size() == 1u, "the key's row was not found by its hash");
  ExpectUnauthenticated(it::Get("/v1/images", it::Bearer(key)));
}

BOOST_AUTO_TEST_CASE(icatctl_refuses_an_expiry_in_the_past_with_exit_2) {
  it::Tenant tenant;
  it::ProcessResult r = it::Icatctl({"key", "create", "--tenant", tenant.subdomain(), "--name", "past", "--scopes",
                                     "read:catalog", "--expires", "2020-01-01T00:00:00Z"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty(), "printed a key anyway: " << r.out);
  BOOST_TEST(!r.err.empty());
}

BOOST_AUTO_TEST_CASE(request_sets_last_used_at_in_the_key_list) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  {
    rapidjson::Document entry = tenant.KeyEntry(key);
    BOOST_TEST_REQUIRE(entry.IsObject());
    BOOST_TEST(it::IsNullMember(entry, "lastUsedAt"), "lastUsedAt set before any use");
  }
  auto before = std::chrono::system_clock::now();
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
  std::string last_used;
  bool set = it::WaitFor(
      [&] {
        rapidjson::Document entry = tenant.KeyEntry(key);
        if (!entry.IsObject() || !entry.HasMember("lastUsedAt") || !entry["lastUsedAt"].IsString()) return false;
        last_used = entry["lastUsedAt"].GetString();
        return true;
      },
      5s, 250ms);
  BOOST_TEST_REQUIRE(set, "lastUsedAt still null 5 s after a request");
  std::optional<long long> at = it::ParseRfc3339(last_used);
  BOOST_TEST_REQUIRE(at.has_value(), "lastUsedAt is not RFC 3339: " << last_used);
  long long before_s = std::chrono::duration_cast<std::chrono::seconds>(before.time_since_epoch()).count();
  BOOST_TEST(*at >= before_s - 2);
  BOOST_TEST(*at <= before_s + 10);

  // Written at most once a minute per key: a second use soon after leaves it as it was.
  std::this_thread::sleep_for(1100ms);
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
  std::this_thread::sleep_for(300ms);
  rapidjson::Document again = tenant.KeyEntry(key);
  BOOST_TEST_REQUIRE(again.IsObject());
  BOOST_TEST(it::StringMember(again, "lastUsedAt") == last_used);
}

BOOST_AUTO_TEST_CASE(successful_response_carries_rate_limit_headers_counting_down) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey();
  const long limit = it::GetEnv().rate_limit_per_minute;
  it::Response first = it::Get("/v1/images", it::Bearer(key));
  it::Response second = it::Get("/v1/images", it::Bearer(key));
  it::ExpectJson200(first);
  it::ExpectJson200(second);
  BOOST_TEST(first.Header("ratelimit-policy") == std::to_string(limit) + ";w=60", first.Summary());
  std::optional<it::RateLimitHeader> a = it::ParseRateLimit(first.Header("ratelimit"));
  std::optional<it::RateLimitHeader> b = it::ParseRateLimit(second.Header("ratelimit"));
  BOOST_TEST_REQUIRE(a.has_value(), "RateLimit header: '" << first.Header("ratelimit") << "'");
  BOOST_TEST_REQUIRE(b.has_value(), "RateLimit header: '" << second.Header("ratelimit") << "'");
  BOOST_TEST(a->limit == limit);
  BOOST_TEST(a->remaining == limit - 1);
  BOOST_TEST((a->reset >= 0 && a->reset <= 60));
  if (b->reset <= a->reset) {  // the same window
    BOOST_TEST(b->remaining == a->remaining - 1);
  }
}

BOOST_AUTO_TEST_CASE(request_over_the_per_key_limit_is_429_with_retry_after) {
  it::Tenant tenant;
  const long limit = it::GetEnv().rate_limit_per_minute;
  // Start early in a window, so the whole burst falls into one.
  {
    std::string probe_key = tenant.CreateKey();
    std::optional<it::RateLimitHeader> probe = it::ParseRateLimit(it::Get("/v1/images", it::Bearer(probe_key)).Header("ratelimit"));
    BOOST_TEST_REQUIRE(probe.has_value());
    if (probe->reset < 15) std::this_thread::sleep_for(std::chrono::seconds(probe->reset + 1));
  }
  std::string key = tenant.CreateKey();
  std::string other_key = tenant.CreateKey();
  for (long i = 1; i <= limit; i++) {
    it::Response r = it::Get("/v1/images", it::Bearer(key));
    BOOST_TEST_REQUIRE(r.status == 200, "request " << i << " of " << limit << ": " << r.Summary());
    std::optional<it::RateLimitHeader> header = it::ParseRateLimit(r.Header("ratelimit"));
    BOOST_TEST_REQUIRE(header.has_value(), "request " << i);
    BOOST_TEST(header->remaining == limit - i, "request " << i);
  }
  it::Response over = it::Get("/v1/images", it::Bearer(key));
  it::ExpectError(over, 429, "RATE_LIMITED");
  const std::string retry_after = over.Header("retry-after");
  BOOST_TEST_REQUIRE(!retry_after.empty(), "Retry-After missing: " << over.Summary());
  BOOST_TEST_REQUIRE(retry_after.find_first_not_of("0123456789") == std::string::npos, retry_after);
  long seconds = std::stol(retry_after);
  BOOST_TEST((seconds >= 1 && seconds <= 60), "Retry-After " << seconds);
  // The limit is per key: another key of the same tenant is not affected.
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(other_key)));
}

BOOST_AUTO_TEST_SUITE_END()
