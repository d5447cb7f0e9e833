// The routes of icat-vulns: one row per method and path, with who may call it (docs/routes.md).
#include "vulns.hpp"

namespace icat::vulns {

namespace {
// A finding list's filters, order and page (docs/feeds.md for kev, epssAbove and sort=risk); its
// cursor belongs to a scan and an order, judged once the image is found (an unknown image is a 404
// whatever the cursor), so it is refused when read.
std::vector<QueryParam> FindingsQuery() {
  return {query::Words("severity", AsList(kSeverities)),
          query::Words("fixState", AsList(kFixStates)),
          query::Word("kev", {"true", "false"}, "must be true or false"),
          query::Fraction("epssAbove"),
          query::Word("sort", {"severity", "risk"}, "must be severity (the default) or risk"),
          query::Limit(),
          query::RefusedOnRead(query::Cursor({CursorField::kText, CursorField::kDigits}))};
}

// Refused when read: a malformed CVE id is answered first.
std::vector<QueryParam> CveQuery() {
  return {query::RefusedOnRead(query::Word("versions", {"latest", "all"}, "must be latest (the default) or all"))};
}

// ?from= and ?to= name versions (compare.cpp reads their form: id, tag or digest).
std::vector<QueryParam> CompareQuery() { return {query::Text("from", 1, 200), query::Text("to", 1, 200)}; }

// The package by purl, or by name with an optional type and version range; which versions; a page.
std::vector<QueryParam> PackageQuery() {
  return {query::Text("purl", 5, 2000),
          query::Text("name", 1, 500),
          query::Text("type", 1, 100),
          query::Text("versionRange", 1, 200),
          query::Word("versions", {"latest", "all"}, "must be latest (the default) or all"),
          query::Limit(),
          query::Cursor({CursorField::kUuid, CursorField::kUuid})};
}
}  // namespace

// The /v1 reads are cached: their replies depend on catalogue data only.
const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {.method = "GET",
       .pattern = "/v1/images/{id}/vulnerabilities",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = FindingsQuery(),
       .handler = ICAT_HANDLER(ListImageVulnerabilities),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}/versions/{versionId}/vulnerabilities",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = FindingsQuery(),
       .handler = ICAT_HANDLER(ListImageVersionVulnerabilities),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/cve/{cveId}",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = CveQuery(),
       .handler = ICAT_HANDLER(LookUpCve),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/images/{id}/compare",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = CompareQuery(),
       .handler = ICAT_HANDLER(CompareVersions),
       .cached = true},
      {.method = "GET",
       .pattern = "/v1/packages",
       .access = Access::kApiKey,
       .scope = Scope::kReadVulns,
       .query = PackageQuery(),
       .handler = ICAT_HANDLER(LookUpPackage),
       .cached = true},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/compare",
       .access = Access::kPortal,
       .query = CompareQuery(),
       .handler = ICAT_HANDLER(ComparePortalVersions)},
      {.method = "GET",
       .pattern = "/api/packages",
       .access = Access::kPortal,
       .query = PackageQuery(),
       .handler = ICAT_HANDLER(LookUpPackage)},
      {.method = "GET",
       .pattern = "/api/docker-images/{imageId}/versions/{versionId}/vulnerabilities",
       .access = Access::kPortal,
       .query = FindingsQuery(),
       .handler = ICAT_HANDLER(ListVersionVulnerabilities)},
      {.method = "GET",
       .pattern = "/api/cve/{cveId}",
       .access = Access::kPortal,
       .query = CveQuery(),
       .handler = ICAT_HANDLER(LookUpCve)},
  };
  return routes;
}

}  // namespace icat::vulns
