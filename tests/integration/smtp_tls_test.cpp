// E-mail through the kind of server a mail provider runs (issue 32): the dispatcher's SendMail
// (libcurl, services/dispatcher/mail.cpp) against tools/mail-catcher speaking STARTTLS or TLS from
// the first byte and asking for a login, with a CA and a server certificate made for the test. The
// mail arrives as sent; a wrong password, an unknown CA, another host name, or a server without
// STARTTLS when it is required send nothing, and only a refused recipient is a refusal for good.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "../../services/dispatcher/mail.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr int kTimeoutSeconds = 20;

// How a server speaks: in clear, STARTTLS (smtp://), or TLS from the first byte (smtps://).
enum class Tls { kNone, kStartTls, kImplicit };

// tools/mail-catcher on a free loopback port with the given TLS and, when `login`, the user
// "mailer" with the password "secret"; stopped (SIGTERM, waited for) at destruction.
class MailServer {
 public:
  MailServer(Tls tls, bool login) : tls_(tls), dir_(scratch_.path()), certificates_(dir_) {
    std::vector<std::string> argv = {it::GetEnv().repo + "/tools/mail-catcher", dir_ + "/mail", ""};
    if (tls != Tls::kNone) {
      argv.insert(argv.end(), {tls == Tls::kStartTls ? "--starttls" : "--smtps", dir_ + "/server.pem",
                               dir_ + "/server.key"});
    }
    if (login) argv.insert(argv.end(), {"--auth", "mailer", "secret"});
    for (int attempt = 1; attempt <= 3 && pid_ <= 0; attempt++) {  // a free port may be taken meanwhile
      port_ = it::FreePort();
      argv[2] = std::to_string(port_);
      pid_ = it::SpawnQuiet(argv);
      bool exited = false;
      it::WaitFor([&] { return (exited = waitpid(pid_, nullptr, WNOHANG) == pid_) || it::Listens(port_); }, 30s);
      if (exited) pid_ = -1;
    }
    BOOST_TEST_REQUIRE(pid_ > 0, "tools/mail-catcher did not start");
  }
  ~MailServer() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }

  // The settings of a dispatcher sending to it as `host` (localhost: the certificate's name).
  icat::SmtpSettings Settings(const std::string& host = "localhost") const {
    icat::SmtpSettings smtp;
    smtp.url = std::string(tls_ == Tls::kImplicit ? "smtps" : "smtp") + "://" + host + ":" + std::to_string(port_);
    smtp.user = "mailer";
    smtp.password = "secret";
    smtp.from = "icat <notifications@icat.test>";
    smtp.ca_file = dir_ + "/ca.pem";
    return smtp;
  }
  std::string OtherCa() const { return dir_ + "/other-ca.pem"; }

  // The messages it took, as received.
  std::vector<std::string> Received() const {
    std::vector<std::string> messages;
    if (!fs::exists(dir_ + "/mail")) return messages;
    for (const auto& entry : fs::directory_iterator(dir_ + "/mail")) {
      if (entry.path().extension() == ".eml") messages.push_back(it::ReadFileBytes(entry.path()));
    }
    return messages;
  }

 private:
  Tls tls_;
  it::TempDir scratch_;
  std::string dir_;
  it::TestCertificates certificates_;
  int port_ = 0;
  pid_t pid_ = -1;
};

const std::string kMessage =
    "From: icat <notifications@icat.test>\r\nTo: sec@example.test\r\nSubject: [icat] TLS test\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n\r\nSent over TLS, after a login.\r\n";

icat::dispatcher::MailSent Send(const icat::SmtpSettings& smtp, const std::string& to = "sec@example.test") {
  return icat::dispatcher::SendMail(smtp, kMessage, to, kTimeoutSeconds);
}

// The message arrived once, byte for byte.
void ExpectDelivered(const icat::dispatcher::MailSent& sent, const MailServer& server) {
  BOOST_TEST(sent.error.empty(), sent.error);
  std::vector<std::string> received = server.Received();
  BOOST_TEST_REQUIRE(received.size() == 1U);
  BOOST_TEST(received[0] == kMessage);
}

// Nothing arrived, and the failure is one to retry (the service's settings or the server, never
// the address).
void ExpectRetriedFailure(const icat::dispatcher::MailSent& sent, const MailServer& server) {
  BOOST_TEST(!sent.error.empty());
  BOOST_TEST(!sent.refused_for_good, sent.error);
  BOOST_TEST(server.Received().empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(smtp_tls)

BOOST_AUTO_TEST_CASE(starttls_with_a_login_delivers_the_message_as_sent) {
  MailServer server(Tls::kStartTls, true);
  ExpectDelivered(Send(server.Settings()), server);
}

BOOST_AUTO_TEST_CASE(smtps_with_a_login_delivers_the_message_as_sent) {
  MailServer server(Tls::kImplicit, true);
  ExpectDelivered(Send(server.Settings()), server);
}

BOOST_AUTO_TEST_CASE(a_wrong_password_sends_nothing_and_is_retried_not_held_against_the_address) {
  MailServer server(Tls::kStartTls, true);
  icat::SmtpSettings smtp = server.Settings();
  smtp.password = "not-the-secret";
  ExpectRetriedFailure(Send(smtp), server);
  smtp.user.clear();  // no login at all: the server's 530 at MAIL FROM
  ExpectRetriedFailure(Send(smtp), server);
}

BOOST_AUTO_TEST_CASE(an_unknown_ca_or_another_host_name_sends_nothing) {
  for (Tls tls : {Tls::kStartTls, Tls::kImplicit}) {
    MailServer server(tls, true);
    icat::SmtpSettings unknown_ca = server.Settings();
    unknown_ca.ca_file = server.OtherCa();
    ExpectRetriedFailure(Send(unknown_ca), server);
    ExpectRetriedFailure(Send(server.Settings("127.0.0.1")), server);  // the certificate names localhost
  }
}

BOOST_AUTO_TEST_CASE(a_server_without_starttls_gets_nothing_unless_told_off) {
  MailServer server(Tls::kNone, false);
  icat::SmtpSettings smtp = server.Settings();
  smtp.user.clear();  // a login in clear is never tried either
  ExpectRetriedFailure(Send(smtp), server);
  smtp.starttls_required = false;  // ICAT_SMTP_STARTTLS=off: a catcher on loopback
  BOOST_TEST(Send(smtp).error.empty());
  BOOST_TEST(server.Received().size() == 1U);
}

BOOST_AUTO_TEST_CASE(a_refused_recipient_over_tls_is_a_refusal_for_good) {
  MailServer server(Tls::kStartTls, true);
  icat::dispatcher::MailSent sent = Send(server.Settings(), "refused@example.test");
  BOOST_TEST(sent.refused_for_good, sent.error);
  BOOST_TEST(sent.reply.value_or(0) == 550);
  BOOST_TEST(server.Received().empty());
}

BOOST_AUTO_TEST_SUITE_END()
