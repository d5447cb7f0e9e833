// The API-key cache in Redis as a wall of its own: a revoke that answered 2xx stays in force with
// Redis up, paused, stalled or down, and whatever Redis hands back afterwards; entries written by
// someone else are not believed; unknown keys are cheap and limited per address.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <thread>

#include "icat/api_key.hpp"
#include "icat/auth.hpp"
#include "icat/config.hpp"
#include "icat/crypto.hpp"
#include "portal_support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

std::string CacheKeyOf(const std::string& secret) { return icat::ApiKeyCacheKey(icat::Sha256Hex(secret)); }

void ExpectRefused(const it::Response& r) {
  it::ExpectError(r, 401, "UNAUTHENTICATED");
  BOOST_TEST(r.Header("www-authenticate").rfind("Bearer", 0) == 0u, r.Summary());
}

// The key's cache entry once a request has filled it. A worker that met a Redis failure a moment
// ago (an earlier test stopped or paused Redis) waits out a second's back-off before it fills again.
std::string FilledEntry(const std::string& secret) {
  std::string entry;
  it::WaitFor([&] {
    it::Response r = it::Get("/v1/images", it::Bearer(secret));
    BOOST_TEST((r.status == 200 || r.status == 401), r.Summary());
    auto cached = it::RedisCommand({"GET", CacheKeyOf(secret)});
    if (cached && cached->type == icat::RedisReply::Type::kString) entry = cached->text;
    return !entry.empty();
  }, 5s, 200ms);
  BOOST_TEST_REQUIRE(!entry.empty(), "no request filled the cache entry");
  return entry;
}

// Sends n requests with the key; returns how many were answered 200.
int Successes(const std::string& secret, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++) ok += it::Get("/v1/images", it::Bearer(secret)).status == 200;
  return ok;
}

// A portal tenant's key whose cache entry is filled (live): what each revocation test revokes.
struct CachedKey {
  it::PortalTenant t;
  it::PortalKey key = it::CreatePortalKey(t);
  std::string entry = FilledEntry(key.secret);
  it::Response Revoke() const { return it::Send("DELETE", "/api/api-keys/" + key.id, t.As(t.admin)); }
};

// CLIENT PAUSE for `ms` milliseconds, of writes ("WRITE") or of every command ("ALL").
void PauseRedis(const std::string& ms, const std::string& mode) {
  auto paused = it::RedisCommand({"CLIENT", "PAUSE", ms, mode});
  BOOST_TEST_REQUIRE((paused && !paused->IsError()), "CLIENT PAUSE failed");
}

