// The password-hash gate of a pool: how many scrypt hashes (sign-in, set-up, password change) one
// node runs at once, and how many of those for one tenant. Beyond either, a request is refused at
// once (429 or 503 with Retry-After) instead of waiting for a worker into nginx's gateway timeout.
// The table lives in memory shared by the pool's pre-forked workers, made by the parent before it
// forks; each worker has one place in it (its worker slot, server.hpp), so a worker that dies
// leaves nothing behind once the parent empties its place (ServerOptions::on_worker_exit).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

// The defaults are the settings table's (config.cpp), the one place they are written.
struct HashGateLimits {
  int node = 0;        // ICAT_PASSWORD_HASH_CONCURRENCY: hashes at once on this node
  int per_tenant = 0;  // ICAT_PASSWORD_HASH_CONCURRENCY_PER_TENANT: of those, of one tenant
};

enum class HashGateVerdict {
  kAdmitted,
  kTenantAtShare,   // the tenant already has its share hashing: 429
  kNodeAtCapacity,  // the node hashes as many as it may: 503
};

// The tenant key of a name that is no tenant: every such name shares one share, so a flood that
// makes up tenant names cannot take the node's whole capacity.
inline constexpr std::string_view kNoSuchTenant = "(no such tenant)";

// How many hashes a pool of `workers` may run at once: limits.node, but at most workers - 1 (and
// at least 1), so at least one worker is always free to take the next request off the queue and
// refuse it at once, rather than leave it waiting behind hashes.
int HashCapacity(const HashGateLimits& limits, size_t workers);

// Pure: whether one more hash of `tenant` may start while hashes of `running` (one tenant each)
// run. The tenant's share is checked first: a tenant over its share is told so (429) even when the
// node is full too, since waiting for its own hashes is what it must do.
HashGateVerdict DecideHashGate(const std::vector<std::string>& running, std::string_view tenant, int capacity,
                               int per_tenant);

// The shared table of one pool: a place per worker holding the tenant it hashes for, or nothing.
class HashGate {
 public:
  // For a pool of `workers` workers (1 to 512); call in the parent, before the fork.
  // std::runtime_error when the shared memory cannot be made.
  explicit HashGate(size_t workers);
  ~HashGate();
  HashGate(const HashGate&) = delete;
  HashGate& operator=(const HashGate&) = delete;

  // Worker `worker` asks to start a hash for `tenant` (a tenant id, or kNoSuchTenant); admitted,
  // its place holds the tenant until Leave.
  HashGateVerdict Enter(size_t worker, std::string_view tenant, const HashGateLimits& limits);
  // The hash of worker `worker` is over (or the worker died: its parent calls this for it).
  void Leave(size_t worker);
  // The tenants hashing now, one per hash in progress.
  std::vector<std::string> Running();

 private:
  struct Table;
  Table* table_ = nullptr;
  size_t workers_ = 0;
};

// The gate of this process's pool, or nullptr outside one (icatctl, unit tests): nothing is gated
// there. ServeGroup sets it before the fork.
HashGate* PoolHashGate();
void SetPoolHashGate(HashGate* gate);

}  // namespace icat
