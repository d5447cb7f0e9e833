// The command-line parser of icat and icatctl (common/src/cli_args.cpp): the input is argv, tokens
// separated by NUL bytes, its first byte picking a command shape. A parse either throws UsageError
// or gives arguments that keep the spec: positionals counted, required flags present, a flag given
// once unless repeatable, switches without values.
#include <stdexcept>

#include "fuzz.hpp"
#include "icat/cli_args.hpp"

namespace {

using icat::FlagKind;

// Shapes like icat sbom (a short flag, a switch), icat check (a variadic positional) and
// icatctl ingest (repeatable and counted flags).
const icat::CommandSpec kSpecs[] = {
    {{"IMAGE"},
     {{"format", FlagKind::kRequired, "FORMAT", "f"},
      {"output", FlagKind::kRequired, "FILE", "o", 'o'},
      {"json", FlagKind::kSwitch, "", "j"},
      {"key-file", FlagKind::kOptional, "FILE", "k"}}},
    {{"REFERENCE..."}, {{"fail-on", FlagKind::kRequired, "LEVEL", "l"}, {"url", FlagKind::kOptional, "URL", "u"}}},
    {{}, {{"label", FlagKind::kRepeated, "K=V", "l"}, {"size", FlagKind::kOptional, "BYTES", "s", 's'},
          {"dry-run", FlagKind::kSwitch, "", "d"}}},
    {{"FILE", "NAME"}, {}},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const icat::CommandSpec& spec = kSpecs[data[0] % std::size(kSpecs)];
  std::string_view rest = icat::fuzz::Text(data + 1, size - 1);
  std::vector<std::string> tokens;
  while (!rest.empty()) {
    size_t nul = rest.find('\0');
    tokens.emplace_back(rest.substr(0, nul));
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  (void)icat::WantsHelp(tokens);
  (void)icat::HelpText("icat", "fuzz", "A command.", spec);
  std::optional<icat::Args> parsed;
  try {
    parsed = icat::Args::Parse(tokens, spec);
  } catch (const icat::UsageError& error) {
    icat::fuzz::Expect(std::string_view(error.what()).size() > 0, "a usage error says something");
    return 0;
  }
  const icat::Args& args = *parsed;
  bool variadic = !spec.positionals.empty() && spec.positionals.back().ends_with("...");
  size_t count = args.Positionals().size();
  icat::fuzz::Expect(variadic ? count >= spec.positionals.size() : count == spec.positionals.size(),
                     "the positionals are as many as the spec names");
  for (const icat::FlagSpec& flag : spec.flags) {
    std::vector<std::string> values = args.All(flag.name);
    icat::fuzz::Expect(args.Has(flag.name) == !values.empty(), "Has and All agree");
    if (flag.kind == FlagKind::kRequired) icat::fuzz::Expect(args.Has(flag.name), "a required flag is present");
    if (flag.kind != FlagKind::kRepeated) icat::fuzz::Expect(values.size() <= 1, "a flag is given at most once");
    if (flag.kind == FlagKind::kSwitch) {
      icat::fuzz::Expect(values.empty() || values.front().empty(), "a switch has no value");
    } else if (!values.empty()) {
      icat::fuzz::Expect(*args.Optional(flag.name) == values.front(), "Optional is the first value");
    }
  }
  try {
    (void)args.Count("size", "bytes");
  } catch (const icat::UsageError&) {
  }
  return 0;
}
