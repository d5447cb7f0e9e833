// Attestations made where the key is (docs/attestations.md): scan ingest attests each SBOM and vex
// ingest each served VEX document, in bundles (from the blob store) that verify with the key
// signing_keys publishes and say the version's digest and the document's bytes; a re-ingest makes
// none; icatctl attest makes lost ones again; signing-key create, rotate and list, after which new
// attestations use the new key, old ones still verify, and the retired key signs nothing more.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "scans_support.hpp"

namespace it = icat::test;
namespace fs = std::filesystem;

namespace {

using it::kAlpine310;

std::string BlobDir() {
  const char* dir = std::getenv("ICAT_BLOB_DIR");
  BOOST_TEST_REQUIRE((dir && *dir), "ICAT_BLOB_DIR is not set");
  return dir;
}

std::string StackKeyFile() {
  const char* file = std::getenv("ICAT_ATTESTATION_KEY_FILE");
  BOOST_TEST_REQUIRE((file && *file), "ICAT_ATTESTATION_KEY_FILE is not set (tools/stack sets it)");
  return file;
}

std::string Blob(const std::string& hex) {
  return it::ReadFileBytes(BlobDir() + "/sha256/" + hex.substr(0, 2) + "/" + hex);
}

// The id of the key a PEM private key file holds.
std::string KeyIdOfFile(const std::string& path) {
  return icat::SigningKeyId(icat::EcdsaP256PublicKeyPem(it::ReadFileBytes(path)));
}

// icatctl with ICAT_ATTESTATION_KEY_FILE set to key_file (env(1): it replaces the test's own).
it::ProcessResult IcatctlWithKey(const std::string& key_file, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"env", "ICAT_ATTESTATION_KEY_FILE=" + key_file, it::GetEnv().bin_dir + "/icatctl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return it::RunProcess(argv);
}

std::string One(const std::string& sql, const std::string& param) { return *it::PgQuery(sql, {param}).at(0).at(0); }

// A new image's version 1.0, ingested from the Alpine scan with an SPDX and a CycloneDX SBOM.
struct Ingested {
  std::string image, repository, version_id, digest;
  it::IngestArgs args;
  std::string out;  // ingest's output
};

Ingested IngestBoth(const it::TempDir& dir, const std::string& label,
                    const std::vector<std::string>& env = {}) {
  Ingested v;
  std::string report = it::Fixture(kAlpine310);
  v.image = "it-" + label + "-" + it::RandomSuffix(6);
  v.repository = "registry.example.test/it/" + v.image;
  v.digest = it::ReportDigest(report);
  v.args = {v.image, "1.0", v.digest, report,
            dir.Write(v.image + ".spdx.json", it::MinimalSpdx(report, "2022-07-02T00:00:00Z")),
            dir.Write(v.image + ".cdx.json", it::MinimalCycloneDx(report, "2022-07-02T00:00:00Z")),
            v.repository, std::nullopt, {}};
  it::ProcessResult r = it::Ingest(v.args, env);
  BOOST_TEST_REQUIRE(r.exit_code == 0, "ingest exited " << r.exit_code << ": " << r.err);
  v.out = r.out;
  v.version_id = One("SELECT v.id FROM image_versions v JOIN images i ON i.id = v.image_id WHERE i.name = $1", v.image);
  return v;
}

// Every key signing_keys publishes (what GET /v1/signing-keys serves): public PEM by id.
std::function<std::optional<std::string>(std::string_view)> PublishedKeys() {
  std::map<std::string, std::string> keys;
  for (const it::PgRow& row : it::PgQuery("SELECT id, public_key_pem FROM signing_keys")) keys[*row.at(0)] = *row.at(1);
  return [keys](std::string_view id) -> std::optional<std::string> {
    auto found = keys.find(std::string(id));
    if (found == keys.end()) return std::nullopt;
    return found->second;
  };
}

// The served documents of a version: blob sha256 by attestation type (the latest scan's SBOMs, the
// served VEX documents).
std::map<std::string, std::string> ServedDocuments(const std::string& version_id) {
  std::map<std::string, std::string> served;
  for (const it::PgRow& row : it::PgQuery(
           "SELECT b.format, b.sha256 FROM sboms b JOIN image_versions v ON b.scan_id = v.latest_scan_id WHERE v.id = $1 "
           "UNION ALL SELECT CASE format WHEN 'openvex' THEN 'openvex' ELSE 'cyclonedx-vex' END, sha256 "
           "FROM vex_served_documents WHERE version_id = $1",
           {version_id})) {
    served[*row.at(0)] = *row.at(1);
  }
  return served;
}

// Checks every attestation row of the version as a verifier would: the bundle's bytes are its blob,
// its signature verifies with the published key of the row's key id, and its statement names the
// version's digest and the image's repository and holds the served document, of the type's
// predicate type. Returns the signing key id by type.
std::map<std::string, std::string> VerifiedAttestations(const std::string& version_id) {
  std::map<std::string, std::string> key_by_type;
  std::string digest = One("SELECT digest FROM image_versions WHERE id = $1", version_id);
  std::string repository =
      One("SELECT i.repository FROM images i JOIN image_versions v ON v.image_id = i.id WHERE v.id = $1", version_id);
  std::map<std::string, std::string> served = ServedDocuments(version_id);
  auto keys = PublishedKeys();
  for (const it::PgRow& row : it::PgQuery("SELECT type, document_sha256, predicate_type, subject_name, subject_digest, "
                                          "sha256, size_bytes, signing_key_id FROM attestations WHERE version_id = $1",
                                          {version_id})) {
    const std::string &type = *row.at(0), &document_sha256 = *row.at(1), &bundle_sha256 = *row.at(5);
    BOOST_TEST_CONTEXT("the " << type << " attestation of version " << version_id) {
      const icat::AttestationType* kind = icat::FindAttestationType(type);
      BOOST_TEST_REQUIRE(kind != nullptr);
      BOOST_TEST(*row.at(2) == kind->predicate_type);
      BOOST_TEST(*row.at(3) == repository);
      BOOST_TEST(*row.at(4) == digest);
      BOOST_TEST(served[type] == document_sha256, "it attests a document that is not served");
      std::string bundle = Blob(bundle_sha256);
      BOOST_TEST(it::Sha256HexOf(bundle) == bundle_sha256);
      BOOST_TEST(std::to_string(bundle.size()) == *row.at(6));
      try {
        icat::VerifiedStatement verified = icat::VerifyBundle(bundle, keys);
        BOOST_TEST(verified.key_id == *row.at(7));
        icat::CheckStatement(verified.statement, digest, kind->predicate_type, Blob(document_sha256));
        BOOST_TEST(verified.statement.find("\"name\":\"" + repository + "\"") != std::string::npos);
      } catch (const std::runtime_error& e) {
        BOOST_ERROR("does not verify: " << e.what());
      }
      key_by_type[type] = *row.at(7);
    }
  }
  return key_by_type;
}

long long Count(const std::string& sql, const std::string& param) { return std::stoll(One(sql, param)); }

// An OpenVEX document of the vendor with one statement about every version of the image.
std::string VendorVex(const Ingested& v) {
  return R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" + it::RandomSuffix(8) +
         R"(", "author": "Vendor Security", "timestamp": "2026-03-01T00:00:00Z", "version": 1, "statements": [
    {"vulnerability": {"name": "CVE-2019-14697"}, "timestamp": "2026-03-01T00:00:00Z",
     "products": [{"@id": "pkg:oci/)" + v.image + "?repository_url=" + v.repository + R"("}],
     "status": "affected", "action_statement": "Upgrade musl to 1.1.22-r3"}]})";
}

