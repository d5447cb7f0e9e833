// The integration-test binary's entry point: Boost.Test, header-only, against a running stack
// (tests/run-tests integration starts one and sets ICAT_BASE_URL and the rest; see support.hpp).
#define BOOST_TEST_MODULE integration
#include <boost/test/included/unit_test.hpp>

#include <csignal>
#include <iostream>

#include "support.hpp"

namespace {

// Fails fast, once, when the stack is not there, instead of every test timing out on its own.
struct StackIsUp {
  StackIsUp() {
    // A test's Redis connection (RedisCommand) outlives Redis restarts: writing to it must fail
    // with EPIPE, which the client handles, instead of killing the whole run.
    signal(SIGPIPE, SIG_IGN);
    const icat::test::Env& env = icat::test::GetEnv();
    if (!icat::test::WaitForStatusOk(std::chrono::seconds(30))) {
      std::cerr << "integration: " << env.base_url << "/api/status is not 200 \"ok\" after 30 s; is the stack running?\n";
    }
  }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(StackIsUp);
