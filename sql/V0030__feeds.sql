-- Enrichment feeds (issue 31, docs/feeds.md): FIRST's EPSS scores and CISA's catalogue of Known
-- Exploited Vulnerabilities. Public facts about CVEs, the same for every tenant: no tenant column,
-- no row policy. `icatctl feeds load` replaces a feed's rows whole, in one transaction, and records
-- the load in feed_loads; the handlers only read them. Runs as the owner role (icat_owner).

-- The feed loaded last of each kind: a load older than this one is refused.
CREATE TABLE feed_loads (
  kind          text PRIMARY KEY CHECK (kind IN ('epss', 'kev')),
  version       text NOT NULL,         -- EPSS: the model_version; KEV: catalogVersion
  published_at  timestamptz NOT NULL,  -- EPSS: score_date; KEV: dateReleased
  entries       integer NOT NULL CHECK (entries >= 0),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),  -- of the file as read (decompressed)
  source        text NOT NULL,         -- the path or URL it was loaded from
  loaded_at     timestamptz NOT NULL DEFAULT now()
);

-- One row per CVE of the EPSS file: `cve,epss,percentile`, and the file's score_date.
CREATE TABLE epss_scores (
  cve_id      text PRIMARY KEY CHECK (cve_id ~ '^CVE-[0-9]{4}-[0-9]{4,}$'),
  score       numeric NOT NULL CHECK (score BETWEEN 0 AND 1),
  percentile  numeric NOT NULL CHECK (percentile BETWEEN 0 AND 1),
  score_date  date NOT NULL
);

-- One row per entry of the KEV catalogue, with the fields its schema requires and the optional ones.
CREATE TABLE kev_entries (
  cve_id                         text PRIMARY KEY CHECK (cve_id ~ '^CVE-[0-9]{4}-[0-9]{4,}$'),
  vendor_project                 text NOT NULL,
  product                        text NOT NULL,
  vulnerability_name             text NOT NULL,
  date_added                     date NOT NULL,
  short_description              text NOT NULL,
  required_action                text NOT NULL,
  due_date                       date NOT NULL,
  known_ransomware_campaign_use  text,   -- 'Known' or 'Unknown' as CISA writes it
  notes                          text,
  cwes                           text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX kev_entries_date_added ON kev_entries (date_added);

GRANT SELECT ON feed_loads, epss_scores, kev_entries TO icat_app;