int Mode(const std::string& path) {
  struct stat st {};
  BOOST_TEST_REQUIRE(stat(path.c_str(), &st) == 0, path);
  return st.st_mode & 07777;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attestations_ingest)

BOOST_AUTO_TEST_CASE(scan_ingest_attests_each_sbom_vex_ingest_each_served_document_and_a_reingest_nothing) {
  it::TempDir dir;
  Ingested v = IngestBoth(dir, "attest");
  std::string key_id = KeyIdOfFile(StackKeyFile());
  BOOST_TEST(v.out.find("attestations: 2 signed with key " + key_id + "\n") != std::string::npos, v.out);
  std::map<std::string, std::string> keys = VerifiedAttestations(v.version_id);
  BOOST_TEST((keys == std::map<std::string, std::string>{{"spdx", key_id}, {"cyclonedx", key_id}}));
  BOOST_TEST(One("SELECT algorithm FROM signing_keys WHERE id = $1", key_id) == "ECDSA-P256");

  // The same files again: nothing changes.
  it::ProcessResult again = it::Ingest(v.args);
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  BOOST_TEST(again.out.find("already ingested") != std::string::npos, again.out);
  BOOST_TEST(Count("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == 2);
  // A new scan (the report's bytes differ) with the same SBOMs: they have their attestations already.
  std::string latest = One("SELECT latest_scan_id FROM image_versions WHERE id = $1", v.version_id);
  it::IngestArgs rescan = v.args;
  rescan.report = dir.Write(v.image + ".report.json", it::ReadFileBytes(v.args.report) + "\n");
  it::ProcessResult rescanned = it::Ingest(rescan);
  BOOST_TEST_REQUIRE(rescanned.exit_code == 0, rescanned.err);
  BOOST_TEST(One("SELECT latest_scan_id FROM image_versions WHERE id = $1", v.version_id) != latest);
  BOOST_TEST(rescanned.out.find("attestations: 0 signed with key " + key_id + "\n") != std::string::npos,
             rescanned.out);
  BOOST_TEST(Count("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == 2);
  BOOST_TEST(Count("SELECT count(*) FROM served_attestations WHERE version_id = $1", v.version_id) == 2);

  // The vendor's VEX: both served documents of the version are attested too.
  std::string vex_out = it::VexIngestOk(dir, VendorVex(v));
  BOOST_TEST(vex_out.find("attestations: 2 signed with key " + key_id + "\n") != std::string::npos, vex_out);
  keys = VerifiedAttestations(v.version_id);
  BOOST_TEST(keys.size() == 4u);
  BOOST_TEST(keys["openvex"] == key_id);
  BOOST_TEST(keys["cyclonedx-vex"] == key_id);
  BOOST_TEST(Count("SELECT count(*) FROM served_attestations WHERE version_id = $1", v.version_id) == 4);
}

BOOST_AUTO_TEST_CASE(icatctl_attest_makes_lost_attestations_again_and_then_none) {
  it::TempDir dir;
  Ingested v = IngestBoth(dir, "backfill");
  it::VexIngestOk(dir, VendorVex(v));
  BOOST_TEST_REQUIRE(Count("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == 4);
  std::string key_id = KeyIdOfFile(StackKeyFile());

  // As after a restore of a database older than its blob store: the rows are gone.
  it::PgQuery("DELETE FROM attestations WHERE version_id = $1", {v.version_id});
  it::ProcessResult all = it::Icatctl({"attest"});
  BOOST_TEST_REQUIRE(all.exit_code == 0, all.err);
  BOOST_TEST(all.out.find("attestations made, signed with key " + key_id) != std::string::npos, all.out);
  BOOST_TEST(VerifiedAttestations(v.version_id).size() == 4u);

  it::PgQuery("DELETE FROM attestations WHERE version_id = $1", {v.version_id});
  it::ProcessResult one = it::Icatctl({"attest", "--image", v.image});
  BOOST_TEST_REQUIRE(one.exit_code == 0, one.err);
  BOOST_TEST(one.out == "attest: 4 attestations made, signed with key " + key_id + "\n");
  BOOST_TEST(VerifiedAttestations(v.version_id).size() == 4u);

  it::ProcessResult none = it::Icatctl({"attest", "--image", v.image});
  BOOST_TEST_REQUIRE(none.exit_code == 0, none.err);
  BOOST_TEST(none.out == "attest: 0 attestations made, signed with key " + key_id + "\n");
  BOOST_TEST(Count("SELECT count(*) FROM attestations WHERE version_id = $1", v.version_id) == 4);

  it::ProcessResult unknown = it::Icatctl({"attest", "--image", "it-no-such-" + it::RandomSuffix(6)});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(unknown.err.find("not found") != std::string::npos, unknown.err);
}

BOOST_AUTO_TEST_CASE(signing_key_create_makes_a_0600_key_once_and_records_it) {
  it::TempDir dir;
  std::string path = dir.path() + "/attestation.pem";
  it::ProcessResult created = IcatctlWithKey(path, {"signing-key", "create"});
  BOOST_TEST_REQUIRE(created.exit_code == 0, created.err);
  std::string id = KeyIdOfFile(path);
  BOOST_TEST(created.out == id + "\n");
  BOOST_TEST(Mode(path) == 0600);
  BOOST_TEST(One("SELECT algorithm || ' ' || (retired_at IS NULL) FROM signing_keys WHERE id = $1", id) ==
             "ECDSA-P256 true");
  BOOST_TEST(One("SELECT public_key_pem FROM signing_keys WHERE id = $1", id) ==
             icat::EcdsaP256PublicKeyPem(it::ReadFileBytes(path)));

  std::string before = it::ReadFileBytes(path);
  it::ProcessResult again = IcatctlWithKey(path, {"signing-key", "create"});
  BOOST_TEST(again.exit_code == 1, again.err);
  BOOST_TEST(again.err.find("exists already") != std::string::npos, again.err);
  BOOST_TEST(it::ReadFileBytes(path) == before);
  // Only the key file is left in the directory: no temp file.
  long long files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) files += entry.is_regular_file();
  BOOST_TEST(files == 1);

  it::ProcessResult unset = it::RunProcess({"env", "-u", "ICAT_ATTESTATION_KEY_FILE", it::GetEnv().bin_dir + "/icatctl",
                                            "signing-key", "create"});
  BOOST_TEST(unset.exit_code == 1, unset.err);
  BOOST_TEST(unset.err.find("ICAT_ATTESTATION_KEY_FILE is not set") != std::string::npos, unset.err);
}

// Rotates the stack's own key, as an operator would: the tests after this one sign with the new key.
BOOST_AUTO_TEST_CASE(after_a_rotation_new_attestations_use_the_new_key_old_ones_verify_and_the_old_key_signs_nothing) {
  it::TempDir dir;
  const std::string key_file = StackKeyFile();
  Ingested before = IngestBoth(dir, "rotate-old");
  std::string old_id = KeyIdOfFile(key_file);
  std::string old_key_copy = dir.Write("old-key.pem", it::ReadFileBytes(key_file));
  int mode = Mode(key_file);

  it::ProcessResult rotated = it::Icatctl({"signing-key", "rotate"});
  BOOST_TEST_REQUIRE(rotated.exit_code == 0, rotated.err);
  std::string new_id = KeyIdOfFile(key_file);
  BOOST_TEST(new_id != old_id);
  BOOST_TEST(rotated.out.find("retired key " + old_id + "\n") != std::string::npos, rotated.out);
  BOOST_TEST(rotated.out.find("new key " + new_id + "\n") != std::string::npos, rotated.out);
  BOOST_TEST(Mode(key_file) == mode);
  BOOST_TEST(!fs::exists(key_file + ".retired-" + old_id));
  // Both keys published, the old one retired; no attestation key but the new one is current.
  BOOST_TEST(One("SELECT (retired_at IS NOT NULL)::text FROM signing_keys WHERE id = $1", old_id) == "true");
  BOOST_TEST(One("SELECT (retired_at IS NULL)::text FROM signing_keys WHERE id = $1", new_id) == "true");
  BOOST_TEST(*it::PgQuery("SELECT string_agg(id, ',') FROM signing_keys WHERE algorithm = 'ECDSA-P256' AND "
                          "retired_at IS NULL")
                  .at(0)
                  .at(0) == new_id);

  // A new ingest signs with the new key; the attestations of before still verify, with the old.
  Ingested after = IngestBoth(dir, "rotate-new");
  BOOST_TEST(after.out.find("attestations: 2 signed with key " + new_id + "\n") != std::string::npos, after.out);
  BOOST_TEST((VerifiedAttestations(after.version_id) ==
              std::map<std::string, std::string>{{"spdx", new_id}, {"cyclonedx", new_id}}));
  BOOST_TEST((VerifiedAttestations(before.version_id) ==
              std::map<std::string, std::string>{{"spdx", old_id}, {"cyclonedx", old_id}}));

  // The old key file, kept by someone: ingest and attest refuse it, and store nothing.
  std::map<std::string, long long> counts = it::TableCounts();
  std::string report = it::Fixture(kAlpine310);
  std::string refused_image = "it-rotate-refused-" + it::RandomSuffix(6);
  it::IngestArgs refused_args = {refused_image, "1.0", it::ReportDigest(report), report, std::nullopt,
                                 dir.Write("refused.cdx.json", it::MinimalCycloneDx(report, "2022-07-02T00:00:00Z")),
                                 "registry.example.test/it/" + refused_image, std::nullopt, {}};
  it::ProcessResult refused = it::Ingest(refused_args, {"ICAT_ATTESTATION_KEY_FILE=" + old_key_copy});
  BOOST_TEST(refused.exit_code == 1, refused.out << refused.err);
  BOOST_TEST(refused.err.find("ICAT_ATTESTATION_KEY_FILE holds key " + old_id + ", retired at ") != std::string::npos,
             refused.err);
  BOOST_TEST(refused.err.find("use the current key file") != std::string::npos, refused.err);
  BOOST_TEST((it::TableCounts() == counts));
  it::ProcessResult attest = IcatctlWithKey(old_key_copy, {"attest"});
  BOOST_TEST(attest.exit_code == 1, attest.out << attest.err);
  BOOST_TEST(attest.err.find("retired at") != std::string::npos, attest.err);

  // list: both keys, their use and state, and which the configured files hold.
  it::ProcessResult list = it::Icatctl({"signing-key", "list"});
  BOOST_TEST_REQUIRE(list.exit_code == 0, list.err);
  std::map<std::string, std::vector<std::string>> rows;  // the columns of each key's line, by id
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> columns;
    for (std::string word; words >> word;) columns.push_back(word);
    if (!columns.empty()) rows[columns[0]] = columns;
  }
  BOOST_TEST((rows["ID"] == std::vector<std::string>{"ID", "ALGORITHM", "USE", "CREATED", "RETIRED", "FILE"}), list.out);
  BOOST_TEST_REQUIRE(rows[old_id].size() == 6u, list.out);
  BOOST_TEST_REQUIRE(rows[new_id].size() == 6u, list.out);
  BOOST_TEST(rows[old_id][1] + " " + rows[old_id][2] == "ECDSA-P256 attestations");
  BOOST_TEST(rows[old_id][4] != "-");  // retired
  BOOST_TEST(rows[old_id][5] == "-");  // in no file
  BOOST_TEST(rows[new_id][1] + " " + rows[new_id][2] == "ECDSA-P256 attestations");
  BOOST_TEST(rows[new_id][4] == "-");
  BOOST_TEST(rows[new_id][5] == "ICAT_ATTESTATION_KEY_FILE");
  const char* signing_file = std::getenv("ICAT_SIGNING_KEY_FILE");
  BOOST_TEST_REQUIRE(signing_file != nullptr);
  std::string ed25519_id = icat::SigningKeyId(icat::Ed25519PublicKeyPem(it::ReadFileBytes(signing_file)));
  BOOST_TEST_REQUIRE(rows[ed25519_id].size() == 6u, list.out);
  BOOST_TEST(rows[ed25519_id][2] == "signatures");
  BOOST_TEST(rows[ed25519_id][5] == "ICAT_SIGNING_KEY_FILE");
}

BOOST_AUTO_TEST_CASE(rotate_and_list_say_what_is_missing) {
  it::TempDir dir;
  it::ProcessResult rotate = IcatctlWithKey(dir.path() + "/none.pem", {"signing-key", "rotate"});
  BOOST_TEST(rotate.exit_code == 1, rotate.err);
  BOOST_TEST(rotate.err.find("does not exist (icatctl signing-key create makes it)") != std::string::npos, rotate.err);
  it::ProcessResult list = IcatctlWithKey(dir.path() + "/none.pem", {"signing-key", "list"});
  BOOST_TEST(list.exit_code == 0, list.err);
  BOOST_TEST(list.err.find("ICAT_ATTESTATION_KEY_FILE: cannot read") != std::string::npos, list.err);
  BOOST_TEST(list.out.find("ICAT_ATTESTATION_KEY_FILE") == std::string::npos, list.out);
}

BOOST_AUTO_TEST_SUITE_END()
