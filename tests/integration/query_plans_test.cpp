// The handlers' hot statements at ten times make bench's findings (issue 18, item 4): none reads a
// whole big table, neither as the custom plan of a realistic request nor as the generic plan a
// prepared statement settles on after five runs. EXPLAIN counts rows here, never time. The rule, and
// how to read a failure: docs/query-plans.md.
#include <rapidjson/document.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../../handlers/admission/queries.hpp"
#include "../../handlers/catalog/queries.hpp"
#include "../../handlers/sbom/queries.hpp"
#include "../../handlers/vulns/queries.hpp"
#include "icat/db.hpp"
#include "icat/paging.hpp"
#include "support.hpp"

namespace it = icat::test;

namespace {

using Params = std::vector<std::optional<std::string>>;

// make bench-scale's 10x data set (bench/scale, SHAPE[10x]): 1,000 images of one version each, rescanned
// daily for 37 days, 82 findings a scan: 3 million findings counted, ten times make bench's, each
// stored once per findings set.
constexpr int kImages = 1000, kVersionsPerImage = 1, kDays = 37, kFindingsPerScan = 82;
constexpr double kTenTimesFindings = double(kImages) * kVersionsPerImage * kDays * kFindingsPerScan;
// Their packages (query_plans_packages.sql): a set per findings set of a few hundred packages, named
// from a shared pool, so a package name is in the sets of about kImages * kPackagesPerSet / kPackageNames images.
constexpr int kPackagesPerSet = 300, kPackageNames = 2000;
// A table holding more rows than this (pg_class.reltuples after ANALYZE) is big: reading all of it
// costs in proportion to the data. A smaller one is a few pages, which a scan reads best.
constexpr long long kBigTableRows = 10000;
// The most of a big table's rows one scan may read, over all its loops.
constexpr double kMostOfTableRead = 0.1;
// What the handlers ask for a page: the default limit and one row more (is there a next page?).
const std::string kPageRows = std::to_string(icat::kDefaultLimit + 1);

// The statements of the four read groups that are not planned here, and why.
const std::map<std::string_view, std::string_view> kNotPlanned = {
    {icat::admission::kAsyncCommit.name, "reads no table"},
    {icat::admission::kRecordDecision.name, "inserts one row"},
    {icat::sbom::kListSigningKeys.name, "returns every signing key, a handful by design"},
};

// The stack's Postgres as `role` on `database`: ICAT_PG_ADMIN_DSN with both replaced (libpq keeps
// the last value of a repeated keyword). The stack trusts local connections (tools/stack's initdb),
// so the superuser postgres can create and drop the suite's database.
std::string DsnOf(const std::string& database, const std::string& role) {
  return it::GetEnv().pg_admin_dsn + " dbname=" + database + " user=" + role;
}

// Runs a program; its standard output without the final newline, or std::runtime_error naming the
// step with the end of its standard error.
std::string RunStep(const std::string& step, const std::vector<std::string>& argv) {
  it::ProcessResult run = it::RunProcess(argv);
  if (run.exit_code != 0) {
    std::string err = run.err.size() > 2000 ? run.err.substr(run.err.size() - 2000) : run.err;
    throw std::runtime_error(step + " exited " + std::to_string(run.exit_code) + ": " + err);
  }
  if (!run.out.empty() && run.out.back() == '\n') run.out.pop_back();
  return run.out;
}

std::string FirstCell(icat::Rows rows) {
  if (rows.empty() || rows.IsNull(0, 0)) throw std::runtime_error("the data set lacks a row the suite samples");
  return std::string(rows.Text(0, 0));
}

// The parameters of realistic requests, read from the generated data.
struct Sample {
  std::string tenant_id;
  // The middle image by name, and a cursor half-way down its latest version's findings.
  std::string image_id, image_name, repository, latest_findings_cursor;
  // The middle version of that image by publication (its latest when it has one), a cursor half-way
  // down its findings and one half-way down its scan history (scan time, ingest time, id).
  std::string version_id, version_tag, version_digest, version_published_us, version_findings_cursor;
  std::string history_scanned_us, history_created_us, history_scan_id;
  std::string cve_id;  // the vulnerability id found in the most findings
  // The middle image's latest scan's package and findings sets, and one package of it by name and purl.
  std::string package_set_id, findings_set_id, package_name, package_purl;
  // An admission review's containers: ten images at their latest versions, by repository and tag.
  std::vector<std::string> review_repositories, review_tags, review_version_ids;
};

// All of them at once, where the handlers ask for a page.
constexpr int kEveryRow = 100000;

// The cursor of the finding half-way down a version's findings, taken through the handlers' own
// statement, whatever the schema stores findings in.
std::string MiddleFindingOf(icat::Db& owner, const Sample& s, const std::string& version_id) {
  icat::Rows rows =
      owner.Run(icat::vulns::kFindingsOfVersion, {s.tenant_id, s.image_id, std::nullopt, std::nullopt, std::nullopt,
                                                  kEveryRow, std::nullopt, std::nullopt, version_id, std::nullopt});
  if (rows.size() < 2) throw std::runtime_error("version " + version_id + " has fewer than two findings");
  return std::string(rows.Text(rows.size() / 2, rows.Column("finding_id")));
}

// The cursor of the scan half-way down the version's scan history, through the handlers' statement.
void SampleHistory(icat::Db& owner, Sample& s) {
  icat::Rows rows = owner.Run(icat::catalog::kScanHistory, {s.tenant_id, s.version_id, std::nullopt, std::nullopt,
                                                            std::nullopt, std::nullopt, std::nullopt, kEveryRow});
  if (rows.empty()) throw std::runtime_error("version " + s.version_id + " has no scan");
  int middle = rows.size() / 2;
  s.history_scanned_us = rows.Text(middle, rows.Column("scanned_us"));
  s.history_created_us = rows.Text(middle, rows.Column("created_us"));
  s.history_scan_id = rows.Text(middle, rows.Column("id"));
}

void SampleImage(icat::Db& owner, Sample& s) {
  icat::Rows image = owner.RunSql(
      "SELECT i.id, i.name, i.repository FROM images i JOIN image_versions v ON v.id = i.latest_version_id "
      "WHERE v.latest_scan_id IS NOT NULL ORDER BY i.name LIMIT 1 OFFSET (SELECT count(*) / 2 FROM images)");
  s.image_id = FirstCell(image);
  s.image_name = image.Text(0, image.Column("name"));
  s.repository = image.Text(0, image.Column("repository"));
  icat::Rows version = owner.RunSql(
      "SELECT id, tag, digest, (extract(epoch FROM published_at) * 1000000)::bigint AS published_us "
      "FROM image_versions WHERE image_id = $1 ORDER BY published_at, tag "
      "LIMIT 1 OFFSET (SELECT count(*) / 2 FROM image_versions WHERE image_id = $1)",
      {s.image_id});
  s.version_id = FirstCell(version);
  s.version_tag = version.Text(0, version.Column("tag"));
  s.version_digest = version.Text(0, version.Column("digest"));
  s.version_published_us = version.Text(0, version.Column("published_us"));
}

void SampleReview(icat::Db& owner, Sample& s) {
  icat::Rows review = owner.RunSql(
      "SELECT i.repository, v.tag, v.id FROM images i JOIN image_versions v ON v.id = i.latest_version_id "
      "ORDER BY i.name LIMIT 10");
  for (int row = 0; row < review.size(); ++row) {
    s.review_repositories.emplace_back(review.Text(row, review.Column("repository")));
    s.review_tags.emplace_back(review.Text(row, review.Column("tag")));
    s.review_version_ids.emplace_back(review.Text(row, review.Column("id")));
  }
}

void SamplePackages(icat::Db& owner, Sample& s) {
  icat::Rows sets = owner.RunSql(
      "SELECT sc.package_set_id, sc.findings_set_id FROM images i JOIN image_versions v ON v.id = i.latest_version_id "
      "JOIN scans sc ON sc.id = v.latest_scan_id WHERE i.id = $1",
      {s.image_id});
  s.package_set_id = FirstCell(sets);
  s.findings_set_id = sets.Text(0, sets.Column("findings_set_id"));
  icat::Rows package =
      owner.RunSql("SELECT name, purl FROM packages WHERE set_id = $1 ORDER BY purl LIMIT 1", {s.package_set_id});
  s.package_name = FirstCell(package);
  s.package_purl = package.Text(0, package.Column("purl"));
}

Sample SampleOf(const std::string& owner_dsn, const std::string& tenant_id) {
  icat::Db owner(owner_dsn, {icat::vulns::kFindingsOfVersion, icat::catalog::kScanHistory});
  Sample s;
  s.tenant_id = tenant_id;
  SampleImage(owner, s);
  SampleReview(owner, s);
  SamplePackages(owner, s);
  s.cve_id = FirstCell(
      owner.RunSql("SELECT vuln_id FROM vulnerabilities GROUP BY vuln_id ORDER BY count(*) DESC, vuln_id LIMIT 1"));
  s.latest_findings_cursor = MiddleFindingOf(
      owner, s, FirstCell(owner.RunSql("SELECT latest_version_id FROM images WHERE id = $1", {s.image_id})));
  s.version_findings_cursor = MiddleFindingOf(owner, s, s.version_id);
  SampleHistory(owner, s);
  return s;
}

// A database of its own in the stack's Postgres holding make bench-scale's 10x data set (ten times the
// findings of make bench), so no other suite's data changes; the destructor drops it.
class TenTimesDatabase {
 public:
  TenTimesDatabase() : name_("icat_plans_" + it::RandomSuffix(8)) {
    icat::Db(DsnOf("postgres", "postgres"), {})
        .ExecSql("CREATE DATABASE " + name_ + " OWNER icat_owner TEMPLATE template0");
    try {
      Load();
    } catch (...) {
      Drop();
      throw;
    }
  }
  ~TenTimesDatabase() { Drop(); }
  TenTimesDatabase(const TenTimesDatabase&) = delete;
  TenTimesDatabase& operator=(const TenTimesDatabase&) = delete;

