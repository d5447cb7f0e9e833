// rediss://: the service's Redis client (common/src/redis.cpp through tls_tunnel.cpp) against a real
// redis-server that speaks only TLS, with a CA and a server certificate made for the test: commands
// and pipelines go through, large values too; an unknown CA or a certificate for another name is
// refused; a restarted server is reached again.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <iterator>

#include "icat/redis.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;
using namespace std::chrono_literals;

namespace {

// redis-server on 127.0.0.1, TLS only, asking for a password. Every wait is for what the next step
// needs (the port free, the server answering), bounded generously for a loaded machine.
class TlsRedis {
 public:
  TlsRedis() : dir_(scratch_.path()), certificates_(dir_) {
    // A port free a moment ago may be taken before redis-server binds it (other programs pick free
    // ports too): then another one.
    for (int attempt = 1; attempt <= 3 && pid_ <= 0; attempt++) {
      port_ = it::FreePort();
      TryStart();
    }
    BOOST_TEST_REQUIRE(pid_ > 0, "redis-server did not start on three ports; its log: " << LogTail());
  }
  ~TlsRedis() { Stop(); }

  // Starts it again on the same port once that port is free.
  void Restart() {
    BOOST_TEST_REQUIRE(it::WaitFor([&] { return it::PortFree(port_); }, 30s), "port " << port_ << " stays taken");
    TryStart();
    BOOST_TEST_REQUIRE(pid_ > 0, "redis-server did not start again on port " << port_ << "; its log: " << LogTail());
  }
  // SIGTERM, and waits until it has exited.
  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  icat::RedisEndpoint Endpoint(const std::string& host, const std::string& ca = "ca.pem") const {
    icat::RedisEndpoint e;
    e.host = host;
    e.port = port_;
    e.tls = true;
    e.tls_ca_file = dir_ + "/" + ca;
    e.password = "pw";
    return e;
  }

 private:
  // Spawns redis-server and waits until it answers PING over TLS (pid_ set) or has exited, as when
  // the port was taken (pid_ -1); 30 s at most.
  void TryStart() {
    pid_ = it::SpawnQuiet({"/usr/bin/redis-server", "--port", "0", "--tls-port", std::to_string(port_), "--bind",
                           "127.0.0.1", "--tls-cert-file", dir_ + "/server.pem", "--tls-key-file", dir_ + "/server.key",
                           "--tls-ca-cert-file", dir_ + "/ca.pem", "--tls-auth-clients", "no", "--requirepass", "pw",
                           "--save", "", "--appendonly", "no", "--dir", dir_, "--logfile", dir_ + "/redis.log"});
    bool exited = false;
    bool answers = it::WaitFor([&] {
      exited = waitpid(pid_, nullptr, WNOHANG) == pid_;
      return exited || icat::Redis(Endpoint("localhost"), 2000).Ping();
    }, 30s);
    if (exited) {
      pid_ = -1;  // reaped already
    } else if (!answers) {
      Stop();
    }
  }
  std::string LogTail() const {
    std::ifstream file(dir_ + "/redis.log");
    std::string log((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return log.substr(log.size() > 2000 ? log.size() - 2000 : 0);
  }
  it::TempDir scratch_;
  std::string dir_;
  it::TestCertificates certificates_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(redis_tls)

BOOST_AUTO_TEST_CASE(commands_and_pipelines_go_through_tls_with_a_verified_server) {
  TlsRedis server;
  icat::Redis redis(server.Endpoint("localhost"), 2000);
  BOOST_TEST(redis.Ping());
  std::string big(200000, 'x');  // many TLS records each way
  for (size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
  auto replies = redis.Pipeline({{"SET", "icat:tls-test", big}, {"GET", "icat:tls-test"}, {"DEL", "icat:tls-test"}});
  BOOST_TEST_REQUIRE(replies.has_value());
  BOOST_TEST((*replies)[0].text == "OK");
  BOOST_TEST((*replies)[1].text == big);
  BOOST_TEST((*replies)[2].integer == 1);
  for (int i = 0; i < 50; i++) BOOST_TEST_REQUIRE(redis.Command({"INCR", "icat:tls-count"}).has_value());
  BOOST_TEST(redis.Command({"GET", "icat:tls-count"})->text == "50");
}

BOOST_AUTO_TEST_CASE(an_unknown_ca_or_another_name_is_refused) {
  TlsRedis server;
  icat::Redis unknown_ca(server.Endpoint("localhost", "other-ca.pem"), 2000);
  BOOST_TEST(!unknown_ca.Ping());
  icat::Redis other_name(server.Endpoint("127.0.0.1"), 2000);  // the certificate names localhost only
  BOOST_TEST(!other_name.Ping());
}

BOOST_AUTO_TEST_CASE(a_restarted_server_is_reached_again) {
  TlsRedis server;
  icat::Redis redis(server.Endpoint("localhost"), 2000);
  BOOST_TEST(redis.Ping());
  server.Stop();
  BOOST_TEST(!redis.Ping());
  server.Restart();
  // The client tries again a second after its failure (redis.cpp): a fresh connection, then PONG.
  BOOST_TEST(it::WaitFor([&] { return redis.Ping(); }, 15s));
}

BOOST_AUTO_TEST_SUITE_END()
