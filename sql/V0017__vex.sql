-- Vendor VEX (issue 17, docs/vex.md): the vendor's statements on whether a vulnerability affects its
-- images, ingested by `icatctl vex ingest` from OpenVEX 0.2.0 and CycloneDX 1.5 documents. A
-- statement applies to findings where they are read (vex_statement_for, one indexed look-up per
-- finding) and to the counts stored on scans (scan_recount, the one counting rule).
-- Catalogue data, like scans and findings: no tenant and no row-level security; handlers reach it
-- only through licensed images and versions. Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- documents and statements
-- One row per ingested file. The same bytes again are recognised by sha256 and change nothing.
CREATE TABLE vex_documents (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  format        text NOT NULL CHECK (format IN ('openvex', 'cyclonedx')),
  document_ref  text,                       -- OpenVEX @id, CycloneDX serialNumber; NULL: none given
  author        text NOT NULL,              -- OpenVEX author; CycloneDX metadata.authors, supplier or manufacture
  role          text,                       -- OpenVEX role
  issued_at     timestamptz NOT NULL,       -- OpenVEX timestamp, CycloneDX metadata.timestamp
  updated_at    timestamptz,                -- OpenVEX last_updated
  version       integer NOT NULL,
  sha256        text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),  -- of the bytes ingested
  ingested_at   timestamptz NOT NULL DEFAULT now()
);

