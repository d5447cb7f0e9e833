// icatctl: the operator's command line (schema, tenants, users, catalogue, licences, API keys,
// publishers and the registry, ingest, vendor VEX, signing keys and attestations, gc, scan retention).
// Exit status: 0 done, 1 failed at run time (not found, conflict, database down), 2 bad arguments
// or a bad setting.
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "icat/cli_args.hpp"
#include "icat/config.hpp"
#include "icat/db.hpp"
#include "icat/log.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

struct Command {
  std::string_view name;     // one or two words: "migrate", "key create"
  std::string_view summary;  // one line
  CommandSpec spec;
  void (*run)(const Args&);
};

const FlagSpec kTenantFlag{"tenant", FlagKind::kRequired, "SUBDOMAIN", "the tenant, by its subdomain"};
const FlagSpec kImageFlag{"image", FlagKind::kRequired, "NAME", "the catalogue image, by name"};

const std::vector<Command>& AllCommands() {
  static const std::vector<Command> commands = {
      {"migrate", "Applies the embedded SQL migrations not yet applied, in order.", {}, Migrate},
      {"tenant create", "Creates a tenant; prints its id.",
       {{"SUBDOMAIN"}, {{"name", FlagKind::kOptional, "NAME", "display name (default: the subdomain)"}}},
       TenantCreate},
      {"user create", "Creates a portal user; the password is the first line of stdin. Prints the user id.",
       {{},
        {kTenantFlag,
         {"email", FlagKind::kRequired, "EMAIL", "login email, unique within the tenant"},
         {"role", FlagKind::kRequired, "ROLE", "admin, user or viewer"}}},
       UserCreate},
      {"image create", "Adds an image to the catalogue; prints its id.",
       {{},
        {{"name", FlagKind::kRequired, "NAME", "image name, e.g. nginx or hardened/nginx"},
         {"description", FlagKind::kOptional, "TEXT", "one-line description"},
         {"base-os", FlagKind::kOptional, "OS", "base operating system"},
         {"repository", FlagKind::kOptional, "REPO", "registry host and path (default: ICAT_REGISTRY/NAME)"}}},
       ImageCreate},
      {"version add", "Adds a version to an image and makes the newest published one its latest; prints its id.",
       {{},
        {kImageFlag,
         {"tag", FlagKind::kRequired, "TAG", "the version's tag, e.g. 1.27.1"},
         {"digest", FlagKind::kRequired, "sha256:HEX", "the image manifest digest"},
         {"size", FlagKind::kOptional, "BYTES", "image size in bytes"},
         {"base-os", FlagKind::kOptional, "OS", "base operating system of this version"},
         {"published", FlagKind::kOptional, "RFC3339", "publication time (default: now)"},
         {"hardening-tag", FlagKind::kRepeated, "TAG", "a hardening property, e.g. non-root; repeatable"}}},
       VersionAdd},
      {"license grant", "Lets a tenant see an image (idempotent).", {{}, {kTenantFlag, kImageFlag}}, LicenseGrant},
      {"license revoke", "Hides an image from a tenant (idempotent).", {{}, {kTenantFlag, kImageFlag}}, LicenseRevoke},
      {"key create", "Creates an API key and prints it alone on stdout; it cannot be shown again.",
       {{},
        {kTenantFlag,
         {"name", FlagKind::kRequired, "NAME", "what the key is for"},
         {"scopes", FlagKind::kRequired, "SCOPE,...",
          "comma-separated: read:catalog, read:sbom, read:vulns, admission, pull"},
         {"expires", FlagKind::kOptional, "RFC3339", "expiry time (default: never)"}}},
       KeyCreate},
      {"key list", "Lists a tenant's API keys (never their secrets).",
       {{}, {kTenantFlag, {"json", FlagKind::kSwitch, "", "print a JSON array instead of a table"}}},
       KeyList},
      {"key revoke",
       "Revokes an API key, by id or 14-character prefix; exit 0 once committed: every node refuses it within a "
       "second. Exit 1 says whether the key still works or the outcome is unknown (run it again).",
       {{"ID_OR_PREFIX"}, {kTenantFlag}},
       KeyRevoke},
      {"publisher create",
       "Creates a credential for pushing to the registry; prints its password alone on stdout, once.",
       {{"NAME"}, {}},
       PublisherCreate},
      {"publisher revoke", "Revokes a publisher: its pushes are refused from now on.", {{"NAME"}, {}},
       PublisherRevoke},
      {"publisher list", "Lists the publishers (never their passwords).", {}, PublisherList},
      {"registry reconcile",
       "Publishes the registry's tags of catalogue images that push notifications missed; prints a summary.",
       {{},
        {{"every", FlagKind::kOptional, "SECONDS", "run again every SECONDS until SIGTERM (a daemon)"}}},
       RegistryReconcile},
      {"registry attach",
       "Pushes each published version's served attestations to its cosign .att tag in the registry; prints each "
       "version attached, then a summary.",
       {{}, {{"image", FlagKind::kOptional, "NAME", "only the versions of this catalogue image"}}},
       RegistryAttach},
      {"ingest", "Stores one scanner run of an image version: its report and SBOMs, signed; prints the new scan.",
       {{},
        {{"image", FlagKind::kRequired, "NAME", "the catalogue image (created when unknown)"},
         {"version", FlagKind::kRequired, "TAG", "the version's tag (created when unknown)"},
         {"digest", FlagKind::kRequired, "sha256:HEX", "the version's image manifest digest"},
         {"report", FlagKind::kRequired, "FILE|URL", "the scan report: Trivy JSON (SchemaVersion 2) or Grype JSON; a file, or an https:// URL to fetch"},
         {"spdx", FlagKind::kOptional, "FILE|URL", "the run's SPDX 2.3 JSON SBOM"},
         {"cyclonedx", FlagKind::kOptional, "FILE|URL", "the run's CycloneDX 1.5 JSON SBOM (one SBOM at least)"},
         {"repository", FlagKind::kOptional, "REPO", "registry host and path of a new image (default: from the report's repo tags)"},
         {"base-os", FlagKind::kOptional, "OS", "base operating system (new image or version: default the report's OS)"},
         {"size", FlagKind::kOptional, "BYTES", "image size in bytes (new version: default the report's, if any)"},
         {"published", FlagKind::kOptional, "RFC3339", "publication time (new version: default now)"},
         {"hardening-tag", FlagKind::kRepeated, "TAG", "a hardening property, e.g. non-root; repeatable"},
         {"require-complete", FlagKind::kSwitch, "",
          "refuse SBOMs below SPEC.md rule 3 (docs/scans.md, \"Completeness\"); default: store and show the shortfalls"}}},
       Ingest},
      {"sbom check", "Checks one SBOM file as ingest would (schema, an image's SBOM) and prints its completeness.",
       {{"FILE"},
        {{"require-complete", FlagKind::kSwitch, "", "fail when the SBOM is below SPEC.md rule 3"}}},
       SbomCheck},
      {"vex ingest",
       "Stores the vendor's VEX statements of each file (OpenVEX 0.2.0 or CycloneDX 1.5; or https:// URL) for "
       "catalogue images, in one transaction; prints a summary per file.",
       {{"FILE..."}, {}},
       VexIngest},
      {"feeds load",
       "Loads EPSS scores (CSV, plain or gzip) and CISA's KEV catalogue (JSON), told apart by content, each file "
       "(or https:// URL) replacing its feed in one transaction; refuses a file older than the one loaded.",
       {{"FILE..."}, {}},
       FeedsLoad},
      {"digests send",
       "Queues now the digests of e-mail channels (daily, weekly) for the time since each one's last, whatever "
       "the hour; the dispatcher mails them to the confirmed addresses. Prints how many.",
       {{},
        {{"tenant", FlagKind::kOptional, "SUBDOMAIN", "only this tenant's channels"},
         {"channel", FlagKind::kOptional, "ID", "only this channel"}}},
       DigestsSend},
      {"vex check", "Checks VEX files as vex ingest would (official schema, statements), without a database.",
       {{"FILE..."}, {}},
       VexCheck},
      {"signing-key create",
       "Makes the ECDSA P-256 key file of ICAT_ATTESTATION_KEY_FILE (mode 0600) and records its public half; "
       "prints its key id. Refuses when the file exists.",
       {},
       SigningKeyCreate},
      {"signing-key rotate",
       "Replaces the key of ICAT_ATTESTATION_KEY_FILE with a new one and retires the old (its public half stays, "
       "so what it signed stays verifiable; its private key is not kept); prints both key ids.",
       {},
       SigningKeyRotate},
      {"signing-key list",
       "Lists every signing key (id, algorithm, use, created, retired) and which one each key file holds.", {},
       SigningKeyList},
      {"attest",
       "Signs the attestation of every served SBOM and VEX document that has none (installs that ingested "
       "before attestations, or after a restore); prints how many it made. Safe to run again.",
       {{}, {{"image", FlagKind::kOptional, "NAME", "only the versions of this catalogue image"}}},
       Attest},
      {"packages backfill",
       "Stores the packages of every scan ingested before packages were stored, read from its stored SBOMs "
       "(the compare and the package look-up read them); prints how many scans. Safe to run again.",
       {},
       PackagesBackfill},
      {"gc",
       "Removes SBOM, VEX and attestation blobs no row refers to and killed ingests' temp files; lists each, then a "
       "summary.",
       {{},
        {{"grace", FlagKind::kOptional, "SECONDS", "keep unreferenced blobs younger than this (default 3600)"},
         {"dry-run", FlagKind::kSwitch, "", "list what would be removed, remove nothing"}}},
       Gc},
      {"scans prune",
       "Removes the scans older than the retention, except each version's latest, and the findings sets they "
       "alone used; lists each version, then a summary.",
       {{},
        {{"older-than-days", FlagKind::kOptional, "DAYS",
          "remove the scans scanned more than DAYS days ago (default ICAT_SCAN_RETENTION_DAYS; 0 keeps every scan)"},
         {"image", FlagKind::kOptional, "NAME", "only the versions of this catalogue image"},
         {"dry-run", FlagKind::kSwitch, "", "list what would be removed, remove nothing"}}},
       ScansPrune},
      {"request list", "Lists a tenant's feature requests, package requests and bug reports.",
       {{}, {kTenantFlag, {"status", FlagKind::kOptional, "STATUS", "only open, planned, done or declined ones"}}},
       RequestList},
      {"request status", "Sets the status of a tenant's feature request (open, planned, done, declined).",
       {{"ID", "STATUS"}, {kTenantFlag}},
       RequestStatus},
      {"config", "Prints every setting's checked value as NAME='value' lines; exit 2 names a bad one.",
       {{}, {{"shell", FlagKind::kSwitch, "", "for sh and bash to source (the only format)"}}},
       PrintConfig},
  };
  return commands;
}

