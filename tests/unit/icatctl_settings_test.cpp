// icatctl config --shell (what tools/stack sources). README.md's settings table: generate_test.cpp.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "icat/config.hpp"
#include "scoped_env.hpp"
#include "tools/icatctl/commands.hpp"

namespace ctl = icat::ctl;
using icat::test::ScopedEnv;

namespace {

// What a command writes on stdout.
std::string Output(void (*command)(const icat::Args&), const std::vector<std::string>& tokens,
                   const icat::CommandSpec& spec) {
  std::ostringstream out;
  std::streambuf* old = std::cout.rdbuf(out.rdbuf());
  try {
    command(icat::Args::Parse(tokens, spec));
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  return out.str();
}

const icat::CommandSpec kConfigSpec = {{}, {{"shell", icat::FlagKind::kSwitch, "", ""}}};

// What bash prints running `script`, a real bash as tools/stack is.
std::string Bash(const std::string& script) {
  std::string path = "/tmp/icat-shell-test-" + std::to_string(getpid()) + ".sh";
  std::ofstream(path) << script;
  std::string output;
  if (FILE* pipe = popen(("env -i bash " + path).c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    pclose(pipe);
  }
  std::remove(path.c_str());
  return output;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(icatctl_settings)

BOOST_AUTO_TEST_CASE(shell_quoting_survives_bash_for_every_awkward_character) {
  for (std::string value : {"plain", "it's", "''", "$HOME `id` $(id) \"q\" \\ ; & | *", "a\nb", "", " lead"}) {
    std::string script = "X=" + ctl::ShellQuoted(value) + "\nprintf '%s' \"$X\"\n";
    BOOST_TEST(Bash(script) == value, "quoted as " << ctl::ShellQuoted(value));
  }
}

BOOST_AUTO_TEST_CASE(config_shell_prints_every_setting_for_bash_to_source) {
  ScopedEnv registry("ICAT_REGISTRY", "reg.example/it's $(touch /tmp/icat-pwned)");
  ScopedEnv workers("ICAT_WORKERS_AUTH", "7");
  ScopedEnv log_level("ICAT_LOG_LEVEL", std::nullopt);
  ScopedEnv all_workers("ICAT_WORKERS", std::nullopt);
  ScopedEnv port("ICAT_HTTP_PORT", std::nullopt);
  std::string lines = Output(ctl::PrintConfig, {"--shell"}, kConfigSpec);
  BOOST_TEST(lines.find("\nICAT_HTTP_PORT='8080'\n") != std::string::npos, lines);
  std::string printed =
      Bash(lines + "printf '%s|%s|%s|%s' \"$ICAT_REGISTRY\" \"$ICAT_WORKERS_AUTH\" \"$ICAT_LOG_LEVEL\" \"$ICAT_WORKERS\"");
  BOOST_TEST(printed == "reg.example/it's $(touch /tmp/icat-pwned)|7|info|2");
  BOOST_TEST(!std::ifstream("/tmp/icat-pwned").good());
  size_t count = 0;
  for (char c : lines) count += c == '\n';
  BOOST_TEST(count == icat::CheckedSettings().size());
}

BOOST_AUTO_TEST_CASE(config_shell_refuses_a_bad_setting_naming_it_and_prints_nothing) {
  ScopedEnv bad("ICAT_MAX_BODY_BYTES", "1MB");
  std::ostringstream out;
  std::streambuf* old = std::cout.rdbuf(out.rdbuf());
  try {
    ctl::PrintConfig(icat::Args::Parse({"--shell"}, kConfigSpec));
    BOOST_ERROR("1MB was accepted");
  } catch (const icat::SettingError& e) {
    BOOST_TEST(std::string(e.what()).find("ICAT_MAX_BODY_BYTES") == 0u, e.what());
  }
  std::cout.rdbuf(old);
  BOOST_TEST(out.str().empty());
  BOOST_CHECK_THROW(ctl::PrintConfig(icat::Args::Parse({}, kConfigSpec)), icat::UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
