// Notices and their Slack, Teams and mail forms: pure functions (channel_messages.hpp).
#include "channel_messages.hpp"

#include <algorithm>
#include <stdexcept>

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/vocabulary.hpp"

namespace icat::dispatcher {

namespace {

// Slack's limits (Block Kit reference): a header's text, a section's text, a button's text.
constexpr size_t kSlackHeaderChars = 150;
constexpr size_t kSlackSectionChars = 3000;
// A subject longer than this is cut: mail clients show less anyway.
constexpr size_t kSubjectChars = 150;
// Bytes of UTF-8 per RFC 2047 encoded word: 45 bytes are 60 base64 characters, within its 75.
constexpr size_t kEncodedWordBytes = 45;
// RFC 2045: base64 lines of at most 76 characters.
constexpr size_t kBase64LineChars = 76;

// Text from an event, safe in every channel: control characters (a newline in a package name
// would end a mail header) become spaces.
std::string Clean(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t CharCount(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return !IsContinuationByte(c); }));
}

// At most max_chars characters (code points) of UTF-8 text, ending in "…" when it was cut.
std::string Clip(std::string_view text, size_t max_chars) {
  if (CharCount(text) <= max_chars) return std::string(text);
  size_t kept = 0, end = 0;
  for (; end < text.size(); end++) {
    if (IsContinuationByte(text[end])) continue;
    if (kept == max_chars - 1) break;
    kept++;
  }
  return std::string(text.substr(0, end)) + "\u2026";
}

std::string Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return Clean(std::string_view(it->value.GetString(), it->value.GetStringLength()));
}

const rapidjson::Value& Child(const rapidjson::Value& object, const char* name) {
  static const rapidjson::Value kNull;
  if (!object.IsObject()) return kNull;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? kNull : it->value;
}

std::string FixWords(std::string_view fix_state) {
  if (fix_state == "fixed") return "fix available";
  if (fix_state == "not-fixed") return "no fix yet";
  if (fix_state == "wont-fix") return "won't fix";
  if (fix_state == "not-affected") return "not affected";
  return "fix unknown";
}

// The event's vulnerabilities, most severe first (stable), at most kMaxNoticeItems of them.
void ReadItems(const rapidjson::Value& data, Notice& notice) {
  const rapidjson::Value& list = Child(data, "vulnerabilities");
  if (!list.IsArray()) return;
  std::vector<NoticeItem> items;
  for (const rapidjson::Value& v : list.GetArray()) {
    items.push_back({Member(v, "id"), Member(v, "severity"), Member(v, "package"), FixWords(Member(v, "fixState"))});
  }
  std::stable_sort(items.begin(), items.end(), [](const NoticeItem& a, const NoticeItem& b) {
    return SeverityRank(a.severity) > SeverityRank(b.severity);
  });
  if (!items.empty()) notice.severity = items.front().severity;
  if (items.size() > kMaxNoticeItems) {
    notice.more_items = items.size() - kMaxNoticeItems;
    items.resize(kMaxNoticeItems);
  }
  notice.items = std::move(items);
}

// "nginx:1.27.3", "nginx@sha256:…" or "nginx".
std::string Reference(const Notice& n) {
  if (n.version.empty()) return n.image;
  return n.image + (n.version.rfind("sha256:", 0) == 0 ? "@" : ":") + n.version;
}

std::string Headline(std::string_view type, const rapidjson::Value& data, const Notice& n) {
  const std::string ref = Reference(n);
  const size_t found = n.items.size() + n.more_items;
  if (type == "vulnerability.detected") {
    if (found == 1) return n.items[0].id + " (" + n.items[0].severity + ") detected in " + ref;
    return Plural(found, "new vulnerability", "new vulnerabilities") + " in " + ref + " (highest: " + n.severity + ")";
  }
  if (type == "vulnerability.fixed") {
    if (found == 1) return n.items[0].id + " fixed in " + ref;
    return Plural(found, "vulnerability", "vulnerabilities") + " fixed in " + ref;
  }
  if (type == "vulnerability.exploited") {
    return Member(data, "cveId") + " is now known exploited (CISA KEV)" + (ref.empty() ? "" : " and is in " + ref);
  }
  if (type == "cve_watch.matched") return "Watched " + Member(data, "cveId") + " found in " + ref;
  if (type == "scan.completed") {
    std::string scanner = Member(Child(data, "scan"), "scanner");
    return ref + " was scanned" + (scanner.empty() ? "" : " by " + scanner);
  }
  if (type == "version.published") return "New version " + ref + " published";
  if (type == "vex.updated") {
    const rapidjson::Value& statements = Child(data, "statements");
    size_t count = statements.IsArray() ? statements.Size() : 0;
    return "The vendor's VEX about " + ref + " was updated (" + Plural(count, "statement", "statements") + ")";
  }
  if (type == "ping") return "Test message from icat: this channel works";
  return Clean(type) + (ref.empty() ? "" : " for " + ref);
}

