// The portal tests' support layer: see portal_support.hpp.
#include "portal_support.hpp"

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <thread>

#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace icat::test {

std::string RandomClientIp() {
  static std::mt19937 generator{std::random_device{}()};
  return "127." + std::to_string(1 + generator() % 254) + "." + std::to_string(generator() % 256) + "." +
         std::to_string(1 + generator() % 254);
}

std::string TrustedProxyIp() {
  const char* value = std::getenv("ICAT_TRUSTED_PROXIES");
  std::string proxies = value ? value : "";
  if (proxies.empty() || proxies.find_first_of(",/") != std::string::npos) {
    throw std::runtime_error(
        "ICAT_TRUSTED_PROXIES must be one loopback address for these tests (tests/run-tests sets it)");
  }
  return proxies;
}

Response SendFrom(const std::string& client_ip, std::string_view method, std::string_view url, const Headers& headers,
                  const std::optional<std::string>& body) {
  thread_local HttpClient client;
  std::string interface = "host!" + client_ip;
  return client.Send(method, url, headers, body,
                     [&](CURL* curl) { curl_easy_setopt(curl, CURLOPT_INTERFACE, interface.c_str()); });
}

std::vector<std::string> RepliesNotRefused(const std::string& key, std::chrono::milliseconds duration,
                                           const std::vector<std::string>& base_urls) {
  const std::vector<std::string> nodes = base_urls.empty() ? std::vector<std::string>{GetEnv().base_url} : base_urls;
  const std::string client_ip = RandomClientIp();
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> not_refused;
  for (auto at = start; at - start < duration; at = std::chrono::steady_clock::now()) {
    for (const std::string& node : nodes) {
      Response r = SendFrom(client_ip, "GET", node + "/v1/images", Bearer(key));
      if (r.status == 401) continue;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
      not_refused.push_back("at " + std::to_string(ms.count()) + " ms, " + node + ": " + r.Summary());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return not_refused;
}

std::string JwtSecret() {
  static const std::string secret = [] {
    const char* path = std::getenv("ICAT_JWT_SECRET_FILE");
    if (!path || !*path) throw std::runtime_error("ICAT_JWT_SECRET_FILE is not set: run through tests/run-tests");
    std::ifstream file(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.size() < 32) throw std::runtime_error(std::string("cannot read the JWT secret from ") + path);
    return text;
  }();
  return secret;
}

std::string MintToken(const AccessClaims& claims) { return IssueAccessToken(claims, JwtSecret()); }

PortalTenant::PortalTenant() : admin(AddUser("admin")), user(AddUser("user")), viewer(AddUser("viewer")) {}

PortalUser PortalTenant::AddUser(std::string_view role) {
  // One scrypt hash for every test user: hashing is slow on purpose, and the password is the same.
  static const std::string hash = HashPassword(kPortalPassword);
  PortalUser u;
  u.role = role;
  u.email = std::string(role) + "-" + RandomSuffix(6) + "@" + subdomain() + ".test";
  u.id = *PgQuery("INSERT INTO users (tenant_id, email, password_hash, role) VALUES ($1, $2, $3, $4) RETURNING id",
                  {id(), u.email, hash, u.role})
              .at(0)
              .at(0);
  return u;
}

const PortalUser& PortalTenant::ByRole(std::string_view role) const {
  if (role == "admin") return admin;
  if (role == "user") return user;
  return viewer;
}

std::string PortalTenant::Token(const PortalUser& u) const {
  AccessClaims claims;
  claims.user_id = u.id;
  claims.tenant_id = id();
  claims.tenant = subdomain();
  claims.role = u.role;
  claims.issued_at = std::time(nullptr);
  claims.expires_at = claims.issued_at + kAccessTokenSeconds;
  claims.token_id = RandomUuid();
  claims.session_id = NewPortalSession(id(), u.id);
  return MintToken(claims);
}

Headers PortalTenant::As(const PortalUser& u) const {
  return {{"Authorization", "Bearer " + Token(u)}, {"X-Tenant", subdomain()}, {"Content-Type", "application/json"}};
}

PortalKey CreatePortalKey(const PortalTenant& t) {
  rapidjson::Document body =
      JsonOf(Send("POST", "/api/api-keys", t.As(t.admin), R"({"name": "portal key", "scopes": ["read:catalog"]})"));
  BOOST_TEST_REQUIRE(body.IsObject());
  return {StringMember(body, "id"), StringMember(body, "secret")};
}

std::string Quote(std::string_view text) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

Response LoginOnce(std::string_view tenant, std::string_view email, std::string_view password,
                   const std::string& client_ip, const Headers& extra) {
  Headers headers = {{"Content-Type", "application/json"}, {"X-Tenant", std::string(tenant)}};
  headers.insert(headers.end(), extra.begin(), extra.end());
  return SendFrom(client_ip, "POST", "/api/auth/login", headers,
                  "{\"email\": " + Quote(email) + ", \"password\": " + Quote(password) + "}");
}

Response Login(std::string_view tenant, std::string_view email, std::string_view password, const std::string& client_ip,
               const Headers& extra) {
  Response r = LoginOnce(tenant, email, password, client_ip, extra);
  // A 503 is answered before the attempt is counted, so retrying costs the limits nothing.
  for (int tries = 1; r.status == 503 && tries < 5; tries++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    r = LoginOnce(tenant, email, password, client_ip, extra);
  }
  return r;
}

Response SessionCall(std::string_view action, std::string_view tenant, std::string_view refresh_token) {
  return Send("POST", "/api/auth/" + std::string(action),
              {{"Content-Type", "application/json"}, {"X-Tenant", std::string(tenant)}},
              "{\"refreshToken\": " + Quote(refresh_token) + "}");
}

std::set<std::string> DocumentedPortalOperations(const std::set<std::string>& methods) {
  rapidjson::Document doc = ExpectJson200(Get("/api/openapi.json"));
  std::set<std::string> operations;
  for (auto p = doc["paths"].MemberBegin(); p != doc["paths"].MemberEnd(); ++p) {
    std::string path = p->name.GetString();
    if (path.rfind("/api/auth/", 0) == 0 || path == "/api/status" || path == "/api/openapi.json") continue;
    for (auto m = p->value.MemberBegin(); m != p->value.MemberEnd(); ++m) {
      // An operation for anyone (`security: []`, e.g. an e-mail's confirm link) has no person to refuse.
      const rapidjson::Value& op = m->value;
      bool for_anyone = op.IsObject() && op.HasMember("security") && op["security"].IsArray() && op["security"].Empty();
      if (methods.count(m->name.GetString()) && !for_anyone) {
        operations.insert(std::string(m->name.GetString()) + " " + path);
      }
    }
  }
  return operations;
}

std::vector<PgRow> AuditRows(const std::string& tenant_id, std::string_view action) {
  return PgQuery(
      "SELECT actor, target, client_ip, request_id, detail::text FROM audit_log "
      "WHERE tenant_id = $1 AND action = $2 ORDER BY id DESC",
      {tenant_id, std::string(action)});
}

}  // namespace icat::test