size_t WordCount(std::string_view name) { return name.find(' ') == std::string_view::npos ? 1 : 2; }

// The command the first one or two tokens name, or a UsageError that lists what was possible.
const Command& FindCommand(const std::vector<std::string>& tokens) {
  for (const Command& command : AllCommands()) {
    size_t words = WordCount(command.name);
    if (tokens.size() < words) continue;
    std::string typed = words == 1 ? tokens[0] : tokens[0] + " " + tokens[1];
    if (typed == command.name) return command;
  }
  std::string subcommands;
  for (const Command& command : AllCommands()) {
    if (WordCount(command.name) == 2 && command.name.substr(0, command.name.find(' ')) == tokens[0]) {
      subcommands += (subcommands.empty() ? "" : ", ") + std::string(command.name.substr(command.name.find(' ') + 1));
    }
  }
  if (subcommands.empty()) throw UsageError("unknown command '" + tokens[0] + "' (see icatctl --help)");
  if (tokens.size() == 1) throw UsageError("'" + tokens[0] + "' needs one of: " + subcommands);
  throw UsageError("unknown command '" + tokens[0] + " " + tokens[1] + "' ('" + tokens[0] + "' takes: " + subcommands +
                   ")");
}

void PrintOverview() {
  std::cout << "usage: icatctl COMMAND [ARGUMENTS]   (icatctl COMMAND --help for its arguments)\n\n";
  for (const Command& command : AllCommands()) {
    std::cout << "  " << command.name << std::string(20 - command.name.size(), ' ') << command.summary << '\n';
  }
  std::cout << "\nConnects with ICAT_PG_ADMIN_DSN (the owner role) and ICAT_REDIS_URL; registry reconcile and\n"
               "registry attach reach ICAT_REGISTRY_UPSTREAM.\n";
}

