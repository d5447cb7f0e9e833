// The per-worker reply cache of catalogue reads and the catalogue generation in Redis.
#include "icat/reply_cache.hpp"

#include "icat/crypto.hpp"

namespace icat {

namespace {
// A generation is random, never a counter: one Redis lost and started afresh cannot repeat.
std::string NewGeneration() { return HexEncode(RandomBytes(16)); }

size_t SizeOf(const std::string& key, const Reply& reply) {
  size_t bytes = key.size() + reply.body.size() + 128;  // 128: the entry's own bookkeeping
  for (const Header& h : reply.headers) bytes += h.first.size() + h.second.size();
  return bytes;
}
}  // namespace

bool MarkCatalogChanged(Redis& redis) {
  auto reply = redis.Command({"SET", std::string(kCatalogGenerationKey), NewGeneration()});
  return reply && !reply->IsError();
}

void StartCatalogGeneration(Redis& redis) {
  auto ignored = redis.Command({"SET", std::string(kCatalogGenerationKey), NewGeneration(), "NX"});
}

std::optional<Reply> ReplyCache::Find(const std::string& key, std::string_view generation) {
  auto found = index_.find(key);
  if (found == index_.end()) return std::nullopt;
  Order::iterator entry = found->second;
  if (entry->generation != generation || std::chrono::steady_clock::now() - entry->stored_at >= max_age_) {
    Drop(entry);
    return std::nullopt;
  }
  order_.splice(order_.begin(), order_, entry);
  return entry->reply;
}

void ReplyCache::Store(const std::string& key, std::string_view generation, const Reply& reply) {
  if (max_age_.count() == 0) return;
  size_t bytes = SizeOf(key, reply);
  if (bytes > max_bytes_ / 4) return;  // one huge reply would evict everything else
  if (auto found = index_.find(key); found != index_.end()) Drop(found->second);
  order_.push_front({key, std::string(generation), std::chrono::steady_clock::now(), reply, bytes});
  index_[key] = order_.begin();
  bytes_ += bytes;
  while (bytes_ > max_bytes_) Drop(std::prev(order_.end()));
}

void ReplyCache::Clear() {
  order_.clear();
  index_.clear();
  bytes_ = 0;
}

void ReplyCache::Drop(Order::iterator entry) {
  bytes_ -= entry->bytes;
  index_.erase(entry->key);
  order_.erase(entry);
}

}  // namespace icat
