// rediss://: the service's Redis client (common/src/redis.cpp through tls_tunnel.cpp) against a real
// redis-server that speaks only TLS, with a CA and a server certificate made for the test: commands
// and pipelines go through, large values too; an unknown CA or a certificate for another name is
// refused; a restarted server is reached again.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include "icat/redis.hpp"
#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

// redis-server on 127.0.0.1, TLS only, asking for a password.
class TlsRedis {
 public:
  TlsRedis() : dir_(scratch_.path()), certificates_(dir_), port_(it::FreePort()) { Start(); }
  ~TlsRedis() { Stop(); }
  void Start() {
    pid_ = it::SpawnQuiet({"/usr/bin/redis-server", "--port", "0", "--tls-port", std::to_string(port_), "--bind",
                           "127.0.0.1", "--tls-cert-file", dir_ + "/server.pem", "--tls-key-file", dir_ + "/server.key",
                           "--tls-ca-cert-file", dir_ + "/ca.pem", "--tls-auth-clients", "no", "--requirepass", "pw",
                           "--save", "", "--appendonly", "no", "--dir", dir_});
    BOOST_TEST_REQUIRE(it::WaitFor([&] { return Listening(); }, std::chrono::seconds(10)), "redis-server did not start");
  }
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
  bool Listening() const {
    return it::RunProcess({"/usr/bin/redis-cli", "--tls", "--cacert", dir_ + "/ca.pem", "-h", "localhost", "-p",
                           std::to_string(port_), "--no-auth-warning", "-a", "pw", "ping"})
               .out.find("PONG") != std::string::npos;
  }
  it::TempDir scratch_;
  std::string dir_;
  it::TestCertificates certificates_;
  int port_;
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
  server.Start();
  BOOST_TEST(it::WaitFor([&] { return redis.Ping(); }, std::chrono::seconds(5)));
}

BOOST_AUTO_TEST_SUITE_END()
