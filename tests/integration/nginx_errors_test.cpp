// What nginx answers on its own, before any handler sees the request: every such status has the
// JSON error body on both listeners, and the three nginx configurations include the same pages.
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "icat/errors.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

const std::string kBigText(9000, 'a');  // over nginx's 8 KB for a request line or a header line

int PortOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }
int HttpPort() { return PortOf(it::GetEnv().base_url); }
int HttpsPort() {
  BOOST_TEST_REQUIRE(!it::GetEnv().https_url.empty(), "ICAT_HTTPS_URL is not set");
  return PortOf(it::GetEnv().https_url);
}

// An HTTP/1.x answer as text -> Response (status 0 with curl_error saying why when it is none).
it::Response ParseAnswer(const std::string& text) {
  it::Response response;
  size_t end = text.find("\r\n\r\n");
  if (text.rfind("HTTP/1.", 0) != 0 || end == std::string::npos || text.size() < 12) {
    response.curl_error = "no HTTP answer: '" + text.substr(0, 200) + "'";
    return response;
  }
  response.status = std::stol(text.substr(9, 3));
  std::istringstream lines(text.substr(0, end));
  std::string line;
  std::getline(lines, line);  // the status line
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    response.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  response.body = text.substr(end + 4);
  return response;
}

// Sends request exactly as given over a new loopback connection (TLS without ALPN when tls, so
// HTTP/1.1) and reads until nginx closes it, as it does after each of these errors.
it::Response SendRaw(int port, bool tls, const std::string& request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  BOOST_TEST_REQUIRE(fd >= 0);
  // Only so that a server that never closes cannot hang the run.
  timeval guard{20, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  BOOST_TEST_REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0, "connect: " << errno);
  std::string answer;
  char buffer[16384];
  if (tls) {
    SSL_CTX* context = SSL_CTX_new(TLS_client_method());
    SSL* ssl = SSL_new(context);
    SSL_set_fd(ssl, fd);
    if (SSL_connect(ssl) == 1 && SSL_write(ssl, request.data(), static_cast<int>(request.size())) > 0) {
      int n;
      while ((n = SSL_read(ssl, buffer, sizeof buffer)) > 0) answer.append(buffer, static_cast<size_t>(n));
    }
    SSL_free(ssl);
    SSL_CTX_free(context);
  } else if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
    ssize_t n;
    while ((n = recv(fd, buffer, sizeof buffer, 0)) > 0) answer.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return ParseAnswer(answer);
}

// SendRaw to the HTTPS listener over TLS, or to the HTTP listener.
it::Response SendRawTo(bool tls, const std::string& request) {
  return SendRaw(tls ? HttpsPort() : HttpPort(), tls, request);
}

// Through curl; over HTTPS certificates are not checked and HTTP/1.1 is used unless http2.
it::Response Curl(std::string_view method, const std::string& url, const it::Headers& headers = {},
                  const std::optional<std::string>& body = std::nullopt, bool http2 = false) {
  it::HttpClient client;
  return client.Send(method, url, headers, body, [&](CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1);
  });
}

// it::ExpectError, and nginx's request id exactly once (a location's own add_header must not add a
// second).
void ExpectNginxError(const it::Response& response, int status, std::string_view error) {
  it::ExpectError(response, status, error);
  BOOST_TEST(response.Header("x-request-id").find(',') == std::string::npos, response.Summary());
}

// A file of the repository (nginx and deploy configurations).
std::string RepoFile(const std::string& path) { return it::ReadFileBytes(it::GetEnv().repo + "/" + path); }

// The base URL of each listener, for tests that run on both.
std::vector<std::string> BothListeners() {
  BOOST_TEST_REQUIRE(!it::GetEnv().https_url.empty(), "ICAT_HTTPS_URL is not set");
  return {it::GetEnv().base_url, it::GetEnv().https_url};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nginx_errors)

BOOST_AUTO_TEST_CASE(nul_in_the_path_is_400_validation_error_json_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/images/x%00"), 400, "VALIDATION_ERROR");
  }
  ExpectNginxError(Curl("GET", it::GetEnv().https_url + "/v1/images/x%00", {}, std::nullopt, true), 400,
                   "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(uri_over_8_kb_is_414_validation_error_json_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/images?q=" + kBigText), 414, "VALIDATION_ERROR");
  }
}

BOOST_AUTO_TEST_CASE(header_over_8_kb_is_431_validation_error_json_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/images", {{"X-Big", kBigText}}), 431, "VALIDATION_ERROR");
  }
}

