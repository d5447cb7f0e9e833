// The stack's mail catcher (tools/mail-catcher: each message a .eml in $ICAT_STACK_DIR/mail), each
// mail read as MIME by python3's email package (tests/integration/read-mail): for the e-mail
// channels' and the digests' tests.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace icat::test {

// A mail the catcher took, as tests/integration/read-mail reads it.
struct Mail {
  std::string file, from, to, subject, content_type, text, html;
  std::optional<std::string> list_unsubscribe, list_unsubscribe_post;
  int defects = 0;
};

// Every mail to `to` in the catcher's directory, oldest first (the files are named by time).
std::vector<Mail> MailsTo(const std::string& to);

// Waits until `to` has at least `count` mails (at most `wait`) and returns them all.
std::vector<Mail> WaitForMails(const std::string& to, size_t count,
                               std::chrono::seconds wait = std::chrono::seconds(20));

}  // namespace icat::test
