// The attestation image icatctl registry attach pushes (tools/icatctl/registry_attach.hpp): cosign's
// layout (an OCI image manifest, an OCI config naming the layers, one DSSE envelope layer per
// attestation with cosign's annotations), and the same bytes for the same attestations.
#include "tools/icatctl/registry_attach.hpp"

#include <boost/test/unit_test.hpp>

#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace {

const std::vector<icat::ctl::AttestationLayer> kLayers = {
    {"https://spdx.dev/Document", R"({"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[]})"},
    {"https://cyclonedx.org/bom", R"({"payloadType":"application/vnd.in-toto+json","payload":"e31=","signatures":[]})"},
};

rapidjson::Document Parsed(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  BOOST_TEST_REQUIRE(doc.IsObject(), text);
  return doc;
}

std::string Digest(const std::string& bytes) { return "sha256:" + icat::Sha256Hex(bytes); }

}  // namespace

BOOST_AUTO_TEST_SUITE(registry_attach)

BOOST_AUTO_TEST_CASE(the_image_is_cosigns_attestation_layout) {
  icat::ctl::AttestationImage image = icat::ctl::CosignAttestationImage(kLayers);
  rapidjson::Document manifest = Parsed(image.manifest);
  BOOST_TEST(image.digest == Digest(image.manifest));
  BOOST_TEST(manifest["schemaVersion"].GetInt() == 2);
  BOOST_TEST(manifest["mediaType"].GetString() == std::string("application/vnd.oci.image.manifest.v1+json"));
  BOOST_TEST(manifest["config"]["mediaType"].GetString() == std::string("application/vnd.oci.image.config.v1+json"));
  BOOST_TEST(manifest["config"]["digest"].GetString() == Digest(image.config));
  BOOST_TEST(manifest["config"]["size"].GetInt64() == static_cast<int64_t>(image.config.size()));
  const rapidjson::Value& layers = manifest["layers"];
  BOOST_TEST_REQUIRE(layers.Size() == kLayers.size());
  rapidjson::Document config = Parsed(image.config);
  for (rapidjson::SizeType i = 0; i < layers.Size(); ++i) {
    BOOST_TEST_CONTEXT("layer " << i) {
      BOOST_TEST(layers[i]["mediaType"].GetString() == std::string("application/vnd.dsse.envelope.v1+json"));
      BOOST_TEST(layers[i]["digest"].GetString() == Digest(kLayers[i].envelope));
      BOOST_TEST(layers[i]["size"].GetInt64() == static_cast<int64_t>(kLayers[i].envelope.size()));
      const rapidjson::Value& annotations = layers[i]["annotations"];
      BOOST_TEST(annotations.MemberCount() == 2u);
      BOOST_TEST_REQUIRE(annotations.HasMember("dev.cosignproject.cosign/signature"));
      BOOST_TEST_REQUIRE(annotations.HasMember("predicateType"));
      BOOST_TEST(annotations["dev.cosignproject.cosign/signature"].GetString() == std::string(""));
      BOOST_TEST(annotations["predicateType"].GetString() == kLayers[i].predicate_type);
      // Layers are stored uncompressed: the config names each by its digest, with a history entry.
      BOOST_TEST(config["rootfs"]["diff_ids"][i].GetString() == Digest(kLayers[i].envelope));
    }
  }
  BOOST_TEST(config["rootfs"]["type"].GetString() == std::string("layers"));
  BOOST_TEST(config["history"].Size() == kLayers.size());
  BOOST_TEST(config["created"].GetString() == std::string("0001-01-01T00:00:00Z"));  // no clock in it
}

BOOST_AUTO_TEST_CASE(the_same_attestations_make_the_same_manifest_and_any_change_another) {
  icat::ctl::AttestationImage first = icat::ctl::CosignAttestationImage(kLayers);
  icat::ctl::AttestationImage again = icat::ctl::CosignAttestationImage(kLayers);
  BOOST_TEST(first.manifest == again.manifest);
  BOOST_TEST(first.config == again.config);
  BOOST_TEST(first.digest == again.digest);

  std::vector<icat::ctl::AttestationLayer> reordered = {kLayers[1], kLayers[0]};
  BOOST_TEST(icat::ctl::CosignAttestationImage(reordered).digest != first.digest);
  std::vector<icat::ctl::AttestationLayer> changed = kLayers;
  changed[0].envelope.back() = ' ';
  BOOST_TEST(icat::ctl::CosignAttestationImage(changed).digest != first.digest);
  std::vector<icat::ctl::AttestationLayer> fewer = {kLayers[0]};
  BOOST_TEST(icat::ctl::CosignAttestationImage(fewer).digest != first.digest);
}

BOOST_AUTO_TEST_SUITE_END()
