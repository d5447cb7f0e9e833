// What people read in Slack, Teams and mail about an event (services/dispatcher/channel_messages).
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "icat/crypto.hpp"
#include "services/dispatcher/channel_messages.hpp"
#include "services/dispatcher/mail.hpp"

namespace dispatcher = icat::dispatcher;

namespace {

const std::string kConsole = "https://demo.example.com";
const std::string kLink = kConsole + "/images/0b6c6d2e-0000-4000-8000-000000000001";

// A vulnerability.detected payload of `count` findings: the first `critical` of them critical, the rest low.
std::string Detected(int count, int critical, const std::string& package = "openssl") {
  std::string list;
  for (int i = 0; i < count; i++) {
    list += std::string(i ? "," : "") + R"({"id":"CVE-2026-)" + std::to_string(1000 + i) + R"(","severity":")" +
            (i >= count - critical ? "critical" : "low") + R"(","package":")" + package +
            R"(","fixState":")" + (i % 2 ? "fixed" : "not-fixed") + R"("})";
  }
  return R"({"image":{"id":"0b6c6d2e-0000-4000-8000-000000000001","name":"nginx"},"version":{"id":"y","tag":"1.27.3","digest":"sha256:ab"},)"
         R"("scan":{"id":"z","scanner":"trivy","scannedAt":"2026-11-29T00:00:00Z"},"vulnerabilities":[)" +
         list + "]}";
}

rapidjson::Document Parse(const std::string& json) {
  rapidjson::Document d;
  d.Parse(json.c_str());
  BOOST_TEST_REQUIRE(!d.HasParseError(), json);
  return d;
}

