// icatctl ingest with https:// inputs, as a Kubernetes Job or a systemd unit runs it without anyone
// copying files to it (docs/deploy.md, "Ingest"): fetched from a real TLS server (openssl s_server)
// with a CA made for the test; plain http, an unknown CA and an oversized file are refused, and no
// message shows a URL's query (a pre-signed URL's credential).
#include <signal.h>
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>

#include "scans_support.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

const char* kReport = "scans/trivy-integration-v0.50.0/alpine-310.trivy-image-scan.json";

// openssl s_server serving the files of a directory over HTTPS on 127.0.0.1.
class FileServer {
 public:
  FileServer() : dir_(scratch_.path()), certificates_(dir_), port_(it::FreePort()) {
    pid_ = fork();
    if (pid_ == 0) {
      if (chdir(dir_.c_str()) != 0) _exit(127);
      execlp("openssl", "openssl", "s_server", "-quiet", "-WWW", "-accept", std::to_string(port_).c_str(), "-cert",
             "server.pem", "-key", "server.key", static_cast<char*>(nullptr));
      _exit(127);
    }
    std::string probe = Url("server.pem");
    started_ = it::WaitFor([&] {
      return it::RunProcess({"curl", "-sf", "--cacert", dir_ + "/ca.pem", "-o", "/dev/null", probe}).exit_code == 0;
    }, std::chrono::seconds(10));
  }
  ~FileServer() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  std::string Put(const std::string& name, const std::string& bytes) const {
    it::WriteFileBytes(dir_ + "/" + name, bytes);
    return Url(name);
  }
  std::string Url(const std::string& name) const { return "https://localhost:" + std::to_string(port_) + "/" + name; }
  std::string Ca(const std::string& which = "ca.pem") const { return dir_ + "/" + which; }
  bool started() const { return started_; }

 private:
  it::TempDir scratch_;
  std::string dir_;
  it::TestCertificates certificates_;
  int port_;
  pid_t pid_ = -1;
  bool started_ = false;
};

it::IngestArgs Args(const std::string& image, const std::string& report_url, const std::string& sbom_url) {
  return {image, "1.0", it::ReportDigest(it::Fixture(kReport)), report_url, std::nullopt, sbom_url,
          "registry.example.test/it/" + image, std::nullopt, {}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scan_fetch)

BOOST_AUTO_TEST_CASE(https_inputs_are_fetched_checked_and_stored_like_files) {
  FileServer server;
  BOOST_TEST_REQUIRE(server.started(), "openssl s_server did not start");
  std::string report = it::Fixture(kReport);
  std::string report_url = server.Put("report.json", it::ReadFileBytes(report));
  std::string sbom = it::MinimalCycloneDx(report, "2021-08-25T12:20:30Z");
  std::string sbom_url = server.Put("scan.cdx.json", sbom);
  std::string image = "it-fetch-" + it::RandomSuffix(6);
  it::ProcessResult run = it::Ingest(Args(image, report_url, sbom_url), {"ICAT_INGEST_FETCH_CA_FILE=" + server.Ca()});
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
  BOOST_TEST(run.out.rfind("scan ", 0) == 0u, run.out);
  // The SBOM is stored byte for byte as it was served.
  std::vector<it::PgRow> stored = it::PgQuery(
      "SELECT b.sha256 FROM sboms b JOIN scans s ON s.id = b.scan_id JOIN image_versions v ON v.id = s.version_id "
      "JOIN images i ON i.id = v.image_id WHERE i.name = $1",
      {image});
  BOOST_TEST_REQUIRE(stored.size() == 1u);
  BOOST_TEST(stored[0][0].value_or("") == it::Sha256HexOf(sbom));
}

BOOST_AUTO_TEST_CASE(plain_http_an_unknown_ca_and_an_oversized_input_are_refused_without_the_query) {
  FileServer server;
  BOOST_TEST_REQUIRE(server.started(), "openssl s_server did not start");
  std::string report = it::Fixture(kReport);
  std::string report_url = server.Put("report.json", it::ReadFileBytes(report)) + "?X-Signature=very-secret-1";
  std::string sbom_url = server.Put("scan.cdx.json", it::MinimalCycloneDx(report, "2021-08-25T12:20:30Z"));
  std::string image = "it-fetch-" + it::RandomSuffix(6);

  it::ProcessResult http = it::Ingest(Args(image, "http://localhost/report.json?X-Signature=very-secret-1", sbom_url),
                                      {"ICAT_INGEST_FETCH_CA_FILE=" + server.Ca()});
  BOOST_TEST(http.exit_code == 1);
  BOOST_TEST(http.err.find("http://localhost/report.json: only https:// URLs are fetched") != std::string::npos,
             http.err);

  it::ProcessResult unknown_ca = it::Ingest(Args(image, report_url, sbom_url),
                                            {"ICAT_INGEST_FETCH_CA_FILE=" + server.Ca("other-ca.pem")});
  BOOST_TEST(unknown_ca.exit_code == 1);
  BOOST_TEST(unknown_ca.err.find("cannot fetch") != std::string::npos, unknown_ca.err);

  // (openssl s_server takes a query for part of the file name, so this URL has none.)
  it::ProcessResult too_big = it::Ingest(Args(image, server.Url("report.json"), sbom_url),
                                         {"ICAT_INGEST_FETCH_CA_FILE=" + server.Ca(), "ICAT_INGEST_MAX_BYTES=1024"});
  BOOST_TEST(too_big.exit_code == 1);
  BOOST_TEST(too_big.err.find("over the ICAT_INGEST_MAX_BYTES limit") != std::string::npos, too_big.err);

  for (const it::ProcessResult* r : {&http, &unknown_ca, &too_big}) {
    BOOST_TEST(r->err.find("very-secret-1") == std::string::npos, r->err);
    BOOST_TEST(r->out.find("very-secret-1") == std::string::npos, r->out);
  }
  BOOST_TEST(it::PgQuery("SELECT 1 FROM images WHERE name = $1", {image}).empty());  // nothing stored
}

BOOST_AUTO_TEST_SUITE_END()
