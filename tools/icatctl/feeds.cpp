// icatctl feeds load FILE_OR_URL...: EPSS scores and CISA's KEV catalogue (docs/feeds.md). Every file is
// read and checked before anything is stored; then each replaces its feed's rows whole, in a
// transaction of its own, unless it is older than the feed loaded (refused) or the same (skipped).
#include "ingest/feeds.hpp"

#include <iostream>

#include "commands.hpp"
#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "ingest/fetch.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {

namespace {

struct FeedFile {
  std::string source, sha256_hex;
  Feed feed;
};

// The file's bytes, decompressed when gzip, read as a feed; Failure "<path>: why" otherwise.
FeedFile ReadFeed(const std::string& path, const Config& config) {
  InputFile input = ReadInput(path, config);
  try {
    std::string text = IsGzip(input.bytes) ? Gunzip(input.bytes, config.ingest_max_bytes) : std::move(input.bytes);
    return {input.path, Sha256Hex(text), ParseFeed(text)};
  } catch (const FeedError& e) {
    throw Failure(input.path + ": " + e.what());
  }
}

std::vector<std::string> Column(const std::vector<EpssRow>& rows, std::string EpssRow::*field) {
  std::vector<std::string> values;
  values.reserve(rows.size());
  for (const EpssRow& row : rows) values.push_back(row.*field);
  return values;
}

// One round trip of three arrays: as fast as COPY for this table (docs/feeds.md, "Loading speed").
void StoreEpss(Db& db, const Feed& feed) {
  db.ExecSql("DELETE FROM epss_scores");
  db.ExecSql(
      "INSERT INTO epss_scores (cve_id, score, percentile, score_date) "
      "SELECT c, s::numeric, p::numeric, $4::date FROM unnest($1::text[], $2::text[], $3::text[]) AS r(c, s, p)",
      {TextArrayLiteral(Column(feed.epss, &EpssRow::cve_id)), TextArrayLiteral(Column(feed.epss, &EpssRow::score)),
       TextArrayLiteral(Column(feed.epss, &EpssRow::percentile)), feed.score_date});
}

std::string KevRowsJson(const std::vector<KevEntry>& entries) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteObjects(w, entries, [&](JsonWriter& w, const KevEntry& e) {
    WriteString(w, "cve_id", e.cve_id);
    WriteString(w, "vendor_project", e.vendor_project);
    WriteString(w, "product", e.product);
    WriteString(w, "vulnerability_name", e.vulnerability_name);
    WriteString(w, "date_added", e.date_added);
    WriteString(w, "short_description", e.short_description);
    WriteString(w, "required_action", e.required_action);
    WriteString(w, "due_date", e.due_date);
    WriteOptionalString(w, "known_ransomware_campaign_use", e.known_ransomware_campaign_use);
    WriteOptionalString(w, "notes", e.notes);
    WriteStringArray(w, "cwes", e.cwes);
  });
  return buffer.GetString();
}

// The CVEs no KEV load held before are recorded in kev_seen; unless this is the first KEV load (the
// baseline: its whole catalogue is not news), each licensed tenant whose images' latest versions carry
// one gets a vulnerability.exploited event for it. Returns how many events.
long long NoteExploited(Db& db, bool first_load) {
  Rows rows = db.RunSql(R"(
    WITH added AS (INSERT INTO kev_seen (cve_id) SELECT cve_id FROM kev_entries ON CONFLICT DO NOTHING RETURNING cve_id),
    affected AS (
      SELECT DISTINCT l.tenant_id, a.cve_id, i.id AS image_id, i.name, i.repository, v.id AS version_id, v.tag, v.digest
      FROM added a
      JOIN vulnerabilities x ON x.current AND (x.vuln_id = a.cve_id OR x.aliases @> ARRAY[a.cve_id])
        AND finding_cve(x.vuln_id, x.aliases) = a.cve_id
      JOIN image_versions v ON v.latest_findings_set_id = x.set_id
      JOIN images i ON i.id = v.image_id AND i.latest_version_id = v.id
      JOIN licenses l ON l.image_id = i.id
      WHERE NOT $1::boolean),
    sent AS (
      INSERT INTO events (tenant_id, type, payload)
      SELECT a.tenant_id, 'vulnerability.exploited', jsonb_build_object(
          'cveId', a.cve_id,
          'kev', jsonb_build_object('dateAdded', k.date_added, 'dueDate', k.due_date,
                                    'knownRansomwareCampaignUse', k.known_ransomware_campaign_use),
          'vulnerabilityName', k.vulnerability_name, 'requiredAction', k.required_action,
          'images', jsonb_agg(jsonb_build_object('id', a.image_id, 'name', a.name, 'repository', a.repository,
                                                 'version', jsonb_build_object('id', a.version_id, 'tag', a.tag,
                                                                               'digest', a.digest))
                              ORDER BY a.name, a.image_id))
      FROM affected a JOIN kev_entries k ON k.cve_id = a.cve_id
      GROUP BY a.tenant_id, a.cve_id, k.cve_id
      RETURNING 1)
    SELECT count(*) FROM sent)",
                        {first_load ? "true" : "false"});
  return rows.Int(0, 0);
}

