// What the SSO tests share: the test OpenID Provider (tests/oidc/provider.mjs on npm oidc-provider)
// started on a free loopback port with a configuration the test writes, and a browser's walk through
// a sign-in without a browser: libcurl keeping cookies, start -> the provider's authorization
// endpoint -> its login form -> the callback.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "support.hpp"

namespace icat::test {

struct OidcClient {
  std::string client_id, client_secret;
  std::vector<std::string> redirect_uris;
};

struct OidcAccount {
  std::string sub, email;
  bool email_verified = true;
  std::string password;
  std::vector<std::string> groups;
  std::string name;
};

// The provider, running from construction (when it printed "ready <issuer>") to destruction
// (SIGTERM, then waited for), whatever the test does in between. Its test controls are on.
class OidcProvider {
 public:
  OidcProvider(const std::vector<OidcClient>& clients, const std::vector<OidcAccount>& accounts);
  ~OidcProvider();
  OidcProvider(const OidcProvider&) = delete;
  OidcProvider& operator=(const OidcProvider&) = delete;

  const std::string& issuer() const { return issuer_; }  // http://127.0.0.1:<port>
  // POST /_test/accounts: the account's groups from now on.
  void SetGroups(std::string_view email, const std::vector<std::string>& groups);
  // POST /_test/tamper: how the next token responses' id_token is spoiled ("off", "none",
  // "other-key", "hs256-public", "wrong-aud", "expired", "wrong-nonce", "wrong-iss").
  void Tamper(std::string_view mode);

 private:
  // Spawns the provider and waits for its "ready"; throws saying how it ended when it does not come.
  void Start(const std::vector<OidcClient>& clients, const std::vector<OidcAccount>& accounts);
  void Control(std::string_view path, const std::string& body);
  void Stop();  // SIGTERM, then SIGKILL after 10 s; idempotent
  pid_t pid_ = -1;
  int output_ = -1;  // the provider's standard output
  std::string dir_, issuer_;
};

// The stack's callback, as a client registers it (http, ICAT_BASE_URL's host).
std::string SsoCallbackUrl();

// A browser: one curl handle whose cookies last as long as it does, from a client address of its
// own (the login limits count per address).
class Browser {
 public:
  Browser();
  // One request, redirects not followed; the Cookie header from the jar, Set-Cookie into it.
  Response Go(std::string_view method, std::string_view url, const Headers& headers = {},
              const std::optional<std::string>& body = std::nullopt);
  // From GET /api/auth/oidc/start?tenant=&next= through the provider's login form (email,
  // password) to the URL the provider sends the browser back to: the callback with code and
  // state (or error). Fails the test when a step does not go as a provider's does.
  std::string SignInAtProvider(std::string_view tenant, std::string_view email, std::string_view password,
                               std::string_view next = "/");
  // The icat_refresh cookie the jar holds for /api/auth ("" when none).
  std::string RefreshCookie();

 private:
  HttpClient client_;
  std::string client_ip_;
};

// The value of a URL's query parameter (decoded); "" when absent.
std::string QueryParameter(std::string_view url, std::string_view name);

}  // namespace icat::test
