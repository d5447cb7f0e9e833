// What the account group's endpoints share: pages and cursors, path ids, the admin check for
// reads, audit details and replies.
#include "account.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/paging.hpp"
#include "icat/validate.hpp"

namespace icat::account {

Page ReadPage(const QueryValues& query) {
  Page page;
  page.limit = query.Limit();
  std::optional<std::vector<std::string>> after = query.Cursor();
  if (after) {
    page.after_time = (*after)[0];
    page.after_id = (*after)[1];
  }
  return page;
}

std::optional<std::string> NextCursor(const Rows& rows, int limit) {
  if (rows.size() <= limit) return std::nullopt;
  return EncodeCursor({std::string(rows.Text(limit - 1, rows.Column("cursor_time"))),
                       std::string(rows.Text(limit - 1, rows.Column("id")))});
}

std::string PathId(const Context& ctx, std::string_view what) {
  std::string id = ctx.request.PathParam("id");
  if (!IsUuid(id)) throw ApiError(Error::kNOT_FOUND, "No such " + std::string(what) + ".");
  return id;
}

void RequireNoInput(const Request& request) {
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return;
  rapidjson::Document body = ParseJson(request.body);  // 400 MALFORMED_JSON
  std::vector<FieldIssue> issues;
  FieldReader reader(body, issues);
  reader.CheckUnknown();  // every member is unknown
  ThrowIfIssues(issues);
}

Reply JsonReply(int status, std::string body, bool no_store) {
  Reply reply = Reply::Json(status, std::move(body));
  if (no_store) reply.headers.emplace_back("Cache-Control", "no-store");
  return reply;
}

Reply NoContent() { return Reply{204, {}, ""}; }

}  // namespace icat::account
