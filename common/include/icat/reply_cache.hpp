// Replies of catalogue reads kept in each worker, valid while the catalogue is unchanged.
//
// Catalogue data (images, versions, scans, findings, licences) changes only through icatctl, which
// sets a new random catalogue generation in Redis after each such commit. API-key requests read
// the generation in the same Redis round trip as their key; a reply stored under another
// generation, or older than ICAT_REPLY_CACHE_SECONDS, is never served. Without Redis there is no
// generation, and nothing is served from or stored in the cache.
#pragma once

#include <chrono>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "icat/http.hpp"
#include "icat/redis.hpp"

namespace icat {

// The Redis key of the catalogue generation.
inline constexpr std::string_view kCatalogGenerationKey = "icat:catalog:generation";

// After a commit that changed catalogue data: a new generation, so no worker serves an older
// reply. Returns false when Redis could not be told (cached replies then age out).
bool MarkCatalogChanged(Redis& redis);

// When Redis holds no generation (first start, or Redis lost its data): sets a fresh one unless
// another worker did first. Stored replies carry generations that can never come back.
void StartCatalogGeneration(Redis& redis);

class ReplyCache {
 public:
  // max_seconds 0 turns the cache off.
  ReplyCache(size_t max_bytes, int max_seconds) : max_bytes_(max_bytes), max_age_(max_seconds) {}

  // The reply stored under key for this generation, if younger than max_seconds.
  std::optional<Reply> Find(const std::string& key, std::string_view generation);
  // Stores a reply, dropping the least recently used ones beyond max_bytes.
  void Store(const std::string& key, std::string_view generation, const Reply& reply);
  void Clear();
  size_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::string key;
    std::string generation;
    std::chrono::steady_clock::time_point stored_at;
    Reply reply;
    size_t bytes;
  };
  using Order = std::list<Entry>;  // most recently used first

  void Drop(Order::iterator entry);

  size_t max_bytes_;
  std::chrono::seconds max_age_;
  size_t bytes_ = 0;
  Order order_;
  std::unordered_map<std::string, Order::iterator> index_;
};

}  // namespace icat
