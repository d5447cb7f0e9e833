// The command-line parser of icatctl and icat: flags (--x value, --x=value, -x value, repeatable,
// switches) and positionals.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

// Bad or missing arguments: main prints it as one line and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FlagKind {
  kRequired,  // --x VALUE, exactly once
  kOptional,  // --x VALUE, at most once
  kRepeated,  // --x VALUE, any number of times
  kSwitch,    // --x, no value
};

struct FlagSpec {
  std::string_view name;        // without the dashes
  FlagKind kind;
  std::string_view value_name;  // shown in the usage line, e.g. SUBDOMAIN
  std::string_view help;        // one line
  char short_name = '\0';       // -o for --output; none when '\0'
};

// What a command accepts: positional arguments (all required) and flags. A last positional whose
// name ends in "..." (REFERENCE...) takes one or more values.
struct CommandSpec {
  std::vector<std::string_view> positionals;  // names shown in the usage line, e.g. FILE
  std::vector<FlagSpec> flags;
};

class Args {
 public:
  // Throws UsageError on an unknown flag, a missing value or required flag, or a wrong
  // number of positionals. --help is not handled here (see WantsHelp).
  static Args Parse(const std::vector<std::string>& tokens, const CommandSpec& spec);

  const std::string& Value(std::string_view flag) const;  // a kRequired flag
  std::optional<std::string> Optional(std::string_view flag) const;
  // An optional flag holding a whole number >= 0; UsageError "--flag: 'x' is not a number of <unit>".
  std::optional<long long> Count(std::string_view flag, std::string_view unit) const;
  std::vector<std::string> All(std::string_view flag) const;  // a kRepeated flag, in order
  bool Has(std::string_view flag) const;                      // a kSwitch (or any flag) given
  const std::string& Positional(size_t index) const { return positionals_.at(index); }
  const std::vector<std::string>& Positionals() const { return positionals_; }

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positionals_;
};

// True when --help or -h appears before any "--": help wins over every other argument error.
bool WantsHelp(const std::vector<std::string>& tokens);

// "usage: icatctl key create --tenant SUBDOMAIN ...", then the summary and one line per flag.
std::string HelpText(std::string_view program, std::string_view command, std::string_view summary,
                     const CommandSpec& spec);

}  // namespace icat
