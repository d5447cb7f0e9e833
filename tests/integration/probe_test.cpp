// icat-<group> --probe live|ready, as Kubernetes' exec probes run it against a pool of the stack:
// live while a worker answers, ready while it also reaches Postgres.
#include <boost/test/unit_test.hpp>

#include "support.hpp"

namespace it = icat::test;

namespace {

int Probe(const std::string& group, const std::string& kind) {
  std::string socket = it::GetEnv().stack_dir + "/run/" + group + ".sock";
  return it::RunProcess({it::GetEnv().bin_dir + "/icat-" + group, "--probe", kind, "--socket", socket}).exit_code;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pool_probes)

BOOST_AUTO_TEST_CASE(a_pool_is_ready_only_while_it_reaches_postgres_and_live_while_it_answers) {
  BOOST_TEST(Probe("catalog", "live") == 0);
  BOOST_TEST(Probe("catalog", "ready") == 0);
  it::Stack("pg-stop");
  BOOST_TEST(Probe("catalog", "live") == 0);
  BOOST_TEST(Probe("catalog", "ready") == 1);
  it::Stack("pg-start");
  BOOST_TEST(it::WaitForStatusOk());
  BOOST_TEST(it::WaitFor([] { return Probe("catalog", "ready") == 0; }, std::chrono::seconds(10)));
}

BOOST_AUTO_TEST_CASE(a_pool_that_does_not_answer_is_not_live) {
  it::HiddenPoolSocket hidden("sbom");
  BOOST_TEST(Probe("sbom", "live") == 1);
  BOOST_TEST(Probe("sbom", "ready") == 1);
}

BOOST_AUTO_TEST_SUITE_END()
