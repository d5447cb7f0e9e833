// Attestations (common/attestation.cpp, docs/attestations.md) and the ECDSA P-256 primitives under
// them: a bundle made here verifies, and each kind of tampering fails with the message that says so.
#include <boost/test/unit_test.hpp>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "fixtures.hpp"
#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace {

constexpr const char* kDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
constexpr const char* kOtherDigest = "sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
constexpr const char* kSpdx = "https://spdx.dev/Document";
// An SPDX document as served: its bytes, spacing and all, are the predicate.
const std::string kDocument = "{\"spdxVersion\": \"SPDX-2.3\",\n  \"name\": \"nginx\", \"packages\": [{\"name\": \"zlib\"}]}";

// A key pair and its id.
struct Key {
  std::string private_pem, public_pem, id;
};
Key NewKey() {
  Key key;
  key.private_pem = icat::EcdsaP256NewPrivateKeyPem();
  key.public_pem = icat::EcdsaP256PublicKeyPem(key.private_pem);
  key.id = icat::SigningKeyId(key.public_pem);
  return key;
}

// A key set as GET /v1/signing-keys publishes it: public PEM by key id.
std::function<std::optional<std::string>(std::string_view)> KeySet(std::map<std::string, std::string> keys) {
  return [keys](std::string_view id) -> std::optional<std::string> {
    auto found = keys.find(std::string(id));
    if (found == keys.end()) return std::nullopt;
    return found->second;
  };
}

rapidjson::Document Parse(const std::string& text) {
  icat::JsonRead read = icat::ReadJson(text, icat::kMaxDocumentDepth);
  BOOST_TEST_REQUIRE(read.error.empty(), read.error);
  return std::move(read.document);
}

std::string Serialised(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  icat::JsonWriter w(buffer);
  value.Accept(w);
  return buffer.GetString();
}

// The bundle with its envelope's payload (decoded, changed by edit, encoded again), signature or
// hint changed.
std::string WithPayload(const std::string& bundle, void (*edit)(std::string&)) {
  rapidjson::Document doc = Parse(bundle);
  rapidjson::Value& envelope = doc["dsseEnvelope"];
  std::string payload = *icat::Base64Decode(envelope["payload"].GetString());
  edit(payload);
  envelope["payload"].SetString(icat::Base64Encode(payload).c_str(), doc.GetAllocator());
  return Serialised(doc);
}
std::string WithSignature(const std::string& bundle, void (*edit)(std::string&)) {
  rapidjson::Document doc = Parse(bundle);
  rapidjson::Value& signature = doc["dsseEnvelope"]["signatures"][0];
  std::string sig = *icat::Base64Decode(signature["sig"].GetString());
  edit(sig);
  signature["sig"].SetString(icat::Base64Encode(sig).c_str(), doc.GetAllocator());
  return Serialised(doc);
}
std::string WithHint(const std::string& bundle, const std::string& key_id) {
  rapidjson::Document doc = Parse(bundle);
  doc["verificationMaterial"]["publicKey"]["hint"].SetString(key_id.c_str(), doc.GetAllocator());
  return Serialised(doc);
}

// The message of what throws, or "" when nothing does.
template <typename F>
std::string Refusal(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos ? "" : "'" + text + "' does not say '" + part + "'";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attestation)

// ------------------------------------------------------------------ P-256

BOOST_AUTO_TEST_CASE(p256_signs_as_der_verifies_and_refuses_other_bytes_keys_and_signatures) {
  Key key = NewKey(), other = NewKey();
  std::string signature = icat::EcdsaP256Sign(key.private_pem, "hello");
  BOOST_TEST(static_cast<unsigned char>(signature[0]) == 0x30u);  // an ASN.1 SEQUENCE (r, s)
  BOOST_TEST(icat::EcdsaP256Verify(key.public_pem, "hello", signature));
  BOOST_TEST(!icat::EcdsaP256Verify(key.public_pem, "hellp", signature));
  BOOST_TEST(!icat::EcdsaP256Verify(other.public_pem, "hello", signature));
  std::string tampered = signature;
  tampered[tampered.size() - 1] ^= 1;
  BOOST_TEST(!icat::EcdsaP256Verify(key.public_pem, "hello", tampered));
  BOOST_TEST(key.private_pem.rfind("-----BEGIN PRIVATE KEY-----\n", 0) == 0u);  // PKCS#8
  BOOST_TEST(key.public_pem.rfind("-----BEGIN PUBLIC KEY-----\n", 0) == 0u);
}

