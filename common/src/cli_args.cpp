// The command-line parser: strict, so a typo in a flag is an error rather than a silent default.
#include "icat/cli_args.hpp"

#include <charconv>
#include <sstream>

namespace icat {
namespace {

const FlagSpec* FindFlag(const CommandSpec& spec, std::string_view name) {
  for (const FlagSpec& flag : spec.flags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

const FlagSpec* FindShortFlag(const CommandSpec& spec, char name) {
  for (const FlagSpec& flag : spec.flags) {
    if (flag.short_name != '\0' && flag.short_name == name) return &flag;
  }
  return nullptr;
}

bool IsVariadic(std::string_view positional) {
  return positional.size() > 3 && positional.substr(positional.size() - 3) == "...";
}

// "--" alone ends the flags; "-" alone is a positional (a conventional stand-in for stdin).
bool LooksLikeFlag(const std::string& token) { return token.size() > 1 && token[0] == '-'; }

// The value of --name: inline after '=', else the next token, which must not itself be a flag
// (so `--name --tenant x` reports the missing name instead of naming a key "--tenant").
std::string TakeValue(const std::vector<std::string>& tokens, size_t& i, std::string_view name,
                      const std::optional<std::string>& inline_value) {
  if (inline_value) return *inline_value;
  if (i + 1 >= tokens.size() || tokens[i + 1].rfind("--", 0) == 0) {
    throw UsageError("--" + std::string(name) + " needs a value");
  }
  return tokens[++i];
}

void CheckCounts(const CommandSpec& spec, const std::map<std::string, std::vector<std::string>, std::less<>>& values,
                 const std::vector<std::string>& positionals) {
  for (const FlagSpec& flag : spec.flags) {
    auto found = values.find(flag.name);
    size_t count = found == values.end() ? 0 : found->second.size();
    std::string dashed = "--" + std::string(flag.name);
    if (flag.kind == FlagKind::kRequired && count == 0) throw UsageError("missing " + dashed);
    if (flag.kind != FlagKind::kRepeated && count > 1) throw UsageError(dashed + " given more than once");
    if (flag.kind == FlagKind::kRequired && found->second.front().empty()) {
      throw UsageError(dashed + " must not be empty");
    }
  }
  if (positionals.size() < spec.positionals.size()) {
    throw UsageError("missing " + std::string(spec.positionals[positionals.size()]));
  }
  bool variadic = !spec.positionals.empty() && IsVariadic(spec.positionals.back());
  if (positionals.size() > spec.positionals.size() && !variadic) {
    throw UsageError("unexpected argument '" + positionals[spec.positionals.size()] + "'");
  }
}

}  // namespace

Args Args::Parse(const std::vector<std::string>& tokens, const CommandSpec& spec) {
  Args args;
  bool flags_ended = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    if (flags_ended || !LooksLikeFlag(token)) {
      args.positionals_.push_back(token);
      continue;
    }
    if (token == "--") {
      flags_ended = true;
      continue;
    }
    const FlagSpec* flag = nullptr;
    std::string name;
    std::optional<std::string> inline_value;
    if (token.rfind("--", 0) != 0) {
      // A single-dash flag is one letter a command declares (-o FILE), never bundled or inline.
      if (token.size() == 2) flag = FindShortFlag(spec, token[1]);
      if (flag == nullptr) throw UsageError("unknown flag " + token);
      name = std::string(flag->name);
    } else {
      std::string body = token.substr(2);
      size_t equals = body.find('=');
      name = body.substr(0, equals);
      if (equals != std::string::npos) inline_value = body.substr(equals + 1);
      flag = FindFlag(spec, name);
      if (flag == nullptr) throw UsageError("unknown flag --" + name);
    }
    if (flag->kind == FlagKind::kSwitch) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      args.values_[name].push_back("");
      continue;
    }
    args.values_[name].push_back(TakeValue(tokens, i, name, inline_value));
  }
  CheckCounts(spec, args.values_, args.positionals_);
  return args;
}

const std::string& Args::Value(std::string_view flag) const {
  auto found = values_.find(flag);
  if (found == values_.end()) throw UsageError("missing --" + std::string(flag));
  return found->second.front();
}

std::optional<std::string> Args::Optional(std::string_view flag) const {
  auto found = values_.find(flag);
  if (found == values_.end()) return std::nullopt;
  return found->second.front();
}

std::optional<long long> Args::Count(std::string_view flag, std::string_view unit) const {
  std::optional<std::string> text = Optional(flag);
  if (!text) return std::nullopt;
  long long count = -1;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), count);
  if (error != std::errc() || end != text->data() + text->size() || count < 0) {
    throw UsageError("--" + std::string(flag) + ": '" + *text + "' is not a number of " + std::string(unit));
  }
  return count;
}

std::vector<std::string> Args::All(std::string_view flag) const {
  auto found = values_.find(flag);
  return found == values_.end() ? std::vector<std::string>{} : found->second;
}

bool Args::Has(std::string_view flag) const { return values_.find(flag) != values_.end(); }

bool WantsHelp(const std::vector<std::string>& tokens) {
  for (const std::string& token : tokens) {
    if (token == "--") return false;
    if (token == "--help" || token == "-h") return true;
  }
  return false;
}

std::string HelpText(std::string_view program, std::string_view command, std::string_view summary,
                     const CommandSpec& spec) {
  std::ostringstream usage;
  std::ostringstream flags;
  usage << "usage: " << program << ' ' << command;
  for (std::string_view positional : spec.positionals) usage << ' ' << positional;
  for (const FlagSpec& flag : spec.flags) {
    std::string shown = flag.short_name != '\0' ? "-" + std::string(1, flag.short_name) : "--" + std::string(flag.name);
    if (flag.kind != FlagKind::kSwitch) shown += " " + std::string(flag.value_name);
    if (flag.kind == FlagKind::kRequired) usage << ' ' << shown;
    if (flag.kind == FlagKind::kOptional || flag.kind == FlagKind::kSwitch) usage << " [" << shown << ']';
    if (flag.kind == FlagKind::kRepeated) usage << " [" << shown << "]...";
    std::string listed = flag.short_name != '\0' ? "-" + std::string(1, flag.short_name) + ", --" +
                                                        std::string(flag.name) +
                                                        (flag.kind == FlagKind::kSwitch ? "" : " " + std::string(flag.value_name))
                                                  : shown;
    flags << "  " << listed << std::string(listed.size() < 28 ? 28 - listed.size() : 1, ' ') << flag.help << '\n';
  }
  usage << "\n\n" << summary << '\n';
  if (!spec.flags.empty()) usage << '\n' << flags.str();
  return usage.str();
}

}  // namespace icat
