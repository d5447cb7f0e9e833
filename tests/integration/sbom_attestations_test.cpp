// Attestations (issue 27, docs/attestations.md): every attestation the service serves, fetched
// through nginx with an API key and through the portal, verifies offline with the sigstore project's
// own JavaScript libraries against the published key set (tests/integration/verify-attestations.js),
// about the version's digest, with the served document as its predicate; tampered, re-subjected,
// misattributed bundles and a key not in the set fail there; other tenants get 404, keys without
// read:vulns 403 for VEX; the key set as JSON, JWKS and PEM; the raw SBOM download is unchanged.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/test/unit_test.hpp>
#include <functional>

#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;

namespace {

using it::kAllReads, it::kAlpine310, it::kUnknownId;

constexpr const char* kTypes[] = {"spdx", "cyclonedx", "openvex", "cyclonedx-vex"};
constexpr const char* kBundleType = "application/vnd.dev.sigstore.bundle.v0.3+json";

struct Version {
  std::string id, tag, digest, spdx, cyclonedx;  // the SBOMs' bytes as ingested
};

// An image licensed to the tenant with versions 1.0 and 2.0 (the Alpine scan, each with an SPDX and
// a CycloneDX SBOM, each its own digest) and, when with_vex, a vendor statement about every version.
struct Attested {
  it::Image image;
  Version v1, v2;
};

Version IngestVersion(const it::TempDir& dir, const it::Image& image, const std::string& tag) {
  std::string report = it::Fixture(kAlpine310);
  Version v{"", tag, it::RandomDigest(), it::MinimalSpdx(report, "2022-07-02T00:00:00Z"),
            it::MinimalCycloneDx(report, "2022-07-02T00:00:00Z")};
  std::string spdx = dir.Write(image.name + "_" + tag + ".spdx.json", v.spdx);
  std::string cyclonedx = dir.Write(image.name + "_" + tag + ".cdx.json", v.cyclonedx);
  it::IngestOk({image.name, tag, v.digest, report, spdx, cyclonedx, image.repository, "2022-07-02T00:00:00Z", {}});
  v.id = it::VersionIdOf(image.name, tag);
  return v;
}

// The vendor's statement about every version of the image (the repository, no digest).
std::string VendorVex(const it::Image& image) {
  return R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" + it::RandomSuffix(8) +
         R"(", "author": "Vendor Security", "timestamp": "2026-03-01T00:00:00Z", "version": 1, "statements": [
    {"vulnerability": {"name": "CVE-2020-8165"}, "timestamp": "2026-02-01T00:00:00Z",
     "products": [{"@id": "pkg:oci/)" +
         image.name + "?repository_url=" + image.repository + R"("}],
     "status": "affected", "action_statement": "Upgrade activesupport to 6.0.3.1"}]})";
}

Attested AttestedImage(it::Tenant& tenant, const it::TempDir& dir, const std::string& label, bool with_vex = true) {
  Attested a;
  a.image.name = "it-" + label + "-" + it::RandomSuffix(6);
  a.image.repository = "registry.example.test/it/" + a.image.name;
  a.v1 = IngestVersion(dir, a.image, "1.0");
  a.v2 = IngestVersion(dir, a.image, "2.0");
  a.image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {a.image.name}).at(0).at(0);
  tenant.License(a.image);
  if (with_vex) it::VexIngestOk(dir, VendorVex(a.image));
  return a;
}

// One attestation for verify-attestations.js.
struct Check {
  std::string label, bundle, subject_digest, subject_name, predicate_type, document;
};

std::string PredicateTypeOf(const std::string& type) {
  if (type == "spdx") return "https://spdx.dev/Document";
  if (type == "openvex") return "https://openvex.dev/ns/v0.2.0";
  return "https://cyclonedx.org/bom";
}