  std::string Dsn(const std::string& role) const { return DsnOf(name_, role); }
  const Sample& sample() const { return sample_; }

 private:
  // Migrated as tools/stack migrates, generated by bench/seed.sql as make bench generates.
  void Load() {
    const it::Env& env = it::GetEnv();
    const std::string owner_env = "ICAT_PG_ADMIN_DSN=" + Dsn("icat_owner");
    RunStep("icatctl migrate", {"env", owner_env, env.bin_dir + "/icatctl", "migrate"});
    std::string tenant_id =
        RunStep("icatctl tenant create", {"env", owner_env, env.bin_dir + "/icatctl", "tenant", "create", "plans"});
    RunStep("bench/seed.sql",
            {"psql", Dsn("icat_owner"), "-qX", "-v", "images=" + std::to_string(kImages), "-v",
             "versions=" + std::to_string(kVersionsPerImage), "-v", "findings=" + std::to_string(kFindingsPerScan),
             "-v", "days=" + std::to_string(kDays), "-v", "tenant=" + tenant_id, "-f", env.repo + "/bench/seed.sql"});
    RunStep("query_plans_packages.sql",
            {"psql", Dsn("icat_owner"), "-qX", "-v", "packages=" + std::to_string(kPackagesPerSet), "-v",
             "names=" + std::to_string(kPackageNames), "-f", env.repo + "/tests/integration/query_plans_packages.sql"});
    // As autovacuum leaves a table: fresh statistics, and a visibility map that lets an index-only
    // scan skip the heap.
    icat::Db(Dsn("postgres"), {}).ExecSql("VACUUM (ANALYZE)");
    sample_ = SampleOf(Dsn("icat_owner"), tenant_id);
  }

