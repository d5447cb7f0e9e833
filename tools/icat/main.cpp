// icat: the tenants' client of the /v1 API for pipelines and scripts (docs/client.md).
// Exit status: 0 done, 1 `icat check` found what --fail-on names or `icat verify` an attestation that
// does not verify, 2 any error, 3 `icat vex` found no VEX document.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <curl/curl.h>

#include "commands.hpp"

namespace icat::client {
namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view details;  // more lines of --help
  CommandSpec spec;
  int (*run)(const Args&, const GetEnvFn&);
};

CommandSpec WithConnection(CommandSpec spec) {
  for (const FlagSpec& flag : ConnectionFlags()) spec.flags.push_back(flag);
  return spec;
}

constexpr std::string_view kImageHelp =
    "IMAGE is an image's name (as `icat images` lists it) or its repository; :TAG names a version by its\n"
    "tag, @sha256:HEX by its digest; neither means the latest version.\n";

const std::vector<Command>& AllCommands() {
  static const std::vector<Command> commands = {
      {"images", "Lists the licensed images with their latest version and its severity counts.", "",
       WithConnection({{}, {{"json", FlagKind::kSwitch, "", "print the API's JSON (every page in one list)"}}}),
       Images},
      {"sbom", "Downloads a version's SBOM, verifies its checksum and its attestation, then writes FILE.",
       "The SHA-256 of the bytes must equal the ETag and Repr-Digest, and the version's attestation of the\n"
       "SBOM (GET .../attestations/spdx or cyclonedx, a Sigstore bundle) must verify with the ECDSA P-256\n"
       "key it names from GET /v1/signing-keys, be about the version's digest and hold the downloaded\n"
       "bytes as its predicate. Only then is FILE written (a temp file renamed into place); a download\n"
       "that fails a check exits 2 and writes nothing. The old X-Signature (Ed25519) is not consulted.\n",
       WithConnection({{"IMAGE[:TAG|@DIGEST]"},
                       {{"format", FlagKind::kRequired, "FORMAT", "spdx (SPDX 2.3) or cyclonedx (CycloneDX 1.5)"},
                        {"output", FlagKind::kRequired, "FILE", "where to write the verified SBOM", 'o'}}}),
       Sbom},
      {"vulns", "Lists a version's vulnerability findings (the latest scan), as a table or JSON.", "",
       WithConnection({{"IMAGE[:TAG|@DIGEST]"},
                       {{"severity", FlagKind::kOptional, "LIST",
                         "only these severities, comma-separated: critical,high,medium,low,unknown"},
                        {"fix-state", FlagKind::kOptional, "LIST",
                         "only these fix states: fixed,not-fixed,wont-fix,unknown,not-affected"},
                        {"json", FlagKind::kSwitch, "", "print the API's JSON (every page in one list)"}}}),
       Vulns},
      {"cve", "Shows which licensed images carry a CVE (or GHSA) id, with the affected packages.", "",
       WithConnection({{"CVE-ID"},
                       {{"all-versions", FlagKind::kSwitch, "", "look in every version, not only the latest"},
                        {"json", FlagKind::kSwitch, "", "print the API's JSON"}}}),
       Cve},
      {"vex", "Downloads a version's VEX document (verified like an SBOM) to FILE or stdout.",
       "The vendor's VEX statements about the version, as the service serves them (GET\n"
       "/v1/images/{id}/versions/{versionId}/vex), checked like an SBOM before anything is written: the\n"
       "checksum, and its attestation (openvex or cyclonedx-vex) with the published key.\n"
       "A version the vendor has made no statement about has no document: icat says so, writes\n"
       "nothing and exits 3, so a pipeline can run its scanner without --vex then.\n",
       WithConnection(
           {{"IMAGE[:TAG|@DIGEST]"},
            {{"format", FlagKind::kOptional, "FORMAT",
              "openvex (OpenVEX 0.2.0, the default) or cyclonedx (CycloneDX 1.5)"},
             {"output", FlagKind::kOptional, "FILE", "write the verified document here (default: stdout)", 'o'}}}),
       Vex},
      {"diff", "Compares two versions of an image: packages and vulnerabilities that changed.",
       "FROM and TO name versions of IMAGE by tag, version id or digest (sha256:HEX). Prints the counts,\n"
       "then the packages added, removed and changed, then the vulnerabilities fixed and introduced (known\n"
       "exploited first, then by EPSS score, then severity). --format json prints the API's JSON\n"
       "(GET /v1/images/{id}/compare). Needs the scopes read:catalog and read:vulns.\n",
       WithConnection({{"IMAGE", "FROM", "TO"},
                       {{"format", FlagKind::kOptional, "FORMAT", "text (the default) or json"}}}),
       Diff},
      {"check", "Judges image references: exit 1 when one breaks --fail-on (or the other rules given).",
       "Each REFERENCE (registry/path:tag, registry/path@sha256:HEX or registry/path:tag@sha256:HEX) is\n"
       "resolved by the service (GET /v1/images?reference=) and its version's findings are read, then judged\n"
       "by the admission webhook's own rules: --fail-on LEVEL is a policy's severityThreshold LEVEL.\n"
       "A finding counts unless the scanner marks it not-affected or the vendor's VEX not_affected; wont-fix\n"
       "counts (the vulnerability stays). An unknown severity is below every LEVEL. A version never scanned\n"
       "fails (requireScan). --deny-known-exploited (denyKnownExploited) fails a counted finding in CISA's\n"
       "KEV catalogue, --max-epss N (maxEpss) one whose EPSS score is above N; both read the findings'\n"
       "kev and epss fields, and fail with an error when the service does not send them.\n"
       "One line per reference: PASS, FAIL or ERROR, the version, and its counts of distinct ids.\n"
       "Exit 0 all pass, 1 one fails, 2 one could not be judged (unknown reference, network, key).\n",
       WithConnection({{"REFERENCE..."},
                       {{"fail-on", FlagKind::kRequired, "LEVEL", "critical, high, medium or low"},
                        {"deny-known-exploited", FlagKind::kSwitch, "", "fail on a finding in CISA's KEV catalogue"},
                        {"max-epss", FlagKind::kOptional, "N", "fail on a finding whose EPSS score is above N (0..1)"}}}),
       Check},
      {"verify", "Verifies every attestation of a version: signature, subject digest and document.",
       "Fetches the service's keys (GET /v1/signing-keys), the version's attestations (GET\n"
       "/v1/images/{id}/versions/{versionId}/attestations), each bundle and each document as served.\n"
       "Each bundle must verify with the ECDSA P-256 key its hint names among the published keys, its\n"
       "in-toto statement must be about the version's digest (and @DIGEST when given), carry the\n"
       "predicate type of its type, and hold the served document as its predicate; each download must\n"
       "match its ETag. One line per attestation: `ok TYPE  PREDICATE-TYPE  key KEY-ID`, or\n"
       "`FAIL TYPE  PREDICATE-TYPE: the reason`. Exit 0 all verify, 1 one does not (or the version has\n"
       "none), 2 one could not be checked (the API's refusal, the network). Needs the scopes read:catalog\n"
       "and read:sbom, and read:vulns too for the VEX documents.\n",
       WithConnection({{"IMAGE[:TAG|@DIGEST]"}, {}}), Verify},
  };
  return commands;
}

