// GET, POST /api/feature-requests: feature requests, package requests and bug reports a tenant
// files with the vendor. The vendor changes their status with `icatctl request status`.
#include <algorithm>

#include "account.hpp"
#include "icat/audit.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"
#include "queries.hpp"

namespace icat::account {

namespace {

constexpr size_t kMaxTitleChars = 200;
constexpr size_t kMaxDescriptionChars = 10000;
constexpr size_t kMaxPackageChars = 200;

// At most `count` rows of ICAT_REQUEST_COLUMNS (queries.hpp).
std::vector<FeatureRequestView> RequestsAt(const Rows& rows, int count) {
  const int id = rows.Column("id"), type = rows.Column("type"), title = rows.Column("title"),
            description = rows.Column("description"), status = rows.Column("status"),
            created_at = rows.Column("created_at"), updated_at = rows.Column("updated_at"),
            image_id = rows.Column("image_id"), image_name = rows.Column("image_name"), cve_id = rows.Column("cve_id"),
            package_name = rows.Column("package_name"), created_by_id = rows.Column("created_by_id"),
            created_by_email = rows.Column("created_by_email");
  std::vector<FeatureRequestView> requests;
  for (int row = 0; row < rows.size() && row < count; row++) {
    FeatureRequestView& f = requests.emplace_back();
    f.id = rows.Text(row, id);
    f.type = rows.Text(row, type);
    f.title = rows.Text(row, title);
    f.description = rows.Text(row, description);
    f.status = rows.Text(row, status);
    f.created_at = rows.Text(row, created_at);
    f.updated_at = rows.Text(row, updated_at);
    f.image_id = rows.OptionalText(row, image_id);
    f.image_name = rows.OptionalText(row, image_name);
    f.cve_id = rows.OptionalText(row, cve_id);
    f.package_name = rows.OptionalText(row, package_name);
    f.created_by_id = rows.OptionalText(row, created_by_id);
    f.created_by_email = rows.OptionalText(row, created_by_email);
  }
  return requests;
}

void WriteRequest(JsonWriter& w, const FeatureRequestView& f) {
  w.StartObject();
  WriteString(w, "id", f.id);
  WriteString(w, "type", f.type);
  WriteString(w, "title", f.title);
  WriteString(w, "description", f.description);
  WriteString(w, "status", f.status);
  WriteOptionalString(w, "imageId", f.image_id);
  WriteOptionalString(w, "imageName", f.image_name);
  WriteOptionalString(w, "cveId", f.cve_id);
  WriteOptionalString(w, "packageName", f.package_name);
  WriteKey(w, "createdBy");
  if (f.created_by_id) {
    w.StartObject();
    WriteString(w, "id", *f.created_by_id);
    WriteOptionalString(w, "email", f.created_by_email);
    w.EndObject();
  } else {
    w.Null();
  }
  WriteString(w, "createdAt", f.created_at);
  WriteString(w, "updatedAt", f.updated_at);
  w.EndObject();
}

struct NewRequest {
  std::string type, title, description;
  std::optional<std::string> image_id, cve_id, package_name;
};

// Field checks; the image must be one the tenant can see (a 400 naming imageId otherwise).
NewRequest ReadNewRequest(Context& ctx) {
  std::vector<FieldIssue> issues;
  FieldReader body(ctx.body, issues);
  NewRequest in;
  in.type = body.Enum("type", Need::kRequired, AsList(kRequestTypes)).value_or("");
  in.title = body.String("title", Need::kRequired, kMaxTitleChars).value_or("");
  in.description = body.String("description", Need::kRequired, kMaxDescriptionChars, 1, true).value_or("");
  in.image_id = body.String("imageId", Need::kOptional, 36);
  if (in.image_id &&
      (!IsUuid(*in.image_id) || ctx.db.Run(kImageVisible, {ctx.principal.tenant_id, *in.image_id}).empty())) {
    body.Issue("imageId", "is not an image of your catalogue");
  }
  std::optional<std::string> cve = body.String("cveId", Need::kOptional, 40);
  if (cve) {
    in.cve_id = NormaliseVulnId(*cve);
    if (!in.cve_id) body.Issue("cveId", "must be a CVE id (CVE-2024-3094) or a GHSA id (GHSA-xxxx-xxxx-xxxx)");
  }
  in.package_name = body.String("packageName", Need::kOptional, kMaxPackageChars);
  if (in.type == "package" && !in.package_name && !body.Has("packageName")) {
    body.Issue("packageName", "is required for a package request");
  }
  body.CheckUnknown();
  ThrowIfIssues(issues);
  return in;
}

}  // namespace

std::string FeatureRequestJson(const FeatureRequestView& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteRequest(w, request);
  return buffer.GetString();
}

std::string FeatureRequestListJson(const std::vector<FeatureRequestView>& requests,
                                   const std::optional<std::string>& next_cursor) {
  return ListJson("featureRequests", requests, next_cursor, WriteRequest);
}

// GET /api/feature-requests?status=&type=&limit=&cursor=   (portal)
//   200 {"featureRequests": [{id, type, title, description, status, imageId, imageName, cveId,
//        packageName, createdBy: {id, email}|null, createdAt, updatedAt}], "nextCursor"}: newest first
//   400 VALIDATION_ERROR (status, type, limit, cursor, headers); 401
Reply ListFeatureRequests(Context& ctx) {
  Page page = ReadPage(ctx.query);
  std::optional<std::string> status = ctx.query.Text("status"), type = ctx.query.Text("type");
  Rows rows = ctx.db.Run(kListRequests,
                         {ctx.principal.tenant_id, status, type, page.after_time, page.after_id, page.limit + 1});
  return JsonReply(200, FeatureRequestListJson(RequestsAt(rows, page.limit), NextCursor(rows, page.limit)));
}

// POST /api/feature-requests {"type": feature|package|bug, "title", "description", "imageId"?,
//                             "cveId"?, "packageName"?}   (portal; admin)
//   201 the request, status "open"
//   400 VALIDATION_ERROR, one detail per problem (type, title 1-200, description 1-10000
//       characters, imageId not a licensed image, cveId format, packageName missing for a package
//       request, unknown fields); 401; 403 FORBIDDEN; 415; MALFORMED_JSON
Reply CreateFeatureRequest(Context& ctx) {
  NewRequest in = ReadNewRequest(ctx);
  Rows rows = ctx.db.Run(kInsertRequest, {ctx.principal.tenant_id, in.type, in.title, in.description, in.image_id,
                                          in.cve_id, in.package_name, ctx.principal.user_id});
  FeatureRequestView view = RequestsAt(rows, 1).at(0);
  Audit(ctx, "feature_request.created", view.id, StringObjectJson({{"type", view.type}, {"title", view.title}}));
  return JsonReply(201, FeatureRequestJson(view));
}

}  // namespace icat::account
