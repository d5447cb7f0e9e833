// WorkerCache: values valid for their generation only, aged out, bounded by bytes (least recently
// used dropped first), and off when its lifetime is 0.
#include <boost/test/unit_test.hpp>
#include <string>
#include <thread>

#include "icat/worker_cache.hpp"

namespace {

using Cache = icat::WorkerCache<std::string>;
constexpr size_t kOverhead = 128 + 1;  // per entry: bookkeeping and the one-character generation "g"

}  // namespace

BOOST_AUTO_TEST_SUITE(worker_cache)

BOOST_AUTO_TEST_CASE(a_value_is_found_under_its_own_generation_only) {
  Cache cache(1 << 20, 60);
  cache.Store("tenant /v1/images?", "g1", "reply", 5);
  BOOST_TEST(cache.Find("tenant /v1/images?", "g1").value_or("") == "reply");
  BOOST_TEST(!cache.Find("tenant /v1/images?", "g2").has_value());
  // Dropped on the mismatch: the old generation never comes back.
  BOOST_TEST(!cache.Find("tenant /v1/images?", "g1").has_value());
  BOOST_TEST(!cache.Find("other /v1/images?", "g1").has_value());
}

BOOST_AUTO_TEST_CASE(a_value_older_than_its_lifetime_is_not_used) {
  Cache cache(1 << 20, 1);
  cache.Store("k", "g", "v", 1);
  BOOST_TEST(cache.Find("k", "g").has_value());
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  BOOST_TEST(!cache.Find("k", "g").has_value());
}

BOOST_AUTO_TEST_CASE(the_least_recently_used_values_go_first_beyond_the_byte_budget) {
  const size_t value_bytes = 100;
  const size_t entry = value_bytes + 1 + kOverhead;  // keys are one character
  Cache cache(4 * entry, 60);                          // room for four
  for (const char* key : {"a", "b", "c", "d"}) cache.Store(key, "g", key, value_bytes);
  BOOST_TEST(cache.bytes() == 4 * entry);
  BOOST_TEST(cache.Find("a", "g").has_value());  // a is now the most recently used
  cache.Store("e", "g", "e", value_bytes);        // over budget: b goes
  BOOST_TEST(!cache.Find("b", "g").has_value());
  for (const char* key : {"a", "c", "d", "e"}) BOOST_TEST(cache.Find(key, "g").value_or("") == key);
  BOOST_TEST(cache.bytes() == 4 * entry);
}

BOOST_AUTO_TEST_CASE(storing_a_key_again_replaces_its_value) {
  Cache cache(1 << 20, 60);
  cache.Store("k", "g1", "old", 3);
  cache.Store("k", "g2", "new", 3);
  BOOST_TEST(cache.Find("k", "g2").value_or("") == "new");
  BOOST_TEST(cache.bytes() == 3 + 1 + 2 + 128);
}

BOOST_AUTO_TEST_CASE(a_value_over_a_quarter_of_the_budget_is_not_kept) {
  Cache cache(4000, 60);
  cache.Store("small", "g", "s", 100);
  cache.Store("huge", "g", "h", 1000);
  BOOST_TEST(!cache.Find("huge", "g").has_value());
  BOOST_TEST(cache.Find("small", "g").has_value());
}

BOOST_AUTO_TEST_CASE(a_lifetime_of_zero_keeps_nothing) {
  Cache cache(1 << 20, 0);
  cache.Store("k", "g", "v", 1);
  BOOST_TEST(!cache.Find("k", "g").has_value());
  BOOST_TEST(cache.bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(clear_drops_everything) {
  Cache cache(1 << 20, 60);
  cache.Store("a", "g", "A", 1);
  cache.Store("b", "g", "B", 1);
  cache.Clear();
  BOOST_TEST(!cache.Find("a", "g").has_value());
  BOOST_TEST(cache.bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(without_a_generation_nothing_is_found_or_kept_and_everything_is_dropped) {
  Cache cache(1 << 20, 60);
  cache.Store("a", "g", "A", 1);
  cache.Store("b", std::nullopt, "B", 1);
  BOOST_TEST(!cache.Find("b", "g").has_value());
  BOOST_TEST(!cache.Find("a", std::nullopt).has_value());
  BOOST_TEST(!cache.Find("a", "g").has_value());  // Redis was unavailable: dropped
  BOOST_TEST(cache.bytes() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