void PrintOverview() {
  std::cout << "usage: icat COMMAND [ARGUMENTS]   (icat COMMAND --help for its arguments)\n\n";
  for (const Command& command : AllCommands()) {
    std::cout << "  " << command.name << std::string(9 - command.name.size(), ' ') << command.summary << '\n';
  }
  std::cout << "\nThe service: --url URL or ICAT_BASE_URL. The API key: ICAT_API_KEY or --key-file FILE (its first\n"
               "line), never an argument. TLS is verified; --cacert FILE or ICAT_CA_FILE trusts a private CA.\n"
               "Exit status: 0 done, 1 icat check failed or icat verify found an attestation that does not\n"
               "verify, 2 error (the API's error, message and request id), 3 icat vex found no VEX document\n"
               "(no vendor statement about the version).\n";
}

int Fail(const std::string& message) {
  std::cerr << "icat: " << message << '\n';
  return kExitError;
}

int Run(const std::vector<std::string>& tokens) {
  if (tokens.empty()) return Fail("missing command (see icat --help)");
  if (tokens[0] == "--help" || tokens[0] == "-h" || tokens[0] == "help") {
    PrintOverview();
    return kExitOk;
  }
  const Command* command = nullptr;
  for (const Command& candidate : AllCommands()) {
    if (candidate.name == tokens[0]) command = &candidate;
  }
  if (command == nullptr) return Fail("unknown command '" + tokens[0] + "' (see icat --help)");
  std::vector<std::string> rest(tokens.begin() + 1, tokens.end());
  if (WantsHelp(rest)) {
    std::cout << HelpText("icat", command->name, command->summary, command->spec);
    if (!command->details.empty()) std::cout << '\n' << command->details;
    return kExitOk;
  }
  std::string hint = " (see icat " + std::string(command->name) + " --help)";
  try {
    GetEnvFn getenv = [](const char* name) { return std::getenv(name); };
    return command->run(Args::Parse(rest, command->spec), getenv);
  } catch (const UsageError& error) {
    std::string text = error.what();
    // A key typed as an argument is not repeated into a CI log.
    for (const std::string& token : rest) {
      size_t at = token.find("_live_") == std::string::npos ? std::string::npos : text.find(token);
      if (at != std::string::npos) {
        return Fail(text.replace(at, token.size(), "<an API key>") +
                    ": the API key is never an argument (other users see argv); set ICAT_API_KEY or use --key-file FILE");
      }
    }
    if (text == "unknown flag --key" || text == "unknown flag --api-key" || text == "unknown flag --token") {
      return Fail(text + ": the API key is never an argument (other users see argv); set ICAT_API_KEY or use --key-file FILE");
    }
    return Fail(text + hint);
  } catch (const std::exception& error) {
    return Fail(error.what());
  }
}

}  // namespace
}  // namespace icat::client

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  int status = icat::client::Run(std::vector<std::string>(argv + 1, argv + argc));
  curl_global_cleanup();
  return status;
}
