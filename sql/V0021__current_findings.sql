-- The CVE look-up reads only current findings (issue 18: it never reads more than it returns).
-- With findings sets (V0020) a version keeps every set its scans ever pointed at: a year of daily
-- rescans leaves the look-up's indexes holding an id once per set that ever had it, while the
-- answer holds it once per version (its latest scan's set). `current` marks the findings of a set
-- that is its version's latest, and the look-up's indexes hold those only. Runs as the owner role.
--
-- Kept by triggers, so no writer can forget it: a finding is current when written into a set that
-- is already its version's latest (tests write so), and a version's change of latest set moves the
-- mark from the old set's findings to the new one's (ingest, only when the findings changed).
ALTER TABLE vulnerabilities ADD COLUMN current boolean NOT NULL DEFAULT false;  -- no rewrite: a constant default
UPDATE vulnerabilities x SET current = true FROM image_versions v WHERE v.latest_findings_set_id = x.set_id;

CREATE INDEX vulnerabilities_current_vuln_id ON vulnerabilities (vuln_id) WHERE current;
CREATE INDEX vulnerabilities_current_aliases ON vulnerabilities USING gin (aliases) WHERE current;
DROP INDEX vulnerabilities_aliases;  -- only the look-up searched aliases (V0002)

CREATE FUNCTION vulnerabilities_current() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  NEW.current := EXISTS (SELECT FROM image_versions WHERE latest_findings_set_id = NEW.set_id);
  RETURN NEW;
END $$;
CREATE TRIGGER vulnerabilities_current BEFORE INSERT ON vulnerabilities
  FOR EACH ROW EXECUTE FUNCTION vulnerabilities_current();

CREATE FUNCTION image_versions_current_findings() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  UPDATE vulnerabilities SET current = false WHERE set_id = OLD.latest_findings_set_id AND current;
  UPDATE vulnerabilities SET current = true WHERE set_id = NEW.latest_findings_set_id AND NOT current;
  RETURN NULL;
END $$;
-- Not "UPDATE OF latest_findings_set_id": V0020's BEFORE trigger sets that column, and such a
-- trigger fires only for columns the statement names.
CREATE TRIGGER image_versions_current_findings AFTER UPDATE ON image_versions
  FOR EACH ROW WHEN (OLD.latest_findings_set_id IS DISTINCT FROM NEW.latest_findings_set_id)
  EXECUTE FUNCTION image_versions_current_findings();

-- V0020's incoming_findings returns rows of the table, so it names the new column too (false: a new
-- set is never yet a version's latest when its findings are written).
CREATE OR REPLACE FUNCTION incoming_findings(p_findings jsonb) RETURNS SETOF vulnerabilities LANGUAGE sql IMMUTABLE AS
$$ SELECT e.n, NULL::uuid, e.v->>'id', ARRAY(SELECT jsonb_array_elements_text(e.v->'aliases')), e.v->>'package',
          e.v->>'version', e.v->>'type', e.v->>'purl', e.v->>'severity', round((e.v->>'cvss')::numeric, 1),
          e.v->>'fixState', e.v->>'fixedVersion', e.v->>'title', e.v->>'url', (e.v->>'severitySources')::json,
          e.v->>'severitySource', false
   FROM jsonb_array_elements(p_findings) WITH ORDINALITY AS e(v, n) $$;