// The account pool's log line of a request (by its X-Request-Id) that mentions the key cache:
// what a revoke logs when Redis did not take its tombstone. Empty when there is none.
std::string AccountLogLine(const std::string& request_id) {
  std::ifstream log(it::GetEnv().stack_dir + "/log/account.log");
  for (std::string line; std::getline(log, line);) {
    if (line.find("rid=" + request_id + " ") != std::string::npos && line.find("tombstone") != std::string::npos) {
      return line;
    }
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(key_revocation)

BOOST_AUTO_TEST_CASE(a_revoke_with_redis_up_holds_after_redis_forgets_the_tombstone) {
  CachedKey c;
  BOOST_TEST_REQUIRE(c.Revoke().status == 204);
  ExpectRefused(it::Get("/v1/images", it::Bearer(c.key.secret)));
  // Redis loses the entry (eviction, a flush): Postgres alone must still refuse the key.
  auto deleted = it::RedisCommand({"DEL", CacheKeyOf(c.key.secret)});
  BOOST_TEST_REQUIRE(deleted.has_value());
  ExpectRefused(it::Get("/v1/images", it::Bearer(c.key.secret)));
  BOOST_TEST(Successes(c.key.secret, 5) == 0);
}

BOOST_AUTO_TEST_CASE(a_revoke_during_a_redis_write_pause_is_204_and_refused_during_and_after_it) {
  CachedKey c;
  PauseRedis("3000", "WRITE");
  it::Response revoke = c.Revoke();
  BOOST_TEST(revoke.status == 204, revoke.Summary());
  // Every request after the 204, during and after the pause, is refused.
  BOOST_TEST(Successes(c.key.secret, 20) == 0);
  std::this_thread::sleep_for(3s);
  BOOST_TEST(Successes(c.key.secret, 20) == 0);
}

// The revoke the issue measured: Redis hangs (SIGSTOP) with the key's live entry in it, so the
// tombstone cannot be written. The revoke is complete once committed (204), the key is refused
// from then on, during the stall and after it, when the live entry is back: never 200 again.
BOOST_AUTO_TEST_CASE(a_portal_revoke_during_a_redis_stall_is_204_logged_and_never_flips_back) {
  CachedKey c;
  {
    it::StalledRedis stalled;
    it::Response revoke = c.Revoke();
    BOOST_TEST(revoke.status == 204, revoke.Summary());
    const std::string logged = AccountLogLine(revoke.Header("x-request-id"));
    BOOST_TEST(logged.find("no tombstone") != std::string::npos, "account.log: " << logged);
    BOOST_TEST(logged.find("within a second") != std::string::npos, "account.log: " << logged);
    for (const std::string& reply : it::RepliesNotRefused(c.key.secret, 3s)) BOOST_ERROR("during the stall " << reply);
    stalled.Resume();
  }
  // The handler sent its tombstone on a connection Redis had open, so Redis may still run it on
  // waking. The worst case is that it does not: Redis hands back the live entry.
  BOOST_TEST_REQUIRE(it::RedisCommand({"SET", CacheKeyOf(c.key.secret), c.entry, "EX", "300"}).has_value());
  for (const std::string& reply : it::RepliesNotRefused(c.key.secret, 6s)) BOOST_ERROR("after the stall " << reply);
  // Repeating the revoke answers 204 again, and audits it once.
  it::Response again = c.Revoke();
  BOOST_TEST(again.status == 204, again.Summary());
  BOOST_TEST(it::AuditRows(c.t.id(), "key.revoked").size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_icatctl_revoke_during_a_redis_stall_exits_0_says_so_and_never_flips_back) {
  CachedKey c;
  {
    it::StalledRedis stalled;
    it::ProcessResult revoke = it::Icatctl({"key", "revoke", "--tenant", c.t.subdomain(), c.key.id});
    BOOST_TEST(revoke.exit_code == 0, "exit " << revoke.exit_code << ": " << revoke.err);
    BOOST_TEST(revoke.out == "revoked " + c.key.id + "\n");
    BOOST_TEST(revoke.err.find("no tombstone") != std::string::npos, revoke.err);
    BOOST_TEST(revoke.err.find("every node refuses the key within a second") != std::string::npos, revoke.err);
    for (const std::string& reply : it::RepliesNotRefused(c.key.secret, 3s)) BOOST_ERROR("during the stall " << reply);
    stalled.Resume();
  }
  // icatctl's new connection never got past AUTH, so nothing of it runs on waking: the live entry is back.
  auto cached = it::RedisCommand({"GET", CacheKeyOf(c.key.secret)});
  BOOST_TEST_REQUIRE((cached && cached->text == c.entry),
                     "the live entry is no longer in Redis: the test proves nothing");
  for (const std::string& reply : it::RepliesNotRefused(c.key.secret, 6s)) BOOST_ERROR("after the stall " << reply);
}

BOOST_AUTO_TEST_CASE(a_revoke_with_redis_stopped_is_204_and_refused_during_the_outage_and_after) {
  CachedKey c;
  {
    it::StoppedService redis("redis");
    it::Response revoke = c.Revoke();
    BOOST_TEST(revoke.status == 204, revoke.Summary());
    ExpectRefused(it::Get("/v1/images", it::Bearer(c.key.secret)));
    redis.Restart();
  }
  BOOST_TEST(Successes(c.key.secret, 5) == 0);
  BOOST_TEST(c.Revoke().status == 204);
  BOOST_TEST(Successes(c.key.secret, 5) == 0);
}

// What a Redis may hand back after a completed revoke (a stale replica promoted, a restore, or
// anyone who can write to it replaying the entry they read): the key's live entry without the
// tombstone. It is not believed from a second after the revoke on.
BOOST_AUTO_TEST_CASE(a_live_entry_put_back_after_a_revoke_is_refused_from_a_second_on) {
  CachedKey c;
  BOOST_TEST_REQUIRE(c.Revoke().status == 204);
  const auto revoked = std::chrono::steady_clock::now();
  BOOST_TEST_REQUIRE(it::RedisCommand({"SET", CacheKeyOf(c.key.secret), c.entry, "EX", "300"}).has_value());
  std::this_thread::sleep_until(revoked + 1100ms);
  for (const std::string& reply : it::RepliesNotRefused(c.key.secret, 3s)) BOOST_ERROR(reply);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(key_cache_integrity)

BOOST_AUTO_TEST_CASE(an_entry_written_into_redis_for_a_made_up_key_grants_nothing) {
  it::Tenant victim;
  it::Image image = victim.AddImage("forged");
  std::string made_up = icat::GenerateApiKey(it::GetEnv().key_prefix).secret;
  std::string hash_hex = icat::Sha256Hex(made_up);
  // The shape the cache used to trust, and the signed shape with a MAC of someone who lacks the secret.
  for (const std::string& forged :
       {"key|00000000-0000-4000-8000-000000000000|" + victim.id() + "|read:catalog|0",
        "key|00000000-0000-4000-8000-000000000000|" + victim.id() + "|read:catalog|0|9999999999|" +
            icat::HexEncode(icat::HmacSha256("not the secret", hash_hex))}) {
    auto set = it::RedisCommand({"SET", icat::ApiKeyCacheKey(hash_hex), forged, "EX", "60"});
    BOOST_TEST_REQUIRE(set.has_value());
    it::Response r = it::Get("/v1/images", it::Bearer(made_up));
    ExpectRefused(r);
    BOOST_TEST(r.body.find(image.name) == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(an_altered_entry_of_a_real_key_does_not_widen_its_scopes) {
  it::Tenant tenant;
  std::string key = tenant.CreateKey("read:catalog");
  std::string altered = FilledEntry(key);
  size_t at = altered.find("read:catalog");
  BOOST_TEST_REQUIRE(at != std::string::npos, altered);
  altered.replace(at, 12, "read:catalog,read:vulns");
  BOOST_TEST_REQUIRE(it::RedisCommand({"SET", CacheKeyOf(key), altered, "EX", "60"}).has_value());
  // Not believed: Postgres answers, and the key still has only its own scope.
  it::ExpectError(it::Get("/v1/cve/CVE-2024-3094", it::Bearer(key)), 403, "INSUFFICIENT_SCOPE");
  it::ExpectJson200(it::Get("/v1/images", it::Bearer(key)));
}

BOOST_AUTO_TEST_CASE(an_unknown_key_is_remembered_as_unknown_for_a_minute) {
  std::string made_up = icat::GenerateApiKey(it::GetEnv().key_prefix).secret;
  std::string cached = FilledEntry(made_up);
  BOOST_TEST(cached.rfind("unknown|", 0) == 0u, cached);
  auto ttl = it::RedisCommand({"TTL", CacheKeyOf(made_up)});
  BOOST_TEST_REQUIRE(ttl.has_value());
  BOOST_TEST((ttl->integer > 0 && ttl->integer <= 60), ttl->integer);
}

BOOST_AUTO_TEST_CASE(the_stacks_redis_refuses_a_client_without_its_password) {
  icat::RedisEndpoint endpoint = icat::Config::FromEnvironment().redis;
  BOOST_TEST_REQUIRE(!endpoint.password.empty(), "the stack gives its services no Redis password");
  endpoint.password.clear();
  icat::Redis anonymous(endpoint, 1000);
  std::optional<icat::RedisReply> reply = anonymous.Command({"SET", "icat:apikey:forged", "key"});
  BOOST_TEST_REQUIRE(reply.has_value(), "Redis did not answer at all");
  BOOST_TEST(reply->IsError());
  BOOST_TEST(reply->text.rfind("NOAUTH", 0) == 0u, reply->text);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(key_failed_lookups)

BOOST_AUTO_TEST_CASE(an_address_past_its_failed_lookups_gets_429_while_known_keys_elsewhere_work) {
  const int limit = std::stoi(std::getenv("ICAT_KEY_FAILURE_LIMIT_PER_MINUTE"));
  // Without Redis nothing is counted (Postgres answers every look-up): start once it answers again.
  it::Tenant tenant;
  const std::string good_key = tenant.CreateKey();
  it::WaitUntilWorkersUseRedis(good_key);
  // The count is per minute: when the minute turns over mid-way (a slow machine), the count starts
  // again, so the attempt is repeated from a fresh address in the next minute.
  std::optional<it::Response> limited;
  for (int attempt = 0; attempt < 3 && !limited; attempt++) {
    while (std::time(nullptr) % 60 > 45) std::this_thread::sleep_for(1s);
    const long long minute = std::time(nullptr) / 60;
    std::string attacker = it::RandomClientIp();
    int refused_401 = 0;
    for (int i = 0; i < limit; i++) {
      std::string made_up = icat::GenerateApiKey(it::GetEnv().key_prefix).secret;
      refused_401 += it::SendFrom(attacker, "GET", "/v1/images", it::Bearer(made_up)).status == 401;
    }
    std::string another = icat::GenerateApiKey(it::GetEnv().key_prefix).secret;
    it::Response last = it::SendFrom(attacker, "GET", "/v1/images", it::Bearer(another));
    if (std::time(nullptr) / 60 != minute) continue;
    BOOST_TEST(refused_401 == limit);
    limited = last;
  }
  BOOST_TEST_REQUIRE(limited.has_value(), "every attempt straddled a minute");
  it::ExpectError(*limited, 429, "RATE_LIMITED");
  const std::string retry_after = limited->Header("retry-after");
  BOOST_TEST((!retry_after.empty() && retry_after.find_first_not_of("0123456789") == std::string::npos &&
              retry_after != "0"),
             limited->Summary());
  // The limit is the address's: a good key from another address is untouched.
  it::ExpectJson200(it::SendFrom(it::RandomClientIp(), "GET", "/v1/images", it::Bearer(good_key)));
}

BOOST_AUTO_TEST_SUITE_END()