  void Drop() noexcept {
    try {
      icat::Db(DsnOf("postgres", "postgres"), {}).ExecSql("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception& e) {
      BOOST_TEST_MESSAGE("query_plans: could not drop database " << name_ << ": " << e.what());
    }
  }

  std::string name_;
  Sample sample_;
};

// The database for the whole suite: loaded before its first test, dropped after its last. A failed
// load fails each test (Data() below), not the fixture: Boost 1.74 aborts the run when a suite
// fixture's constructor throws.
struct TenTimesFindings {
  TenTimesFindings() {
    try {
      database = std::make_unique<TenTimesDatabase>();
    } catch (const std::exception& e) {
      load_error = e.what();
    }
  }
  ~TenTimesFindings() { database.reset(); }
  static inline std::unique_ptr<TenTimesDatabase> database;
  static inline std::string load_error;
};

const TenTimesDatabase& Data() {
  BOOST_TEST_REQUIRE(TenTimesFindings::database != nullptr,
                     "the 10x data set did not load: " << TenTimesFindings::load_error);
  return *TenTimesFindings::database;
}

// ------------------------------------------------------------------ the statements and their parameters

// A statement with the parameters of one realistic request.
struct PlanCase {
  icat::Statement statement;
  std::string request;  // what the parameters ask, for a failure message
  Params params;
};

std::string ArrayOf(const std::vector<std::string>& elements) { return icat::TextArrayLiteral(elements); }

std::vector<PlanCase> VulnsCases(const Sample& s) {
  using namespace icat::vulns;
  const auto& none = std::nullopt;
  return {
      {kFindingsOfLatestVersion, "first page", {s.tenant_id, s.image_id, none, none, none, kPageRows, none, none}},
      {kFindingsOfLatestVersion,
       "critical and high, a page from the middle",
       {s.tenant_id, s.image_id, "{critical,high}", none, s.latest_findings_cursor, kPageRows, none, none}},
      {kFindingsOfVersion,
       "a version by id, first page",
       {s.tenant_id, s.image_id, none, none, none, kPageRows, none, none, s.version_id, none}},
      {kFindingsOfVersion,
       "a version by tag, fixed findings, a page from the middle",
       {s.tenant_id, s.image_id, none, "{fixed}", s.version_findings_cursor, kPageRows, none, none, none, s.version_tag}},
      {kRiskOfLatestVersion, "risk order, known exploited only, a later page",
       {s.tenant_id, s.image_id, none, none, "100", kPageRows, "true", none}},
      {kRiskOfVersion, "risk order, a version by id, EPSS above 0.5",
       {s.tenant_id, s.image_id, none, none, none, kPageRows, none, "0.5", s.version_id, none}},
      {kCveLookupLatest, "the most common CVE", {s.tenant_id, s.cve_id}},
      {kCveLookupAll, "the most common CVE", {s.tenant_id, s.cve_id}},
      {kUnscannedLatest, "the tenant", {s.tenant_id}},
      {kUnscannedAll, "the tenant", {s.tenant_id}},
      {kCompareVersions,
       "the middle image's version by tag with its latest",
       {s.tenant_id, s.image_id, none, s.version_tag, none, none, none, none, "false"}},
      {kCompareVersions,
       "by digest and by id",
       {s.tenant_id, s.image_id, none, none, s.version_digest, s.version_id, none, none, "true"}},
      {kPackagesOfSet, "a latest scan's packages", {s.package_set_id}},
      {kFindingsOfSet, "a latest scan's findings", {s.findings_set_id}},
      {kPackagesByPurl,
       "a purl with its version, latest versions, first page",
       {s.tenant_id, s.package_purl, none, none, "false", kPageRows, "true"}},
      {kPackagesByPurl,
       "a purl's identity, every version, a page from the middle",
       {s.tenant_id, s.package_purl, s.image_id, s.version_id, "true", kPageRows, "false"}},
      {kPackagesByName, "a name, latest versions, first page", {s.tenant_id, s.package_name, none, none, "false", kPageRows, none, none}},
      {kPackagesByName,
       "a name of type npm in two versions, every version",
       {s.tenant_id, s.package_name, none, none, "true", kPageRows, "npm", ArrayOf({"1.0.0", "1.1.0"})}},
      {kPackageVersionsByName, "a name, any type", {s.tenant_id, s.package_name, none}},
      {kPackageVersionsByName, "a name of type npm", {s.tenant_id, s.package_name, "npm"}},
  };
}

std::vector<PlanCase> CatalogCases(const Sample& s) {
  using namespace icat::catalog;
  const auto& none = std::nullopt;
  const std::string year_ago = it::Rfc3339(std::chrono::system_clock::now() - std::chrono::hours(24 * 365));
  const std::string now = it::Rfc3339(std::chrono::system_clock::now());
  return {
      {kListImages, "first page", {s.tenant_id, none, none, none, kPageRows}},
      {kListImages, "a page from the middle", {s.tenant_id, none, s.image_name, s.image_id, kPageRows}},
      {kListImages, "names containing one image's name", {s.tenant_id, s.image_name, none, none, kPageRows}},
      {kGetImage, "an image", {s.tenant_id, s.image_id}},
      {kListVersions, "an image", {s.tenant_id, s.image_id}},
      {kPageVersions, "first page", {s.tenant_id, s.image_id, none, none, kPageRows}},
      {kPageVersions,
       "a page from the middle",
       {s.tenant_id, s.image_id, s.version_published_us, s.version_tag, kPageRows}},
      {kGetVersion, "a version by id", {s.tenant_id, s.image_id, s.version_id, none}},
      {kGetVersion, "a version by tag", {s.tenant_id, s.image_id, none, s.version_tag}},
      {kImagesByDigest, "a version's digest", {s.tenant_id, s.version_digest}},
      {kImageByReference,
       "repository and tag",
       {s.tenant_id, ArrayOf({""}), ArrayOf({s.repository}), ArrayOf({s.version_tag})}},
      {kImageByReference,
       "a digest",
       {s.tenant_id, ArrayOf({s.version_digest}), ArrayOf({s.repository}), ArrayOf({s.version_tag})}},
      {kScanHistoryVersion, "a version", {s.tenant_id, s.image_id, s.version_id}},
      {kScanHistory, "first page", {s.tenant_id, s.version_id, none, none, none, none, none, kPageRows}},
      {kScanHistory,
       "a page from the middle",
       {s.tenant_id, s.version_id, none, none, s.history_scanned_us, s.history_created_us, s.history_scan_id,
        kPageRows}},
      {kScanHistory, "the last year", {s.tenant_id, s.version_id, year_ago, now, none, none, none, kPageRows}},
  };
}

std::vector<PlanCase> AdmissionCases(const Sample& s) {
  using namespace icat::admission;
  const std::vector<std::string> no_digests(s.review_repositories.size(), "");
  return {
      {kTenantRules, "the tenant", {s.tenant_id}},
      {kResolveImages,
       "ten containers by repository and tag",
       {s.tenant_id, ArrayOf(no_digests), ArrayOf(s.review_repositories), ArrayOf(s.review_tags)}},
      {kFindings,
       "ten versions, high and above or the watched most common CVE",
       {ArrayOf(s.review_version_ids), "3", ArrayOf({s.cve_id}), "false", std::nullopt}},
      // The feed rules look each finding up in kev_entries and epss_scores by primary key.
      {kFindings,
       "ten versions, critical, known exploited or EPSS above 0.1",
       {ArrayOf(s.review_version_ids), "4", ArrayOf({}), "true", "0.1"}},
  };
}

std::vector<PlanCase> SbomCases(const Sample& s) {
  using namespace icat::sbom;
  return {
      {kSbomOfLatestVersion, "an image", {s.tenant_id, s.image_id}},
      {kSbomOfVersion, "a version by id", {s.tenant_id, s.image_id, s.version_id, std::nullopt}},
      {kVexOfVersion, "a version's OpenVEX", {s.tenant_id, s.image_id, s.version_id, std::nullopt, "openvex"}},
      {kAttestationsOfVersion, "a version's attestations", {s.tenant_id, s.image_id, s.version_id, std::nullopt}},
      {kSigningKey, "one key by id", {"0123456789abcdef"}},
  };
}

std::vector<icat::Statement> ReadGroupStatements() {
  std::vector<icat::Statement> all;
  for (const auto* group : {&icat::vulns::kStatements, &icat::catalog::kStatements, &icat::admission::kStatements,
                            &icat::sbom::kStatements}) {
    all.insert(all.end(), group->begin(), group->end());
  }
  return all;
}

// ------------------------------------------------------------------ plans and the rule

enum class PlanMode { kCustom, kGeneric };
constexpr PlanMode kPlanModes[] = {PlanMode::kCustom, PlanMode::kGeneric};

const char* NameOf(PlanMode mode) { return mode == PlanMode::kCustom ? "custom plan" : "generic plan"; }

// A parameter as an SQL literal for EXECUTE: its type comes from the prepared statement.
std::string LiteralOf(const std::optional<std::string>& param) {
  if (!param) return "NULL";
  std::string literal = "'";
  for (char c : *param) literal += c == '\'' ? std::string("''") : std::string(1, c);
  return literal + "'";
}

// The handlers' role on the suite's database with the tenant set, the statements prepared as a
// worker prepares them (icat::Db), each explained by name in either plan mode.
class Planner {
 public:
  Planner(const TenTimesDatabase& data, const std::vector<icat::Statement>& statements)
      : db_(data.Dsn("icat_app"), statements) {
    BOOST_TEST_REQUIRE(db_.ConnectAtStart(), "the suite's database is unreachable");
    db_.ExecSql("SELECT set_config('app.tenant_id', $1, false)", {data.sample().tenant_id});
  }

