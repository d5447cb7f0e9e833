// icatctl config --shell: every setting's checked value as NAME='value' lines, for a shell to
// source (tools/stack does), so bash never checks a setting again.
#include <iostream>

#include "commands.hpp"
#include "icat/config.hpp"

namespace icat::ctl {

std::string ShellQuoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void PrintConfig(const Args& args) {
  if (!args.Has("shell")) throw UsageError("say which format: --shell");
  // The rules between settings (one Redis password, not two) come with the programs' own reading.
  (void)Config::FromEnvironment();
  // All lines are made before any is printed: a bad setting leaves nothing half-written to source.
  std::string lines;
  for (const auto& [name, value] : CheckedSettings()) lines += name + "=" + ShellQuoted(value) + "\n";
  std::cout << lines;
}

}  // namespace icat::ctl
