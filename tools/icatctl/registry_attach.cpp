// icatctl registry attach: the served attestations of each published version, in the registry at
// cosign's .att tag (registry_attach.hpp). Read from served_attestations and the blob store, pushed
// to the registry itself; a version whose tag already holds the same manifest is left alone.
#include "registry_attach.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <tuple>

#include "commands.hpp"
#include "icat/attestation.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/registry.hpp"
#include "ingest/ingest_blobs.hpp"

namespace icat::ctl {

namespace {

constexpr std::string_view kOciConfigMediaType = "application/vnd.oci.image.config.v1+json";
// cosign's layer annotation that holds a signature: empty for an attestation, whose signature is in
// the envelope.
constexpr std::string_view kSignatureAnnotation = "dev.cosignproject.cosign/signature";
// The zero time the image tooling cosign builds on writes when no creation time is recorded: no clock
// in the config, so the same attestations always make the same manifest.
constexpr std::string_view kNoTime = "0001-01-01T00:00:00Z";

// $1 a catalogue image's name or NULL (every image): the served attestations of each version, by
// repository and digest (several tags of one digest are one image manifest).
constexpr std::string_view kServedAttestations =
    "SELECT i.repository, v.digest, a.type, a.document_sha256, a.sha256 FROM served_attestations a "
    "JOIN image_versions v ON v.id = a.version_id JOIN images i ON i.id = v.image_id "
    "WHERE ($1::text IS NULL OR i.name = $1) AND v.digest IS NOT NULL ORDER BY i.repository, v.digest";

std::string Sha256Digest(std::string_view bytes) { return "sha256:" + Sha256Hex(bytes); }

void WriteDescriptor(JsonWriter& w, std::string_view media_type, std::string_view bytes) {
  WriteString(w, "mediaType", media_type);
  WriteInt(w, "size", static_cast<long long>(bytes.size()));
  WriteString(w, "digest", Sha256Digest(bytes));
}

// The bundle's bytes from the blob store, checked against their name.
// One version's served attestations, in kAttestationTypes order (then by document), as layers.
struct Subject {
  std::string repository, digest;
  struct Row {
    size_t type_order;
    std::string document_sha256, bundle_sha256, predicate_type;
  };
  std::vector<Row> rows;
};

std::vector<AttestationLayer> Layers(const std::string& blob_dir, Subject& subject) {
  std::sort(subject.rows.begin(), subject.rows.end(), [](const Subject::Row& a, const Subject::Row& b) {
    return std::tie(a.type_order, a.document_sha256) < std::tie(b.type_order, b.document_sha256);
  });
  std::vector<AttestationLayer> layers;
  for (const Subject::Row& row : subject.rows) {
    std::string bundle = ReadBlob(blob_dir, row.bundle_sha256);
    try {
      layers.push_back({row.predicate_type, DsseEnvelopeOf(bundle)});
    } catch (const std::runtime_error& error) {  // a bundle that is not one: this version only
      throw Failure("bundle " + row.bundle_sha256 + ": " + error.what());
    }
  }
  return layers;
}

std::vector<Subject> ServedSubjects(Db& db, const std::optional<std::string>& image) {
  Rows rows = db.RunSql(kServedAttestations, {image});
  std::vector<Subject> subjects;
  for (int i = 0; i < rows.size(); ++i) {
    std::string repository(rows.Text(i, rows.Column("repository"))), digest(rows.Text(i, rows.Column("digest")));
    if (subjects.empty() || subjects.back().repository != repository || subjects.back().digest != digest) {
      subjects.push_back({repository, digest, {}});
    }
    const AttestationType* type = FindAttestationType(rows.Text(i, rows.Column("type")));
    if (type == nullptr) continue;  // the table's CHECK allows none other
    subjects.back().rows.push_back(
        {static_cast<size_t>(type - kAttestationTypes), std::string(rows.Text(i, rows.Column("document_sha256"))),
         std::string(rows.Text(i, rows.Column("sha256"))), std::string(type->predicate_type)});
  }
  return subjects;
}

// Pushes one version's attestation image unless its tag holds it already.
void AttachSubject(RegistryClient& registry, const std::string& blob_dir, const std::string& name, Subject& subject,
                   AttachOutcomes& outcomes) {
  if (!registry.ManifestDigest(name, subject.digest)) {
    outcomes.not_pushed++;
    return;
  }
  std::vector<AttestationLayer> layers = Layers(blob_dir, subject);
  AttestationImage image = CosignAttestationImage(layers);
  std::string tag = AttestationTag(subject.digest);
  if (registry.ManifestDigest(name, tag) == image.digest) {
    outcomes.unchanged++;
    return;
  }
  registry.PushBlob(name, image.config);
  for (const AttestationLayer& layer : layers) registry.PushBlob(name, layer.envelope);
  registry.PushManifest(name, tag, kOciManifestMediaType, image.manifest);
  outcomes.attached++;
  std::cout << "attached " << subject.repository << "@" << subject.digest << ": " << layers.size()
            << " attestations at " << tag << " (" << image.digest << ")\n";
}

}  // namespace

void RequireRegistryUpstream(const Config& config) {
  const std::string& upstream = config.registry_upstream;
  if (upstream.rfind("http://", 0) != 0 && upstream.rfind("https://", 0) != 0) {
    throw UsageError("ICAT_REGISTRY_UPSTREAM: '" + upstream + "' is no http(s):// URL");
  }
}

AttestationImage CosignAttestationImage(const std::vector<AttestationLayer>& layers) {
  rapidjson::StringBuffer config_buffer;
  JsonWriter config(config_buffer);
  config.StartObject();
  WriteString(config, "architecture", "");
  WriteString(config, "created", kNoTime);
  WriteKey(config, "history");
  config.StartArray();
  for (size_t i = 0; i < layers.size(); ++i) {
    config.StartObject();
    WriteString(config, "created", kNoTime);
    config.EndObject();
  }
  config.EndArray();
  WriteString(config, "os", "");
  WriteKey(config, "rootfs");
  config.StartObject();
  WriteString(config, "type", "layers");
  WriteKey(config, "diff_ids");
  config.StartArray();
  for (const AttestationLayer& layer : layers) {  // a layer stored uncompressed: its diff_id is its digest
    std::string diff_id = Sha256Digest(layer.envelope);
    config.String(diff_id.c_str(), static_cast<rapidjson::SizeType>(diff_id.size()));
  }
  config.EndArray();
  config.EndObject();
  WriteKey(config, "config");
  config.StartObject();
  config.EndObject();
  config.EndObject();

  AttestationImage image;
  image.config = config_buffer.GetString();
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteInt(w, "schemaVersion", 2);
  WriteString(w, "mediaType", kOciManifestMediaType);
  WriteKey(w, "config");
  w.StartObject();
  WriteDescriptor(w, kOciConfigMediaType, image.config);
  w.EndObject();
  WriteKey(w, "layers");
  WriteObjects(w, layers, [&](JsonWriter& w, const AttestationLayer& layer) {
    WriteDescriptor(w, kDsseEnvelopeMediaType, layer.envelope);
    WriteKey(w, "annotations");
    w.StartObject();
    WriteString(w, kSignatureAnnotation, "");
    WriteString(w, "predicateType", layer.predicate_type);
    w.EndObject();
  });
  w.EndObject();
  image.manifest = buffer.GetString();
  image.digest = Sha256Digest(image.manifest);
  return image;
}

AttachOutcomes AttachAttestations(Session& session, RegistryClient& registry, const std::optional<std::string>& image,
                                  const std::function<bool()>& stop_requested) {
  if (image) (void)ImageId(session.db, *image);  // an unknown name is a Failure, not an empty pass
  AttachOutcomes outcomes;
  for (Subject& subject : ServedSubjects(session.db, image)) {
    if (stop_requested && stop_requested()) break;
    std::optional<std::string> name = RegistryName(session.config.registry, subject.repository);
    if (!name) continue;  // an image of another registry
    outcomes.versions++;
    try {
      AttachSubject(registry, session.config.blob_dir, *name, subject, outcomes);
    } catch (const RegistryAnswerError& error) {
      outcomes.errors++;
      std::cerr << "icatctl: " << error.what() << '\n';
    } catch (const Failure& error) {  // a bundle the blob store cannot give back, or no bundle
      outcomes.errors++;
      std::cerr << "icatctl: " << subject.repository << "@" << subject.digest << ": " << error.what() << '\n';
    }
  }
  return outcomes;
}

void PrintAttachSummary(const AttachOutcomes& o) {
  std::cout << "registry attach: " << o.versions << " versions: attached " << o.attached << ", unchanged "
            << o.unchanged << ", not pushed " << o.not_pushed << ", errors " << o.errors << '\n'
            << std::flush;
}

// Exit 0 when every version was attached or found attached; 1 otherwise (an unreachable registry, an
// answer that is no registry's, a bundle missing from the blob store).
void RegistryAttach(const Args& args) {
  Session session;
  RequireRegistryUpstream(session.config);
  RegistryClient registry(session.config.registry_upstream);
  AttachOutcomes outcomes;
  try {
    registry.Probe();
    outcomes = AttachAttestations(session, registry, args.Optional("image"));
  } catch (const RegistryUnreachable& error) {
    throw Failure(std::string("the registry cannot be read: ") + error.what());
  }
  PrintAttachSummary(outcomes);
  if (outcomes.errors > 0) throw Failure("some versions could not be attached (see above)");
}

}  // namespace icat::ctl
