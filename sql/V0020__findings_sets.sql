-- Findings stored once per distinct content (docs/scans.md, "Findings sets"). A version rescanned
-- daily mostly finds what it found the day before; until now each scan stored every finding again,
-- so the table grew by the whole catalogue's findings every day. Now a scan points at a findings
-- set, addressed by the digest of its content within its version: a rescan whose findings equal a
-- set the version already has points at that set and stores nothing. Scans keep their own counts,
-- times and SBOMs; the scan history, the findings of any scan and the SBOM bytes read as before.
-- Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- sets
-- Per version, not global: a set belongs to the one image its scans are of (VEX statements and
-- licences are per image), and two versions rarely find the very same packages.
CREATE TABLE findings_sets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version_id  uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),  -- findings_digest() of its findings
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The canonical text of one finding: every stored column but its row id and set, in table order,
-- as one JSON array. The severity sources are json, so their text goes in exactly as stored.
CREATE FUNCTION finding_line(x vulnerabilities) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT json_build_array(x.vuln_id, x.aliases, x.package_name, x.package_version, x.package_type, x.purl,
                           x.severity, x.cvss_score, x.fix_state, x.fixed_version, x.title, x.primary_url,
                           x.severity_sources, x.severity_source)::text $$;

-- The address of a set: SHA-256 of its findings' lines in their order (ingest stores them sorted,
-- so the same findings always come in the same order), one per line; no findings is the digest of ''.
CREATE FUNCTION findings_digest(p_findings vulnerabilities[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT encode(sha256(convert_to(COALESCE(string_agg(finding_line(p_findings[i]), E'\n' ORDER BY i), ''), 'UTF8')), 'hex')
   FROM generate_subscripts(p_findings, 1) i $$;

-- ---------------------------------------------------------------- existing findings move in place
-- Every scan's findings become the set of the scan's own id, so no finding row is rewritten; then
-- the equal sets of a version become one. The one kept is the set of the version's latest scan when
-- it is among them (the findings served today keep their row ids, so paging cursors stay valid),
-- else the newest scan's.
ALTER TABLE vulnerabilities DROP CONSTRAINT vulnerabilities_scan_id_fkey;
ALTER TABLE vulnerabilities RENAME COLUMN scan_id TO set_id;
ALTER INDEX vulnerabilities_scan_id RENAME TO vulnerabilities_set_id;  -- (set_id, id): a set's findings in order

INSERT INTO findings_sets (id, version_id, sha256, created_at)
SELECT s.id, s.version_id, findings_digest(ARRAY(SELECT x FROM vulnerabilities x WHERE x.set_id = s.id ORDER BY x.id)),
       s.created_at
FROM scans s;

ALTER TABLE vulnerabilities ADD CONSTRAINT vulnerabilities_set_id_fkey
  FOREIGN KEY (set_id) REFERENCES findings_sets ON DELETE CASCADE;
ALTER TABLE scans ADD COLUMN findings_set_id uuid REFERENCES findings_sets;

UPDATE scans s SET findings_set_id = k.keeper
FROM (SELECT fs.id, first_value(fs.id) OVER (
        PARTITION BY fs.version_id, fs.sha256
        ORDER BY v.latest_scan_id IS NOT DISTINCT FROM fs.id DESC, s.scanned_at DESC, s.created_at DESC, s.id DESC) AS keeper
      FROM findings_sets fs JOIN scans s ON s.id = fs.id JOIN image_versions v ON v.id = fs.version_id) k
WHERE k.id = s.id;
DELETE FROM findings_sets fs WHERE NOT EXISTS (SELECT FROM scans s WHERE s.findings_set_id = fs.id);  -- and their findings

ALTER TABLE scans ALTER COLUMN findings_set_id SET NOT NULL;
CREATE INDEX scans_findings_set ON scans (findings_set_id);  -- a set still in use is not deleted
ALTER TABLE findings_sets ADD CONSTRAINT findings_sets_version_sha256_key UNIQUE (version_id, sha256);

-- ---------------------------------------------------------------- the latest scan's set, on the version
-- Every read of current findings goes from a version to its latest scan's set: kept on the version,
-- beside latest_scan_id, that is one join less on every hot path, and the CVE look-up goes from a
-- finding straight to the one version whose latest set it is in (a set belongs to one version).
-- A trigger keeps it equal to the latest scan's set whoever sets latest_scan_id.
ALTER TABLE image_versions ADD COLUMN latest_findings_set_id uuid REFERENCES findings_sets ON DELETE SET NULL;
CREATE INDEX image_versions_latest_findings_set ON image_versions (latest_findings_set_id);

CREATE FUNCTION image_versions_latest_findings_set() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  NEW.latest_findings_set_id := (SELECT findings_set_id FROM scans WHERE id = NEW.latest_scan_id);
  RETURN NEW;
END $$;
CREATE TRIGGER image_versions_latest_findings_set BEFORE INSERT OR UPDATE OF latest_scan_id ON image_versions
  FOR EACH ROW EXECUTE FUNCTION image_versions_latest_findings_set();

UPDATE image_versions v SET latest_scan_id = latest_scan_id WHERE latest_scan_id IS NOT NULL;  -- fires the trigger

-- ---------------------------------------------------------------- ingest
-- The findings of a report as rows (ingest's JSON array, in its order; set_id left NULL).
CREATE FUNCTION incoming_findings(p_findings jsonb) RETURNS SETOF vulnerabilities LANGUAGE sql IMMUTABLE AS
$$ SELECT e.n, NULL::uuid, e.v->>'id', ARRAY(SELECT jsonb_array_elements_text(e.v->'aliases')), e.v->>'package',
          e.v->>'version', e.v->>'type', e.v->>'purl', e.v->>'severity', round((e.v->>'cvss')::numeric, 1),
          e.v->>'fixState', e.v->>'fixedVersion', e.v->>'title', e.v->>'url', (e.v->>'severitySources')::json,
          e.v->>'severitySource'
   FROM jsonb_array_elements(p_findings) WITH ORDINALITY AS e(v, n) $$;

-- The set of version p_version_id holding exactly p_findings: the one it already has (stored_now
-- false), or a new one with the findings stored in the order given (ids ascend with it). Ingest
-- holds the version's row lock, so two ingests of one version never race to create the same set.
CREATE FUNCTION store_findings(p_version_id uuid, p_findings jsonb, OUT findings_set_id uuid, OUT stored_now boolean)
LANGUAGE plpgsql AS
$$
DECLARE
  v_rows vulnerabilities[] := ARRAY(SELECT f FROM incoming_findings(p_findings) f ORDER BY f.id);
  v_digest text := findings_digest(v_rows);
BEGIN
  SELECT id INTO findings_set_id FROM findings_sets WHERE version_id = p_version_id AND sha256 = v_digest;
  stored_now := NOT FOUND;
  IF NOT stored_now THEN
    RETURN;
  END IF;
  INSERT INTO findings_sets (version_id, sha256) VALUES (p_version_id, v_digest) RETURNING id INTO findings_set_id;
  INSERT INTO vulnerabilities (set_id, vuln_id, aliases, package_name, package_version, package_type, purl, severity,
                               cvss_score, fix_state, fixed_version, title, primary_url, severity_sources,
                               severity_source)
  SELECT findings_set_id, r.vuln_id, r.aliases, r.package_name, r.package_version, r.package_type, r.purl, r.severity,
         r.cvss_score, r.fix_state, r.fixed_version, r.title, r.primary_url, r.severity_sources, r.severity_source
  FROM unnest(v_rows) r ORDER BY r.id;
END $$;
REVOKE ALL ON FUNCTION store_findings(uuid, jsonb) FROM PUBLIC;

-- The one counting rule (V0017), reading the scan's set.
CREATE OR REPLACE FUNCTION scan_recount(p_scan_id uuid) RETURNS scans LANGUAGE sql AS
$$ WITH finding AS (
     SELECT x.vuln_id, x.severity, x.fix_state, COALESCE(vx.status = 'not_affected', false) AS excluded
     FROM scans s JOIN image_versions v ON v.id = s.version_id JOIN vulnerabilities x ON x.set_id = s.findings_set_id
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

GRANT SELECT ON findings_sets TO icat_app;