-- A package purl without qualifiers and subpath ("pkg:deb/debian/zlib1g@1.2.13?arch=amd64" is
-- "pkg:deb/debian/zlib1g@1.2.13"), and without its version as well (an '@' after the last '/'):
-- how a statement's subcomponents are compared with a finding's package.
CREATE FUNCTION purl_key(p_purl text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT split_part(split_part(p_purl, '?', 1), '#', 1) $$;
CREATE FUNCTION purl_key_any_version(p_purl text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT regexp_replace(purl_key(p_purl), '@[^/@]*$', '') $$;
CREATE FUNCTION purl_keys(p_purls text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ARRAY(SELECT purl_key(p) FROM unnest(p_purls) p) $$;

-- One row per statement and catalogue image (or version) its product matched: a statement naming
-- two products, or a digest two versions share, is two rows. Everything the document said of it is
-- kept as given, so a document per version can be written from these rows and their document's.
CREATE TABLE vex_statements (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- ingest order, the last tie-break
  document_id        uuid NOT NULL REFERENCES vex_documents ON DELETE CASCADE,
  image_id           uuid NOT NULL REFERENCES images ON DELETE CASCADE,
  version_id         uuid REFERENCES image_versions ON DELETE CASCADE,  -- NULL: every version of the image
  product            text NOT NULL,         -- as the document names it: a purl, an image reference, a digest
  vuln_id            text NOT NULL,         -- upper case
  aliases            text[] NOT NULL DEFAULT '{}',
  vuln_ids           text[] GENERATED ALWAYS AS (ARRAY[vuln_id] || aliases) STORED,  -- a finding matches any
  subcomponents      text[] NOT NULL DEFAULT '{}',  -- package purls as given; empty: every package
  subcomponent_keys  text[] GENERATED ALWAYS AS (purl_keys(subcomponents)) STORED,
  status             text NOT NULL CHECK (status IN ('not_affected', 'affected', 'fixed', 'under_investigation')),
  justification      text CHECK (justification IN ('component_not_present', 'vulnerable_code_not_present',
                       'vulnerable_code_not_in_execute_path', 'vulnerable_code_cannot_be_controlled_by_adversary',
                       'inline_mitigations_already_exist')),
  impact_statement   text,
  action_statement   text,
  statement_time     timestamptz NOT NULL   -- when it was known true: the latest one wins
);
CREATE INDEX vex_statements_image ON vex_statements (image_id, version_id);
CREATE INDEX vex_statements_vuln_ids ON vex_statements USING gin (vuln_ids);
CREATE INDEX vex_statements_document ON vex_statements (document_id);

-- ---------------------------------------------------------------- which statement applies
-- The statement that applies to one finding (docs/vex.md, "Which statement applies"): of the image,
-- for its version or every version, naming its vulnerability id or an alias (either side's), about
-- its package or every package. Of several, the latest statement time wins; at equal times a
-- statement for the version beats one for every version, one naming packages beats one about every
-- package, and then the later ingested. A SQL function of one SELECT, so Postgres inlines it into
-- each caller's LATERAL join and reads vex_statements by its indexes.
CREATE FUNCTION vex_statement_for(p_image_id uuid, p_version_id uuid, p_vuln_id text, p_aliases text[],
                                  p_purl text)
RETURNS TABLE (statement_id bigint, status text, justification text, impact_statement text,
               statement_time timestamptz, author text)
LANGUAGE sql STABLE AS
$$ SELECT st.id, st.status, st.justification, st.impact_statement, st.statement_time, d.author
   FROM vex_statements st JOIN vex_documents d ON d.id = st.document_id
   WHERE st.image_id = p_image_id AND (st.version_id IS NULL OR st.version_id = p_version_id)
     AND st.vuln_ids && (ARRAY[p_vuln_id] || p_aliases)
     AND (st.subcomponent_keys = '{}'
          OR st.subcomponent_keys && ARRAY[purl_key(p_purl), purl_key_any_version(p_purl)])
   ORDER BY st.statement_time DESC, st.version_id IS NULL, st.subcomponent_keys = '{}', st.id DESC
   LIMIT 1 $$;

-- ---------------------------------------------------------------- the counts stored on a scan
-- Distinct vulnerability ids the vendor marks not_affected in every package they were found in:
-- the ids that vulnerabilityCounts no longer counts, shown beside them as vexExcludedCount.
ALTER TABLE scans ADD COLUMN vex_excluded_count integer NOT NULL DEFAULT 0;

-- The one counting rule (V0001: counts are stored, never recomputed per request). Scan ingest runs
-- it on the scan it stores, VEX ingest on every scan its statements touch. Findings a scanner marks
-- not-affected, and findings whose applicable statement is not_affected, count nowhere: *_count
-- counts distinct ids at their highest severity, findings_* package findings, fixable_count distinct
-- ids with fixState fixed in some package, vex_excluded_count the ids the vendor's VEX took out.
CREATE FUNCTION scan_recount(p_scan_id uuid) RETURNS scans LANGUAGE sql AS
$$ WITH finding AS (
     SELECT x.vuln_id, x.severity, x.fix_state, COALESCE(vx.status = 'not_affected', false) AS excluded
     FROM scans s JOIN image_versions v ON v.id = s.version_id JOIN vulnerabilities x ON x.scan_id = s.id
     LEFT JOIN LATERAL vex_statement_for(v.image_id, v.id, x.vuln_id, x.aliases, x.purl) vx ON true
     WHERE s.id = p_scan_id AND x.fix_state <> 'not-affected'),
   vuln AS (
     SELECT vuln_id, min(array_position(ARRAY['critical', 'high', 'medium', 'low', 'unknown'], severity)) AS rank,
            bool_or(fix_state = 'fixed') AS fixable
     FROM finding WHERE NOT excluded GROUP BY vuln_id),
   totals AS (
     SELECT (SELECT count(*) FILTER (WHERE rank = 1) FROM vuln) AS critical,
            (SELECT count(*) FILTER (WHERE rank = 2) FROM vuln) AS high,
            (SELECT count(*) FILTER (WHERE rank = 3) FROM vuln) AS medium,
            (SELECT count(*) FILTER (WHERE rank = 4) FROM vuln) AS low,
            (SELECT count(*) FILTER (WHERE rank = 5) FROM vuln) AS unknown,
            (SELECT count(*) FILTER (WHERE fixable) FROM vuln) AS fixable,
            count(*) FILTER (WHERE NOT excluded AND severity = 'critical') AS findings_critical,
            count(*) FILTER (WHERE NOT excluded AND severity = 'high') AS findings_high,
            count(*) FILTER (WHERE NOT excluded AND severity = 'medium') AS findings_medium,
            count(*) FILTER (WHERE NOT excluded AND severity = 'low') AS findings_low,
            count(*) FILTER (WHERE NOT excluded AND severity = 'unknown') AS findings_unknown,
            count(DISTINCT vuln_id) FILTER (WHERE excluded AND vuln_id NOT IN (SELECT vuln_id FROM vuln)) AS excluded
     FROM finding)
   UPDATE scans s SET critical_count = t.critical, high_count = t.high, medium_count = t.medium,
     low_count = t.low, unknown_count = t.unknown, findings_critical = t.findings_critical,
     findings_high = t.findings_high, findings_medium = t.findings_medium, findings_low = t.findings_low,
     findings_unknown = t.findings_unknown, fixable_count = t.fixable, vex_excluded_count = t.excluded
   FROM totals t WHERE s.id = p_scan_id
   RETURNING s.* $$;
REVOKE ALL ON FUNCTION scan_recount(uuid) FROM PUBLIC;

-- ---------------------------------------------------------------- the event
-- vex.updated: a vendor statement changed what applies to an image the tenant is licensed for.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) > 0 AND events <@ ARRAY[
  'scan.completed', 'vulnerability.detected', 'vulnerability.fixed', 'cve_watch.matched', 'vex.updated', 'ping']);

-- ---------------------------------------------------------------- the handlers' role
GRANT SELECT ON vex_documents, vex_statements TO icat_app;