// Messages from libpq span lines (DETAIL, HINT); an error here stays on one line.
std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at)) {
    size_t next = text.find_first_not_of(" \t\n", at);  // libpq indents continuation lines
    text.replace(at, (next == std::string::npos ? text.size() : next) - at, "; ");
  }
  return text;
}

int Fail(int status, const std::string& message) {
  std::cerr << "icatctl: " << OneLine(message) << '\n';
  return status;
}

// The server's words without libpq's "ERROR:  " and the PL/pgSQL CONTEXT trace an operator cannot use.
std::string ServerMessage(std::string text) {
  if (text.rfind("ERROR:", 0) == 0) text.erase(0, text.find_first_not_of(' ', 6));
  size_t context = text.find("\nCONTEXT:");
  if (context != std::string::npos) text.erase(context);
  return text;
}

// Postgres errors map here and only here.
int FailOnDb(const DbError& error) {
  std::string what = ServerMessage(error.what());
  if (error.connection_lost || error.sqlstate.empty()) {
    // libicat's connect failure already says "cannot connect to Postgres".
    return Fail(1, what.find("Postgres") == std::string::npos ? "cannot reach Postgres: " + what : what);
  }
  if (error.sqlstate == "23505") return Fail(1, "already exists: " + what);
  return Fail(1, "database error " + error.sqlstate + ": " + what);
}