std::string Text(const rapidjson::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

// A mail's header block and its body.
std::pair<std::string, std::string> SplitMail(const std::string& mail) {
  size_t end = mail.find("\r\n\r\n");
  BOOST_TEST_REQUIRE(end != std::string::npos);
  return {mail.substr(0, end + 2), mail.substr(end + 4)};
}

// The value of a header of a header block ("" when absent), unfolded.
std::string Header(const std::string& headers, const std::string& name) {
  size_t at = headers.find("\r\n" + name + ": ");
  if (headers.rfind(name + ": ", 0) == 0) at = 0;
  else if (at != std::string::npos) at += 2;
  else return "";
  size_t start = at + name.size() + 2;
  std::string value;
  for (size_t end = headers.find("\r\n", start);; end = headers.find("\r\n", start)) {
    value += headers.substr(start, end - start);
    if (end + 2 >= headers.size() || headers[end + 2] != ' ') break;
    start = end + 2;
  }
  return value;
}

// The decoded bodies of a multipart mail's parts, by content type.
std::vector<std::pair<std::string, std::string>> Parts(const std::string& mail) {
  auto [headers, body] = SplitMail(mail);
  std::string type = Header(headers, "Content-Type");
  std::string boundary = type.substr(type.find("boundary=\"") + 10);
  boundary.pop_back();
  std::vector<std::pair<std::string, std::string>> parts;
  size_t at = body.find("--" + boundary + "\r\n");
  while (at != std::string::npos) {
    size_t start = at + boundary.size() + 4;
    size_t end = body.find("\r\n--" + boundary, start);
    BOOST_TEST_REQUIRE(end != std::string::npos);
    auto [part_headers, encoded] = SplitMail(body.substr(start, end - start + 2));
    std::string joined;
    for (char c : encoded) {
      if (c != '\r' && c != '\n') joined += c;
    }
    for (size_t i = 0; i < encoded.size(); i = encoded.find("\r\n", i) + 2) {
      BOOST_TEST(encoded.find("\r\n", i) - i <= 76u);  // RFC 2045 line length
    }
    std::string content_type = Header(part_headers, "Content-Type");
    parts.emplace_back(content_type, icat::Base64Decode(joined).value_or("<not base64>"));
    at = body.find("--" + boundary + "\r\n", end + 2);
  }
  BOOST_TEST(body.find("--" + boundary + "--\r\n") != std::string::npos);
  return parts;
}

dispatcher::MailEnvelope Envelope() {
  return {"icat <notifications@example.com>", "ops@example.com", "Sun, 29 Nov 2026 02:30:00 +0000",
          "<1@icat.example.com>", "https://demo.example.com/api/notifications/unsubscribe/tok123"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(channel_messages)

BOOST_AUTO_TEST_CASE(a_notice_names_the_image_the_count_the_worst_severity_and_the_worst_findings_first) {
  dispatcher::Notice n = dispatcher::NoticeOf("vulnerability.detected", Detected(12, 2), kConsole);
  BOOST_TEST(n.headline == "12 new vulnerabilities in nginx:1.27.3 (highest: critical)");
  BOOST_TEST(n.image == "nginx");
  BOOST_TEST(n.version == "1.27.3");
  BOOST_TEST(n.severity == "critical");
  BOOST_TEST_REQUIRE(n.items.size() == dispatcher::kMaxNoticeItems);
  BOOST_TEST(n.more_items == 2u);
  BOOST_TEST(n.items[0].severity == "critical");
  BOOST_TEST(n.items[1].severity == "critical");
  BOOST_TEST(n.items[2].severity == "low");
  BOOST_TEST(n.items[0].id == "CVE-2026-1010");  // stable: in the event's order within a severity
  BOOST_TEST(n.link == kLink);
}

BOOST_AUTO_TEST_CASE(one_finding_is_named_and_says_whether_a_fix_exists) {
  dispatcher::Notice n = dispatcher::NoticeOf("vulnerability.detected", Detected(1, 1), kConsole);
  BOOST_TEST(n.headline == "CVE-2026-1000 (critical) detected in nginx:1.27.3");
  BOOST_TEST(n.items.at(0).fix == "no fix yet");
  n = dispatcher::NoticeOf("vulnerability.fixed", Detected(2, 0), kConsole);
  BOOST_TEST(n.headline == "2 vulnerabilities fixed in nginx:1.27.3");
  BOOST_TEST(n.items.at(1).fix == "fix available");
}

BOOST_AUTO_TEST_CASE(every_event_type_has_a_headline) {
  BOOST_TEST(dispatcher::NoticeOf("scan.completed", Detected(0, 0), kConsole).headline == "nginx:1.27.3 was scanned by trivy");
  BOOST_TEST(dispatcher::NoticeOf("cve_watch.matched", R"({"image":{"name":"nginx"},"version":{"tag":"1"},"cveId":"CVE-2024-3094"})", kConsole)
                 .headline == "Watched CVE-2024-3094 found in nginx:1");
  BOOST_TEST(dispatcher::NoticeOf("version.published", R"({"image":{"name":"nginx"},"version":{"digest":"sha256:ab"}})", kConsole)
                 .headline == "New version nginx@sha256:ab published");
  BOOST_TEST(dispatcher::NoticeOf("vex.updated", R"({"image":{"name":"nginx"},"statements":[{},{}]})", kConsole).headline ==
             "The vendor's VEX about nginx was updated (2 statements)");
  dispatcher::Notice exploited = dispatcher::NoticeOf(
      "vulnerability.exploited",
      R"({"cveId":"CVE-2024-3094","kev":{"dateAdded":"2024-04-01"},"images":[)"
      R"({"id":"0b6c6d2e-0000-4000-8000-000000000001","name":"nginx","version":{"tag":"1.27.3"}},)"
      R"({"id":"0b6c6d2e-0000-4000-8000-000000000002","name":"redis","version":{"tag":"7"}}]})",
      kConsole);
  BOOST_TEST(exploited.headline == "CVE-2024-3094 is now known exploited (CISA KEV) and is in nginx:1.27.3 and 1 more image");
  BOOST_TEST(exploited.link == kLink);
  dispatcher::Notice ping = dispatcher::NoticeOf("ping", R"({"webhook":{"id":"a"}})", kConsole);
  BOOST_TEST(ping.headline == "Test message from icat: this channel works");
  BOOST_TEST(ping.link.empty());  // it names no image
}

BOOST_AUTO_TEST_CASE(links_go_to_the_tenants_console_page_of_the_image) {
  BOOST_TEST(dispatcher::TenantConsole("https://{tenant}.icat.example.com", "demo") == "https://demo.icat.example.com");
  BOOST_TEST(dispatcher::TenantConsole("", "demo").empty());
  BOOST_TEST(dispatcher::NoticeOf("scan.completed", Detected(0, 0), "").link.empty());
  BOOST_TEST(dispatcher::NoticeOf("scan.completed", Detected(0, 0), kConsole).link == kLink);
}

BOOST_AUTO_TEST_CASE(a_payload_that_is_not_an_object_is_refused) {
  BOOST_CHECK_THROW(dispatcher::NoticeOf("ping", "[1]", kConsole), std::invalid_argument);
  BOOST_CHECK_THROW(dispatcher::NoticeOf("ping", "{", kConsole), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(slack_gets_a_fallback_text_and_blocks_within_its_limits) {
  dispatcher::Notice n = dispatcher::NoticeOf("vulnerability.detected", Detected(12, 2, "lib<x>&y"), kConsole);
  n.headline = std::string(200, 'h');
  rapidjson::Document d = Parse(dispatcher::SlackMessage(n));
  BOOST_TEST(Text(d["text"]) == n.headline);
  const rapidjson::Value& blocks = d["blocks"];
  BOOST_TEST_REQUIRE(blocks.Size() == 5u);
  BOOST_TEST(Text(blocks[0]["type"]) == "header");
  BOOST_TEST(Text(blocks[0]["text"]["type"]) == "plain_text");
  BOOST_TEST(Text(blocks[0]["text"]["text"]) == std::string(149, 'h') + "\u2026");
  BOOST_TEST(Text(blocks[1]["fields"][0]["text"]) == "*Image*\nnginx");
  std::string lines = Text(blocks[2]["text"]["text"]);
  BOOST_TEST(lines.find("lib&lt;x&gt;&amp;y") != std::string::npos);  // mrkdwn's control characters escaped
  BOOST_TEST(lines.find('<') == std::string::npos);
  BOOST_TEST(Text(blocks[3]["elements"][0]["text"]) == "and 2 more");
  BOOST_TEST(Text(blocks[4]["elements"][0]["url"]) == kLink);
}

BOOST_AUTO_TEST_CASE(teams_gets_one_adaptive_card_with_the_facts_and_a_link) {
  dispatcher::Notice n = dispatcher::NoticeOf("vulnerability.detected", Detected(3, 1), kConsole);
  rapidjson::Document d = Parse(dispatcher::TeamsMessage(n));
  BOOST_TEST(Text(d["type"]) == "message");
  BOOST_TEST_REQUIRE(d["attachments"].Size() == 1u);
  const rapidjson::Value& attachment = d["attachments"][0];
  BOOST_TEST(Text(attachment["contentType"]) == "application/vnd.microsoft.card.adaptive");
  const rapidjson::Value& card = attachment["content"];
  BOOST_TEST(Text(card["type"]) == "AdaptiveCard");
  BOOST_TEST(Text(card["version"]) == "1.4");
  BOOST_TEST(Text(card["body"][0]["text"]) == n.headline);
  BOOST_TEST(Text(card["body"][1]["type"]) == "FactSet");
  BOOST_TEST(Text(card["body"][1]["facts"][2]["value"]) == "critical");
  BOOST_TEST(card["body"].Size() == 2u + 3u);
  BOOST_TEST(Text(card["actions"][0]["type"]) == "Action.OpenUrl");
  BOOST_TEST(Text(card["actions"][0]["url"]) == kLink);
}

BOOST_AUTO_TEST_CASE(a_mail_has_text_and_html_parts_and_one_click_unsubscribe) {
  dispatcher::Notice n = dispatcher::NoticeOf("vulnerability.detected", Detected(2, 1, "a<b"), kConsole);
  std::string mail = dispatcher::MailMessage(n, Envelope());
  auto [headers, body] = SplitMail(mail);
  BOOST_TEST(Header(headers, "Subject") == "[icat] " + n.headline);
  BOOST_TEST(Header(headers, "List-Unsubscribe") == "<" + Envelope().unsubscribe_url + ">");
  BOOST_TEST(Header(headers, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
  BOOST_TEST(Header(headers, "MIME-Version") == "1.0");
  BOOST_TEST(Header(headers, "To") == "ops@example.com");
  for (size_t i = 0; i < mail.size(); i++) {
    if (mail[i] == '\n') BOOST_TEST_REQUIRE((i > 0 && mail[i - 1] == '\r'));  // CRLF only
  }
  auto parts = Parts(mail);
  BOOST_TEST_REQUIRE(parts.size() == 2u);
  BOOST_TEST(parts[0].first == "text/plain; charset=utf-8");
  BOOST_TEST(parts[0].second.find(n.headline) == 0u);
  BOOST_TEST(parts[0].second.find("Open in the console: " + kLink) != std::string::npos);
  BOOST_TEST(parts[0].second.find("Unsubscribe: " + Envelope().unsubscribe_url) != std::string::npos);
  BOOST_TEST(parts[1].first == "text/html; charset=utf-8");
  BOOST_TEST(parts[1].second.find("a&lt;b") != std::string::npos);
  BOOST_TEST(parts[1].second.find("a<b") == std::string::npos);
  BOOST_TEST(parts[1].second.find("href=\"" + kLink + "\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_subject_that_is_not_ascii_is_encoded_in_whole_characters) {
  dispatcher::Notice n = dispatcher::NoticeOf("version.published", R"({"image":{"name":"n\u00e9ginx-\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc"}})", "");
  auto [headers, body] = SplitMail(dispatcher::MailMessage(n, Envelope()));
  std::string subject = Header(headers, "Subject");
  std::string decoded;
  for (size_t at = subject.find("=?UTF-8?B?"); at != std::string::npos; at = subject.find("=?UTF-8?B?", at + 1)) {
    size_t end = subject.find("?=", at + 10);
    std::optional<std::string> bytes = icat::Base64Decode(subject.substr(at + 10, end - at - 10));
    BOOST_TEST_REQUIRE(bytes.has_value());
    BOOST_TEST(end - at + 2 <= 75u);  // RFC 2047's longest encoded word
    decoded += *bytes;
  }
  BOOST_TEST(decoded == "[icat] " + n.headline);
}

BOOST_AUTO_TEST_CASE(line_ends_in_event_text_never_reach_a_header) {
  dispatcher::Notice n = dispatcher::NoticeOf(
      "vulnerability.detected", R"({"image":{"name":"nginx\r\nBcc: x@evil.test"},"vulnerabilities":[]})", kConsole);
  BOOST_TEST(n.image == "nginx  Bcc: x@evil.test");
  auto [headers, body] = SplitMail(dispatcher::MailMessage(n, Envelope()));
  BOOST_TEST(headers.find("\r\nBcc:") == std::string::npos);
  dispatcher::MailEnvelope bad = Envelope();
  bad.to = "ops@example.com\r\nBcc: x@evil.test";
  BOOST_CHECK_THROW(dispatcher::MailMessage(n, bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_confirmation_mail_links_to_the_confirm_page_and_has_no_unsubscribe) {
  std::string mail = dispatcher::ConfirmationMail("security", "acme", "https://acme.example/notifications/confirm/T0k",
                                                  dispatcher::EnvelopeTo({.from = "icat <n@icat.example>"}, "ops@example.com", ""));
  auto [headers, body] = SplitMail(mail);
  BOOST_TEST(headers.find("List-Unsubscribe") == std::string::npos);
  BOOST_TEST(headers.find("\r\nTo: ops@example.com\r\n") != std::string::npos);
  BOOST_TEST(headers.find("Subject: [icat] Confirm notifications of \"security\" (acme)") != std::string::npos, headers);
  BOOST_TEST(headers.find("@icat.example>\r\n") != std::string::npos);  // the Message-ID's domain is the From's
}

BOOST_AUTO_TEST_CASE(mail_tokens_are_32_bytes_the_same_for_an_address_and_purpose_and_differ_otherwise) {
  std::string key(32, 'k');
  std::string confirm = dispatcher::MailToken(key, "confirm", "id-1");
  BOOST_TEST(icat::Base64UrlDecodeCanonical(confirm).value_or("").size() == 32u);
  BOOST_TEST(confirm == dispatcher::MailToken(key, "confirm", "id-1"));
  BOOST_TEST(confirm != dispatcher::MailToken(key, "unsubscribe", "id-1"));
  BOOST_TEST(confirm != dispatcher::MailToken(key, "confirm", "id-2"));
  BOOST_TEST(confirm != dispatcher::MailToken(std::string(32, 'j'), "confirm", "id-1"));
  BOOST_TEST(dispatcher::AddrSpecOf("icat <n@icat.example>") == "n@icat.example");
  BOOST_TEST(dispatcher::AddrSpecOf("n@icat.example") == "n@icat.example");
}

BOOST_AUTO_TEST_SUITE_END()
