// The SSO tests' support layer: see oidc_support.hpp.
#include "oidc_support.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "icat/http.hpp"
#include "icat/json.hpp"
#include "portal_support.hpp"

namespace icat::test {

namespace {

constexpr auto kReadyTimeout = std::chrono::seconds(90);

std::string JsonList(const std::vector<std::string>& items) {
  std::string list;
  for (const std::string& item : items) list += (list.empty() ? "" : ", ") + Quote(item);
  return "[" + list + "]";
}

std::string ConfigJson(const std::vector<OidcClient>& clients, const std::vector<OidcAccount>& accounts) {
  std::string json = "{\"clients\": [";
  for (size_t i = 0; i < clients.size(); i++) {
    const OidcClient& c = clients[i];
    json += std::string(i ? ", " : "") + "{\"client_id\": " + Quote(c.client_id) +
            ", \"client_secret\": " + Quote(c.client_secret) + ", \"redirect_uris\": " + JsonList(c.redirect_uris) +
            "}";
  }
  json += "], \"accounts\": [";
  for (size_t i = 0; i < accounts.size(); i++) {
    const OidcAccount& a = accounts[i];
    json += std::string(i ? ", " : "") + "{\"sub\": " + Quote(a.sub) + ", \"email\": " + Quote(a.email) +
            ", \"email_verified\": " + (a.email_verified ? "true" : "false") + ", \"password\": " + Quote(a.password) +
            ", \"groups\": " + JsonList(a.groups) + ", \"name\": " + Quote(a.name.empty() ? a.email : a.name) + "}";
  }
  return json + "]}";
}

// Reads the child's standard output until a line "ready <issuer>"; the issuer, or "" at the
// deadline or when the output ends (the output read so far in *seen).
std::string WaitForReady(int fd, std::string* seen) {
  auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t line_end = seen->find('\n');
    for (size_t start = 0; line_end != std::string::npos; start = line_end + 1, line_end = seen->find('\n', start)) {
      std::string line = seen->substr(start, line_end - start);
      if (line.rfind("ready ", 0) == 0) return line.substr(6);
    }
    pollfd p{fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (poll(&p, 1, static_cast<int>(std::max<long long>(left.count(), 1))) <= 0) continue;
    char buffer[4096];
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0 && errno != EINTR && errno != EAGAIN) return "";
    if (n > 0) seen->append(buffer, static_cast<size_t>(n));
  }
  return "";
}

// A Location made absolute against the URL it answered.
std::string Resolved(const std::string& from, const std::string& location) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) return location;
  size_t origin_end = from.find('/', from.find("://") + 3);
  return from.substr(0, origin_end) + location;
}

}  // namespace

OidcProvider::OidcProvider(const std::vector<OidcClient>& clients, const std::vector<OidcAccount>& accounts) {
  // A second try when the first does not come up: see Start.
  try {
    Start(clients, accounts);
  } catch (const std::runtime_error& first) {
    std::cerr << "oidc_support: " << first.what() << "; starting it once more\n";
    Start(clients, accounts);
  }
}

void OidcProvider::Start(const std::vector<OidcClient>& clients, const std::vector<OidcAccount>& accounts) {
  const Env& env = GetEnv();
  dir_ = env.stack_dir + "/oidc-" + RandomSuffix(8);
  std::filesystem::create_directories(dir_);
  WriteFileBytes(dir_ + "/config.json", ConfigJson(clients, accounts));
  // Port 0: the provider takes a free one and says which in its issuer.
  std::vector<std::string> argv = {
      "node",          env.repo + "/tests/oidc/provider.mjs", "--port", "0", "--config", dir_ + "/config.json",
      "--test-control"};
  int out[2];
  if (pipe2(out, O_CLOEXEC)) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, (dir_ + "/provider.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  // It finds oidc-provider in $ICAT_BUILD_DIR/node/node_modules (tests/run-tests exports it).
  int failed = posix_spawnp(&pid_, "node", &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (failed != 0) {
    close(out[0]);
    pid_ = -1;
    throw std::runtime_error(std::string("cannot start node: ") + std::strerror(failed));
  }
  output_ = out[0];  // open until Stop: a write to a closed pipe would end the provider
  std::string seen;
  auto started = std::chrono::steady_clock::now();
  issuer_ = WaitForReady(output_, &seen);
  if (issuer_.empty()) {
    std::string log;
    try {
      log = ReadFileBytes(dir_ + "/provider.log");
    } catch (const std::exception&) {
    }
    // How it ended, for whoever reads the failure: twice in full make test runs (2026-11-29) it
    // printed nothing on stdout and nothing but node's version warning on stderr.
    int status = 0;
    std::string how = waitpid(pid_, &status, WNOHANG) == pid_
                          ? (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                                 : "exited " + std::to_string(WEXITSTATUS(status)))
                          : "still running";
    if (how != "still running") pid_ = -1;
    auto waited = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
    Stop();
    throw std::runtime_error("the OpenID Provider did not print ready (" + how + " after " +
                             std::to_string(waited.count()) + " s): " + seen + log);
  }
}

OidcProvider::~OidcProvider() { Stop(); }

void OidcProvider::Stop() {
  if (output_ >= 0) close(output_);
  output_ = -1;
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    usleep(50000);
  }
  pid_ = -1;
}

void OidcProvider::Control(std::string_view path, const std::string& body) {
  HttpClient client;
  Response r = client.Send("POST", issuer_ + std::string(path), {{"Content-Type", "application/json"}}, body);
  BOOST_TEST_REQUIRE(r.status / 100 == 2, "provider " << path << ": " << r.Summary());
}

void OidcProvider::SetGroups(std::string_view email, const std::vector<std::string>& groups) {
  Control("/_test/accounts", "{\"email\": " + Quote(email) + ", \"groups\": " + JsonList(groups) + "}");
}

void OidcProvider::Tamper(std::string_view mode) { Control("/_test/tamper", "{\"mode\": " + Quote(mode) + "}"); }

std::string SsoCallbackUrl() { return GetEnv().base_url + "/api/auth/oidc/callback"; }

Browser::Browser() : client_ip_(RandomClientIp()) {}

Response Browser::Go(std::string_view method, std::string_view url, const Headers& headers,
                     const std::optional<std::string>& body) {
  std::string interface = "host!" + client_ip_;
  return client_.Send(method, url, headers, body, [&](CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_COOKIEFILE, "");  // the in-memory jar: kept by the handle across requests
    curl_easy_setopt(curl, CURLOPT_INTERFACE, interface.c_str());
  });
}

