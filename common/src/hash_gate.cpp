// The password-hash gate (hash_gate.hpp): a table in an anonymous shared mapping, guarded by a
// process-shared robust mutex, so a worker killed while it holds the lock does not lock out the
// others (the next locker is told and takes over).
#include "icat/hash_gate.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "icat/metrics.hpp"

namespace icat {

namespace {

constexpr size_t kMaxWorkers = 512;  // the most --workers allows
constexpr size_t kTenantBytes = 40;  // a tenant id (a UUID, 36) or kNoSuchTenant, and its NUL

HashGate* pool_gate = nullptr;

}  // namespace

struct HashGate::Table {
  pthread_mutex_t lock;
  char tenant[kMaxWorkers][kTenantBytes];  // "": the worker hashes nothing
};

namespace {

// Holds the table's lock; a lock whose holder died is taken over (its table is still whole: a
// holder writes only its own place, which its parent empties anyway).
class Locked {
 public:
  explicit Locked(pthread_mutex_t& lock) : lock_(lock) {
    if (pthread_mutex_lock(&lock_) == EOWNERDEAD) pthread_mutex_consistent(&lock_);
  }
  ~Locked() { pthread_mutex_unlock(&lock_); }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;

 private:
  pthread_mutex_t& lock_;
};

}  // namespace

int HashCapacity(const HashGateLimits& limits, size_t workers) {
  int all_but_one = std::max(1, static_cast<int>(std::min(workers, kMaxWorkers)) - 1);
  return std::max(1, std::min(limits.node, all_but_one));
}

HashGateVerdict DecideHashGate(const std::vector<std::string>& running, std::string_view tenant, int capacity,
                               int per_tenant) {
  long same = std::count(running.begin(), running.end(), tenant);
  if (same >= per_tenant) return HashGateVerdict::kTenantAtShare;
  if (static_cast<long>(running.size()) >= capacity) return HashGateVerdict::kNodeAtCapacity;
  return HashGateVerdict::kAdmitted;
}

HashGate::HashGate(size_t workers) : workers_(std::min(workers, kMaxWorkers)) {
  void* memory = mmap(nullptr, sizeof(Table), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::runtime_error(std::string("hash gate: mmap: ") + std::strerror(errno));
  table_ = static_cast<Table*>(memory);  // zero-filled: every place empty
  pthread_mutexattr_t attributes;
  pthread_mutexattr_init(&attributes);
  pthread_mutexattr_setpshared(&attributes, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&attributes, PTHREAD_MUTEX_ROBUST);
  int failed = pthread_mutex_init(&table_->lock, &attributes);
  pthread_mutexattr_destroy(&attributes);
  if (failed != 0) {
    munmap(table_, sizeof(Table));
    throw std::runtime_error(std::string("hash gate: mutex: ") + std::strerror(failed));
  }
}

HashGate::~HashGate() {
  pthread_mutex_destroy(&table_->lock);
  munmap(table_, sizeof(Table));
}

HashGateVerdict HashGate::Enter(size_t worker, std::string_view tenant, const HashGateLimits& limits) {
  if (worker >= workers_) throw std::logic_error("hash gate: no place for worker " + std::to_string(worker));
  std::string key(tenant.substr(0, kTenantBytes - 1));
  Locked locked(table_->lock);
  std::vector<std::string> running;
  for (size_t w = 0; w < workers_; w++) {
    if (w != worker && table_->tenant[w][0] != '\0') running.emplace_back(table_->tenant[w]);
  }
  HashGateVerdict verdict = DecideHashGate(running, key, HashCapacity(limits, workers_), limits.per_tenant);
  if (verdict == HashGateVerdict::kAdmitted) {
    std::memcpy(table_->tenant[worker], key.c_str(), key.size() + 1);
    metrics::Set(metrics::Metric::kPasswordHashesInProgress, running.size() + 1);
  }
  return verdict;
}

void HashGate::Leave(size_t worker) {
  if (worker >= workers_) return;
  Locked locked(table_->lock);
  table_->tenant[worker][0] = '\0';
  size_t in_progress = 0;
  for (size_t w = 0; w < workers_; w++) in_progress += table_->tenant[w][0] != '\0';
  metrics::Set(metrics::Metric::kPasswordHashesInProgress, in_progress);
}

std::vector<std::string> HashGate::Running() {
  Locked locked(table_->lock);
  std::vector<std::string> running;
  for (size_t w = 0; w < workers_; w++) {
    if (table_->tenant[w][0] != '\0') running.emplace_back(table_->tenant[w]);
  }
  return running;
}

HashGate* PoolHashGate() { return pool_gate; }

void SetPoolHashGate(HashGate* gate) { pool_gate = gate; }

}  // namespace icat
