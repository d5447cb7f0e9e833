// The command-line parser of icatctl and icat (common/): counts, short flags, a variadic positional.
#include "icat/cli_args.hpp"

#include <boost/test/unit_test.hpp>

namespace {

const icat::CommandSpec kSpec = {{}, {{"size", icat::FlagKind::kOptional, "BYTES", "a size"}}};

// A command shaped like `icat sbom IMAGE --format F -o FILE` and one like `icat check REFERENCE...`.
const icat::CommandSpec kSbomSpec = {{"IMAGE"},
                                     {{"format", icat::FlagKind::kRequired, "FORMAT", "spdx or cyclonedx"},
                                      {"output", icat::FlagKind::kRequired, "FILE", "where to write", 'o'},
                                      {"json", icat::FlagKind::kSwitch, "", "JSON"}}};
const icat::CommandSpec kCheckSpec = {{"REFERENCE..."}, {{"fail-on", icat::FlagKind::kRequired, "LEVEL", "level"}}};

std::string ParseError(const std::vector<std::string>& tokens, const icat::CommandSpec& spec) {
  try {
    icat::Args::Parse(tokens, spec);
  } catch (const icat::UsageError& e) {
    return e.what();
  }
  return "";
}

std::string CountError(const std::string& value) {
  try {
    icat::Args::Parse({"--size", value}, kSpec).Count("size", "bytes");
  } catch (const icat::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_args)

BOOST_AUTO_TEST_CASE(a_count_is_a_whole_number_from_zero_or_absent) {
  BOOST_TEST(*icat::Args::Parse({"--size", "0"}, kSpec).Count("size", "bytes") == 0);
  BOOST_TEST(*icat::Args::Parse({"--size=48771072"}, kSpec).Count("size", "bytes") == 48771072);
  BOOST_TEST(!icat::Args::Parse({}, kSpec).Count("size", "bytes").has_value());
  for (const char* bad : {"-1", "12x", "", " 1", "1.5", "99999999999999999999"}) {
    BOOST_TEST(CountError(bad) == std::string("--size: '") + bad + "' is not a number of bytes", bad);
  }
}

BOOST_AUTO_TEST_CASE(a_declared_short_flag_is_the_long_one_and_any_other_is_unknown) {
  icat::Args args = icat::Args::Parse({"nginx:1.2", "-o", "out.json", "--format", "spdx"}, kSbomSpec);
  BOOST_TEST(args.Value("output") == "out.json");
  BOOST_TEST(args.Positional(0) == "nginx:1.2");
  BOOST_TEST(ParseError({"nginx", "-o", "a", "--output", "b", "--format", "spdx"}, kSbomSpec) ==
             "--output given more than once");
  BOOST_TEST(ParseError({"nginx", "-x", "a", "--format", "spdx"}, kSbomSpec) == "unknown flag -x");
  BOOST_TEST(ParseError({"nginx", "-oout", "--format", "spdx"}, kSbomSpec) == "unknown flag -oout");
  BOOST_TEST(ParseError({"nginx", "--format", "spdx", "-o"}, kSbomSpec) == "--output needs a value");
  BOOST_TEST(ParseError({"nginx", "--format", "spdx"}, kSbomSpec) == "missing --output");
}

BOOST_AUTO_TEST_CASE(a_variadic_last_positional_takes_one_or_more_and_others_take_exactly_one) {
  icat::Args args = icat::Args::Parse({"r/a:1", "--fail-on", "high", "r/b@sha256:00", "r/c:2"}, kCheckSpec);
  BOOST_TEST((args.Positionals() == std::vector<std::string>{"r/a:1", "r/b@sha256:00", "r/c:2"}));
  BOOST_TEST(ParseError({"--fail-on", "high"}, kCheckSpec) == "missing REFERENCE...");
  BOOST_TEST(ParseError({"a", "b", "--format", "spdx", "-o", "f"}, kSbomSpec) == "unexpected argument 'b'");
}

BOOST_AUTO_TEST_CASE(help_names_the_program_and_shows_short_flags) {
  std::string help = icat::HelpText("icat", "sbom", "Downloads an SBOM.", kSbomSpec);
  BOOST_TEST(help.rfind("usage: icat sbom IMAGE --format FORMAT -o FILE [--json]\n", 0) == 0, help);
  BOOST_TEST(help.find("  -o, --output FILE") != std::string::npos, help);
}

BOOST_AUTO_TEST_SUITE_END()
