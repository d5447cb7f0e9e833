// The registry's pure pieces: repository names, an image's size from its manifest, and what a /v2/
// request asks for, read from its raw URI (docs/registry.md).
#include <boost/test/unit_test.hpp>

#include "../../handlers/registry/registry.hpp"
#include "icat/registry.hpp"

using icat::registry::ParseRegistryRequest;
using icat::registry::Target;

BOOST_AUTO_TEST_SUITE(registry_names)

BOOST_AUTO_TEST_CASE(names_follow_the_distribution_grammar) {
  for (const char* name : {"nginx", "hardened/nginx", "a/b/c", "a-b", "a--b", "a.b", "a_b", "a__b", "x1/y2"}) {
    BOOST_TEST(icat::IsRepositoryName(name), name);
  }
  for (const char* name : {"", "/", "a/", "/a", "a//b", "A", "hardened/Nginx", "a..b", "a___b", "..", "a/../b",
                           "-a", "a-", ".a", "a%2fb", "a b", "ä"}) {
    BOOST_TEST(!icat::IsRepositoryName(name), name);
  }
  BOOST_TEST(!icat::IsRepositoryName(std::string(256, 'a')));
}

BOOST_AUTO_TEST_CASE(catalogue_repositories_and_registry_names_convert_on_the_registrys_host_only) {
  const std::string setting = "localhost:8443/hardened";
  BOOST_TEST(icat::CatalogueRepository(setting, "hardened/nginx") == "localhost:8443/hardened/nginx");
  BOOST_TEST(icat::RegistryName(setting, "localhost:8443/hardened/nginx").value_or("-") == "hardened/nginx");
  BOOST_TEST(!icat::RegistryName(setting, "registry.example.test/hardened/nginx"));
  BOOST_TEST(!icat::RegistryName(setting, "localhost:84430/hardened/nginx"));
  BOOST_TEST(!icat::RegistryName(setting, "localhost:8443/"));
  BOOST_TEST(!icat::RegistryName(setting, "localhost:8443/Hardened/nginx"));
}

BOOST_AUTO_TEST_CASE(an_images_bytes_are_its_config_and_layers_or_an_indexs_manifests) {
  BOOST_TEST(icat::ManifestImageBytes(R"({"schemaVersion":2,"config":{"size":100},"layers":[{"size":20},{"size":3}]})")
                 .value_or(-1) == 123);
  BOOST_TEST(icat::ManifestImageBytes(R"({"schemaVersion":2,"manifests":[{"size":500},{"size":600}]})").value_or(-1) ==
             1100);
  BOOST_TEST(!icat::ManifestImageBytes(R"({"config":{"size":"1"},"layers":[]})"));
  BOOST_TEST(!icat::ManifestImageBytes(R"({"config":{"size":1},"layers":[{}]})"));
  BOOST_TEST(!icat::ManifestImageBytes("not json"));
  BOOST_TEST(!icat::ManifestImageBytes(std::string(100000, '[')));  // bounded depth, no crash
}

// cosign's attachment tags name no version: publishing skips exactly these.
BOOST_AUTO_TEST_CASE(cosigns_attachment_tags_are_told_from_version_tags) {
  const std::string hex(64, 'a');
  for (const std::string& tag : {"sha256-" + hex + ".att", "sha256-" + hex + ".sig", "sha256-" + hex + ".sbom"}) {
    BOOST_TEST(icat::IsAttachmentTag(tag), tag);
  }
  for (const std::string& tag :
       {std::string("1.27.3"), "sha256-" + hex, "sha256-" + hex + ".att2", "sha256-" + hex.substr(1) + ".att",
        "sha256-" + std::string(64, 'A') + ".att", "sha512-" + hex + ".att", "sha256-" + hex + "a.att",
        "x-sha256-" + hex + ".att", std::string("latest")}) {
    BOOST_TEST(!icat::IsAttachmentTag(tag), tag);
  }
  BOOST_TEST(icat::AttestationTag("sha256:" + hex) == "sha256-" + hex + ".att");
  BOOST_TEST(icat::IsAttachmentTag(icat::AttestationTag("sha256:" + hex)));
}

BOOST_AUTO_TEST_CASE(artifacts_are_told_from_images_by_their_config) {
  BOOST_TEST(!icat::IsArtifactConfig("application/vnd.oci.image.config.v1+json"));
  BOOST_TEST(!icat::IsArtifactConfig("application/vnd.docker.container.image.v1+json"));
  BOOST_TEST(!icat::IsArtifactConfig(""));  // an index
  BOOST_TEST(icat::IsArtifactConfig("application/vnd.cncf.helm.config.v1+json"));
  BOOST_TEST(icat::IsArtifactConfig("application/vnd.oci.empty.v1+json"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(registry_requests)

BOOST_AUTO_TEST_CASE(each_path_of_the_v2_api_is_read_with_its_name) {
  auto base = ParseRegistryRequest("GET", "/v2/");
  BOOST_TEST((base.target == Target::kBase));
  auto tags = ParseRegistryRequest("GET", "/v2/hardened/nginx/tags/list?n=10&last=a");
  BOOST_TEST((tags.target == Target::kTags));
  BOOST_TEST(tags.name == "hardened/nginx");
  auto manifest = ParseRegistryRequest("HEAD", "/v2/hardened/nginx/manifests/1.27.3");
  BOOST_TEST((manifest.target == Target::kManifest));
  BOOST_TEST(manifest.reference == "1.27.3");
  BOOST_TEST(manifest.method == "HEAD");
  auto by_digest = ParseRegistryRequest("GET", "/v2/a/manifests/sha256:" + std::string(64, 'a'));
  BOOST_TEST((by_digest.target == Target::kManifest));
  auto blob = ParseRegistryRequest("GET", "/v2/a/b/blobs/sha256:" + std::string(64, '0'));
  BOOST_TEST((blob.target == Target::kBlob));
  BOOST_TEST(blob.name == "a/b");
  for (const char* upload : {"/v2/a/blobs/uploads/", "/v2/a/blobs/uploads/3f2e-11", "/v2/a/blobs/uploads/x?digest=y"}) {
    auto asked = ParseRegistryRequest("POST", upload);
    BOOST_TEST((asked.target == Target::kUpload), upload);
    BOOST_TEST(asked.name == "a", upload);
  }
  // A name may hold the words the API uses as segments: the last one decides.
  auto tricky = ParseRegistryRequest("GET", "/v2/manifests/blobs/manifests/1");
  BOOST_TEST((tricky.target == Target::kManifest));
  BOOST_TEST(tricky.name == "manifests/blobs");
}

BOOST_AUTO_TEST_CASE(anything_outside_the_grammar_is_other_and_names_nothing) {
  for (const char* uri : {"/v2/a/../b/tags/list", "/v2/%61/tags/list", "/v2/A/tags/list", "/v2/a/manifests/..",
                          "/v2/a/manifests/", "/v2/a/manifests/x/y", "/v2/a", "/v2/a/tags", "/v3/a/tags/list", "",
                          "/v2/a/blobs/", "/v2//tags/list", "/v2/a/manifests/-x"}) {
    auto asked = ParseRegistryRequest("GET", uri);
    BOOST_TEST((asked.target == Target::kOther), uri);
    BOOST_TEST(asked.name.empty(), uri);
  }
}

BOOST_AUTO_TEST_SUITE_END()