// Runs verify-attestations.js on the key set (the reply of GET /v1/signing-keys) and the checks;
// returns its exit code and its lines.
it::ProcessResult Verify(const it::TempDir& dir, const std::string& key_set, const std::vector<Check>& checks) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto pair = [&](const char* name, const std::string& value) {
    w.Key(name);
    w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
  };
  w.StartObject();
  w.Key("keys");
  w.RawValue(key_set.c_str(), key_set.size(), rapidjson::kObjectType);
  w.Key("attestations");
  w.StartArray();
  for (const Check& c : checks) {
    w.StartObject();
    pair("label", c.label);
    pair("bundle", c.bundle);
    pair("subjectDigest", c.subject_digest);
    pair("subjectName", c.subject_name);
    pair("predicateType", c.predicate_type);
    pair("document", c.document);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  std::string input = dir.Write("verify-" + it::RandomSuffix(6) + ".json", buffer.GetString());
  const it::Env& env = it::GetEnv();
  return it::RunProcess({"node", env.repo + "/tests/integration/verify-attestations.js", input}, {},
                        {"NODE_PATH=" + env.bin_dir + "/../node/node_modules"});
}

// The published key set, as the script gets it.
std::string KeySet() {
  it::Response r = it::Get("/v1/signing-keys");
  BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
  return r.body;
}

// Every attestation a version lists through one API (its list, then each bundle and each document
// by the URLs the list gives), checked as a download; the checks for the script.
std::vector<Check> Fetch(const Attested& a, const Version& v, const std::string& base, const it::Headers& auth,
                         const std::string& api) {
  rapidjson::Document list = it::ExpectJson200(it::Get(base + "/attestations", auth));
  std::vector<Check> checks;
  BOOST_TEST_REQUIRE(list["attestations"].Size() == std::size(kTypes), api << " " << v.tag);
  for (size_t i = 0; i < std::size(kTypes); i++) {
    const rapidjson::Value& item = list["attestations"][static_cast<rapidjson::SizeType>(i)];
    std::string type = it::StringMember(item, "type");
    BOOST_TEST_CONTEXT(api << " " << v.tag << " " << type) {
      BOOST_TEST(type == kTypes[i]);
      BOOST_TEST(it::StringMember(item, "predicateType") == PredicateTypeOf(type));
      BOOST_TEST(it::StringMember(item, "mediaType") == kBundleType);
      BOOST_TEST(it::StringMember(item["subject"], "name") == a.image.repository);
      BOOST_TEST(it::StringMember(item["subject"], "digest") == v.digest);
      BOOST_TEST(it::StringMember(item, "url") == base + "/attestations/" + type);
      BOOST_TEST(!it::StringMember(item, "createdAt").empty());
      it::Response bundle = it::Get(it::StringMember(item, "url"), auth);
      BOOST_TEST_REQUIRE(bundle.status == 200, bundle.Summary());
      std::string hex = it::Sha256HexOf(bundle.body);
      BOOST_TEST(it::StringMember(item, "digest") == "sha256:" + hex);
      BOOST_TEST(it::IntMember(item, "size") == static_cast<long long>(bundle.body.size()));
      BOOST_TEST(bundle.Header("content-type") == kBundleType);
      BOOST_TEST(bundle.Header("etag") == "\"sha256:" + hex + "\"");
      BOOST_TEST(bundle.Header("repr-digest") == "sha-256=:" + icat::Base64Encode(icat::Sha256(bundle.body)) + ":");
      BOOST_TEST(bundle.Header("cache-control") == "private, no-cache");
      BOOST_TEST(bundle.Header("content-disposition") ==
                 "attachment; filename=\"" + a.image.name + "_" + v.tag + "." + type + ".sigstore.json\"");
      BOOST_TEST(!bundle.Has("x-signature"));
      rapidjson::Document parsed = it::JsonOf(bundle);
      BOOST_TEST(it::StringMember(item, "keyId") ==
                 it::StringMember(parsed["verificationMaterial"]["publicKey"], "hint"));
      it::Response document = it::Get(it::StringMember(item["document"], "url"), auth);
      BOOST_TEST_REQUIRE(document.status == 200, document.Summary());
      BOOST_TEST(it::StringMember(item["document"], "digest") == "sha256:" + it::Sha256HexOf(document.body));
      checks.push_back({api + " " + v.tag + " " + type, bundle.body, v.digest, a.image.repository,
                        PredicateTypeOf(type), document.body});
    }
  }
  return checks;
}

