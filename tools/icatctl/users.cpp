// icatctl user create: a portal user of one tenant; the password comes from stdin, never argv
// (argv is visible to every local user in ps and lands in shell history).
#include <termios.h>
#include <unistd.h>

#include <iostream>

#include "commands.hpp"
#include "icat/crypto.hpp"
#include "icat/validate.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

// The first line of stdin, without its line ending. On a terminal it prompts on stderr and
// turns echo off; from a pipe (scripts, tests) it just reads.
std::string ReadPassword() {
  bool terminal = isatty(STDIN_FILENO) != 0;
  termios saved{};
  if (terminal && tcgetattr(STDIN_FILENO, &saved) == 0) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    std::cerr << "password: " << std::flush;
  }
  std::string password;
  bool got_line = static_cast<bool>(std::getline(std::cin, password));
  if (terminal) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::cerr << '\n';
  }
  if (!password.empty() && password.back() == '\r') password.pop_back();
  if (!got_line && password.empty()) throw UsageError("no password on stdin (give it as the first line)");
  // The portal's rules too (validate.hpp): one minimum length everywhere.
  if (std::optional<std::string> issue = PasswordIssue(password)) throw UsageError("the password " + *issue);
  return password;
}

}  // namespace

void UserCreate(const Args& args) {
  const std::string& subdomain = args.Value("tenant");
  const std::string& email = args.Value("email");
  const std::string& role = args.Value("role");
  if (!IsEmailAddress(email)) throw UsageError("--email: '" + email + "' is not an email address");
  RequireMatch("--role", role, "admin|user|viewer", "is not a role (admin, user or viewer)");
  std::string password = ReadPassword();

  Session session;
  std::string tenant_id = TenantId(session.db, subdomain);
  std::string password_hash = HashPassword(password);  // slow on purpose: after the cheap checks
  Rows created = session.db.RunSql(
      "INSERT INTO users (tenant_id, email, password_hash, role) VALUES ($1, $2, $3, $4) "
      "ON CONFLICT (tenant_id, lower(email)) DO NOTHING RETURNING id",
      {tenant_id, email, password_hash, role});
  if (created.empty()) throw Failure("user " + email + " exists in tenant " + subdomain);
  std::cout << created.Text(0, created.Column("id")) << '\n';
}

}  // namespace icat::ctl