// ---------------------------------------------------------------- Slack

// & < > as entities, and " too when `quote` (HTML attribute values).
std::string EscapeEntities(std::string_view text, bool quote) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"' && quote)
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// Slack's mrkdwn treats these three as control characters, and shows any other entity as typed.
std::string SlackEscape(std::string_view text) { return EscapeEntities(text, false); }

void WritePlainText(JsonWriter& w, std::string_view key, std::string_view text) {
  WriteKey(w, key);
  w.StartObject();
  WriteString(w, "type", "plain_text");
  WriteString(w, "text", text);
  w.EndObject();
}

void WriteMrkdwn(JsonWriter& w, std::string_view text) {
  w.StartObject();
  WriteString(w, "type", "mrkdwn");
  WriteString(w, "text", text);
  w.EndObject();
}

// label: value pairs of a notice, those it has.
std::vector<std::pair<std::string, std::string>> Facts(const Notice& n) {
  std::vector<std::pair<std::string, std::string>> facts;
  if (!n.image.empty()) facts.emplace_back("Image", n.image);
  if (!n.version.empty()) facts.emplace_back("Version", n.version);
  if (!n.severity.empty()) facts.emplace_back("Severity", n.severity);
  return facts;
}

std::string ItemText(const NoticeItem& item) {
  return item.id + " \u00b7 " + item.severity + " \u00b7 " + item.package + " \u00b7 " + item.fix;
}

std::string MoreText(const Notice& n) { return "and " + std::to_string(n.more_items) + " more"; }

// ---------------------------------------------------------------- mail

std::string LinkText(const Notice& n) { return n.link_text.empty() ? "Open in the console" : n.link_text; }

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// A header value must not carry a line end of its own (header injection).
const std::string& HeaderValue(const std::string& value) {
  if (value.find_first_of("\r\n") != std::string::npos) throw std::invalid_argument("a mail header holds a line end");
  return value;
}

// RFC 2047: the subject as encoded words of whole UTF-8 characters, folded onto lines of their own.
std::string EncodedSubject(std::string_view subject) {
  if (IsPrintableAscii(subject)) return std::string(subject);
  std::string out;
  size_t start = 0;
  while (start < subject.size()) {
    size_t end = std::min(subject.size(), start + kEncodedWordBytes);
    while (end < subject.size() && IsContinuationByte(subject[end])) end--;
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + Base64Encode(subject.substr(start, end - start)) + "?=";
    start = end;
  }
  return out;
}

std::string Base64Lines(std::string_view bytes) {
  std::string encoded = Base64Encode(bytes), out;
  for (size_t i = 0; i < encoded.size(); i += kBase64LineChars) out += encoded.substr(i, kBase64LineChars) + "\r\n";
  return out;
}

// The notice as HTML between a mail's heading and its footer.
std::string NoticeHtml(const Notice& n) {
  std::string html;
  std::vector<std::pair<std::string, std::string>> facts = Facts(n);
  if (!facts.empty()) {
    html += "<table>\n";
    for (const auto& [label, value] : facts) {
      html += "<tr><th style=\"text-align: left\">" + label + "</th><td>" + HtmlEscape(value) + "</td></tr>\n";
    }
    html += "</table>\n";
  }
  if (!n.items.empty()) {
    html += "<ul>\n";
    for (const NoticeItem& item : n.items) html += "<li>" + HtmlEscape(ItemText(item)) + "</li>\n";
    if (n.more_items) html += "<li>" + MoreText(n) + "</li>\n";
    html += "</ul>\n";
  }
  if (!n.link.empty()) {
    html += "<p><a href=\"" + HtmlEscape(n.link) + "\">" + HtmlEscape(LinkText(n)) + "</a></p>\n";
  }
  return html;
}

}  // namespace

