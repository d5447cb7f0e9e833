// SBOM signatures (Ed25519 over the exact bytes, key ids) and the content-addressed blob store.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "icat/crypto.hpp"
#include "ingest/ingest_blobs.hpp"
#include "ingest/session.hpp"
#include "tests/unit/fixtures.hpp"

namespace ctl = icat::ctl;
using icat::test::kRfc8032Private;
using icat::test::ReadAll;
using icat::test::TempDir;

namespace {

int Mode(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ingest_signing)

BOOST_AUTO_TEST_CASE(ed25519_signs_the_rfc_8032_empty_message_as_the_rfc_says) {
  std::string signature = icat::Ed25519Sign(kRfc8032Private, "");
  BOOST_TEST(icat::HexEncode(signature) ==
             "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f05"
             "95bbe24655141438e7a100b");
  std::string public_pem = icat::Ed25519PublicKeyPem(kRfc8032Private);
  BOOST_TEST(public_pem.rfind("-----BEGIN PUBLIC KEY-----\n", 0) == 0u);
  BOOST_TEST(icat::Ed25519Verify(public_pem, "", signature));
  BOOST_TEST(!icat::Ed25519Verify(public_pem, "x", signature));
  std::string tampered = signature;
  tampered[0] ^= 1;
  BOOST_TEST(!icat::Ed25519Verify(public_pem, "", tampered));
}

BOOST_AUTO_TEST_CASE(the_key_id_is_sha256_of_the_public_key_der_cut_to_16_hex) {
  std::string public_pem = icat::Ed25519PublicKeyPem(kRfc8032Private);
  // SubjectPublicKeyInfo DER of Ed25519: 12 fixed bytes, then the 32-byte public key d75a...511a.
  std::string der = std::string("\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00", 12);
  const char* key_hex = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  for (int i = 0; i < 32; i++) {
    unsigned value = 0;
    std::sscanf(key_hex + 2 * i, "%2x", &value);
    der += static_cast<char>(value);
  }
  BOOST_TEST(icat::SigningKeyId(public_pem) == icat::Sha256Hex(der).substr(0, 16));
  BOOST_TEST(icat::SigningKeyId(public_pem).size() == 16u);
}

BOOST_AUTO_TEST_CASE(the_jwk_x_of_an_ed25519_key_is_its_raw_32_bytes_as_rfc_8037_shows) {
  // RFC 8037 appendix A.2: the public key of the RFC 8032 test key.
  std::string public_pem = icat::Ed25519PublicKeyPem(kRfc8032Private);
  BOOST_TEST(icat::Ed25519JwkX(public_pem) == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
  BOOST_CHECK_THROW(icat::Ed25519JwkX(icat::EcdsaP256PublicKeyPem(icat::EcdsaP256NewPrivateKeyPem())),
                    std::runtime_error);
}

BOOST_AUTO_TEST_CASE(keys_that_are_not_ed25519_are_refused) {
  BOOST_CHECK_THROW(icat::Ed25519Sign("not a pem", "x"), std::runtime_error);
  BOOST_CHECK_THROW(icat::Ed25519PublicKeyPem(""), std::runtime_error);
  BOOST_CHECK_THROW(icat::SigningKeyId(kRfc8032Private), std::runtime_error);  // a private key is no public key
  BOOST_CHECK_THROW(icat::Ed25519Verify("junk", "x", "y"), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(blobs_are_stored_content_addressed_world_readable_and_once) {
  TempDir dir;
  std::string blob_dir = dir.path + "/blobs";
  std::string bytes = "{\"bomFormat\": \"CycloneDX\"}\n";
  std::string hex = icat::Sha256Hex(bytes);
  BOOST_TEST(ctl::BlobRelativePath(hex) == "sha256/" + hex.substr(0, 2) + "/" + hex);
  BOOST_TEST(ctl::StoreBlob(blob_dir, bytes, hex));
  std::string path = blob_dir + "/" + ctl::BlobRelativePath(hex);
  BOOST_TEST(ReadAll(path) == bytes);
  BOOST_TEST(Mode(path) == 0644);
  BOOST_TEST(Mode(blob_dir + "/sha256/" + hex.substr(0, 2)) == 0755);
  BOOST_TEST(Mode(blob_dir + "/sha256") == 0755);
  BOOST_TEST(!ctl::StoreBlob(blob_dir, bytes, hex));  // already there: nothing written
  size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(blob_dir)) files += entry.is_regular_file();
  BOOST_TEST(files == 1u, "a temp file was left behind");
}

BOOST_AUTO_TEST_CASE(a_truncated_blob_under_the_final_name_is_replaced) {
  TempDir dir;
  std::string bytes(10000, 'x');
  std::string hex = icat::Sha256Hex(bytes);
  std::string path = dir.path + "/" + ctl::BlobRelativePath(hex);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "xx";
  BOOST_TEST(ctl::StoreBlob(dir.path, bytes, hex));
  BOOST_TEST(ReadAll(path) == bytes);
}

BOOST_AUTO_TEST_CASE(an_unwritable_blob_store_fails_with_a_message_naming_the_path) {
  TempDir dir;
  std::string file = dir.path + "/a-file";
  std::ofstream(file) << "x";
  try {
    (void)ctl::StoreBlob(file + "/blobs", "x", icat::Sha256Hex("x"));
    BOOST_ERROR("StoreBlob under a regular file succeeded");
  } catch (const ctl::Failure& e) {
    BOOST_TEST(std::string(e.what()).find(file) != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()
