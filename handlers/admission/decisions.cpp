// Decision records: what admission_decisions keeps of each review (GET /api/admission-decisions
// lists them), written in the request's transaction.
#include "admission.hpp"
#include "icat/json.hpp"
#include "queries.hpp"

namespace icat::admission {

namespace {

void WriteImage(JsonWriter& w, const JudgedImage& image) {
  w.StartObject();
  WriteString(w, "reference", image.use.reference);
  WriteOptionalString(w, "normalised",
                      image.reference ? std::optional<std::string>(image.reference->Normalised()) : std::nullopt);
  WriteStringArray(w, "containers", image.use.containers);
  WriteString(w, "outcome", OutcomeName(image.outcome));
  WriteOptionalString(w, "imageId", image.resolution ? std::optional(image.resolution->image_id) : std::nullopt);
  WriteOptionalString(w, "versionId", image.resolution ? std::optional(image.resolution->version_id) : std::nullopt);
  if (!image.exempt_by.empty()) WriteString(w, "exemptBy", image.exempt_by);
  if (!image.excepted_cves.empty()) WriteStringArray(w, "exceptedCves", image.excepted_cves);
  if (!image.excepted_rules.empty()) WriteStringArray(w, "exceptedRules", image.excepted_rules);
  if (!image.vendor_not_affected_cves.empty()) WriteStringArray(w, "vendorNotAffectedCves", image.vendor_not_affected_cves);
  w.EndObject();
}

}  // namespace

std::string DecisionImagesJson(const std::vector<JudgedImage>& images) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartArray();
  for (const JudgedImage& image : images) WriteImage(w, image);
  w.EndArray();
  return buffer.GetString();
}

std::string DecisionReasonsJson(const std::vector<JudgedImage>& images) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartArray();
  for (const JudgedImage& image : images) {
    for (const Reason& r : image.reasons) {
      w.StartObject();
      WriteString(w, "image", image.use.reference);
      WriteString(w, "rule", r.rule);
      WriteString(w, "message", r.message);
      WriteStringArray(w, "cves", r.cves);
      w.EndObject();
    }
  }
  w.EndArray();
  return buffer.GetString();
}

void RecordDecision(Context& ctx, const AdmissionRequest& request, std::string_view mode,
                    const std::vector<JudgedImage>& images, const Verdict& verdict) {
  // The request's only write: BEGIN, the tenant, the insert and COMMIT go in one round trip.
  ctx.db.ExecAllThenCommit(
      {{kAsyncCommit, {}},
       {kRecordDecision, {ctx.principal.tenant_id, request.uid, request.operation, request.kind, request.namespace_name,
                          request.name, DecisionImagesJson(images), verdict.allowed, mode, request.dry_run,
                          DecisionReasonsJson(images), ctx.principal.key_prefix}}});
}

}  // namespace icat::admission