// Both read from the PEM's own DER (SubjectPublicKeyInfo of P-256: 26 bytes of header, then the
// uncompressed point 04 || x || y), not through OpenSSL's key objects.
BOOST_AUTO_TEST_CASE(p256_key_id_and_jwk_point_come_from_the_public_key_der) {
  Key key = NewKey();
  std::string body;
  for (size_t at = key.public_pem.find('\n') + 1; key.public_pem.compare(at, 5, "-----") != 0;) {
    size_t end = key.public_pem.find('\n', at);
    body += key.public_pem.substr(at, end - at);
    at = end + 1;
  }
  std::string der = *icat::Base64Decode(body);
  BOOST_TEST_REQUIRE(der.size() == 91u);
  BOOST_TEST(der[26] == '\x04');
  BOOST_TEST(key.id == icat::Sha256Hex(der).substr(0, 16));
  icat::JwkPoint point = icat::EcdsaP256JwkPoint(key.public_pem);
  BOOST_TEST(point.x == icat::Base64UrlEncode(der.substr(27, 32)));
  BOOST_TEST(point.y == icat::Base64UrlEncode(der.substr(59, 32)));
  BOOST_TEST(point.x.size() == 43u);
}

BOOST_AUTO_TEST_CASE(key_algorithm_tells_the_two_kinds_and_each_function_refuses_the_other) {
  Key p256 = NewKey();
  const std::string& ed25519_private = icat::test::kRfc8032Private;
  std::string ed25519_public = icat::Ed25519PublicKeyPem(ed25519_private);
  BOOST_TEST(icat::KeyAlgorithm(p256.public_pem) == "ECDSA-P256");
  BOOST_TEST(icat::KeyAlgorithm(ed25519_public) == "Ed25519");
  BOOST_TEST(icat::SigningKeyId(ed25519_public).size() == 16u);
  BOOST_TEST(Contains(Refusal([&] { icat::EcdsaP256Sign(ed25519_private, "x"); }), "not an ECDSA P-256 key") == "");
  BOOST_TEST(Contains(Refusal([&] { icat::EcdsaP256PublicKeyPem(ed25519_private); }), "not an ECDSA P-256 key") == "");
  BOOST_TEST(Contains(Refusal([&] { icat::Ed25519Sign(p256.private_pem, "x"); }), "not an Ed25519 key") == "");
  BOOST_TEST(Contains(Refusal([&] { icat::KeyAlgorithm("not a key"); }), "not a PEM public key") == "");
}

// ------------------------------------------------------------------ the format

// The DSSE specification's own example of the pre-authentication encoding.
BOOST_AUTO_TEST_CASE(dsse_pae_is_the_specifications_encoding) {
  BOOST_TEST(icat::DssePae("http://example.com/HelloWorld", "hello world") ==
             "DSSEv1 29 http://example.com/HelloWorld 11 hello world");
}

BOOST_AUTO_TEST_CASE(the_statement_embeds_the_document_verbatim_about_the_image) {
  std::string statement = icat::InTotoStatement("registry.example.test/hardened/nginx", kDigest, kSpdx, kDocument);
  BOOST_TEST(statement.find("\"predicate\":" + kDocument + "}") != std::string::npos, statement);
  rapidjson::Document parsed = Parse(statement);
  BOOST_TEST(std::string(parsed["_type"].GetString()) == "https://in-toto.io/Statement/v1");
  BOOST_TEST(std::string(parsed["predicateType"].GetString()) == kSpdx);
  BOOST_TEST(parsed["subject"].Size() == 1u);
  BOOST_TEST(std::string(parsed["subject"][0]["name"].GetString()) == "registry.example.test/hardened/nginx");
  BOOST_TEST("sha256:" + std::string(parsed["subject"][0]["digest"]["sha256"].GetString()) == kDigest);
}

