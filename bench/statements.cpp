// bench-statements: the handlers' SQL of make bench's peer scenarios, as JSON ({"name": "sql"}), so
// the peer (bench/peer) prepares exactly the statements our handlers prepare, never a copy of them.
#include <cstdio>

#include "handlers/admission/queries.hpp"
#include "handlers/catalog/queries.hpp"
#include "handlers/vulns/queries.hpp"
#include "icat/json.hpp"

int main() {
  rapidjson::StringBuffer buffer;
  icat::JsonWriter w(buffer);
  w.StartObject();
  for (const icat::Statement& s : {icat::catalog::kListImages, icat::catalog::kGetImage, icat::catalog::kListVersions,
                                   icat::vulns::kFindingsOfLatestVersion, icat::vulns::kCveLookupLatest,
                                   icat::vulns::kUnscannedLatest, icat::admission::kTenantRules,
                                   icat::admission::kAsyncCommit, icat::admission::kResolveImages,
                                   icat::admission::kFindings, icat::admission::kRecordDecision}) {
    icat::WriteString(w, s.name, s.sql);
  }
  w.EndObject();
  std::puts(buffer.GetString());
}