  // EXPLAIN ANALYZE without timing: the plan's nodes with the rows each returned, filtered out and
  // looped over.
  rapidjson::Document Plan(const PlanCase& c, PlanMode mode) {
    std::string json = Explain(c, mode, "ANALYZE, TIMING OFF, SUMMARY OFF, FORMAT JSON");
    rapidjson::Document plan;
    plan.Parse(json.c_str());
    BOOST_TEST_REQUIRE((!plan.HasParseError() && plan.IsArray() && !plan.Empty()), json.substr(0, 500));
    return plan;
  }
  // The same plan as text, for a failure message.
  std::string Text(const PlanCase& c, PlanMode mode) { return Explain(c, mode, "ANALYZE, TIMING OFF, SUMMARY OFF"); }
  icat::Db& db() { return db_; }

 private:
  std::string Explain(const PlanCase& c, PlanMode mode, const std::string& options) {
    db_.ExecSql(mode == PlanMode::kCustom ? "SET plan_cache_mode = force_custom_plan"
                                          : "SET plan_cache_mode = force_generic_plan");
    std::string execute = "EXECUTE " + std::string(c.statement.name);
    for (size_t i = 0; i < c.params.size(); ++i) execute += (i == 0 ? "(" : ", ") + LiteralOf(c.params[i]);
    if (!c.params.empty()) execute += ")";
    icat::Rows rows = db_.RunSql("EXPLAIN (" + options + ") " + execute);
    std::string text;
    for (int row = 0; row < rows.size(); ++row) text += std::string(rows.Text(row, 0)) + "\n";
    return text;
  }

