// What a worker keeps between requests: values read from Postgres (whole replies of catalogue
// reads, the inputs of admission reviews), valid while the cache generation in Redis is unchanged.
//
// The data they come from changes only through icatctl (images, versions, scans, findings,
// licences) and the portal's admission policy and watch-list writes; each sets a new random
// generation after its commit. API-key requests read the generation in the same Redis round trip
// as their key (Context::cache_generation). Pull counts are the exception: a pull changes no
// generation, so a cached reply may show them up to ICAT_WORKER_CACHE_SECONDS old (docs/registry.md,
// "Pull counts"). A value stored under another generation, or older
// than ICAT_WORKER_CACHE_SECONDS, is never used. Without Redis there is no generation: nothing is
// used or stored, and the cache drops what it has (it cannot hear of changes meanwhile).
#pragma once

#include <chrono>
#include <cstddef>
#include <iterator>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "icat/redis.hpp"

namespace icat {

// The Redis key of the cache generation.
inline constexpr std::string_view kCacheGenerationKey = "icat:cache:generation";

// After a commit that changed cached data: a new generation, so no worker uses an older value.
// Returns false when Redis could not be told (values then age out).
bool BumpCacheGeneration(Redis& redis);

// When Redis holds no generation (first start, or Redis lost its data): sets a fresh one unless
// another worker did first. A generation is random, so a stored value's can never come back.
void StartCacheGeneration(Redis& redis);

// Values by key, the least recently used dropped beyond max_bytes. One per worker: not thread-safe.
template <typename Value>
class WorkerCache {
 public:
  // max_seconds 0 turns the cache off.
  WorkerCache(size_t max_bytes, int max_seconds) : max_bytes_(max_bytes), max_age_(max_seconds) {}

  // A copy of the value stored under key for this generation, if younger than max_seconds.
  // Without a generation nothing is found, and everything stored is dropped.
  std::optional<Value> Find(const std::string& key, const std::optional<std::string>& generation) {
    if (!generation) {
      Clear();
      return std::nullopt;
    }
    auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    typename Order::iterator entry = found->second;
    if (entry->generation != *generation || std::chrono::steady_clock::now() - entry->stored_at >= max_age_) {
      Drop(entry);
      return std::nullopt;
    }
    order_.splice(order_.begin(), order_, entry);
    return entry->value;
  }

  // Stores a value of about `bytes` bytes (its key is counted too); nothing without a generation.
  void Store(const std::string& key, const std::optional<std::string>& generation, Value value, size_t bytes) {
    if (max_age_.count() == 0 || !generation) return;
    bytes += key.size() + generation->size() + 128;  // 128: the entry's own bookkeeping
    if (bytes > max_bytes_ / 4) return;              // one huge value would evict everything else
    if (auto found = index_.find(key); found != index_.end()) Drop(found->second);
    order_.push_front({key, *generation, std::chrono::steady_clock::now(), std::move(value), bytes});
    index_[key] = order_.begin();
    bytes_ += bytes;
    while (bytes_ > max_bytes_) Drop(std::prev(order_.end()));
  }

  void Clear() {
    order_.clear();
    index_.clear();
    bytes_ = 0;
  }

  size_t bytes() const { return bytes_; }  // what the stored values count for

 private:
  struct Entry {
    std::string key;
    std::string generation;
    std::chrono::steady_clock::time_point stored_at;
    Value value;
    size_t bytes;
  };
  using Order = std::list<Entry>;  // most recently used first

  void Drop(typename Order::iterator entry) {
    bytes_ -= entry->bytes;
    index_.erase(entry->key);
    order_.erase(entry);
  }

  size_t max_bytes_;
  std::chrono::seconds max_age_;
  size_t bytes_ = 0;
  Order order_;
  std::unordered_map<std::string, typename Order::iterator> index_;
};

}  // namespace icat