// The bundle with its DSSE payload changed by change (the decoded statement, in place), the
// signature left as it was.
std::string WithPayload(const std::string& bundle, const std::function<void(std::string&)>& change) {
  rapidjson::Document d;
  d.Parse(bundle.c_str());
  rapidjson::Value& envelope = d["dsseEnvelope"];
  std::string payload = icat::Base64Decode(envelope["payload"].GetString()).value();
  change(payload);
  std::string encoded = icat::Base64Encode(payload);
  envelope["payload"].SetString(encoded.c_str(), static_cast<rapidjson::SizeType>(encoded.size()), d.GetAllocator());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  d.Accept(w);
  return buffer.GetString();
}

void Replace(std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  BOOST_TEST_REQUIRE(at != std::string::npos, from << " not in " << text.substr(0, 200));
  text.replace(at, from.size(), to);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attestations)

BOOST_AUTO_TEST_CASE(every_served_attestation_verifies_with_the_sigstore_libraries_through_both_apis) {
  it::Tenant tenant;
  it::TempDir dir;
  Attested a = AttestedImage(tenant, dir, "attest");
  std::string key = tenant.CreateKey(kAllReads);
  std::vector<Check> checks;
  for (const Version* v : {&a.v1, &a.v2}) {
    for (Check& c : Fetch(a, *v, it::V1VersionPath(a.image.id, v->id), it::Bearer(key), "v1")) checks.push_back(std::move(c));
    for (Check& c : Fetch(a, *v, it::PortalVersionPath(a.image.id, v->id), it::PortalHeaders(tenant), "portal"))
      checks.push_back(std::move(c));
  }
  // The /v1 list names a version by its tag too.
  rapidjson::Document by_tag =
      it::ExpectJson200(it::Get("/v1/images/" + a.image.id + "/versions/1.0/attestations", it::Bearer(key)));
  BOOST_TEST(by_tag["attestations"].Size() == std::size(kTypes));
  BOOST_TEST_REQUIRE(checks.size() == 16u);
  it::ProcessResult run = Verify(dir, KeySet(), checks);
  BOOST_TEST(run.exit_code == 0, run.out << run.err);
  std::vector<std::string> lines = Lines(run.out);
  BOOST_TEST_REQUIRE(lines.size() == checks.size(), run.out << run.err);
  for (size_t i = 0; i < checks.size(); i++) BOOST_TEST(lines[i] == "ok " + checks[i].label);

  // If-None-Match naming the ETag: 304 without the bundle.
  it::Response first = it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/spdx", it::Bearer(key));
  it::Headers again = it::Bearer(key);
  again.emplace_back("If-None-Match", first.Header("etag"));
  it::Response not_modified = it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/spdx", again);
  BOOST_TEST(not_modified.status == 304);
  BOOST_TEST(not_modified.body.empty());
}

