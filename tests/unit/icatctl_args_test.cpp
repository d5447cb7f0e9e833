// icatctl's argument parser: the one rule for flags holding a count (--size, --grace).
#include "../../tools/icatctl/args.hpp"

#include <boost/test/unit_test.hpp>

namespace ctl = icat::ctl;

namespace {

const ctl::CommandSpec kSpec = {{}, {{"size", ctl::FlagKind::kOptional, "BYTES", "a size"}}};

std::string CountError(const std::string& value) {
  try {
    ctl::Args::Parse({"--size", value}, kSpec).Count("size", "bytes");
  } catch (const ctl::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(icatctl_args)

BOOST_AUTO_TEST_CASE(a_count_is_a_whole_number_from_zero_or_absent) {
  BOOST_TEST(*ctl::Args::Parse({"--size", "0"}, kSpec).Count("size", "bytes") == 0);
  BOOST_TEST(*ctl::Args::Parse({"--size=48771072"}, kSpec).Count("size", "bytes") == 48771072);
  BOOST_TEST(!ctl::Args::Parse({}, kSpec).Count("size", "bytes").has_value());
  for (const char* bad : {"-1", "12x", "", " 1", "1.5", "99999999999999999999"}) {
    BOOST_TEST(CountError(bad) == std::string("--size: '") + bad + "' is not a number of bytes", bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()