BOOST_AUTO_TEST_CASE(garbage_request_line_is_400_validation_error_json_on_both_listeners) {
  for (bool tls : {false, true}) {
    BOOST_TEST_CONTEXT("tls " << tls) {
      ExpectNginxError(SendRawTo(tls, "hello world\r\n\r\n"), 400, "VALIDATION_ERROR");
      ExpectNginxError(SendRawTo(tls, "GET /v1/images/x%00 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
                       400, "VALIDATION_ERROR");
    }
  }
}

BOOST_AUTO_TEST_CASE(http2_preface_without_negotiation_is_400_validation_error_json) {
  const std::string preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  ExpectNginxError(SendRaw(HttpPort(), false, preface), 400, "VALIDATION_ERROR");
  // Over TLS without ALPN "h2" nginx reads HTTP/1.1, too.
  ExpectNginxError(SendRaw(HttpsPort(), true, preface), 400, "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(plain_http_to_the_https_port_is_400_validation_error_json) {
  ExpectNginxError(
      SendRaw(HttpsPort(), false, "GET /v1/images HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 400,
      "VALIDATION_ERROR");
}

BOOST_AUTO_TEST_CASE(unsupported_http_version_is_505_validation_error_json_on_both_listeners) {
  for (bool tls : {false, true}) {
    BOOST_TEST_CONTEXT("tls " << tls) {
      ExpectNginxError(SendRawTo(tls, "GET /v1/images HTTP/2.0\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 505,
                       "VALIDATION_ERROR");
    }
  }
}

BOOST_AUTO_TEST_CASE(unknown_transfer_encoding_is_501_validation_error_json_on_both_listeners) {
  const std::string request =
      "POST /v1/images HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n";
  for (bool tls : {false, true}) {
    BOOST_TEST_CONTEXT("tls " << tls) { ExpectNginxError(SendRawTo(tls, request), 501, "VALIDATION_ERROR"); }
  }
}

BOOST_AUTO_TEST_CASE(trace_is_405_method_not_allowed_json_with_allow_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    it::Response r = Curl("TRACE", base + "/v1/images");
    ExpectNginxError(r, 405, "METHOD_NOT_ALLOWED");
    BOOST_TEST(r.Header("allow") == "GET, HEAD", r.Summary());
  }
}

BOOST_AUTO_TEST_CASE(failed_if_match_is_412_conflict_json_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/openapi.json", {{"If-Match", "\"other\""}}), 412, "CONFLICT");
  }
}

BOOST_AUTO_TEST_CASE(unsatisfiable_range_is_416_validation_error_json_on_both_listeners) {
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/openapi.json", {{"Range", "bytes=999999999-"}}), 416, "VALIDATION_ERROR");
  }
}

BOOST_AUTO_TEST_CASE(body_over_the_limit_is_413_payload_too_large_json_on_both_listeners) {
  const std::string body = "{\"x\":\"" + std::string(2 * 1024 * 1024, 'a') + "\"}";
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("POST", base + "/v1/images", {{"Content-Type", "application/json"}}, body), 413,
                     "PAYLOAD_TOO_LARGE");
  }
  ExpectNginxError(
      Curl("POST", it::GetEnv().https_url + "/v1/images", {{"Content-Type", "application/json"}}, body, true), 413,
      "PAYLOAD_TOO_LARGE");
}

BOOST_AUTO_TEST_CASE(pool_without_its_socket_is_502_service_unavailable_json_on_both_listeners) {
  it::HiddenPoolSocket hidden("catalog");
  for (const std::string& base : BothListeners()) {
    ExpectNginxError(Curl("GET", base + "/v1/images"), 502, "SERVICE_UNAVAILABLE");
  }
  ExpectNginxError(Curl("GET", it::GetEnv().https_url + "/v1/images", {}, std::nullopt, true), 502,
                   "SERVICE_UNAVAILABLE");
}