  icat::Db db_;
};

// The big tables' rows by name.
using BigTables = std::map<std::string, double>;

BigTables BigTablesOf(icat::Db& db) {
  icat::Rows rows = db.RunSql(
      "SELECT relname, reltuples FROM pg_class WHERE relkind = 'r' AND pg_table_is_visible(oid) AND reltuples > $1",
      {kBigTableRows});
  BigTables big;
  for (int row = 0; row < rows.size(); ++row)
    big[std::string(rows.Text(row, 0))] = std::stod(std::string(rows.Text(row, 1)));
  return big;
}

double NumberOf(const rapidjson::Value& node, const char* name) {
  auto member = node.FindMember(name);
  return member != node.MemberEnd() && member->value.IsNumber() ? member->value.GetDouble() : 0;
}

std::string TextOf(const rapidjson::Value& node, const char* name) {
  auto member = node.FindMember(name);
  return member != node.MemberEnd() && member->value.IsString() ? member->value.GetString() : "";
}

// As EXPLAIN's text names the node: "Index Scan using vulnerabilities_scan_id on vulnerabilities x".
std::string NodeName(const rapidjson::Value& node) {
  std::string name = TextOf(node, "Node Type");
  if (node.HasMember("Index Name")) name += " using " + TextOf(node, "Index Name");
  name += " on " + TextOf(node, "Relation Name");
  if (TextOf(node, "Alias") != TextOf(node, "Relation Name")) name += " " + TextOf(node, "Alias");
  return name;
}

std::string Count(double rows) { return std::to_string(static_cast<long long>(rows)); }

// The rows a scan node read over all its loops: those it returned and those its filter and its
// recheck threw away.
double RowsRead(const rapidjson::Value& node) {
  return NumberOf(node, "Actual Loops") * (NumberOf(node, "Actual Rows") + NumberOf(node, "Rows Removed by Filter") +
                                           NumberOf(node, "Rows Removed by Index Recheck"));
}

// Why a plan node reads a whole big table; nothing when it does not. The rule (docs/query-plans.md):
// on a table of more than kBigTableRows rows, a Seq Scan, an index walked without an Index Cond, or
// any scan reading more than kMostOfTableRead of the rows, counting over all its loops the rows it
// returned and those its filter and its recheck threw away.
std::optional<std::string> WholeTableRead(const rapidjson::Value& node, const BigTables& big, PlanMode mode) {
  auto table = big.find(TextOf(node, "Relation Name"));
  if (table == big.end()) return std::nullopt;
  double loops = NumberOf(node, "Actual Loops");
  // A custom plan is made for its parameters: a branch it never ran (a condition the planner could
  // already evaluate) reads nothing. The generic plan serves every request, so each of its nodes counts.
  if (mode == PlanMode::kCustom && loops == 0) return std::nullopt;
  std::string type = TextOf(node, "Node Type");
  if (type == "Seq Scan") return "a scan of the whole table";
  if ((type == "Index Scan" || type == "Index Only Scan") && !node.HasMember("Index Cond")) {
    return "a walk of the whole index (no Index Cond)";
  }
  double read = RowsRead(node);
  if (read > kMostOfTableRead * table->second) {
    return "reads " + Count(read) + " of the table's " + Count(table->second) + " rows over " + Count(loops) + " loops";
  }
  return std::nullopt;
}

void CollectWholeTableReads(const rapidjson::Value& node, const BigTables& big, PlanMode mode,
                            std::vector<std::string>& found) {
  if (std::optional<std::string> why = WholeTableRead(node, big, mode)) found.push_back(NodeName(node) + ": " + *why);
  auto children = node.FindMember("Plans");
  if (children == node.MemberEnd()) return;
  for (const rapidjson::Value& child : children->value.GetArray()) CollectWholeTableReads(child, big, mode, found);
}

// Every node of the plan that reads a whole big table, named.
std::vector<std::string> WholeTableReads(const rapidjson::Document& plan, const BigTables& big, PlanMode mode) {
  std::vector<std::string> found;
  CollectWholeTableReads(plan[0]["Plan"], big, mode, found);
  return found;
}

// The rows the scans of `table` in the plan tree read.
double RowsReadFrom(const rapidjson::Value& node, const std::string& table) {
  double read = TextOf(node, "Relation Name") == table ? RowsRead(node) : 0;
  auto children = node.FindMember("Plans");
  if (children == node.MemberEnd()) return read;
  for (const rapidjson::Value& child : children->value.GetArray()) read += RowsReadFrom(child, table);
  return read;
}

// Each case as a custom and as the generic plan: one failure for each node reading a whole big
// table, naming the statement, the request, the plan mode and the node, with the plan.
void ExpectNoWholeTableReads(const std::vector<PlanCase>& cases) {
  Planner planner(Data(), ReadGroupStatements());
  BigTables big = BigTablesOf(planner.db());
  for (const PlanCase& c : cases) {
    for (PlanMode mode : kPlanModes) {
      for (const std::string& read : WholeTableReads(planner.Plan(c, mode), big, mode)) {
        BOOST_ERROR(c.statement.name << " (" << c.request << "), " << NameOf(mode) << ": " << read << "\n"
                                     << planner.Text(c, mode));
      }
    }
  }
}

// How the second wall's licence check (sql/V0022) reads licenses inside a policy's subplan, when not
// by one probe of its key per row: a hash of the tenant's licences, or a scan of them.
void CollectLicenceChecks(const rapidjson::Value& node, bool in_subplan, std::vector<std::string>& found) {
  bool subplan = in_subplan || TextOf(node, "Parent Relationship") == "SubPlan";
  if (TextOf(node, "Subplan Name").rfind("hashed", 0) == 0) {
    found.push_back(TextOf(node, "Subplan Name") + ": the licences hashed once per statement");
  }
  std::string type = TextOf(node, "Node Type");
  if (subplan && TextOf(node, "Relation Name") == "licenses" &&
      !((type == "Index Scan" || type == "Index Only Scan") && node.HasMember("Index Cond"))) {
    found.push_back(NodeName(node) + ": not a probe of the licence's key");
  }
  auto children = node.FindMember("Plans");
  if (children == node.MemberEnd()) return;
  for (const rapidjson::Value& child : children->value.GetArray()) CollectLicenceChecks(child, subplan, found);
}

// Statements the rule must catch, run on the same data as the handlers' (their names are the
// suite's own).
constexpr icat::Statement kProbeSeqScan{"query_plans_probe_seq_scan",
                                        "SELECT id FROM vulnerabilities WHERE title = $1 LIMIT 1"};
constexpr icat::Statement kProbeIndexWalk{"query_plans_probe_index_walk",
                                          "SELECT id FROM vulnerabilities ORDER BY id LIMIT $1"};
constexpr icat::Statement kProbeBitmapRange{"query_plans_probe_bitmap_range",
                                            "SELECT count(*) FROM vulnerabilities WHERE id BETWEEN $1 AND $2"};

}  // namespace

BOOST_AUTO_TEST_SUITE(query_plans, *boost::unit_test::fixture<TenTimesFindings>())

BOOST_AUTO_TEST_CASE(every_statement_of_the_read_groups_is_planned_or_said_why_not) {
  std::set<std::string_view> planned;
  Sample names_only;
  for (const auto& cases :
       {VulnsCases(names_only), CatalogCases(names_only), AdmissionCases(names_only), SbomCases(names_only)}) {
    for (const PlanCase& c : cases) planned.insert(c.statement.name);
  }
  for (const icat::Statement& statement : ReadGroupStatements()) {
    BOOST_TEST((planned.count(statement.name) + kNotPlanned.count(statement.name) == 1u),
               statement.name << ": planned here, or in kNotPlanned with the reason, never both");
  }
}

BOOST_AUTO_TEST_CASE(data_set_holds_ten_times_make_bench_findings) {
  icat::Db owner(Data().Dsn("icat_owner"), {});
  // Findings as the scans count them: each scan's set, however many scans share it.
  double counted = std::stod(FirstCell(owner.RunSql(
      "SELECT sum(n) FROM scans s JOIN (SELECT set_id, count(*) AS n FROM vulnerabilities GROUP BY set_id) c "
      "ON c.set_id = s.findings_set_id")));
  BOOST_TEST(counted >= 0.9 * kTenTimesFindings);
  BigTables big = BigTablesOf(owner);
  BOOST_TEST(big.count("vulnerabilities") == 1u, "the findings table is not big");
  BOOST_TEST(big.count("scans") == 1u, "the scans table is not big");
  BOOST_TEST(big.count("packages") == 1u, "the packages table is not big");
  BOOST_TEST(std::stod(FirstCell(owner.RunSql("SELECT count(*) FROM scans WHERE package_set_id IS NULL"))) == 0);
}

BOOST_AUTO_TEST_CASE(rule_names_a_seq_scan_an_index_walk_and_a_bitmap_scan_of_most_of_a_table) {
  Planner planner(Data(), {kProbeSeqScan, kProbeIndexWalk, kProbeBitmapRange});
  BigTables big = BigTablesOf(planner.db());
  auto reads = [&](const PlanCase& c) {
    return WholeTableReads(planner.Plan(c, PlanMode::kCustom), big, PlanMode::kCustom);
  };

  // Every finding has this title: the scan stops at its first row, yet the plan has no bound.
  std::vector<std::string> seq = reads({kProbeSeqScan, "", {"Generated finding"}});
  BOOST_TEST_REQUIRE(seq.size() == 1u);
  BOOST_TEST(seq[0].find("Seq Scan on vulnerabilities: a scan of the whole table") != std::string::npos, seq[0]);

  std::vector<std::string> walk = reads({kProbeIndexWalk, "", {"10"}});
  BOOST_TEST_REQUIRE(walk.size() == 1u);
  BOOST_TEST(walk[0].find("on vulnerabilities: a walk of the whole index") != std::string::npos, walk[0]);

  // A third of the findings' ids, read by a bitmap: bounded by its Index Cond in name only.
  planner.db().ExecSql("SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off");
  std::vector<std::string> range = reads({kProbeBitmapRange, "", {"1", Count(big.at("vulnerabilities") / 3)}});
  BOOST_TEST_REQUIRE(range.size() == 1u);
  BOOST_TEST(range[0].find("Bitmap Heap Scan on vulnerabilities: reads ") != std::string::npos, range[0]);
}

BOOST_AUTO_TEST_CASE(findings_and_cve_lookups_read_no_whole_table) {
  ExpectNoWholeTableReads(VulnsCases(Data().sample()));
}

// Issue 18's own words: the findings of one version and the CVE look-up never read more than they
// return. Exactly so for a page without a filter (a filter reads the rows it drops) and for the
// look-up over every version (the latest versions' look-up also reads the findings older versions
// hold now, which this data set, one version an image, does not have).
BOOST_AUTO_TEST_CASE(findings_pages_and_the_cve_lookup_read_only_the_findings_they_return) {
  const std::set<std::pair<std::string_view, std::string_view>> exact = {
      {icat::vulns::kFindingsOfLatestVersion.name, "first page"},
      {icat::vulns::kFindingsOfVersion.name, "a version by id, first page"},
      {icat::vulns::kCveLookupAll.name, "the most common CVE"},
  };
  Planner planner(Data(), ReadGroupStatements());
  size_t checked = 0;
  for (const PlanCase& c : VulnsCases(Data().sample())) {
    if (!exact.count({c.statement.name, c.request})) continue;
    ++checked;
    for (PlanMode mode : kPlanModes) {
      rapidjson::Document plan = planner.Plan(c, mode);
      double returned = NumberOf(plan[0]["Plan"], "Actual Rows");
      double read = RowsReadFrom(plan[0]["Plan"], "vulnerabilities");
      BOOST_TEST(returned > 0, c.statement.name << " (" << c.request << ") returned nothing");
      BOOST_TEST(read <= returned, c.statement.name << " (" << c.request << "), " << NameOf(mode) << ": read "
                                                    << Count(read) << " findings to return " << Count(returned) << "\n"
                                                    << planner.Text(c, mode));
    }
  }
  BOOST_TEST(checked == exact.size());
}

BOOST_AUTO_TEST_CASE(catalog_reads_read_no_whole_table) { ExpectNoWholeTableReads(CatalogCases(Data().sample())); }

BOOST_AUTO_TEST_CASE(admission_lookups_read_no_whole_table) {
  ExpectNoWholeTableReads(AdmissionCases(Data().sample()));
}

BOOST_AUTO_TEST_CASE(sbom_downloads_read_no_whole_table) { ExpectNoWholeTableReads(SbomCases(Data().sample())); }

// The licence policies on images and image_versions (sql/V0022) check each row they let through by
// one probe of licenses_pkey, and the database plans with random_page_cost 1.1, without which the
// planner reads a small licences table whole for every row.
BOOST_AUTO_TEST_CASE(licence_policies_probe_one_licence_per_row_by_its_key) {
  Planner planner(Data(), ReadGroupStatements());
  BOOST_TEST(FirstCell(planner.db().RunSql("SELECT current_setting('random_page_cost')")) == "1.1");
  const Sample& s = Data().sample();
  for (const auto& cases : {VulnsCases(s), CatalogCases(s), AdmissionCases(s), SbomCases(s)}) {
    for (const PlanCase& c : cases) {
      for (PlanMode mode : kPlanModes) {
        std::vector<std::string> found;
        CollectLicenceChecks(planner.Plan(c, mode)[0]["Plan"], false, found);
        for (const std::string& check : found) {
          BOOST_ERROR(c.statement.name << " (" << c.request << "), " << NameOf(mode) << ": " << check << "\n"
                                       << planner.Text(c, mode));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
