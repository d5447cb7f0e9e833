// Reading an admission.k8s.io/v1 AdmissionReview: the envelope, the request, and the container
// images of the object's pod spec.
#include <algorithm>
#include <map>

#include "admission.hpp"
#include "icat/json.hpp"
#include "icat/validate.hpp"

namespace icat::admission {

namespace {

constexpr size_t kMaxUidChars = 256;
constexpr size_t kMaxReferenceChars = 1024;
constexpr size_t kMaxNameChars = 253;  // a Kubernetes object name (DNS subdomain)

using Issues = std::vector<FieldIssue>;

// Where a kind keeps its pod spec, from the object's root. Kinds absent here are not judged.
struct PodSpecPath {
  std::string_view group, kind;
  std::vector<std::string_view> path;
};

const std::vector<PodSpecPath>& PodSpecPaths() {
  static const std::vector<PodSpecPath> paths = {
      {"", "Pod", {"spec"}},
      {"", "ReplicationController", {"spec", "template", "spec"}},
      {"apps", "Deployment", {"spec", "template", "spec"}},
      {"apps", "ReplicaSet", {"spec", "template", "spec"}},
      {"apps", "StatefulSet", {"spec", "template", "spec"}},
      {"apps", "DaemonSet", {"spec", "template", "spec"}},
      {"batch", "Job", {"spec", "template", "spec"}},
      {"batch", "CronJob", {"spec", "jobTemplate", "spec", "template", "spec"}},
  };
  return paths;
}

const PodSpecPath* FindPodSpecPath(std::string_view group, std::string_view kind) {
  for (const PodSpecPath& p : PodSpecPaths()) {
    if (p.group == group && p.kind == kind) return &p;
  }
  return nullptr;
}

// True when text holds a control character (U+0000 to U+001F, U+007F): none belongs in a
// Kubernetes name, kind or image, and Postgres text cannot hold U+0000.
bool HasControl(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A member that must be a string without control characters when present; nullopt (and an issue
// when it is something else).
std::optional<std::string> OptionalString(const rapidjson::Value& object, const char* name, const std::string& field,
                                          Issues& issues) {
  if (!object.HasMember(name) || object[name].IsNull()) return std::nullopt;
  const rapidjson::Value& value = object[name];
  if (!value.IsString()) {
    issues.push_back({field, "must be a string"});
    return std::nullopt;
  }
  std::string text(value.GetString(), value.GetStringLength());
  if (HasControl(text)) {
    issues.push_back({field, "must not contain control characters"});
    return std::nullopt;
  }
  return text;
}

// A member that must be a non-empty string.
std::string RequiredString(const rapidjson::Value& object, const char* name, const std::string& field, size_t max_chars,
                           Issues& issues) {
  if (!object.HasMember(name) || object[name].IsNull()) {
    issues.push_back({field, "is required"});
    return {};
  }
  std::optional<std::string> text = OptionalString(object, name, field, issues);
  if (!text) return {};
  if (text->empty() || text->size() > max_chars) {
    issues.push_back({field, "must be 1 to " + std::to_string(max_chars) + " characters"});
    return {};
  }
  return *text;
}

void CheckEnvelope(const rapidjson::Value& body, Issues& issues) {
  size_t before = issues.size();
  std::optional<std::string> api_version = OptionalString(body, "apiVersion", "apiVersion", issues);
  if (!api_version) {
    if (issues.size() == before) issues.push_back({"apiVersion", "is required: admission.k8s.io/v1"});
  } else if (*api_version != kAdmissionApiVersion) {
    issues.push_back({"apiVersion",
                      "must be admission.k8s.io/v1: register the webhook with admissionReviewVersions "
                      "[\"v1\"]"});
  }
  before = issues.size();
  std::optional<std::string> kind = OptionalString(body, "kind", "kind", issues);
  if (issues.size() == before && kind.value_or("") != "AdmissionReview") {
    issues.push_back({"kind", "must be AdmissionReview"});
  }
}

// The object under a path of members; nullptr when a member is absent or null, an issue when one is
// not an object.
const rapidjson::Value* Descend(const rapidjson::Value& root, const std::vector<std::string_view>& path,
                                std::string& field, Issues& issues) {
  const rapidjson::Value* at = &root;
  for (std::string_view name : path) {
    field += "." + std::string(name);
    rapidjson::Value::ConstMemberIterator it = at->FindMember(rapidjson::StringRef(name.data(), name.size()));
    if (it == at->MemberEnd() || it->value.IsNull()) return nullptr;
    if (!it->value.IsObject()) {
      issues.push_back({field, "must be an object"});
      return nullptr;
    }
    at = &it->value;
  }
  return at;
}

// The distinct images of a pod spec, in order of first appearance, with an index by reference (a
// body of the maximum size can hold tens of thousands of containers).
struct ImageList {
  std::vector<ImageUse> images;
  std::map<std::string, size_t, std::less<>> position;
};

// Adds the images of one container list ("containers", "initContainers", "ephemeralContainers").
void AddContainerImages(const rapidjson::Value& spec, const char* list, std::string_view label,
                        const std::string& field, ImageList& out, Issues& issues) {
  if (!spec.HasMember(list) || spec[list].IsNull()) return;
  const rapidjson::Value& containers = spec[list];
  std::string list_field = field + "." + list;
  if (!containers.IsArray()) {
    issues.push_back({list_field, "must be an array"});
    return;
  }
  for (rapidjson::SizeType i = 0; i < containers.Size(); i++) {
    const rapidjson::Value& c = containers[i];
    std::string item = list_field + "[" + std::to_string(i) + "]";
    if (!c.IsObject()) {
      issues.push_back({item, "must be an object"});
      continue;
    }
    // A pod template may leave the image to a later mutation; there is nothing to judge then.
    std::optional<std::string> image = OptionalString(c, "image", item + ".image", issues);
    if (!image || image->empty()) continue;
    if (image->size() > kMaxReferenceChars) {
      issues.push_back({item + ".image", "must be at most " + std::to_string(kMaxReferenceChars) + " characters"});
      continue;
    }
    std::string name = OptionalString(c, "name", item + ".name", issues).value_or("#" + std::to_string(i));
    std::string where = std::string(label) + " " + name;
    auto [at, added] = out.position.emplace(*image, out.images.size());
    if (added) {
      out.images.push_back({*image, {where}});
    } else {
      out.images[at->second].containers.push_back(where);
    }
  }
}

// Every image of the object's pod spec; none when the object has no pod spec where its kind keeps one.
std::vector<ImageUse> ObjectImages(const rapidjson::Value& object, const PodSpecPath& where, const std::string& field,
                                   Issues& issues) {
  ImageList list;
  std::string spec_field = field;
  const rapidjson::Value* spec = Descend(object, where.path, spec_field, issues);
  if (!spec) return {};
  AddContainerImages(*spec, "containers", "container", spec_field, list, issues);
  AddContainerImages(*spec, "initContainers", "initContainer", spec_field, list, issues);
  AddContainerImages(*spec, "ephemeralContainers", "ephemeralContainer", spec_field, list, issues);
  return std::move(list.images);
}

// The object's metadata.<name>, when it is a string.
std::string MetadataString(const rapidjson::Value* object, const char* name) {
  if (!object || !object->HasMember("metadata") || !(*object)["metadata"].IsObject()) return {};
  const rapidjson::Value& metadata = (*object)["metadata"];
  if (!metadata.HasMember(name) || !metadata[name].IsString()) return {};
  std::string text(metadata[name].GetString(), metadata[name].GetStringLength());
  return HasControl(text) || text.size() > kMaxNameChars ? std::string() : text;
}

// request.kind: {group, version, kind}.
void ReadKind(const rapidjson::Value& request, AdmissionRequest& out, Issues& issues) {
  if (!request.HasMember("kind") || request["kind"].IsNull()) {
    issues.push_back({"request.kind", "is required: {group, version, kind}"});
    return;
  }
  const rapidjson::Value& kind = request["kind"];
  if (!kind.IsObject()) {
    issues.push_back({"request.kind", "must be an object {group, version, kind}"});
    return;
  }
  out.group = OptionalString(kind, "group", "request.kind.group", issues).value_or("");
  out.kind = RequiredString(kind, "kind", "request.kind.kind", kMaxNameChars, issues);
}

// request.object (and oldObject on UPDATE): the images, for a kind that carries a pod spec.
void ReadObjects(const rapidjson::Value& request, AdmissionRequest& out, Issues& issues) {
  bool writes = out.operation == "CREATE" || out.operation == "UPDATE";
  const rapidjson::Value* object = nullptr;
  if (request.HasMember("object") && !request["object"].IsNull()) {
    object = &request["object"];
    if (!object->IsObject()) {
      issues.push_back({"request.object", "must be an object"});
      object = nullptr;
    }
  } else if (writes) {
    issues.push_back({"request.object", "is required for " + out.operation});
  }
  if (out.name.empty()) out.name = MetadataString(object, "name");
  if (out.name.empty()) out.name = MetadataString(object, "generateName");
  if (out.namespace_name.empty()) out.namespace_name = MetadataString(object, "namespace");

  const PodSpecPath* where = FindPodSpecPath(out.group, out.kind);
  out.judged = writes && where != nullptr;
  if (!out.judged || !object) return;
  out.images = ObjectImages(*object, *where, "request.object", issues);
  if (out.operation != "UPDATE" || !request.HasMember("oldObject") || !request["oldObject"].IsObject()) return;
  Issues ignored;  // the old object was admitted before; its shape is not this request's problem
  for (const ImageUse& use : ObjectImages(request["oldObject"], *where, "request.oldObject", ignored)) {
    out.old_images.insert(use.reference);
  }
}

}  // namespace

AdmissionRequest ReadAdmissionReview(const rapidjson::Value& body) {
  Issues issues;
  if (!body.IsObject()) ThrowIssues({{"body", "must be an AdmissionReview object"}});
  CheckEnvelope(body, issues);
  if (!body.HasMember("request") || !body["request"].IsObject()) {
    issues.push_back({"request", "is required: the AdmissionRequest object"});
    ThrowIssues(std::move(issues));
  }
  const rapidjson::Value& request = body["request"];
  AdmissionRequest out;
  out.uid = RequiredString(request, "uid", "request.uid", kMaxUidChars, issues);
  ReadKind(request, out, issues);
  out.operation = RequiredString(request, "operation", "request.operation", 64, issues);
  out.namespace_name = OptionalString(request, "namespace", "request.namespace", issues).value_or("");
  out.name = OptionalString(request, "name", "request.name", issues).value_or("");
  if (out.namespace_name.size() > kMaxNameChars) issues.push_back({"request.namespace", "is too long"});
  if (out.name.size() > kMaxNameChars) issues.push_back({"request.name", "is too long"});
  if (request.HasMember("dryRun") && !request["dryRun"].IsNull()) {
    if (request["dryRun"].IsBool())
      out.dry_run = request["dryRun"].GetBool();
    else
      issues.push_back({"request.dryRun", "must be true or false"});
  }
  ReadObjects(request, out, issues);
  ThrowIfIssues(issues);
  return out;
}

namespace {
// metav1.StatusReason of a denial's code, as the API server's own errors name it.
std::string_view StatusReason(int code) {
  switch (code) {
    case 401: return "Unauthorized";
    case 429: return "TooManyRequests";
    default: return "Forbidden";
  }
}
}  // namespace

std::string AdmissionResponseJson(std::string_view uid, const Verdict& verdict) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "apiVersion", kAdmissionApiVersion);
  WriteString(w, "kind", "AdmissionReview");
  WriteKey(w, "response");
  w.StartObject();
  WriteString(w, "uid", uid);
  WriteBool(w, "allowed", verdict.allowed);
  if (!verdict.allowed) {
    WriteKey(w, "status");
    w.StartObject();
    WriteInt(w, "code", verdict.code);
    WriteString(w, "reason", StatusReason(verdict.code));
    WriteString(w, "message", verdict.message);
    w.EndObject();
  }
  if (!verdict.warnings.empty()) WriteStringArray(w, "warnings", verdict.warnings);
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

std::optional<std::chrono::milliseconds> ParseApiServerTimeout(std::string_view text) {
  int per_unit = 0;  // milliseconds per unit
  if (text.size() > 2 && text.substr(text.size() - 2) == "ms") {
    per_unit = 1;
    text.remove_suffix(2);
  } else if (text.size() > 1 && text.back() == 's') {
    per_unit = 1000;
    text.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot), fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  auto digits = [](std::string_view part) { return part.find_first_not_of("0123456789") == std::string_view::npos; };
  if (whole.empty() || whole.size() > 6 || !digits(whole) || !digits(fraction)) return std::nullopt;
  if (dot != std::string_view::npos && fraction.empty()) return std::nullopt;
  double value = std::stod(std::string(text));
  auto millis = std::chrono::milliseconds(static_cast<long long>(value * per_unit));
  if (millis.count() <= 0) return std::nullopt;
  return millis;
}

}  // namespace icat::admission