BOOST_AUTO_TEST_CASE(error_pages_are_internal) {
  ExpectNginxError(Curl("GET", it::GetEnv().base_url + "/_errors/500"), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_CASE(every_error_page_answers_its_status_with_an_error_of_the_table) {
  std::set<std::string> names;
  for (const icat::ErrorInfo& info : icat::AllErrors()) names.insert(std::string(info.name));
  const std::string pages = RepoFile("nginx/error_pages.conf");

  // Every status nginx answers by itself has an error_page (494 and 497 are nginx's own codes; 429
  // the sign-in limits of the auth locations).
  const std::set<std::string> expected = {"400", "403", "404", "405", "412", "413", "414", "416", "429",
                                          "494", "497", "500", "501", "502", "503", "504", "505"};
  std::set<std::string> codes;
  std::set<std::string> targets;
  // error_page CODE [=ANSWER] /_errors/PAGE;  the page answers ANSWER (or CODE).
  const std::regex directive(R"(\nerror_page (\d{3}) (=(\d{3}) )?/_errors/(\d{3});)");
  for (std::sregex_iterator m(pages.begin(), pages.end(), directive), end; m != end; ++m) {
    std::string answer = (*m)[3].matched ? (*m)[3].str() : (*m)[1].str();
    BOOST_TEST((*m)[4].str() == answer, "error_page " << (*m)[1] << " goes to /_errors/" << (*m)[4]);
    targets.insert((*m)[4].str());
    codes.insert((*m)[1].str());
  }
  BOOST_TEST(codes == expected);

  std::set<std::string> pages_defined;
  const std::regex page(R"(location = /_errors/(\d{3}) \{[^}]*return (\d{3}) '(\{[^']*\})\\n';)");
  for (std::sregex_iterator m(pages.begin(), pages.end(), page), end; m != end; ++m) {
    const std::string code = (*m)[1].str();
    BOOST_TEST_CONTEXT("/_errors/" << code) {
      pages_defined.insert(code);
      BOOST_TEST((*m)[2].str() == code);
      rapidjson::Document body;
      body.Parse((*m)[3].str().c_str());
      BOOST_TEST_REQUIRE(!body.HasParseError());
      BOOST_TEST(names.count(it::StringMember(body, "error")) == 1u, "error value not in errors.def");
      BOOST_TEST(!it::StringMember(body, "message").empty());
    }
  }
  BOOST_TEST(pages_defined == targets);
}

BOOST_AUTO_TEST_CASE(the_three_nginx_configurations_include_the_error_pages_in_every_server) {
  const std::string pages = RepoFile("nginx/error_pages.conf");
  // kustomize reads only files below deploy/kubernetes, so that holds a copy.
  BOOST_TEST(RepoFile("deploy/kubernetes/nginx/error_pages.conf") == pages,
             "deploy/kubernetes/nginx/error_pages.conf differs from nginx/error_pages.conf");
  BOOST_TEST(RepoFile("deploy/kubernetes/kustomization.yaml").find("- nginx/error_pages.conf") != std::string::npos,
             "kustomization.yaml does not put error_pages.conf into the icat-nginx ConfigMap");

  const std::map<std::string, std::string> include_of = {
      {"nginx/icat.conf.in", "include @REPO_DIR@/nginx/error_pages.conf;"},
      {"deploy/systemd/nginx-icat.conf", "include /etc/nginx/icat/error_pages.conf;"},
      {"deploy/kubernetes/nginx/nginx.conf", "include /etc/nginx/icat/error_pages.conf;"},
  };
  for (const auto& [path, include] : include_of) {
    BOOST_TEST_CONTEXT(path) {
      const std::string config = RepoFile(path);
      // Each server block, from its "server {" to the next one (or the end), includes the pages.
      std::vector<size_t> starts;
      const std::regex server(R"(\n *server \{)");
      for (std::sregex_iterator m(config.begin(), config.end(), server), end; m != end; ++m) {
        starts.push_back(static_cast<size_t>(m->position()));
      }
      BOOST_TEST(!starts.empty());
      starts.push_back(config.size());
      for (size_t i = 0; i + 1 < starts.size(); i++) {
        BOOST_TEST(config.substr(starts[i], starts[i + 1] - starts[i]).find(include) != std::string::npos,
                   "server block " << i + 1 << " lacks " << include);
      }
      // Any other error_page (a location's own list) must point at a page of the file, or at a page
      // of the configuration itself (the registry's, in its clients' error shape: docs/registry.md).
      const std::regex directive(R"(\n\s*error_page [^;\n]*?(\S+);)");
      for (std::sregex_iterator m(config.begin(), config.end(), directive), end; m != end; ++m) {
        const std::string target = (*m)[1].str();
        const std::string page = "location = " + target + " {";
        BOOST_TEST((pages.find(page) != std::string::npos || config.find(page) != std::string::npos),
                   "error_page to " << target);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