Notice NoticeOf(std::string_view type, std::string_view payload_json, std::string_view console) {
  rapidjson::Document data;
  data.Parse(payload_json.data(), payload_json.size());
  if (data.HasParseError() || !data.IsObject()) throw std::invalid_argument("an event's data is not a JSON object");
  Notice n;
  // The image the event is about; vulnerability.exploited names several ("images", each with its
  // version): the notice shows the first and counts the rest.
  const rapidjson::Value& images = Child(data, "images");
  const bool several = images.IsArray() && !images.Empty();
  const rapidjson::Value& image = several ? images[0] : Child(data, "image");
  n.image = Member(image, "name");
  const rapidjson::Value& version = several ? Child(image, "version") : Child(data, "version");
  n.version = Member(version, "tag");
  if (n.version.empty()) n.version = Member(version, "digest");
  ReadItems(data, n);
  n.headline = Headline(type, data, n);
  if (several && images.Size() > 1) n.headline += " and " + Plural(images.Size() - 1, "more image", "more images");
  std::string image_id = Member(image, "id");
  if (!console.empty() && !image_id.empty()) n.link = std::string(console) + "/images/" + image_id;
  return n;
}

std::string TenantConsole(std::string_view console_url, std::string_view tenant) {
  std::string out(console_url);
  constexpr std::string_view kHole = "{tenant}";
  for (size_t at = out.find(kHole); at != std::string::npos; at = out.find(kHole, at + tenant.size())) {
    out.replace(at, kHole.size(), tenant);
  }
  return out;
}

std::string NoticeText(const Notice& n) {
  std::string text = n.headline + "\n\n";
  for (const auto& [label, value] : Facts(n)) text += label + ": " + value + "\n";
  if (!n.items.empty()) {
    text += "\n";
    for (const NoticeItem& item : n.items) text += ItemText(item) + "\n";
    if (n.more_items) text += MoreText(n) + "\n";
  }
  if (!n.link.empty()) text += "\n" + LinkText(n) + ": " + n.link + "\n";
  return text;
}