BOOST_AUTO_TEST_CASE(a_changed_byte_a_changed_subject_another_versions_digest_and_a_key_not_in_the_set_fail) {
  it::Tenant tenant;
  it::TempDir dir;
  Attested a = AttestedImage(tenant, dir, "tamper", false);
  std::string key = tenant.CreateKey(kAllReads);
  it::Response bundle = it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/spdx", it::Bearer(key));
  BOOST_TEST_REQUIRE(bundle.status == 200, bundle.Summary());
  BOOST_TEST_REQUIRE(a.v1.digest != a.v2.digest);
  auto check = [&](const std::string& label, const std::string& bytes, const std::string& digest) {
    return Check{label, bytes, digest, a.image.repository, "https://spdx.dev/Document", a.v1.spdx};
  };
  // One byte of the predicate (the SPDX version's "3"), and the subject made 2.0's: neither re-signed.
  std::string changed_byte = WithPayload(bundle.body, [](std::string& p) { Replace(p, "SPDX-2.3", "SPDX-2.4"); });
  std::string changed_subject =
      WithPayload(bundle.body, [&](std::string& p) { Replace(p, a.v1.digest.substr(7), a.v2.digest.substr(7)); });
  std::vector<Check> checks = {
      check("good", bundle.body, a.v1.digest), check("changed-byte", changed_byte, a.v1.digest),
      check("changed-subject", changed_subject, a.v2.digest),
      check("other-version", bundle.body, a.v2.digest),  // signed, but about 1.0, checked as 2.0's
  };
  it::ProcessResult run = Verify(dir, KeySet(), checks);
  BOOST_TEST(run.exit_code == 1, run.out << run.err);
  std::vector<std::string> lines = Lines(run.out);
  BOOST_TEST_REQUIRE(lines.size() == 4u, run.out << run.err);
  BOOST_TEST(lines[0] == "ok good");
  BOOST_TEST(lines[1].rfind("FAIL changed-byte: signature: SIGNATURE_ERROR", 0) == 0u, lines[1]);
  BOOST_TEST(lines[2].rfind("FAIL changed-subject: signature: SIGNATURE_ERROR", 0) == 0u, lines[2]);
  BOOST_TEST(lines[3].rfind("FAIL other-version: subject: ", 0) == 0u, lines[3]);

  // A key set without the bundle's key (another P-256 key, under its own id, then under the bundle's).
  std::string other_pem = icat::EcdsaP256PublicKeyPem(icat::EcdsaP256NewPrivateKeyPem());
  auto key_set = [&](const std::string& id) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("keys");
    w.StartArray();
    w.StartObject();
    w.Key("id");
    w.String(id.c_str());
    w.Key("algorithm");
    w.String("ECDSA-P256");
    w.Key("publicKeyPem");
    w.String(other_pem.c_str());
    w.EndObject();
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString());
  };
  it::ProcessResult unknown =
      Verify(dir, key_set(icat::SigningKeyId(other_pem)), {check("good", bundle.body, a.v1.digest)});
  BOOST_TEST(unknown.exit_code == 1);
  BOOST_TEST(unknown.out.rfind("FAIL good: key: ", 0) == 0u, unknown.out << unknown.err);
  rapidjson::Document parsed = it::JsonOf(bundle);
  std::string hint = it::StringMember(parsed["verificationMaterial"]["publicKey"], "hint");
  it::ProcessResult impostor = Verify(dir, key_set(hint), {check("good", bundle.body, a.v1.digest)});
  BOOST_TEST(impostor.exit_code == 1);
  BOOST_TEST(impostor.out.rfind("FAIL good: signature: SIGNATURE_ERROR", 0) == 0u, impostor.out << impostor.err);
}

