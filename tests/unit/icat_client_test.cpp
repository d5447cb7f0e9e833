// icat's pure parts: IMAGE[:TAG|@DIGEST], the --fail-on rule, verification of a download (its
// checksums and its attestation), and where the service and the key come from (never argv).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "../../tools/icat/api.hpp"
#include "../../tools/icat/commands.hpp"
#include "../../tools/icat/rules.hpp"
#include "../../tools/icat/verify.hpp"
#include "fixtures.hpp"
#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace client = icat::client;
using icat::test::kRfc8032Private;
using icat::test::TempDir;

namespace {

const std::string kDigest = "sha256:" + std::string(64, 'a');

std::string SpecError(const std::string& text) {
  std::string why;
  std::optional<client::ImageSpec> spec = client::ParseImageSpec(text, &why);
  return spec ? "" : why;
}

// A download as the service serves it: the bytes, their ETag and Repr-Digest.
struct Download {
  std::string bytes = "{\"bomFormat\":\"CycloneDX\",\"specVersion\":\"1.5\"}";
  std::string etag, repr_digest;
  Download() {
    std::string sha = icat::Sha256(bytes);
    etag = "\"sha256:" + icat::HexEncode(sha) + "\"";
    repr_digest = "sha-256=:" + icat::Base64Encode(sha) + ":";
  }
  std::string Failure() const { return client::ChecksumFailure(bytes, etag, repr_digest).value_or(""); }
};

// The vendor's P-256 key, made once (key generation is the slow part).
const std::string& VendorPrivatePem() {
  static const std::string pem = icat::EcdsaP256NewPrivateKeyPem();
  return pem;
}

// A CycloneDX SBOM of a version attested as the service attests it (common/attestation.hpp), and
// the published key set: the vendor's P-256 key beside an Ed25519 one, as GET /v1/signing-keys lists them.
struct Attested {
  std::string document = "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.5\", \"components\": []}";
  std::string digest = kDigest;
  std::string predicate_type = "https://cyclonedx.org/bom";
  std::string public_pem = icat::EcdsaP256PublicKeyPem(VendorPrivatePem());
  std::string key_id = icat::SigningKeyId(public_pem);
  std::string bundle;
  std::vector<client::SigningKey> keys;
  Attested() {
    std::string ed25519 = icat::Ed25519PublicKeyPem(kRfc8032Private);
    keys = {{icat::SigningKeyId(ed25519), "Ed25519", ed25519}, {key_id, "ECDSA-P256", public_pem}};
    Sign("registry.example.test/hardened/nginx", digest, predicate_type, document);
  }
  void Sign(const std::string& name, const std::string& subject, const std::string& type,
            const std::string& predicate) {
    bundle = icat::SignedBundle(VendorPrivatePem(), key_id, icat::InTotoStatement(name, subject, type, predicate));
  }
  client::AttestationVerdict Verdict() const {
    return client::VerifyAttestation(bundle, {document, predicate_type, digest}, keys);
  }
  std::string Failure() const { return Verdict().failure; }
};

// The bundle with its DSSE payload (the signed statement) replaced, the signature left as it was.
std::string WithPayload(const std::string& bundle, const std::string& statement) {
  rapidjson::Document parsed;
  parsed.Parse(bundle.c_str());
  std::string encoded = icat::Base64Encode(statement);
  parsed["dsseEnvelope"]["payload"].SetString(encoded.c_str(), static_cast<rapidjson::SizeType>(encoded.size()),
                                              parsed.GetAllocator());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  parsed.Accept(writer);
  return buffer.GetString();
}

client::Connection Resolve(const std::vector<std::string>& tokens, const std::map<std::string, std::string>& env,
                           bool needs_key = true) {
  icat::CommandSpec spec{{}, client::ConnectionFlags()};
  return client::ResolveConnection(
      icat::Args::Parse(tokens, spec),
      [&env](const char* name) -> const char* {
        auto found = env.find(name);
        return found == env.end() ? nullptr : found->second.c_str();
      },
      needs_key);
}

std::string ResolveError(const std::vector<std::string>& tokens, const std::map<std::string, std::string>& env) {
  try {
    Resolve(tokens, env);
  } catch (const client::Failure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(icat_client)

BOOST_AUTO_TEST_CASE(an_image_spec_is_a_name_or_repository_with_an_optional_tag_and_digest) {
  std::string why;
  client::ImageSpec name = *client::ParseImageSpec("nginx", &why);
  BOOST_TEST(name.image == "nginx");
  BOOST_TEST(name.Latest());
  client::ImageSpec tagged = *client::ParseImageSpec("hardened/nginx:1.27.3", &why);
  BOOST_TEST(tagged.image == "hardened/nginx");
  BOOST_TEST(*tagged.tag == "1.27.3");
  BOOST_TEST(!tagged.digest);
  client::ImageSpec repo = *client::ParseImageSpec("registry.example.test:5000/hardened/nginx@" + kDigest, &why);
  BOOST_TEST(repo.image == "registry.example.test:5000/hardened/nginx");  // the port is no tag
  BOOST_TEST(!repo.tag);
  BOOST_TEST(*repo.digest == kDigest);
  client::ImageSpec both = *client::ParseImageSpec("registry.example.test/nginx:1.0@" + kDigest, &why);
  BOOST_TEST((*both.tag == "1.0" && *both.digest == kDigest && both.image == "registry.example.test/nginx"));
  BOOST_TEST(client::ParseImageSpec("localhost:5000/nginx", &why)->image == "localhost:5000/nginx");
}

BOOST_AUTO_TEST_CASE(a_malformed_image_spec_says_which_part_is_wrong) {
  BOOST_TEST(SpecError("nginx@sha256:abc") == "'sha256:abc' is not a digest of the form sha256:<64 lower-case hex>");
  BOOST_TEST(SpecError("nginx@sha256:" + std::string(64, 'A')).find("is not a digest") != std::string::npos);
  BOOST_TEST(SpecError("nginx@md5:" + std::string(32, 'a')).find("is not a digest") != std::string::npos);
  BOOST_TEST(SpecError("nginx:") == "'' is not a version tag");
  BOOST_TEST(SpecError("nginx:1 2") == "'1 2' is not a version tag");
  BOOST_TEST(SpecError("nginx:-1") == "'-1' is not a version tag");
  BOOST_TEST(SpecError(":1.0") == "'' is not an image name or repository");
  BOOST_TEST(SpecError("") == "'' is not an image name or repository");
  BOOST_TEST(SpecError("registry/") == "'registry/' is not an image name or repository");
  // A ':' left in the name after the tag is taken: the name could not be written alone.
  BOOST_TEST(SpecError("nginx::1") == "'nginx:' is not an image name or repository");
  BOOST_TEST(SpecError("nginx:1.nginx:127.3") == "'nginx:1.nginx' is not an image name or repository");
  BOOST_TEST(SpecError("registry:5000/nginx:a:1") == "'registry:5000/nginx:a' is not an image name or repository");
}

BOOST_AUTO_TEST_CASE(levels_are_the_four_severities_and_rank_in_order) {
  BOOST_TEST(*client::ParseLevel("critical") == 4);
  BOOST_TEST(*client::ParseLevel("low") == 1);
  for (const char* bad : {"unknown", "CRITICAL", "negligible", "", "high,critical"}) {
    BOOST_TEST(!client::ParseLevel(bad).has_value(), bad);
  }
  BOOST_TEST(client::SeverityRank("critical") > client::SeverityRank("high"));
  BOOST_TEST(client::SeverityRank("medium") > client::SeverityRank("low"));
  BOOST_TEST(client::SeverityRank("low") > client::SeverityRank("unknown"));
}

// One package finding judged alone at a level: failed or not.
bool FailsAlone(const char* severity, const char* state, const char* level, const char* vex = "") {
  client::Finding finding{"CVE-1", severity, state, vex, {}, std::nullopt, std::nullopt};
  return client::Judge({finding}, client::CheckPolicy(*client::ParseLevel(level), false, std::nullopt)).failed;
}

BOOST_AUTO_TEST_CASE(fail_on_counts_findings_at_or_above_the_level_except_not_affected) {
  // wont-fix counts, as the webhook counts it: no fix will come, so the vulnerability stays.
  for (const char* state : {"fixed", "not-fixed", "unknown", "wont-fix"}) {
    BOOST_TEST(FailsAlone("critical", state, "high"), state);
    BOOST_TEST(FailsAlone("high", state, "high"), state);
    BOOST_TEST(!FailsAlone("medium", state, "high"), state);
    // The vendor's VEX: only not_affected takes a finding out.
    BOOST_TEST(!FailsAlone("critical", state, "high", "not_affected"), state);
    for (const char* vex : {"affected", "fixed", "under_investigation"}) {
      BOOST_TEST(FailsAlone("critical", state, "high", vex));
    }
  }
  BOOST_TEST(!FailsAlone("critical", "not-affected", "high"));
  BOOST_TEST(!FailsAlone("unknown", "fixed", "low"));
  BOOST_TEST(FailsAlone("low", "fixed", "low"));
}

BOOST_AUTO_TEST_CASE(a_judgement_counts_distinct_ids_and_names_those_left_out) {
  std::vector<client::Finding> findings = {
      {"CVE-1", "critical", "fixed"},        {"CVE-1", "critical", "not-fixed"},  // one id, two packages
      {"CVE-2", "high", "wont-fix"},         {"CVE-3", "critical", "not-affected"},
      {"CVE-4", "medium", "fixed"},          {"CVE-5", "high", "not-affected"},
      {"CVE-5", "medium", "fixed"},  // counted as medium: its high finding is not_affected
      {"CVE-6", "unknown", "fixed"},         {"CVE-7", "critical", "fixed", "not_affected"}};
  auto policy = [](const char* level) { return client::CheckPolicy(*client::ParseLevel(level), false, std::nullopt); };
  client::Judgement high = client::Judge(findings, policy("high"));
  BOOST_TEST(high.failed);
  BOOST_TEST(high.at_or_above == 2);  // CVE-1, CVE-2
  BOOST_TEST(high.excluded == 2);     // CVE-3, CVE-7
  BOOST_TEST(client::CountsText(high.counts) == "critical 1, high 1, medium 2, low 0, unknown 1");
  client::Judgement critical_only = client::Judge({findings.begin() + 2, findings.end()}, policy("critical"));
  BOOST_TEST(!critical_only.failed);
  BOOST_TEST(critical_only.at_or_above == 0);
  BOOST_TEST(critical_only.excluded == 2);  // CVE-3, CVE-7
  BOOST_TEST(!client::Judge({}, policy("low")).failed);
}

BOOST_AUTO_TEST_CASE(known_exploited_and_epss_fail_a_counted_finding_by_its_id_or_alias_merged_per_id) {
  std::vector<client::Finding> findings = {
      {"GHSA-jfh8-c2jp-5v3q", "low", "fixed", "", {"CVE-2021-44228"}, std::string("2021-12-10"), 0.94},
      {"CVE-2024-0002", "low", "fixed", "", {}, std::nullopt, 0.2},
      {"CVE-2024-0002", "low", "not-fixed", "", {}, std::nullopt, 0.6},  // the id's highest score counts
      {"CVE-2024-0003", "low", "fixed", "not_affected", {}, std::string("2024-01-01"), 0.99}};
  client::Judgement plain = client::Judge(findings, client::CheckPolicy(4, false, std::nullopt));
  BOOST_TEST(!plain.failed);
  client::Judgement kev = client::Judge(findings, client::CheckPolicy(4, true, std::nullopt));
  BOOST_TEST(kev.failed);
  BOOST_TEST(kev.known_exploited == std::vector<std::string>{"GHSA-jfh8-c2jp-5v3q"});
  BOOST_TEST(kev.excluded == 1);  // CVE-2024-0003: the vendor's VEX
  client::Judgement epss = client::Judge(findings, client::CheckPolicy(4, false, 0.5));
  BOOST_TEST(epss.above_epss == (std::vector<std::string>{"CVE-2024-0002", "GHSA-jfh8-c2jp-5v3q"}));
  BOOST_TEST(!client::Judge(findings, client::CheckPolicy(4, false, 0.95)).failed);  // above, not at
}

BOOST_AUTO_TEST_CASE(a_download_whose_bytes_differ_from_its_checksums_is_named) {
  Download ok;
  BOOST_TEST(ok.Failure() == "");
  Download flipped;
  flipped.bytes[5] ^= 1;
  BOOST_TEST(flipped.Failure().rfind("checksum mismatch: the ETag says sha256:", 0) == 0, flipped.Failure());
  Download weak;  // a proxy that compressed the body marks the ETag weak: the same bytes
  weak.etag = "W/" + weak.etag;
  BOOST_TEST(weak.Failure() == "");
  Download repr_only;
  repr_only.etag.clear();
  BOOST_TEST(repr_only.Failure() == "");
  repr_only.bytes += " ";
  BOOST_TEST(repr_only.Failure().rfind("checksum mismatch: the Repr-Digest says", 0) == 0, repr_only.Failure());
  Download no_checksum;
  no_checksum.etag.clear();
  no_checksum.repr_digest.clear();
  BOOST_TEST(no_checksum.Failure() == "the download states no checksum (neither ETag nor Repr-Digest)");
  Download md5;
  md5.etag = "\"md5:0123\"";
  BOOST_TEST(md5.Failure() == "the ETag \"md5:0123\" is not a sha256 checksum");
}

BOOST_AUTO_TEST_CASE(an_attestation_verifies_with_the_published_key_over_the_served_document) {
  Attested ok;
  client::AttestationVerdict verdict = ok.Verdict();
  BOOST_TEST(verdict.failure == "");
  BOOST_TEST(verdict.key_id == ok.key_id);
  // The predicate is compared as parsed JSON: the same document with other spacing verifies.
  Attested respaced;
  respaced.document = "{\"bomFormat\":\"CycloneDX\",\"specVersion\":\"1.5\",\"components\":[]}";
  BOOST_TEST(respaced.Failure() == "");
}

BOOST_AUTO_TEST_CASE(a_tampered_bundle_a_wrong_subject_another_predicate_or_an_unknown_key_is_named) {
  Attested ok;
  // One byte of the signed statement changed, the signature kept.
  Attested tampered;
  std::string statement = icat::InTotoStatement("registry.example.test/hardened/nginx", tampered.digest,
                                                tampered.predicate_type, tampered.document);
  statement[statement.find("CycloneDX")] = 'c';
  tampered.bundle = WithPayload(tampered.bundle, statement);
  BOOST_TEST(tampered.Failure() == "the signature does not verify with key " + ok.key_id);
  // A changed signature.
  Attested bad_signature;
  size_t sig = bad_signature.bundle.find("\"sig\":\"") + 7;
  bad_signature.bundle[sig + 10] = bad_signature.bundle[sig + 10] == 'A' ? 'B' : 'A';
  BOOST_TEST(bad_signature.Failure() == "the signature does not verify with key " + ok.key_id);
  // Signed, but about another version.
  Attested wrong_subject;
  wrong_subject.Sign("registry.example.test/hardened/nginx", "sha256:" + std::string(64, 'b'),
                     wrong_subject.predicate_type, wrong_subject.document);
  BOOST_TEST(wrong_subject.Failure() == "the statement's subject is not " + kDigest);
  // Signed, over another document than the one served.
  Attested other_predicate;
  other_predicate.document = "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": []}";
  BOOST_TEST(other_predicate.Failure() == "the statement's predicate is not the document as served");
  // Signed, but of another type (an SPDX attestation offered for the CycloneDX SBOM).
  Attested other_type;
  other_type.Sign("registry.example.test/hardened/nginx", other_type.digest, "https://spdx.dev/Document",
                  other_type.document);
  BOOST_TEST(other_type.Failure() == "the predicate type is https://spdx.dev/Document, not https://cyclonedx.org/bom");
  // Signed with a key the service does not publish.
  Attested unknown_key;
  unknown_key.keys.pop_back();
  BOOST_TEST(unknown_key.Failure() == "the bundle was signed by key " + ok.key_id + ", which is not in the key set");
  BOOST_TEST(unknown_key.Verdict().key_id == "");
  // Another key listed under the bundle's key id.
  Attested relabelled;
  relabelled.keys.back().public_key_pem = icat::EcdsaP256PublicKeyPem(icat::EcdsaP256NewPrivateKeyPem());
  BOOST_TEST(relabelled.Failure().rfind("the key listed as " + ok.key_id + " has another id (", 0) == 0,
             relabelled.Failure());
  // The bundle's hint naming the Ed25519 signature key.
  Attested ed25519;
  std::string ed25519_id = ed25519.keys.front().id;
  ed25519.keys.back().id = "unused";
  ed25519.key_id = ed25519_id;
  ed25519.Sign("registry.example.test/hardened/nginx", ed25519.digest, ed25519.predicate_type, ed25519.document);
  BOOST_TEST(ed25519.Failure() ==
             "the bundle names key " + ed25519_id + ", which is Ed25519, not an attestation key (ECDSA-P256)");
  // Not a bundle at all.
  Attested html;
  html.bundle = "<html>";
  BOOST_TEST(html.Failure().rfind("the bundle is not JSON", 0) == 0, html.Failure());
}

BOOST_AUTO_TEST_CASE(signing_keys_parse_from_the_api_body_and_anything_else_is_refused) {
  std::vector<client::SigningKey> keys =
      client::ParseSigningKeys(R"({"keys": [{"id": "ab", "algorithm": "Ed25519", "publicKeyPem": "P"}]})");
  BOOST_TEST_REQUIRE(keys.size() == 1u);
  BOOST_TEST((keys[0].id == "ab" && keys[0].algorithm == "Ed25519" && keys[0].public_key_pem == "P"));
  BOOST_CHECK_THROW(client::ParseSigningKeys("[]"), client::Failure);
  BOOST_CHECK_THROW(client::ParseSigningKeys("<html>"), client::Failure);
}

BOOST_AUTO_TEST_CASE(the_key_comes_from_the_environment_or_a_key_file_and_the_url_may_be_a_flag) {
  TempDir dir;
  std::string file = dir.path + "/key";
  std::ofstream(file) << "icat_live_fromfile\r\nsecond line\n";
  std::map<std::string, std::string> env = {{"ICAT_BASE_URL", "https://acme.example/"}, {"ICAT_API_KEY", "icat_live_env"}};
  client::Connection from_env = Resolve({}, env);
  BOOST_TEST(from_env.base_url == "https://acme.example");
  BOOST_TEST(from_env.api_key == "icat_live_env");
  BOOST_TEST(from_env.ca_file == "");
  client::Connection from_flags = Resolve({"--url", "http://127.0.0.1:8080", "--key-file", file, "--cacert", "/ca.pem"}, env);
  BOOST_TEST(from_flags.base_url == "http://127.0.0.1:8080");
  BOOST_TEST(from_flags.api_key == "icat_live_fromfile");
  BOOST_TEST(from_flags.ca_file == "/ca.pem");
  BOOST_TEST(Resolve({}, {{"ICAT_BASE_URL", "https://a.example"}, {"ICAT_CA_FILE", "/x.pem"}}, false).ca_file == "/x.pem");
  // No flag can carry the key itself.
  icat::CommandSpec spec{{}, client::ConnectionFlags()};
  for (const char* flag : {"--key", "--api-key", "--token"}) {
    BOOST_CHECK_THROW(icat::Args::Parse({flag, "icat_live_x"}, spec), icat::UsageError);
  }
}

BOOST_AUTO_TEST_CASE(a_missing_key_or_url_and_a_clear_text_remote_url_are_refused) {
  BOOST_TEST(ResolveError({}, {{"ICAT_API_KEY", "k"}}) == "no service address: set ICAT_BASE_URL or pass --url URL");
  BOOST_TEST(ResolveError({}, {{"ICAT_BASE_URL", "https://a.example"}}).rfind("no API key: set ICAT_API_KEY", 0) == 0);
  BOOST_TEST(ResolveError({}, {{"ICAT_BASE_URL", "http://icat.example"}, {"ICAT_API_KEY", "k"}}) ==
             "refusing to send the API key in clear text to icat.example: use an https:// address");
  BOOST_TEST(ResolveError({}, {{"ICAT_BASE_URL", "ftp://a.example"}, {"ICAT_API_KEY", "k"}}).find("not an http") !=
             std::string::npos);
  BOOST_TEST(ResolveError({}, {{"ICAT_BASE_URL", "https://u:p@a.example"}, {"ICAT_API_KEY", "k"}}).find("user name") !=
             std::string::npos);
  for (const char* local : {"http://localhost:8080", "http://127.0.0.1", "http://[::1]:8080"}) {
    BOOST_TEST(ResolveError({}, {{"ICAT_BASE_URL", local}, {"ICAT_API_KEY", "k"}}) == "", local);
  }
  TempDir dir;
  std::ofstream(dir.path + "/empty") << "\n";
  BOOST_TEST(ResolveError({"--key-file", dir.path + "/empty"}, {{"ICAT_BASE_URL", "https://a.example"}}).find(
                 "the first line is empty") != std::string::npos);
  BOOST_TEST(ResolveError({"--key-file", dir.path + "/absent"}, {{"ICAT_BASE_URL", "https://a.example"}}).find(
                 "cannot be read") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(api_failures_name_status_error_message_details_and_request_id) {
  BOOST_TEST(client::DescribeApiFailure("GET /v1/images", 401, R"({"error":"UNAUTHENTICATED","message":"Invalid API key."})",
                                        "r-1") == "GET /v1/images: HTTP 401 UNAUTHENTICATED: Invalid API key. (request id r-1)");
  BOOST_TEST(client::DescribeApiFailure(
                 "GET /v1/images", 400,
                 R"({"error":"VALIDATION_ERROR","message":"Bad.","details":[{"field":"cursor","issue":"malformed"}]})", "") ==
             "GET /v1/images: HTTP 400 VALIDATION_ERROR: Bad. [cursor: malformed]");
  BOOST_TEST(client::DescribeApiFailure("GET /x", 502, "<html>", "") ==
             "GET /x: HTTP 502 (not an API error body: is the URL the icat service?)");
}

BOOST_AUTO_TEST_CASE(an_atomic_write_leaves_the_whole_file_or_nothing) {
  TempDir dir;
  client::WriteFileAtomically(dir.path + "/out.json", "verified");
  std::ifstream in(dir.path + "/out.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(text == "verified");
  BOOST_CHECK_THROW(client::WriteFileAtomically(dir.path + "/no-such-dir/out.json", "x"), client::Failure);
  size_t entries = std::distance(std::filesystem::directory_iterator(dir.path), std::filesystem::directory_iterator());
  BOOST_TEST(entries == 1u);  // no temp file left behind
}

BOOST_AUTO_TEST_SUITE_END()
