// build/bin/icat verify against the stack (issue 27 item 4): every attestation of an ingested version
// (both SBOMs and both VEX documents) verifies with the published key; a document or a bundle changed
// in the blob store, or on the way, makes it exit 1 naming the type and the reason; a version without
// attestations exits 1 saying so. And icat sbom / icat vex refuse a download its attestation does
// not vouch for.
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "icat_client_support.hpp"

namespace it = icat::test;
using it::kAllReads;
using it::kAlpine310;
using it::Shown;
using it::TamperingProxy;

namespace {

// An image with one scanned version (kAlpine310, made-up SBOMs of both formats) and the vendor's
// OpenVEX statements about it (so both VEX documents are served), licensed to the tenant.
struct Attested {
  it::Tenant tenant;
  it::TempDir dir;
  std::string name, repository, digest, version_id, key;

  Attested() {
    name = "it-verify-" + it::RandomSuffix(6);
    repository = "registry.example.test/it/" + name;
    std::string report = it::Fixture(kAlpine310);
    std::string time = "2022-07-01T17:00:00Z";
    digest = it::RandomDigest();
    std::string spdx = dir.Write(name + ".spdx.json", it::MinimalSpdx(report, time));
    std::string cyclonedx = dir.Write(name + ".cdx.json", it::MinimalCycloneDx(report, time));
    it::IngestOk({name, "1.0", digest, report, spdx, cyclonedx, repository, std::nullopt, {}});
    it::VexIngestOk(
        dir, R"({"@context": "https://openvex.dev/ns/v0.2.0", "@id": "https://vendor.test/vex/)" + it::RandomSuffix(8) +
                 R"(", "author": "Vendor Security", "timestamp": "2026-01-10T10:00:00Z", "version": 1, )"
                 R"("statements": [{"vulnerability": {"name": "CVE-2019-1549"}, "products": [{"@id": "pkg:oci/)" +
                 name + "?repository_url=" + repository +
                 R"("}], "status": "not_affected", "justification": "vulnerable_code_not_present"}]})");
    it::Image image;
    image.name = name;
    image.id = *it::PgQuery("SELECT id FROM images WHERE name = $1", {name}).at(0).at(0);
    version_id = *it::PgQuery("SELECT id FROM image_versions WHERE image_id = $1", {image.id}).at(0).at(0);
    tenant.License(image);
    key = tenant.CreateKey(kAllReads);
  }

  // The attestation of a type as stored: {document's sha256, bundle's sha256, key id}.
  std::vector<std::string> Stored(const std::string& type) const {
    std::vector<it::PgRow> rows = it::PgQuery(
        "SELECT document_sha256, sha256, signing_key_id FROM served_attestations WHERE version_id = $1 AND type = $2",
        {version_id, type});
    BOOST_TEST_REQUIRE(rows.size() == 1u, "no served " << type << " attestation of " << name);
    return {*rows[0][0], *rows[0][1], *rows[0][2]};
  }
};

// A blob of the stack's blob store with one byte changed in place (same size, same file) while it
// lives; put back as it was in every case.
class ChangedBlob {
 public:
  explicit ChangedBlob(const std::string& sha256) {
    const char* dir = std::getenv("ICAT_BLOB_DIR");
    BOOST_TEST_REQUIRE((dir && *dir), "ICAT_BLOB_DIR is not set");
    path_ = std::string(dir) + "/sha256/" + sha256.substr(0, 2) + "/" + sha256;
    original_ = it::ReadFileBytes(path_);
    BOOST_TEST_REQUIRE(!original_.empty());
    std::string changed = original_;
    changed[changed.size() / 2] ^= 1;
    it::WriteFileBytes(path_, changed);
  }
  ~ChangedBlob() { it::WriteFileBytes(path_, original_); }
  ChangedBlob(const ChangedBlob&) = delete;
  ChangedBlob& operator=(const ChangedBlob&) = delete;

 private:
  std::string path_, original_;
};

