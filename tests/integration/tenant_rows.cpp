// Builds TenantRows: see tenant_rows.hpp.
#include "tenant_rows.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/text.hpp"

namespace icat::test {

namespace {

// Runs sql as the owner and returns the first cell of its first row.
std::string First(PgConnection& db, const std::string& sql, const std::vector<std::optional<std::string>>& params) {
  return *db.Query(sql, params).at(0).at(0);
}

// A vulnerability id no other test's image carries.
std::string UniqueCve() { return "CVE-2099-" + std::to_string(10000000 + std::stoul(RandomSuffix(6), nullptr, 16)); }

// Stores bytes in the stack's blob store as ingest does (sha256/<2 hex>/<hex>), so that the row
// naming them names a blob, as gc expects of every row; returns their SHA-256.
std::string StoreBlob(const std::string& bytes) {
  const char* dir = std::getenv("ICAT_BLOB_DIR");
  if (dir == nullptr) throw std::runtime_error("ICAT_BLOB_DIR is not set");
  std::string hex = icat::Sha256Hex(bytes);
  std::filesystem::path path = std::filesystem::path(dir) / "sha256" / hex.substr(0, 2) / hex;
  std::filesystem::create_directories(path.parent_path());
  WriteFileBytes(path.string(), bytes);
  return hex;
}

// The stack's signing key, registered as ingest registers it (sboms and served VEX documents name it).
std::string StackSigningKeyId(PgConnection& db) {
  const char* file = std::getenv("ICAT_SIGNING_KEY_FILE");
  if (file == nullptr) throw std::runtime_error("ICAT_SIGNING_KEY_FILE is not set");
  std::string public_pem = icat::Ed25519PublicKeyPem(ReadFileBytes(file));
  std::string id = icat::SigningKeyId(public_pem);
  db.Query(
      "INSERT INTO signing_keys (id, algorithm, public_key_pem) VALUES ($1, 'Ed25519', $2) "
      "ON CONFLICT (id) DO NOTHING",
      {id, public_pem});
  return id;
}

// The stack's attestation key, registered as ingest registers it; returns its id.
std::string StackAttestationKeyId(PgConnection& db, std::string& private_pem) {
  const char* file = std::getenv("ICAT_ATTESTATION_KEY_FILE");
  if (file == nullptr) throw std::runtime_error("ICAT_ATTESTATION_KEY_FILE is not set");
  private_pem = ReadFileBytes(file);
  std::string public_pem = icat::EcdsaP256PublicKeyPem(private_pem);
  std::string id = icat::SigningKeyId(public_pem);
  db.Query(
      "INSERT INTO signing_keys (id, algorithm, public_key_pem) VALUES ($1, 'ECDSA-P256', $2) "
      "ON CONFLICT (id) DO NOTHING",
      {id, public_pem});
  return id;
}

}  // namespace

TenantRows::TenantRows()
    : image(tenant.AddImage("rows", {{"1.0"}})),
      version_id(image.versions.at(0).id),
      scan_id(InsertLatestScan(version_id, {1, 0, 0, 0, 0})),
      cve(UniqueCve()),
      alias(icat::Upper("GHSA-" + RandomSuffix(4) + "-" + RandomSuffix(4) + "-" + RandomSuffix(4))),
      sbom_sha256(StoreBlob("{\"rows\": \"sbom " + RandomSuffix(16) + "\"}\n")),
      served_vex_sha256(StoreBlob("{\"rows\": \"vex " + RandomSuffix(16) + "\"}\n")),
      marker("rows-" + tenant.id()) {
  PgConnection db;
  const std::string& t = tenant.id();
  db.Query(
      "INSERT INTO vulnerabilities (set_id, vuln_id, aliases, package_name, severity, fix_state) "
      "VALUES ($1, $2, ARRAY[$3], 'openssl', 'critical', 'fixed')",
      {scan_id, cve, alias});
  db.Query("INSERT INTO vulnerability_first_seen (version_id, vuln_id, first_seen_at) VALUES ($1, $2, now())",
           {version_id, cve});
  // The scan's packages (sql/V0032): a set of one package, as store_packages writes them.
  db.Query(
      "UPDATE scans SET package_set_id = (SELECT package_set_id FROM store_packages($1, "
      "jsonb_build_array(jsonb_build_object('purl', 'pkg:deb/debian/openssl@3.0.11', 'name', 'openssl', "
      "'version', '3.0.11')))) WHERE id = $2",
      {image.id, scan_id});
  const std::string signing_key_id = StackSigningKeyId(db);
  db.Query(
      "INSERT INTO sboms (scan_id, format, spec_version, sha256, size_bytes, signature, signing_key_id) "
      "VALUES ($1, 'cyclonedx', '1.5', $2, 1, 'not-a-signature', $3)",
      {scan_id, sbom_sha256, signing_key_id});
  vex_document_id = First(db,
                          "INSERT INTO vex_documents (format, author, issued_at, version, sha256) "
                          "VALUES ('openvex', 'rows', now(), 1, $1) RETURNING id",
                          {RandomSuffix(64)});
  vex_statement_id = First(db,
                           "INSERT INTO vex_statements (document_id, image_id, product, vuln_id, status, "
                           "justification, statement_time) VALUES ($1, $2, $3, $4, 'not_affected', "
                           "'vulnerable_code_not_present', now()) RETURNING id",
                           {vex_document_id, image.id, image.repository, alias});
  db.Query(
      "INSERT INTO vex_served_documents (version_id, format, document_version, sha256, size_bytes, signature, "
      "signing_key_id) VALUES ($1, 'openvex', 1, $2, 1, 'not-a-signature', $3)",
      {version_id, served_vex_sha256, signing_key_id});
  std::string attestation_pem;
  const std::string attestation_key_id = StackAttestationKeyId(db, attestation_pem);
  const std::string digest = First(db, "SELECT digest FROM image_versions WHERE id = $1", {version_id});
  const std::string sbom = ReadFileBytes(std::string(std::getenv("ICAT_BLOB_DIR")) + "/sha256/" +
                                         sbom_sha256.substr(0, 2) + "/" + sbom_sha256);
  std::string bundle =
      icat::SignedBundle(attestation_pem, attestation_key_id,
                         icat::InTotoStatement(image.repository, digest, "https://cyclonedx.org/bom", sbom));
  db.Query(
      "INSERT INTO attestations (version_id, type, document_sha256, predicate_type, subject_name, subject_digest, "
      "sha256, size_bytes, signing_key_id) VALUES ($1, 'cyclonedx', $2, 'https://cyclonedx.org/bom', $3, $4, $5, $6, "
      "$7)",
      {version_id, sbom_sha256, image.repository, digest, StoreBlob(bundle), std::to_string(bundle.size()),
       attestation_key_id});
  user_id = First(db,
                  "INSERT INTO users (tenant_id, email, password_hash, role) VALUES ($1, $2, 'not-a-hash', 'admin') "
                  "RETURNING id",
                  {t, "rows-" + RandomSuffix(6) + "@" + tenant.subdomain() + ".test"});
  tenant.CreateKey();
  key_id = First(db, "SELECT id FROM api_keys WHERE tenant_id = $1", {t});
  refresh_hash = "\\x" + RandomSuffix(64);
  PgRow refresh = db.Query(
                        "INSERT INTO refresh_tokens (tenant_id, user_id, family_id, token_hash, expires_at) "
                        "VALUES ($1, $2, gen_random_uuid(), $3::bytea, now() + interval '1 day') "
                        "RETURNING id, family_id",
                        {t, user_id, refresh_hash})
                      .at(0);
  refresh_id = *refresh.at(0);
  refresh_family = *refresh.at(1);
  pending_user_id = First(db, "INSERT INTO users (tenant_id, email, role) VALUES ($1, $2, 'viewer') RETURNING id",
                          {t, "pending-" + RandomSuffix(6) + "@" + tenant.subdomain() + ".test"});
  setup_hash = "\\x" + RandomSuffix(64);
  db.Query(
      "INSERT INTO setup_tokens (user_id, tenant_id, token_hash, expires_at) "
      "VALUES ($1, $2, $3::bytea, now() + interval '1 day')",
      {pending_user_id, t, setup_hash});
  watch_id = First(db, "INSERT INTO cve_watches (tenant_id, cve_id) VALUES ($1, $2) RETURNING id", {t, cve});
  request_id = First(db,
                     "INSERT INTO feature_requests (tenant_id, type, title, description, image_id) "
                     "VALUES ($1, 'feature', 'rows', 'rows', $2) RETURNING id",
                     {t, image.id});
  webhook_id = First(db,
                     "INSERT INTO webhooks (tenant_id, url, events, secret) "
                     "VALUES ($1, $2, '{ping}', 'whsec_test') RETURNING id",
                     {t, "https://hooks.example.test/" + RandomSuffix(8)});
  // A notification channel (sql/V0034); active false, so the stack's dispatcher sends it nothing.
  First(db,
        "INSERT INTO notification_channels (tenant_id, type, name, url, events, active) "
        "VALUES ($1, 'slack', 'rows', $2, '{ping}', false) RETURNING id",
        {t, "https://hooks.example.test/" + RandomSuffix(8)});
  // An e-mail channel's address (sql/V0035), pending: nothing is mailed to it.
  std::string mail_channel = First(db,
                                   "INSERT INTO notification_channels (tenant_id, type, name, events, active) "
                                   "VALUES ($1, 'email', 'rows', '{ping}', false) RETURNING id",
                                   {t});
  db.Query("INSERT INTO notification_addresses (channel_id, tenant_id, address) VALUES ($1, $2, $3)",
           {mail_channel, t, "rows-" + RandomSuffix(8) + "@example.test"});
  // Born fanned out and delivered, so the stack's dispatcher leaves both alone.
  event_id = First(db,
                   "INSERT INTO events (tenant_id, type, payload, fanned_out_at) VALUES ($1, 'ping', '{}', now()) "
                   "RETURNING id",
                   {t});
  delivery_id = First(db,
                      "INSERT INTO deliveries (tenant_id, event_id, webhook_id, state) "
                      "VALUES ($1, $2, $3, 'succeeded') RETURNING id",
                      {t, event_id, webhook_id});
  db.Query("INSERT INTO admission_policies (tenant_id, policy) VALUES ($1, jsonb_build_object('marker', $2::text))",
           {t, marker});
  decision_id =
      First(db,
            "INSERT INTO admission_decisions (tenant_id, request_uid, operation, kind, images, allowed, mode) "
            "VALUES ($1, $2, 'CREATE', 'Pod', '[]', true, 'enforce') RETURNING id",
            {t, RandomSuffix(12)});
  db.Query("INSERT INTO audit_log (tenant_id, actor, action, target) VALUES ($1, 'operator', 'test.rows', $2)",
           {t, marker});
  // The tenant's pulls of its version, as the registry's auth decision counts them (sql/V0027).
  db.Query("INSERT INTO version_pulls (tenant_id, version_id, pull_count) VALUES ($1, $2, 1)", {t, version_id});
  // The user's second factor (sealed secret: any bytes will do here), a recovery code and the policy (sql/V0029).
  db.Query("INSERT INTO totp_factors (user_id, tenant_id, secret) VALUES ($1, $2, '\\x00')", {user_id, t});
  db.Query("INSERT INTO recovery_codes (tenant_id, user_id, code_hash) VALUES ($1, $2, $3::bytea)",
           {t, user_id, "\\x" + RandomSuffix(64)});
  db.Query("INSERT INTO sign_in_policies (tenant_id, totp_required) VALUES ($1, false)", {t});
  // Single sign-on: the configuration (a sealed secret: any bytes), a person's identity and a
  // sign-in in progress (sql/V0029).
  db.Query(
      "INSERT INTO sso_configs (tenant_id, issuer, client_id, client_secret, display_name, scopes, groups_claim, "
      "default_role) VALUES ($1, 'https://idp.example.test', 'c', '\\x00', 'IdP', '{openid}', 'groups', 'refuse')",
      {t});
  db.Query(
      "INSERT INTO user_identities (tenant_id, issuer, subject, user_id) VALUES ($1, 'https://idp.example.test', $2, "
      "$3)",
      {t, RandomSuffix(16), user_id});
  db.Query(
      "INSERT INTO sso_sign_ins (state_hash, tenant_id, browser_hash, nonce, code_verifier, next_path, expires_at) "
      "VALUES ($2::bytea, $1, $2::bytea, 'n', 'v', '/', now())",
      {t, "\\x" + RandomSuffix(64)});
}

}  // namespace icat::test
