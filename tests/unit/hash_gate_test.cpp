// The password-hash gate (hash_gate.hpp): the decision alone, the capacity a pool's size allows, and
// the shared table across forked processes, as a pool's workers and its parent use it.
#include "icat/hash_gate.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <functional>
#include <string>
#include <vector>

namespace {

using icat::HashGateVerdict;

constexpr icat::HashGateLimits kLimits{2, 1};  // the defaults: two at once, one per tenant

// Runs `child` in a forked process, as a pool's worker runs; returns its exit status.
int InChild(const std::function<int()>& child) {
  pid_t pid = fork();
  if (pid == 0) _exit(child());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hash_gate)

BOOST_AUTO_TEST_CASE(a_tenant_over_its_share_is_refused_before_the_node_is_full) {
  BOOST_TEST((icat::DecideHashGate({}, "a", 2, 1) == HashGateVerdict::kAdmitted));
  BOOST_TEST((icat::DecideHashGate({"a"}, "a", 2, 1) == HashGateVerdict::kTenantAtShare));
  BOOST_TEST((icat::DecideHashGate({"a"}, "b", 2, 1) == HashGateVerdict::kAdmitted));
  BOOST_TEST((icat::DecideHashGate({"a", "a"}, "a", 4, 3) == HashGateVerdict::kAdmitted));
  BOOST_TEST((icat::DecideHashGate({"a", "a", "a"}, "a", 4, 3) == HashGateVerdict::kTenantAtShare));
}

BOOST_AUTO_TEST_CASE(a_full_node_refuses_a_tenant_that_has_no_hash_running) {
  BOOST_TEST((icat::DecideHashGate({"a", "b"}, "c", 2, 1) == HashGateVerdict::kNodeAtCapacity));
  // Over its share and the node full: the tenant is told it is over its share (429, not 503).
  BOOST_TEST((icat::DecideHashGate({"a", "b"}, "a", 2, 1) == HashGateVerdict::kTenantAtShare));
  BOOST_TEST((icat::DecideHashGate({"a", "b", "b"}, "a", 3, 2) == HashGateVerdict::kNodeAtCapacity));
}

BOOST_AUTO_TEST_CASE(a_pool_keeps_one_worker_free_of_hashing) {
  BOOST_TEST(icat::HashCapacity({2, 1}, 4) == 2);
  BOOST_TEST(icat::HashCapacity({2, 1}, 3) == 2);
  BOOST_TEST(icat::HashCapacity({2, 1}, 2) == 1);
  BOOST_TEST(icat::HashCapacity({8, 1}, 4) == 3);
  BOOST_TEST(icat::HashCapacity({2, 1}, 1) == 1);  // one worker: it must hash, nothing is left over
}

BOOST_AUTO_TEST_CASE(workers_share_the_table_and_a_left_place_is_free_again) {
  icat::HashGate gate(4);
  BOOST_TEST((gate.Enter(0, "tenant-a", kLimits) == HashGateVerdict::kAdmitted));
  // Forked after the table was made, as a pool's workers are: they see the parent's places.
  int child = InChild([&] {
    if (gate.Enter(1, "tenant-a", kLimits) != HashGateVerdict::kTenantAtShare) return 1;
    if (gate.Enter(1, "tenant-b", kLimits) != HashGateVerdict::kAdmitted) return 2;
    if (gate.Enter(2, "tenant-c", kLimits) != HashGateVerdict::kNodeAtCapacity) return 3;
    gate.Leave(1);
    return gate.Enter(2, "tenant-c", kLimits) == HashGateVerdict::kAdmitted ? 0 : 4;
  });
  BOOST_TEST(child == 0);
  // The child's place 2 is still held (shared memory): only tenant-a and tenant-c run.
  std::vector<std::string> running = gate.Running();
  BOOST_TEST(running == (std::vector<std::string>{"tenant-a", "tenant-c"}), boost::test_tools::per_element());
  BOOST_TEST((gate.Enter(3, "tenant-d", kLimits) == HashGateVerdict::kNodeAtCapacity));
}

BOOST_AUTO_TEST_CASE(a_dead_workers_place_is_given_back_by_its_parent) {
  icat::HashGate gate(3);
  // A worker takes a place and dies without leaving it (killed mid-hash).
  BOOST_TEST(InChild([&] { return gate.Enter(1, "tenant-a", kLimits) == HashGateVerdict::kAdmitted ? 0 : 1; }) == 0);
  BOOST_TEST((gate.Enter(0, "tenant-a", kLimits) == HashGateVerdict::kTenantAtShare));
  gate.Leave(1);  // what the pool's parent does when it sees the worker of slot 1 die
  BOOST_TEST((gate.Enter(0, "tenant-a", kLimits) == HashGateVerdict::kAdmitted));
  BOOST_TEST(gate.Running() == (std::vector<std::string>{"tenant-a"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_worker_entering_again_counts_once) {
  icat::HashGate gate(3);
  BOOST_TEST((gate.Enter(0, "tenant-a", kLimits) == HashGateVerdict::kAdmitted));
  // Its own place is not counted against it: a second permit of the same worker replaces the first.
  BOOST_TEST((gate.Enter(0, "tenant-a", kLimits) == HashGateVerdict::kAdmitted));
  BOOST_TEST(gate.Running().size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