int Run(const std::vector<std::string>& tokens) {
  if (tokens.empty()) return Fail(2, "missing command (see icatctl --help)");
  if (tokens[0] == "--help" || tokens[0] == "-h" || tokens[0] == "help") {
    PrintOverview();
    return 0;
  }
  const Command* command = nullptr;
  try {
    command = &FindCommand(tokens);
    std::vector<std::string> rest(tokens.begin() + static_cast<long>(WordCount(command->name)), tokens.end());
    if (WantsHelp(rest)) {
      std::cout << HelpText("icatctl", command->name, command->summary, command->spec);
      return 0;
    }
    command->run(Args::Parse(rest, command->spec));
    return 0;
  } catch (const UsageError& error) {
    std::string hint = command ? " (see icatctl " + std::string(command->name) + " --help)" : "";
    return Fail(2, error.what() + hint);
  } catch (const SettingError& error) {
    return Fail(2, error.what());
  } catch (const DbError& error) {
    return FailOnDb(error);
  } catch (const std::exception& error) {
    return Fail(1, error.what());  // Failure or anything unexpected
  }
}

}  // namespace
}  // namespace icat::ctl

int main(int argc, char** argv) {
  icat::SetLogProgram("icatctl");
  // A Redis that goes away mid-command must be an error icatctl reports, not a silent death.
  signal(SIGPIPE, SIG_IGN);
  return icat::ctl::Run(std::vector<std::string>(argv + 1, argv + argc));
}