std::string SlackMessage(const Notice& n) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "text", n.headline);
  WriteKey(w, "blocks");
  w.StartArray();
  w.StartObject();
  WriteString(w, "type", "header");
  WritePlainText(w, "text", Clip(n.headline, kSlackHeaderChars));
  w.EndObject();
  if (std::vector<std::pair<std::string, std::string>> facts = Facts(n); !facts.empty()) {
    w.StartObject();
    WriteString(w, "type", "section");
    WriteKey(w, "fields");
    w.StartArray();
    for (const auto& [label, value] : facts) WriteMrkdwn(w, "*" + label + "*\n" + SlackEscape(value));
    w.EndArray();
    w.EndObject();
  }
  if (!n.items.empty()) {
    std::string lines;
    for (const NoticeItem& item : n.items) lines += (lines.empty() ? "" : "\n") + SlackEscape(ItemText(item));
    w.StartObject();
    WriteString(w, "type", "section");
    WriteKey(w, "text");
    WriteMrkdwn(w, Clip(lines, kSlackSectionChars));
    w.EndObject();
  }
  if (n.more_items) {
    w.StartObject();
    WriteString(w, "type", "context");
    WriteKey(w, "elements");
    w.StartArray();
    WriteMrkdwn(w, MoreText(n));
    w.EndArray();
    w.EndObject();
  }
  if (!n.link.empty()) {
    w.StartObject();
    WriteString(w, "type", "actions");
    WriteKey(w, "elements");
    w.StartArray();
    w.StartObject();
    WriteString(w, "type", "button");
    WritePlainText(w, "text", "Open in the console");
    WriteString(w, "url", n.link);
    w.EndObject();
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

std::string TeamsMessage(const Notice& n) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "type", "message");
  WriteKey(w, "attachments");
  w.StartArray();
  w.StartObject();
  WriteString(w, "contentType", "application/vnd.microsoft.card.adaptive");
  WriteKey(w, "content");
  w.StartObject();
  WriteString(w, "$schema", "http://adaptivecards.io/schemas/adaptive-card.json");
  WriteString(w, "type", "AdaptiveCard");
  WriteString(w, "version", "1.4");
  WriteKey(w, "body");
  w.StartArray();
  w.StartObject();
  WriteString(w, "type", "TextBlock");
  WriteString(w, "text", n.headline);
  WriteString(w, "weight", "Bolder");
  WriteString(w, "size", "Medium");
  WriteBool(w, "wrap", true);
  w.EndObject();
  if (std::vector<std::pair<std::string, std::string>> facts = Facts(n); !facts.empty()) {
    w.StartObject();
    WriteString(w, "type", "FactSet");
    WriteKey(w, "facts");
    w.StartArray();
    for (const auto& [label, value] : facts) {
      w.StartObject();
      WriteString(w, "title", label);
      WriteString(w, "value", value);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  std::vector<std::string> lines;
  for (const NoticeItem& item : n.items) lines.push_back(ItemText(item));
  if (n.more_items) lines.push_back(MoreText(n));
  for (const std::string& line : lines) {
    w.StartObject();
    WriteString(w, "type", "TextBlock");
    WriteString(w, "text", line);
    WriteString(w, "spacing", "None");
    WriteBool(w, "wrap", true);
    w.EndObject();
  }
  w.EndArray();
  if (!n.link.empty()) {
    WriteKey(w, "actions");
    w.StartArray();
    w.StartObject();
    WriteString(w, "type", "Action.OpenUrl");
    WriteString(w, "title", "Open in the console");
    WriteString(w, "url", n.link);
    w.EndObject();
    w.EndArray();
  }
  w.EndObject();
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

std::string HtmlEscape(std::string_view text) { return EscapeEntities(text, true); }

std::string Plural(long long count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

// Why the mail came: a subscription, which one click ends; or, without an unsubscribe link, the
// confirmation an address gets before anything else.
std::string MailText(std::string_view body, const MailEnvelope& e) {
  if (e.unsubscribe_url.empty()) {
    return std::string(body) + "\nYou get this mail because " + e.to +
           " was added to a notification channel. Nothing more is sent to it unless the link above is "
           "opened and confirmed.\n";
  }
  return std::string(body) + "\nYou get this mail because " + e.to +
         " is subscribed to these notifications.\nUnsubscribe: " + e.unsubscribe_url + "\n";
}

std::string MailHtml(std::string_view title, std::string_view body_html, const MailEnvelope& e) {
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + HtmlEscape(title) +
         "</title></head>\n<body style=\"font-family: sans-serif\">\n<h1 style=\"font-size: 1.2em\">" +
         HtmlEscape(title) + "</h1>\n" + std::string(body_html) +
         "<p style=\"font-size: 0.8em; color: #555\">You get this mail because " + HtmlEscape(e.to) +
         (e.unsubscribe_url.empty()
              ? " was added to a notification channel. Nothing more is sent to it unless the link above is "
                "opened and confirmed."
              : " is subscribed to these notifications. <a href=\"" + HtmlEscape(e.unsubscribe_url) +
                    "\">Unsubscribe</a>") +
         "</p>\n</body></html>\n";
}

std::string MailMessage(std::string_view subject, std::string_view text, std::string_view html, const MailEnvelope& e) {
  // Base64 never holds "=_", so no part can contain the boundary.
  const std::string boundary = "=_icat_" + Sha256Hex(e.message_id).substr(0, 24);
  std::string mail;
  mail += "From: " + HeaderValue(e.from) + "\r\n";
  mail += "To: " + HeaderValue(e.to) + "\r\n";
  mail += "Subject: " + EncodedSubject(Clip("[icat] " + Clean(subject), kSubjectChars)) + "\r\n";
  mail += "Date: " + HeaderValue(e.date) + "\r\n";
  mail += "Message-ID: " + HeaderValue(e.message_id) + "\r\n";
  if (!e.unsubscribe_url.empty()) {
    mail += "List-Unsubscribe: <" + HeaderValue(e.unsubscribe_url) + ">\r\n";
    mail += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n";
  }
  mail += "MIME-Version: 1.0\r\n";
  mail += "Content-Type: multipart/alternative; boundary=\"" + boundary + "\"\r\n\r\n";
  auto part = [&](const char* type, std::string_view body) {
    mail += "--" + boundary + "\r\n";
    mail += std::string("Content-Type: ") + type + "; charset=utf-8\r\n";
    mail += "Content-Transfer-Encoding: base64\r\n\r\n";
    mail += Base64Lines(body);
  };
  part("text/plain", text);
  part("text/html", html);
  mail += "--" + boundary + "--\r\n";
  return mail;
}

std::string MailMessage(const Notice& n, const MailEnvelope& e) {
  return MailMessage(n.headline, MailText(NoticeText(n), e), MailHtml(n.headline, NoticeHtml(n), e), e);
}

}  // namespace icat::dispatcher
