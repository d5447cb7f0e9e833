// The cache generation in Redis (worker_cache.hpp).
#include "icat/worker_cache.hpp"

#include "icat/crypto.hpp"

namespace icat {

namespace {
std::string NewGeneration() { return HexEncode(RandomBytes(16)); }
}  // namespace

bool BumpCacheGeneration(Redis& redis) {
  auto reply = redis.Command({"SET", std::string(kCacheGenerationKey), NewGeneration()});
  return reply && !reply->IsError();
}

void StartCacheGeneration(Redis& redis) {
  (void)redis.Command({"SET", std::string(kCacheGenerationKey), NewGeneration(), "NX"});
}

}  // namespace icat