BOOST_AUTO_TEST_CASE(a_signed_bundle_has_the_v03_form_and_verifies_round_trip) {
  Key key = NewKey();
  std::string statement = icat::InTotoStatement("registry.example.test/nginx", kDigest, kSpdx, kDocument);
  std::string bundle = icat::SignedBundle(key.private_pem, key.id, statement);

  rapidjson::Document parsed = Parse(bundle);
  BOOST_TEST(std::string(parsed["mediaType"].GetString()) == "application/vnd.dev.sigstore.bundle.v0.3+json");
  BOOST_TEST(std::string(parsed["verificationMaterial"]["publicKey"]["hint"].GetString()) == key.id);
  BOOST_TEST(parsed["verificationMaterial"]["tlogEntries"].Size() == 0u);
  const rapidjson::Value& envelope = parsed["dsseEnvelope"];
  BOOST_TEST(std::string(envelope["payloadType"].GetString()) == "application/vnd.in-toto+json");
  BOOST_TEST(*icat::Base64Decode(envelope["payload"].GetString()) == statement);
  BOOST_TEST(envelope["signatures"].Size() == 1u);
  // Empty, as cosign writes it: its DSSE verifier skips a signature whose keyid is not its own.
  BOOST_TEST(std::string(envelope["signatures"][0]["keyid"].GetString()) == "");
  // The signature covers the PAE of the payload, checked here with the primitive alone.
  BOOST_TEST(icat::EcdsaP256Verify(key.public_pem, icat::DssePae("application/vnd.in-toto+json", statement),
                                   *icat::Base64Decode(envelope["signatures"][0]["sig"].GetString())));

  icat::VerifiedStatement verified = icat::VerifyBundle(bundle, KeySet({{key.id, key.public_pem}}));
  BOOST_TEST(verified.key_id == key.id);
  BOOST_TEST(verified.statement == statement);
  BOOST_TEST(Refusal([&] { icat::CheckStatement(verified.statement, kDigest, kSpdx, kDocument); }) == "");
  // The predicate is compared as parsed JSON: the same document written otherwise is the same.
  std::string respaced = "{\"spdxVersion\":\"SPDX-2.3\",\"name\":\"nginx\",\"packages\":[{\"name\":\"zlib\"}]}";
  BOOST_TEST(Refusal([&] { icat::CheckStatement(verified.statement, kDigest, kSpdx, respaced); }) == "");
}

BOOST_AUTO_TEST_CASE(the_dsse_envelope_alone_is_the_bundles_and_the_same_bytes_each_time) {
  Key key = NewKey();
  std::string bundle =
      icat::SignedBundle(key.private_pem, key.id, icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument));
  std::string envelope = icat::DsseEnvelopeOf(bundle);
  BOOST_TEST(envelope == icat::DsseEnvelopeOf(bundle));
  BOOST_TEST(envelope == Serialised(Parse(bundle)["dsseEnvelope"]));
}

// ------------------------------------------------------------------ what fails, and says why

BOOST_AUTO_TEST_CASE(a_changed_byte_of_payload_or_signature_fails_the_signature) {
  Key key = NewKey();
  std::string statement = icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument);
  std::string bundle = icat::SignedBundle(key.private_pem, key.id, statement);
  auto keys = KeySet({{key.id, key.public_pem}});
  BOOST_TEST_REQUIRE(Refusal([&] { icat::VerifyBundle(bundle, keys); }) == "");
  const std::string bad_signature = "the signature does not verify with key " + key.id;

  // One byte of the statement: "nginx" becomes "nginy" inside the signed payload.
  std::string payload_changed = WithPayload(bundle, [](std::string& p) { p[p.find("nginx") + 4] = 'y'; });
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(payload_changed, keys); }) == bad_signature);
  // One byte of the signature, at its start (the DER header) and at its end (inside s).
  std::string sig_end = WithSignature(bundle, [](std::string& s) { s[s.size() - 1] ^= 0x01; });
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(sig_end, keys); }) == bad_signature);
  std::string sig_start = WithSignature(bundle, [](std::string& s) { s[0] ^= 0x01; });
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(sig_start, keys); }) == bad_signature);
}

