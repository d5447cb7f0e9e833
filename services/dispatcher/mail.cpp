// Mail tokens, the confirmation mail and SMTP through libcurl (mail.hpp).
#include "mail.hpp"

#include <curl/curl.h>

#include <cstring>
#include <ctime>
#include <memory>

#include "icat/crypto.hpp"

namespace icat::dispatcher {

std::string MailToken(std::string_view key, std::string_view purpose, std::string_view address_id) {
  return Base64UrlEncode(HmacSha256(key, std::string(purpose) + ":" + std::string(address_id)));
}

std::string AddrSpecOf(std::string_view from) {
  size_t open = from.find('<'), close = from.rfind('>');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    return std::string(from.substr(open + 1, close - open - 1));
  }
  return std::string(from);
}

std::string ConfirmationMail(std::string_view channel, std::string_view tenant, std::string_view confirm_url,
                             const MailEnvelope& envelope) {
  Notice notice;
  notice.headline = "Confirm notifications of \"" + std::string(channel) + "\" (" + std::string(tenant) + ")";
  notice.link = confirm_url;
  notice.link_text = "Confirm these notifications";
  return MailMessage(notice, envelope);
}

MailEnvelope EnvelopeTo(const SmtpSettings& smtp, std::string_view to, std::string unsubscribe_url) {
  char date[64];
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &utc);
  std::string from_address = AddrSpecOf(smtp.from);
  std::string domain = from_address.substr(from_address.find('@') + 1);
  return {smtp.from, std::string(to), date, "<" + RandomUuid() + "@" + domain + ">", std::move(unsubscribe_url)};
}

namespace {

// Hands libcurl the message, a piece at a time.
struct Upload {
  const std::string* message;
  size_t sent = 0;
};

size_t ReadMessage(char* buffer, size_t size, size_t count, void* user) {
  Upload* upload = static_cast<Upload*>(user);
  size_t n = std::min(size * count, upload->message->size() - upload->sent);
  std::memcpy(buffer, upload->message->data() + upload->sent, n);
  upload->sent += n;
  return n;
}

struct Transfer {
  CURL* easy = curl_easy_init();
  curl_slist* recipients = nullptr;
  char error[CURL_ERROR_SIZE] = {0};
  ~Transfer() {
    if (easy) curl_easy_cleanup(easy);
    curl_slist_free_all(recipients);
  }
};

}  // namespace

MailSent SendMail(const SmtpSettings& smtp, const std::string& message, const std::string& recipient,
                  int timeout_seconds) {
  Transfer t;
  Upload upload{&message};
  std::string sender = "<" + AddrSpecOf(smtp.from) + ">";
  t.recipients = curl_slist_append(t.recipients, ("<" + recipient + ">").c_str());
  CURL* e = t.easy;
  curl_easy_setopt(e, CURLOPT_URL, smtp.url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  // smtps:// is TLS from the start; smtp:// upgrades with STARTTLS, and refuses a server that
  // offers none unless the operator said off (a catcher on loopback).
  curl_easy_setopt(e, CURLOPT_USE_SSL, static_cast<long>(smtp.starttls_required ? CURLUSESSL_ALL : CURLUSESSL_NONE));
  if (!smtp.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, smtp.ca_file.c_str());
  if (!smtp.user.empty()) {
    curl_easy_setopt(e, CURLOPT_USERNAME, smtp.user.c_str());
    curl_easy_setopt(e, CURLOPT_PASSWORD, smtp.password.c_str());
  }
  curl_easy_setopt(e, CURLOPT_MAIL_FROM, sender.c_str());
  curl_easy_setopt(e, CURLOPT_MAIL_RCPT, t.recipients);
  curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(e, CURLOPT_READFUNCTION, ReadMessage);
  curl_easy_setopt(e, CURLOPT_READDATA, &upload);
  curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT, static_cast<long>(timeout_seconds));
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, static_cast<long>(timeout_seconds));
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error);
  CURLcode code = curl_easy_perform(e);
  long reply = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &reply);
  MailSent sent;
  if (reply > 0) sent.reply = static_cast<int>(reply);
  if (code != CURLE_OK) {
    sent.error = std::string("SMTP ") + (reply > 0 ? std::to_string(reply) + ": " : "") +
                 (t.error[0] ? t.error : curl_easy_strerror(code));
    // 5xx is the server's "never": a refused recipient (550 no such user) or sender. 4xx and a
    // lost connection are about now, and retried. So is a refused login (RFC 4954's 530, 534, 535,
    // 538): the service's SMTP settings are wrong, not the tenant's address, and once the operator
    // fixes them the mail goes.
    bool login_refused = code == CURLE_LOGIN_DENIED || reply == 530 || reply == 534 || reply == 535 || reply == 538;
    sent.refused_for_good = !login_refused && reply >= 500 && reply < 600;
  }
  return sent;
}

}  // namespace icat::dispatcher