const std::vector<std::pair<std::string, std::string>> kTypes = {
    {"spdx", "https://spdx.dev/Document"},
    {"cyclonedx", "https://cyclonedx.org/bom"},
    {"openvex", "https://openvex.dev/ns/v0.2.0"},
    {"cyclonedx-vex", "https://cyclonedx.org/bom"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(icat_verify)

BOOST_AUTO_TEST_CASE(verify_exits_0_with_a_line_per_attestation_of_both_sboms_and_both_vex_documents) {
  Attested a;
  std::string key_id = a.Stored("spdx")[2];
  for (const std::string& spec : {a.name, a.name + ":1.0", a.repository + "@" + a.digest}) {
    BOOST_TEST_CONTEXT(spec) {
      it::ProcessResult r = it::RunIcat(a.dir, a.key, {"verify", spec});
      BOOST_TEST_REQUIRE(r.exit_code == 0, Shown(r));
      std::string expected;
      for (const auto& [type, predicate_type] : kTypes)
        expected += "ok " + type + "  " + predicate_type + "  key " + key_id + "\n";
      expected += "verified " + a.name + " 1.0 (" + a.digest +
                  "): 4 attestations, each signed with a published key, "
                  "about this digest, over the document as served\n";
      BOOST_TEST(r.out == expected);
      BOOST_TEST(r.err == "");
    }
  }
  // A digest that is not the version's: no such version, an error (2).
  it::ProcessResult other = it::RunIcat(a.dir, a.key, {"verify", a.name + "@" + it::RandomDigest()});
  BOOST_TEST(other.exit_code == 2, Shown(other));
  BOOST_TEST(other.err.find("has no version with digest") != std::string::npos, other.err);
}

BOOST_AUTO_TEST_CASE(a_document_or_bundle_changed_in_the_blob_store_exits_1_naming_the_type_and_the_reason) {
  Attested a;
  {
    ChangedBlob document(a.Stored("spdx")[0]);
    it::ProcessResult r = it::RunIcat(a.dir, a.key, {"verify", a.name});
    BOOST_TEST(r.exit_code == 1, Shown(r));
    BOOST_TEST(r.out.find("FAIL spdx  https://spdx.dev/Document: the SPDX SBOM's download: checksum mismatch: the "
                          "ETag says sha256:") != std::string::npos,
               r.out);
    BOOST_TEST(r.out.find("ok cyclonedx  ") != std::string::npos, r.out);  // the others still verify
    BOOST_TEST(r.err == "icat: " + a.name + " 1.0 (" + a.digest + "): 1 of 4 attestations did not verify\n", r.err);
  }
  {
    ChangedBlob bundle(a.Stored("openvex")[1]);
    it::ProcessResult r = it::RunIcat(a.dir, a.key, {"verify", a.name});
    BOOST_TEST(r.exit_code == 1, Shown(r));
    BOOST_TEST(r.out.find("FAIL openvex  https://openvex.dev/ns/v0.2.0: the bundle's download: checksum mismatch") !=
                   std::string::npos,
               r.out);
  }
  it::ProcessResult restored = it::RunIcat(a.dir, a.key, {"verify", a.name});
  BOOST_TEST(restored.exit_code == 0, Shown(restored));
}

// Changed on the way with the checksums restated for the changed bytes: only the attestation tells.
BOOST_AUTO_TEST_CASE(a_document_or_bundle_changed_on_the_way_with_matching_checksums_exits_1) {
  Attested a;
  {
    TamperingProxy proxy(TamperingProxy::kRestate);
    it::ProcessResult r = it::RunIcat(a.dir, a.key, {"verify", a.name}, proxy.Url());
    BOOST_TEST(proxy.tampered() == 4);
    BOOST_TEST(r.exit_code == 1, Shown(r));
    for (const auto& [type, predicate_type] : kTypes) {
      BOOST_TEST(r.out.find("FAIL " + type + "  " + predicate_type + ": ") != std::string::npos, r.out);
    }
    BOOST_TEST(r.err.find(": 4 of 4 attestations did not verify") != std::string::npos, r.err);
  }
  {
    TamperingProxy proxy(TamperingProxy::kRestate, TamperingProxy::kBundles);
    it::ProcessResult r = it::RunIcat(a.dir, a.key, {"verify", a.name}, proxy.Url());
    BOOST_TEST(proxy.tampered() == 4);
    BOOST_TEST(r.exit_code == 1, Shown(r));
    BOOST_TEST(r.out.find("ok ") == std::string::npos, r.out);
  }
}

BOOST_AUTO_TEST_CASE(a_version_without_attestations_exits_1_saying_so) {
  it::Tenant tenant;
  it::TempDir dir;
  it::Image image = tenant.AddImage("unattested", {{"1.0"}});  // never scanned: no document, no attestation
  it::ProcessResult r = it::RunIcat(dir, tenant.CreateKey(kAllReads), {"verify", image.name + ":1.0"});
  BOOST_TEST(r.exit_code == 1, Shown(r));
  BOOST_TEST(r.out == "");
  BOOST_TEST(r.err.find("icat: " + image.name + " 1.0 (sha256:") == 0, r.err);
  BOOST_TEST(r.err.find(") has no attestations: the service has signed none of its documents") != std::string::npos,
             r.err);
}

// icat sbom and icat vex check the attestation of what they download: the message names it.
BOOST_AUTO_TEST_CASE(sbom_and_vex_say_the_attestation_verified_and_refuse_what_it_does_not_vouch_for) {
  Attested a;
  std::string key_id = a.Stored("spdx")[2];
  std::string out = a.dir.path() + "/sbom.cdx.json";
  it::ProcessResult sbom = it::RunIcat(a.dir, a.key, {"sbom", a.name, "--format", "cyclonedx", "-o", out});
  BOOST_TEST_REQUIRE(sbom.exit_code == 0, Shown(sbom));
  BOOST_TEST(
      sbom.out.find(", checksum and attestation verified (cyclonedx, key " + key_id + ")\n") != std::string::npos,
      sbom.out);
  std::string vex_out = a.dir.path() + "/vex.cdx.json";
  it::ProcessResult vex = it::RunIcat(a.dir, a.key, {"vex", a.name, "--format", "cyclonedx", "-o", vex_out});
  BOOST_TEST_REQUIRE(vex.exit_code == 0, Shown(vex));
  BOOST_TEST(vex.out.find("checksum and attestation verified (cyclonedx-vex, key " + key_id + ")") != std::string::npos,
             vex.out);
  // The bundle changed on the way: refused, nothing written.
  std::string refused = a.dir.path() + "/refused.json";
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"sbom", a.name, "--format", "spdx", "-o", refused},
        std::vector<std::string>{"vex", a.name, "-o", refused}}) {
    BOOST_TEST_CONTEXT(command[0]) {
      TamperingProxy proxy(TamperingProxy::kRestate, TamperingProxy::kBundles);
      it::ProcessResult r = it::RunIcat(a.dir, a.key, command, proxy.Url());
      BOOST_TEST(proxy.tampered() == 1);
      BOOST_TEST(r.exit_code == 2, Shown(r));
      BOOST_TEST(r.err.find("refusing the " + a.name + " 1.0 ") != std::string::npos, r.err);
      BOOST_TEST(r.err.find(") does not verify: ") != std::string::npos, r.err);
      BOOST_TEST(!std::filesystem::exists(refused));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