BOOST_AUTO_TEST_CASE(a_wrong_key_id_or_a_key_not_in_the_set_fails) {
  Key key = NewKey(), other = NewKey();
  std::string bundle =
      icat::SignedBundle(key.private_pem, key.id, icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument));
  // The hint names another key of the set: its public key does not verify the signature.
  auto both = KeySet({{key.id, key.public_pem}, {other.id, other.public_pem}});
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(WithHint(bundle, other.id), both); }) ==
             "the signature does not verify with key " + other.id);
  // The signer's key is not published.
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(bundle, KeySet({{other.id, other.public_pem}})); }) ==
             "the bundle was signed by key " + key.id + ", which is not in the key set");
  // Signed by a key that is not in the set, under the id of one that is.
  std::string forged =
      icat::SignedBundle(other.private_pem, key.id, icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument));
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(forged, KeySet({{key.id, key.public_pem}})); }) ==
             "the signature does not verify with key " + key.id);
}

BOOST_AUTO_TEST_CASE(a_wrong_subject_predicate_type_or_predicate_fails_the_statement_check) {
  std::string statement = icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument);
  BOOST_TEST(Refusal([&] { icat::CheckStatement(statement, kOtherDigest, kSpdx, kDocument); }) ==
             "the statement's subject is not " + std::string(kOtherDigest));
  BOOST_TEST(Refusal([&] { icat::CheckStatement(statement, kDigest, "https://cyclonedx.org/bom", kDocument); }) ==
             "the predicate type is https://spdx.dev/Document, not https://cyclonedx.org/bom");
  std::string other_document = "{\"spdxVersion\": \"SPDX-2.3\", \"name\": \"nginx\", \"packages\": []}";
  BOOST_TEST(Refusal([&] { icat::CheckStatement(statement, kDigest, kSpdx, other_document); }) ==
             "the statement's predicate is not the document as served");
  std::string not_in_toto = statement;
  not_in_toto.replace(not_in_toto.find("Statement/v1"), 12, "Statement/v0");
  BOOST_TEST(Refusal([&] { icat::CheckStatement(not_in_toto, kDigest, kSpdx, kDocument); }) ==
             "the statement is not an in-toto Statement v1");
}

BOOST_AUTO_TEST_CASE(a_bundle_of_another_form_is_refused_before_any_key_is_asked) {
  Key key = NewKey();
  std::string bundle =
      icat::SignedBundle(key.private_pem, key.id, icat::InTotoStatement("r/nginx", kDigest, kSpdx, kDocument));
  bool asked = false;
  auto keys = [&](std::string_view) -> std::optional<std::string> {
    asked = true;
    return key.public_pem;
  };
  std::string v02 = bundle;
  v02.replace(v02.find("v0.3"), 4, "v0.2");
  BOOST_TEST(Refusal([&] { icat::VerifyBundle(v02, keys); }) ==
             "the bundle's mediaType is not application/vnd.dev.sigstore.bundle.v0.3+json");
  BOOST_TEST(Contains(Refusal([&] { icat::VerifyBundle("{\"mediaType\": ", keys); }), "the bundle is not JSON") == "");
  BOOST_TEST(!asked);
}

BOOST_AUTO_TEST_CASE(the_attestation_types_are_the_four_served_documents) {
  BOOST_TEST(icat::FindAttestationType("spdx")->predicate_type == kSpdx);
  BOOST_TEST(icat::FindAttestationType("cyclonedx")->predicate_type == "https://cyclonedx.org/bom");
  BOOST_TEST(icat::FindAttestationType("openvex")->predicate_type == "https://openvex.dev/ns/v0.2.0");
  BOOST_TEST(icat::FindAttestationType("cyclonedx-vex")->predicate_type == "https://cyclonedx.org/bom");
  BOOST_TEST(icat::FindAttestationType("vex") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