BOOST_AUTO_TEST_CASE(other_tenants_get_404_keys_without_read_vulns_403_for_vex_and_missing_types_404) {
  it::Tenant tenant, other;
  it::TempDir dir;
  Attested a = AttestedImage(tenant, dir, "attestacl", false);
  std::string reader = tenant.CreateKey(kAllReads);
  // No VEX document yet: its attestation is not available; the SBOMs' are.
  it::ExpectError(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/openvex", it::Bearer(reader)), 404,
                  "ATTESTATION_NOT_AVAILABLE");
  it::ExpectError(it::Get(it::PortalVersionPath(a.image.id, a.v1.id) + "/attestations/cyclonedx-vex", it::PortalHeaders(tenant)), 404,
                  "ATTESTATION_NOT_AVAILABLE");
  rapidjson::Document sboms_only = it::ExpectJson200(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations", it::Bearer(reader)));
  BOOST_TEST(sboms_only["attestations"].Size() == 2u);
  it::VexIngestOk(dir, VendorVex(a.image));

  // Another tenant, not licensed: 404 for the list and every bundle, through both APIs.
  std::string others_key = other.CreateKey(kAllReads);
  it::ExpectError(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations", it::Bearer(others_key)), 404, "NOT_FOUND");
  it::ExpectError(it::Get(it::PortalVersionPath(a.image.id, a.v1.id) + "/attestations", it::PortalHeaders(other)), 404, "NOT_FOUND");
  for (const char* type : kTypes) {
    BOOST_TEST_CONTEXT(type) {
      it::ExpectError(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/" + type, it::Bearer(others_key)), 404, "NOT_FOUND");
      it::ExpectError(it::Get(it::PortalVersionPath(a.image.id, a.v1.id) + "/attestations/" + type, it::PortalHeaders(other)), 404,
                      "NOT_FOUND");
      BOOST_TEST(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/" + type, it::Bearer(reader)).status == 200);
    }
  }

  // read:sbom without read:vulns: the list and the SBOMs' bundles, not the VEX documents'.
  std::string sbom_key = tenant.CreateKey("read:sbom");
  BOOST_TEST(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations", it::Bearer(sbom_key)).status == 200);
  BOOST_TEST(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/spdx", it::Bearer(sbom_key)).status == 200);
  BOOST_TEST(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/cyclonedx", it::Bearer(sbom_key)).status == 200);
  for (const char* type : {"openvex", "cyclonedx-vex"}) {
    it::Response r = it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/" + type, it::Bearer(sbom_key));
    it::ExpectError(r, 403, "INSUFFICIENT_SCOPE");
    BOOST_TEST(r.Header("www-authenticate").find("scope=\"read:vulns\"") != std::string::npos, r.Summary());
  }
  // read:vulns alone is not read:sbom.
  it::ExpectError(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations", it::Bearer(tenant.CreateKey("read:vulns"))), 403,
                  "INSUFFICIENT_SCOPE");

  // Unknown types, versions and images; a version never scanned lists none.
  it::ExpectError(it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/attestations/cdx", it::Bearer(reader)), 404, "NOT_FOUND");
  it::ExpectError(it::Get(it::PortalVersionPath(a.image.id, a.v1.id) + "/attestations/spdx.json", it::PortalHeaders(tenant)), 404,
                  "NOT_FOUND");
  it::ExpectError(it::Get("/v1/images/" + a.image.id + "/versions/9.9/attestations", it::Bearer(reader)), 404,
                  "NOT_FOUND");
  it::ExpectError(it::Get("/v1/images/" + kUnknownId + "/versions/1.0/attestations/spdx", it::Bearer(reader)), 404,
                  "NOT_FOUND");
  it::ExpectError(it::Get("/api/docker-images/" + a.image.id + "/versions/1.0/attestations", it::PortalHeaders(tenant)),
                  404,
                  "NOT_FOUND");  // the portal names versions by id only
  it::Version unscanned = it::AddVersion(a.image, {"3.0"});
  rapidjson::Document none = it::ExpectJson200(
      it::Get("/v1/images/" + a.image.id + "/versions/" + unscanned.id + "/attestations", it::Bearer(reader)));
  BOOST_TEST(none["attestations"].Size() == 0u);
  it::ExpectError(it::Get("/v1/images/" + a.image.id + "/versions/3.0/attestations/spdx", it::Bearer(reader)), 404,
                  "ATTESTATION_NOT_AVAILABLE");
}

BOOST_AUTO_TEST_CASE(the_raw_sbom_download_keeps_its_bytes_and_signature_headers) {
  it::Tenant tenant;
  it::TempDir dir;
  Attested a = AttestedImage(tenant, dir, "attestraw", false);
  std::string key = tenant.CreateKey(kAllReads);
  for (const std::string format : {"spdx", "cyclonedx"}) {
    BOOST_TEST_CONTEXT(format) {
      it::Response r = it::Get(it::V1VersionPath(a.image.id, a.v1.id) + "/sbom?format=" + format, it::Bearer(key));
      BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
      BOOST_TEST(r.body == (format == "spdx" ? a.v1.spdx : a.v1.cyclonedx));
      BOOST_TEST(r.Header("content-type") ==
                 (format == "spdx" ? "application/spdx+json" : "application/vnd.cyclonedx+json; version=1.5"));
      BOOST_TEST(r.Header("etag") == "\"sha256:" + it::Sha256HexOf(r.body) + "\"");
      BOOST_TEST(r.Header("repr-digest") == "sha-256=:" + icat::Base64Encode(icat::Sha256(r.body)) + ":");
      BOOST_TEST(r.Header("content-disposition") ==
                 "attachment; filename=\"" + a.image.name + "_1.0." + (format == "spdx" ? "spdx" : "cdx") + ".json\"");
      std::string file = dir.Write("raw-" + format + ".json", r.body);
      std::optional<std::string> failure =
          it::OpensslVerifyFailure(file, r.Header("x-signature"), r.Header("x-signature-key-id"));
      BOOST_TEST(!failure.has_value(), failure.value_or(""));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_key_set_is_published_as_json_as_a_jwk_set_and_each_key_as_pem) {
  // Ingest signs: the stack's Ed25519 key and its P-256 attestation key are both recorded.
  it::Tenant tenant;
  it::TempDir dir;
  AttestedImage(tenant, dir, "attestkeys", false);
  rapidjson::Document keys = it::ExpectJson200(it::Get("/v1/signing-keys"));
  std::map<std::string, std::string> pem_of;
  std::set<std::string> uses;
  for (const rapidjson::Value& k : keys["keys"].GetArray()) {
    std::string id = it::StringMember(k, "id"), algorithm = it::StringMember(k, "algorithm");
    BOOST_TEST(it::StringMember(k, "use") == (algorithm == "Ed25519" ? "signatures" : "attestations"));
    BOOST_TEST(it::ParseRfc3339(it::StringMember(k, "createdAt")).has_value());
    BOOST_TEST(k.HasMember("retiredAt"));
    pem_of[id] = it::StringMember(k, "publicKeyPem");
    uses.insert(it::StringMember(k, "use"));
  }
  BOOST_TEST((uses == std::set<std::string>{"attestations", "signatures"}));

  it::Response jwks = it::Get("/v1/signing-keys?format=jwks");
  BOOST_TEST_REQUIRE(jwks.status == 200, jwks.Summary());
  BOOST_TEST(jwks.Header("content-type") == "application/jwk-set+json");
  BOOST_TEST(jwks.Header("cache-control") == "public, max-age=300");
  rapidjson::Document set = it::JsonOf(jwks);
  BOOST_TEST_REQUIRE(set["keys"].Size() == pem_of.size());
  for (const rapidjson::Value& jwk : set["keys"].GetArray()) {
    std::string kid = it::StringMember(jwk, "kid");
    BOOST_TEST_CONTEXT(kid) {
      BOOST_TEST_REQUIRE(pem_of.count(kid) == 1u);
      BOOST_TEST(it::StringMember(jwk, "use") == "sig");
      if (it::StringMember(jwk, "kty") == "EC") {
        icat::JwkPoint point = icat::EcdsaP256JwkPoint(pem_of[kid]);
        BOOST_TEST(it::StringMember(jwk, "crv") == "P-256");
        BOOST_TEST(it::StringMember(jwk, "alg") == "ES256");
        BOOST_TEST(it::StringMember(jwk, "x") == point.x);
        BOOST_TEST(it::StringMember(jwk, "y") == point.y);
      } else {
        BOOST_TEST(it::StringMember(jwk, "kty") == "OKP");
        BOOST_TEST(it::StringMember(jwk, "crv") == "Ed25519");
        BOOST_TEST(it::StringMember(jwk, "alg") == "EdDSA");
        BOOST_TEST(it::StringMember(jwk, "x") == icat::Ed25519JwkX(pem_of[kid]));
      }
    }
  }
  it::Response bad = it::Get("/v1/signing-keys?format=pem");
  it::ExpectError(bad, 400, "VALIDATION_ERROR");
  BOOST_TEST((it::DetailFields(bad) == std::vector<std::string>{"format"}));

  for (const auto& [id, pem] : pem_of) {
    it::Response r = it::Get("/v1/signing-keys/" + id);
    BOOST_TEST_REQUIRE(r.status == 200, r.Summary());
    BOOST_TEST(r.body == pem);
    BOOST_TEST(r.Header("content-type") == "application/x-pem-file");
    BOOST_TEST(icat::SigningKeyId(r.body) == id);
  }
  it::ExpectError(it::Get("/v1/signing-keys/0000000000000000"), 404, "NOT_FOUND");
  it::ExpectError(it::Get("/v1/signing-keys/not-a-key-id"), 404, "NOT_FOUND");
}

BOOST_AUTO_TEST_SUITE_END()