std::string Browser::SignInAtProvider(std::string_view tenant, std::string_view email, std::string_view password,
                                      std::string_view next) {
  Response start = Go("GET", "/api/auth/oidc/start?tenant=" + UrlEncode(tenant) + "&next=" + UrlEncode(next));
  BOOST_TEST_REQUIRE(start.status == 302, start.Summary());
  // The provider's authorization endpoint sends the browser on to its login form.
  std::string url = start.Header("location");
  Response page = Go("GET", url);
  for (int hops = 0; page.status / 100 == 3 && hops < 5; hops++) {
    url = Resolved(url, page.Header("location"));
    page = Go("GET", url);
  }
  BOOST_TEST_REQUIRE(page.status == 200, "the provider's login form: " << page.Summary());
  BOOST_TEST_REQUIRE(page.body.find("password") != std::string::npos, "no login form: " << page.Summary());
  // The form posts to <interaction>/login; the provider then sends the browser back through its
  // authorization endpoint to the callback.
  url += "/login";
  Response answer = Go("POST", url, {{"Content-Type", "application/x-www-form-urlencoded"}},
                       "email=" + UrlEncode(email) + "&password=" + UrlEncode(password));
  for (int hops = 0; hops < 5; hops++) {
    BOOST_TEST_REQUIRE(answer.status / 100 == 3, "the provider after the login form: " << answer.Summary());
    url = Resolved(url, answer.Header("location"));
    if (url.rfind(SsoCallbackUrl(), 0) == 0) return url;
    answer = Go("GET", url);
  }
  BOOST_FAIL("the provider never sent the browser back to the callback");
  return "";
}

std::string Browser::RefreshCookie() {
  CURL* curl = nullptr;  // the handle the jar lives in, as the configure step sees it
  client_.Send("GET", "/api/status", {}, std::nullopt, [&](CURL* c) {
    curl_easy_setopt(c, CURLOPT_COOKIEFILE, "");
    curl = c;
  });
  std::string value;
  curl_slist* cookies = nullptr;
  if (curl && curl_easy_getinfo(curl, CURLINFO_COOKIELIST, &cookies) == CURLE_OK) {
    for (curl_slist* line = cookies; line; line = line->next) {
      // Netscape format, tab-separated: domain, subdomains, path, secure, expiry, name, value.
      std::vector<std::string> fields;
      std::string text = line->data;
      for (size_t start = 0, tab = 0; tab != text.size(); start = tab + 1) {
        tab = std::min(text.find('\t', start), text.size());
        fields.push_back(text.substr(start, tab - start));
      }
      if (fields.size() >= 7 && fields[5] == "icat_refresh") value = fields[6];
    }
    curl_slist_free_all(cookies);
  }
  return value;
}

std::string QueryParameter(std::string_view url, std::string_view name) {
  size_t question = url.find('?');
  if (question == std::string_view::npos) return "";
  std::string_view query = url.substr(question + 1);
  for (size_t start = 0; start <= query.size();) {
    size_t amp = std::min(query.find('&', start), query.size());
    std::string_view pair = query.substr(start, amp - start);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string_view::npos ? "" : UrlDecode(pair.substr(eq + 1));
    start = amp + 1;
  }
  return "";
}

}  // namespace icat::test
