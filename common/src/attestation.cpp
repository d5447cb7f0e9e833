// In-toto Statements, DSSE and Sigstore bundles: made, and checked.
#include "icat/attestation.hpp"

#include <stdexcept>

#include "icat/crypto.hpp"
#include "icat/json.hpp"

namespace icat {

namespace {

std::string JsonString(std::string_view text) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

void WriteEnvelope(JsonWriter& w, std::string_view payload_b64, std::string_view signature_b64, std::string_view key_id) {
  w.StartObject();
  WriteString(w, "payloadType", kInTotoPayloadType);
  WriteString(w, "payload", payload_b64);
  WriteKey(w, "signatures");
  w.StartArray();
  w.StartObject();
  WriteString(w, "keyid", key_id);
  WriteString(w, "sig", signature_b64);
  w.EndObject();
  w.EndArray();
  w.EndObject();
}

rapidjson::Document ReadDocument(std::string_view text, std::string_view what) {
  JsonRead read = ReadJson(text, kMaxDocumentDepth);
  if (!read.error.empty()) throw std::runtime_error(std::string(what) + " is not JSON: " + read.error);
  if (!read.document.IsObject()) throw std::runtime_error(std::string(what) + " is not a JSON object");
  return std::move(read.document);
}

const rapidjson::Value& Member(const rapidjson::Value& object, const char* name, std::string_view what) {
  auto member = object.FindMember(name);
  if (member == object.MemberEnd()) throw std::runtime_error(std::string(what) + " has no " + name);
  return member->value;
}

std::string_view Text(const rapidjson::Value& object, const char* name, std::string_view what) {
  const rapidjson::Value& value = Member(object, name, what);
  if (!value.IsString()) throw std::runtime_error(std::string(what) + "'s " + name + " is not a string");
  return {value.GetString(), value.GetStringLength()};
}

// A parsed value written out again: equal for equal documents, member order and repeated names
// included (RapidJSON's == finds a repeated name's first value only).
std::string Rewritten(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  value.Accept(w);
  return buffer.GetString();
}

std::string Decoded(std::string_view base64, std::string_view what) {
  std::optional<std::string> bytes = Base64Decode(base64);
  if (!bytes) throw std::runtime_error(std::string(what) + " is not base64");
  return *bytes;
}

}  // namespace

const AttestationType* FindAttestationType(std::string_view name) {
  for (const AttestationType& type : kAttestationTypes) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

std::string InTotoStatement(std::string_view subject_name, std::string_view subject_digest,
                            std::string_view predicate_type, std::string_view document) {
  std::string_view hex = subject_digest.substr(subject_digest.find(':') + 1);
  return "{\"_type\":" + JsonString(kStatementType) + ",\"subject\":[{\"name\":" + JsonString(subject_name) +
         ",\"digest\":{\"sha256\":" + JsonString(hex) + "}}],\"predicateType\":" + JsonString(predicate_type) +
         ",\"predicate\":" + std::string(document) + "}";
}

std::string DssePae(std::string_view payload_type, std::string_view payload) {
  return "DSSEv1 " + std::to_string(payload_type.size()) + " " + std::string(payload_type) + " " +
         std::to_string(payload.size()) + " " + std::string(payload);
}

std::string SignedBundle(std::string_view private_key_pem, std::string_view key_id, std::string_view statement) {
  std::string signature = EcdsaP256Sign(private_key_pem, DssePae(kInTotoPayloadType, statement));
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "mediaType", kBundleMediaType);
  WriteKey(w, "verificationMaterial");
  w.StartObject();
  WriteKey(w, "publicKey");
  w.StartObject();
  WriteString(w, "hint", key_id);
  w.EndObject();
  WriteKey(w, "tlogEntries");
  w.StartArray();
  w.EndArray();
  w.EndObject();
  WriteKey(w, "dsseEnvelope");
  // The signature's keyid stays empty, as cosign writes it: go-securesystemslib's DSSE verifier
  // skips a signature whose keyid differs from the one it derives from the key (an SSH-style
  // fingerprint), so any id of ours would make cosign refuse. The key id travels in the hint.
  WriteEnvelope(w, Base64Encode(statement), Base64Encode(signature), "");
  w.EndObject();
  return buffer.GetString();
}

std::string DsseEnvelopeOf(std::string_view bundle_json) {
  rapidjson::Document bundle = ReadDocument(bundle_json, "the bundle");
  const rapidjson::Value& envelope = Member(bundle, "dsseEnvelope", "the bundle");
  const rapidjson::Value& signatures = Member(envelope, "signatures", "the envelope");
  if (!signatures.IsArray() || signatures.Size() != 1) throw std::runtime_error("the envelope has not one signature");
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteEnvelope(w, Text(envelope, "payload", "the envelope"), Text(signatures[0], "sig", "the signature"),
                Text(signatures[0], "keyid", "the signature"));
  return buffer.GetString();
}

VerifiedStatement VerifyBundle(std::string_view bundle_json,
                               const std::function<std::optional<std::string>(std::string_view key_id)>& public_key_of) {
  rapidjson::Document bundle = ReadDocument(bundle_json, "the bundle");
  if (Text(bundle, "mediaType", "the bundle") != kBundleMediaType) {
    throw std::runtime_error("the bundle's mediaType is not " + std::string(kBundleMediaType));
  }
  const rapidjson::Value& material = Member(bundle, "verificationMaterial", "the bundle");
  const rapidjson::Value& public_key = Member(material, "publicKey", "the verification material");
  std::string key_id(Text(public_key, "hint", "the public key"));
  const rapidjson::Value& envelope = Member(bundle, "dsseEnvelope", "the bundle");
  if (Text(envelope, "payloadType", "the envelope") != kInTotoPayloadType) {
    throw std::runtime_error("the envelope's payloadType is not " + std::string(kInTotoPayloadType));
  }
  std::string statement = Decoded(Text(envelope, "payload", "the envelope"), "the envelope's payload");
  const rapidjson::Value& signatures = Member(envelope, "signatures", "the envelope");
  if (!signatures.IsArray() || signatures.Empty()) throw std::runtime_error("the envelope has no signature");
  std::optional<std::string> pem = public_key_of(key_id);
  if (!pem) throw std::runtime_error("the bundle was signed by key " + key_id + ", which is not in the key set");
  std::string signed_bytes = DssePae(kInTotoPayloadType, statement);
  for (const rapidjson::Value& signature : signatures.GetArray()) {
    if (!signature.IsObject()) continue;
    std::string sig = Decoded(Text(signature, "sig", "the signature"), "the signature");
    if (EcdsaP256Verify(*pem, signed_bytes, sig)) return {key_id, statement};
  }
  throw std::runtime_error("the signature does not verify with key " + key_id);
}

void CheckStatement(std::string_view statement, std::string_view subject_digest, std::string_view predicate_type,
                    std::string_view document) {
  rapidjson::Document parsed = ReadDocument(statement, "the statement");
  if (Text(parsed, "_type", "the statement") != kStatementType) {
    throw std::runtime_error("the statement is not an in-toto Statement v1");
  }
  std::string_view found_type = Text(parsed, "predicateType", "the statement");
  if (found_type != predicate_type) {
    throw std::runtime_error("the predicate type is " + std::string(found_type) + ", not " + std::string(predicate_type));
  }
  const rapidjson::Value& subjects = Member(parsed, "subject", "the statement");
  std::string_view hex = subject_digest.substr(subject_digest.find(':') + 1);
  bool named = false;
  if (subjects.IsArray()) {
    for (const rapidjson::Value& subject : subjects.GetArray()) {
      if (!subject.IsObject()) continue;
      auto digest = subject.FindMember("digest");
      if (digest == subject.MemberEnd() || !digest->value.IsObject()) continue;
      auto sha256 = digest->value.FindMember("sha256");
      if (sha256 != digest->value.MemberEnd() && sha256->value.IsString() && sha256->value.GetString() == hex) named = true;
    }
  }
  if (!named) throw std::runtime_error("the statement's subject is not sha256:" + std::string(hex));
  rapidjson::Document expected = ReadDocument(document, "the document");
  if (Rewritten(Member(parsed, "predicate", "the statement")) != Rewritten(expected)) {
    throw std::runtime_error("the statement's predicate is not the document as served");
  }
}

}  // namespace icat
