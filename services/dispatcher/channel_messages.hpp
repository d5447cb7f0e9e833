// What a person reads about an event in Slack, Microsoft Teams or a mail (issue 32,
// docs/notifications.md): one Notice made from the event as webhooks receive it, then written in
// each channel's format. Pure functions: the dispatcher sends what they return.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace icat::dispatcher {

// One vulnerability of an event, as a line of a message.
struct NoticeItem {
  std::string id, severity, package, fix;  // fix: "fix available", "no fix yet", "won't fix", "fix unknown"
};

// What happened, to what, how bad, and where to look: everything a message shows.
struct Notice {
  std::string headline;           // "3 new vulnerabilities in nginx:1.27.3 (highest: critical)"
  std::string image;              // "nginx"; empty when the event names none (ping)
  std::string version;            // "1.27.3" (a tag, else a digest); empty when none
  std::string severity;           // the highest of the items; empty when there are none
  std::vector<NoticeItem> items;  // at most kMaxNoticeItems, most severe first
  size_t more_items = 0;          // how many were left out
  std::string link;               // the console's page of the image; empty for none
  std::string link_text;          // what a mail's link says; empty: "Open in the console"
};

inline constexpr size_t kMaxNoticeItems = 10;

// The notice of an event: its type and the `data` object webhooks receive (docs/webhooks.md);
// console: the tenant's console ("https://demo.icat.example.com"; "" for no links), whose page
// of the image the event names (/images/<id>) the notice links to. Throws std::invalid_argument
// when payload_json is not a JSON object.
Notice NoticeOf(std::string_view type, std::string_view payload_json, std::string_view console);

// The tenant's console from ICAT_CONSOLE_URL's template: {tenant} replaced by its subdomain.
std::string TenantConsole(std::string_view console_url, std::string_view tenant);

// A Slack incoming webhook's body: `text` (the fallback notifications show) and Block Kit `blocks`
// within Slack's limits (header 150 characters, section text 3,000, button text 75).
std::string SlackMessage(const Notice& notice);

// A Microsoft Teams incoming webhook's body: a message with one Adaptive Card (version 1.4) attachment.
std::string TeamsMessage(const Notice& notice);

// The parts of a mail that are not the notice.
struct MailEnvelope {
  std::string from;             // "icat <notifications@example.com>"
  std::string to;               // one address
  std::string date;             // RFC 5322, "Sun, 29 Nov 2026 02:30:00 +0000"
  std::string message_id;       // "<id@host>"
  std::string unsubscribe_url;  // https; List-Unsubscribe, and RFC 8058 one-click by POST to it;
                                // empty: the confirmation mail, which has none
};

// An RFC 5322 message, CRLF line ends: multipart/alternative with a plain-text and a simple HTML
// part (both UTF-8, base64), List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). The subject is
// "[icat] " and the headline, RFC 2047-encoded when it is not ASCII.
std::string MailMessage(const Notice& notice, const MailEnvelope& envelope);

// The plain text of a notice (a mail's text part, and what tests read).
std::string NoticeText(const Notice& notice);

// "1 new version", "3 new versions": a count and its noun, for headlines, subjects and digests.
std::string Plural(long long count, std::string_view one, std::string_view many);

// The pieces every mail is made of, a notice's and a digest's (digest.hpp).
// Text safe inside HTML, attribute values too.
std::string HtmlEscape(std::string_view text);
// A mail's plain-text part: the body, then to whom it goes and the unsubscribe link.
std::string MailText(std::string_view body, const MailEnvelope& envelope);
// A mail's HTML part: a document titled and headed by `title`, body_html, then the same footer.
std::string MailHtml(std::string_view title, std::string_view body_html, const MailEnvelope& envelope);
// The message of MailMessage(notice, …) above, of any subject (after "[icat] ") and two parts.
std::string MailMessage(std::string_view subject, std::string_view text, std::string_view html,
                        const MailEnvelope& envelope);

}  // namespace icat::dispatcher
