// E-mail channels' side of the dispatcher (docs/notifications.md): the tokens of an address's
// links, the mails, and sending one through SMTP with libcurl. SendMail is the one way a mail
// leaves, for event mails, confirmations and digests alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "channel_messages.hpp"
#include "icat/config.hpp"

namespace icat::dispatcher {

// The token of an address's link ("confirm" or "unsubscribe"): base64url of HMAC-SHA256 of the
// purpose and the address's id under ICAT_MAIL_TOKEN_KEY_FILE's key, 32 bytes. The same on every
// attempt, so a retried mail carries the link of the first; the portal keeps only its SHA-256.
std::string MailToken(std::string_view key, std::string_view purpose, std::string_view address_id);

// The address of a From header: what is between < and >, else all of it.
std::string AddrSpecOf(std::string_view from);

// The one mail a new address gets: a link to the console's confirm page, and no unsubscribe link.
std::string ConfirmationMail(std::string_view channel, std::string_view tenant, std::string_view confirm_url,
                             const MailEnvelope& envelope);

// The envelope of a mail to `to` now, from ICAT_SMTP_FROM.
MailEnvelope EnvelopeTo(const SmtpSettings& smtp, std::string_view to, std::string unsubscribe_url);

struct MailSent {
  std::optional<int> reply;  // the server's last SMTP reply code, when it answered
  std::string error;         // empty when the server took the mail
  bool refused_for_good = false;  // a 5xx reply (an address it will never take): no retry
};

// Sends an RFC 5322 message to one recipient through ICAT_SMTP_URL: smtp:// with STARTTLS
// (required unless ICAT_SMTP_STARTTLS=off) or smtps://, auth when ICAT_SMTP_USER is set, the
// envelope sender ICAT_SMTP_FROM's address; at most timeout_seconds. Thread-safe.
MailSent SendMail(const SmtpSettings& smtp, const std::string& message, const std::string& recipient,
                  int timeout_seconds);

}  // namespace icat::dispatcher