void StoreKev(Db& db, const Feed& feed) {
  db.ExecSql("DELETE FROM kev_entries");
  db.ExecSql("INSERT INTO kev_entries SELECT * FROM jsonb_populate_recordset(NULL::kev_entries, $1::jsonb)",
             {KevRowsJson(feed.kev)});
}

// Loads one checked file in its own transaction; Failure when an older one is loaded already.
void Load(Session& session, const FeedFile& file, std::ostream& out) {
  const Feed& feed = file.feed;
  Transaction transaction(session.db);
  session.db.ExecSql("SELECT pg_advisory_xact_lock(hashtext('icat feeds load ' || $1))", {feed.kind});
  Rows loaded = session.db.RunSql(
      "SELECT $2::timestamptz < published_at AS older, $2::timestamptz = published_at AS same, version, "
      "rfc3339(published_at) AS published FROM feed_loads WHERE kind = $1",
      {feed.kind, feed.published_at});
  std::string what = std::string(feed.kind) + " " + feed.version + " of " + feed.published_at;
  if (!loaded.empty() && loaded.Bool(0, loaded.Column("older"))) {
    throw Failure(file.source + ": " + what + " is older than the " + std::string(feed.kind) + " " +
                  std::string(loaded.Text(0, loaded.Column("version"))) + " of " +
                  std::string(loaded.Text(0, loaded.Column("published"))) + " loaded; nothing changed");
  }
  if (!loaded.empty() && loaded.Bool(0, loaded.Column("same"))) {
    out << file.source << ": " << what << " is loaded already; nothing changed\n";
    return;
  }
  long long events = 0;
  if (feed.kind == kEpss) {
    StoreEpss(session.db, feed);
  } else {
    StoreKev(session.db, feed);
    events = NoteExploited(session.db, loaded.empty());
  }
  long long entries = feed.kind == kEpss ? feed.epss.size() : feed.kev.size();
  session.db.ExecSql(
      "INSERT INTO feed_loads (kind, version, published_at, entries, sha256, source) VALUES ($1, $2, $3, $4, $5, $6) "
      "ON CONFLICT (kind) DO UPDATE SET version = $2, published_at = $3, entries = $4, sha256 = $5, source = $6, "
      "loaded_at = now()",
      {feed.kind, feed.version, feed.published_at, entries, file.sha256_hex, file.source});
  transaction.Commit();
  NoteCachedDataChanged(session);  // findings show the feeds: no cached reply may show the old ones
  out << file.source << ": loaded " << what << ": " << entries << " entries";
  if (feed.kind == kKev) out << ", " << events << " vulnerability.exploited events";
  out << '\n';
}

}  // namespace

void FeedsLoad(const Args& args) {
  Session session;
  std::vector<FeedFile> files;
  for (const std::string& path : args.Positionals()) files.push_back(ReadFeed(path, session.config));
  for (const FeedFile& file : files) Load(session, file, std::cout);
}

}  // namespace icat::ctl
