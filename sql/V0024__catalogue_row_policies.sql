-- The second wall around everything a tenant reaches only through a licence (docs/decisions.md,
-- "Postgres as the second wall"): scans, SBOM records, findings sets, findings, first-seen times and
-- the VEX tables get V0022's licence policy, so a statement that forgets its licence join still reads
-- nothing of an image the tenant is not licensed for. Runs as the owner role (icat_owner).
--
-- How it keeps the plans (docs/query-plans.md, "The licence check"):
-- - Every such row names its image (image_id, part of its foreign key to its parent, so it can only
--   be its parent's image), and its policy is one probe of licenses_pkey, as on image_versions: a
--   finding never pays for its set, version and image in turn (three nested probes made a findings
--   page 80% dearer).
-- - Postgres runs no condition that is not leakproof ahead of a policy, so such a condition can no
--   longer be an index condition: `aliases @> ARRAY[...]` and `vuln_ids && ...` (array operators)
--   lost their GIN indexes, and a COALESCE in a page's cursor its (set_id, id) bound. The look-ups
--   are restated with leakproof `=`: the aliases of current findings and the ids of VEX statements
--   get a table each, read by B-tree (below), and the handlers write CASE where they wrote COALESCE.

-- ---------------------------------------------------------------- the licence probe, cheaper
-- Each probe also passes licenses' own policy (V0001), which evaluated current_tenant() (the
-- setting, then a text-to-uuid parse) at every probe; as an InitPlan it is evaluated once per
-- statement, as in the licence policies (V0019). Same rows, same meaning.
ALTER POLICY tenant_isolation ON licenses
  USING (tenant_id = (SELECT current_tenant())) WITH CHECK (tenant_id = (SELECT current_tenant()));

-- ---------------------------------------------------------------- the image each row belongs to
-- The catalogue's indexes on arrays that no statement reads once the look-ups below replace them,
-- dropped first so that the rewrite below does not maintain them.
DROP INDEX vulnerabilities_current_aliases;  -- V0021: the CVE look-up's aliases
DROP INDEX vex_statements_vuln_ids;          -- V0017: vex_statement_for's ids

ALTER TABLE scans ADD COLUMN image_id uuid;
ALTER TABLE sboms ADD COLUMN image_id uuid;
ALTER TABLE findings_sets ADD COLUMN image_id uuid;
ALTER TABLE vulnerabilities ADD COLUMN image_id uuid;
ALTER TABLE vulnerability_first_seen ADD COLUMN image_id uuid;
ALTER TABLE vex_served_documents ADD COLUMN image_id uuid;

-- Rewrites each table once (make bench-scale's 100x, 1.6 million findings and 365,000 scans: 3 minutes
-- on a loaded 2-core machine; docs/deploy.md).
UPDATE scans s SET image_id = v.image_id FROM image_versions v WHERE v.id = s.version_id;
UPDATE sboms b SET image_id = s.image_id FROM scans s WHERE s.id = b.scan_id;
UPDATE findings_sets f SET image_id = v.image_id FROM image_versions v WHERE v.id = f.version_id;
UPDATE vulnerabilities x SET image_id = f.image_id FROM findings_sets f WHERE f.id = x.set_id;
UPDATE vulnerability_first_seen f SET image_id = v.image_id FROM image_versions v WHERE v.id = f.version_id;
UPDATE vex_served_documents d SET image_id = v.image_id FROM image_versions v WHERE v.id = d.version_id;

ALTER TABLE scans ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE sboms ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE findings_sets ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE vulnerabilities ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE vulnerability_first_seen ALTER COLUMN image_id SET NOT NULL;
ALTER TABLE vex_served_documents ALTER COLUMN image_id SET NOT NULL;

-- The policies trust image_id, so no writer may choose it: each row's foreign key to its parent
-- takes the image along, and a row naming another image than its parent's is refused (23503). It
-- replaces the key on the parent alone, so a write checks no more than before: a trigger would have
-- cost ingest a look-up per finding (60% more time to write them). NOT VALID: the rows above
-- were just copied from their parents, and checking them would read every table again.
ALTER TABLE image_versions ADD CONSTRAINT image_versions_id_image_id_key UNIQUE (id, image_id);
ALTER TABLE findings_sets ADD CONSTRAINT findings_sets_id_image_id_key UNIQUE (id, image_id);
ALTER TABLE scans ADD CONSTRAINT scans_id_image_id_key UNIQUE (id, image_id);

ALTER TABLE scans DROP CONSTRAINT scans_version_id_fkey,
  ADD CONSTRAINT scans_version_fkey FOREIGN KEY (version_id, image_id)
    REFERENCES image_versions (id, image_id) ON DELETE CASCADE NOT VALID;
ALTER TABLE sboms DROP CONSTRAINT sboms_scan_id_fkey,
  ADD CONSTRAINT sboms_scan_fkey FOREIGN KEY (scan_id, image_id)
    REFERENCES scans (id, image_id) ON DELETE CASCADE NOT VALID;
ALTER TABLE findings_sets DROP CONSTRAINT findings_sets_version_id_fkey,
  ADD CONSTRAINT findings_sets_version_fkey FOREIGN KEY (version_id, image_id)
    REFERENCES image_versions (id, image_id) ON DELETE CASCADE NOT VALID;
ALTER TABLE vulnerabilities DROP CONSTRAINT vulnerabilities_set_id_fkey,
  ADD CONSTRAINT vulnerabilities_set_fkey FOREIGN KEY (set_id, image_id)
    REFERENCES findings_sets (id, image_id) ON DELETE CASCADE NOT VALID;
ALTER TABLE vulnerability_first_seen DROP CONSTRAINT vulnerability_first_seen_version_id_fkey,
  ADD CONSTRAINT vulnerability_first_seen_version_fkey FOREIGN KEY (version_id, image_id)
    REFERENCES image_versions (id, image_id) ON DELETE CASCADE NOT VALID;
ALTER TABLE vex_served_documents DROP CONSTRAINT vex_served_documents_version_id_fkey,
  ADD CONSTRAINT vex_served_documents_version_fkey FOREIGN KEY (version_id, image_id)
    REFERENCES image_versions (id, image_id) ON DELETE CASCADE NOT VALID;

-- A writer that leaves image_id out gets its parent's (the tests, and an older icatctl during a
-- rolling upgrade); ingest names it where it writes many rows (store_findings below, first-seen
-- times), so this costs it nothing there.
CREATE FUNCTION image_of_version() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  NEW.image_id := (SELECT v.image_id FROM public.image_versions v WHERE v.id = NEW.version_id);
  RETURN NEW;
END $$;
CREATE FUNCTION image_of_scan() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  NEW.image_id := (SELECT s.image_id FROM public.scans s WHERE s.id = NEW.scan_id);
  RETURN NEW;
END $$;
CREATE FUNCTION image_of_findings_set() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  NEW.image_id := (SELECT f.image_id FROM public.findings_sets f WHERE f.id = NEW.set_id);
  RETURN NEW;
END $$;
CREATE TRIGGER image_id BEFORE INSERT ON scans
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_version();
CREATE TRIGGER image_id BEFORE INSERT ON sboms
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_scan();
CREATE TRIGGER image_id BEFORE INSERT ON findings_sets
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_version();
CREATE TRIGGER image_id BEFORE INSERT ON vulnerabilities
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_findings_set();
CREATE TRIGGER image_id BEFORE INSERT ON vulnerability_first_seen
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_version();
CREATE TRIGGER image_id BEFORE INSERT ON vex_served_documents
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_version();

-- V0021's incoming_findings returns rows of the table, so it names the new column too (NULL, like
-- set_id: store_findings gives both).
CREATE OR REPLACE FUNCTION incoming_findings(p_findings jsonb) RETURNS SETOF vulnerabilities LANGUAGE sql IMMUTABLE AS
$$ SELECT e.n, NULL::uuid, e.v->>'id', ARRAY(SELECT jsonb_array_elements_text(e.v->'aliases')), e.v->>'package',
          e.v->>'version', e.v->>'type', e.v->>'purl', e.v->>'severity', round((e.v->>'cvss')::numeric, 1),
          e.v->>'fixState', e.v->>'fixedVersion', e.v->>'title', e.v->>'url', (e.v->>'severitySources')::json,
          e.v->>'severitySource', false, NULL::uuid
   FROM jsonb_array_elements(p_findings) WITH ORDINALITY AS e(v, n) $$;

-- V0020's store_findings, writing each finding's image with it (its set's, from the set's insert).
CREATE OR REPLACE FUNCTION store_findings(p_version_id uuid, p_findings jsonb, OUT findings_set_id uuid,
                                          OUT stored_now boolean)
LANGUAGE plpgsql AS
$$
DECLARE
  v_rows vulnerabilities[] := ARRAY(SELECT f FROM incoming_findings(p_findings) f ORDER BY f.id);
  v_digest text := findings_digest(v_rows);
  v_image_id uuid;
BEGIN
  SELECT id INTO findings_set_id FROM findings_sets WHERE version_id = p_version_id AND sha256 = v_digest;
  stored_now := NOT FOUND;
  IF NOT stored_now THEN
    RETURN;
  END IF;
  INSERT INTO findings_sets (version_id, sha256) VALUES (p_version_id, v_digest)
    RETURNING id, image_id INTO findings_set_id, v_image_id;
  INSERT INTO vulnerabilities (set_id, image_id, vuln_id, aliases, package_name, package_version, package_type, purl,
                               severity, cvss_score, fix_state, fixed_version, title, primary_url, severity_sources,
                               severity_source)
  SELECT findings_set_id, v_image_id, r.vuln_id, r.aliases, r.package_name, r.package_version, r.package_type, r.purl,
         r.severity, r.cvss_score, r.fix_state, r.fixed_version, r.title, r.primary_url, r.severity_sources,
         r.severity_source
  FROM unnest(v_rows) r ORDER BY r.id;
END $$;

-- ---------------------------------------------------------------- the aliases of current findings
-- The CVE look-up finds a finding by an alias as well as by its id. One
-- row per alias of each current finding (V0021's `current`: of its version's latest findings set),
-- kept by the triggers that keep `current`, and read by `alias = $1`, which keeps its index under
-- the policy where `aliases @> ARRAY[$1]` did not (1 ms became 3.5 s).
CREATE TABLE current_finding_aliases (
  alias       text NOT NULL,
  finding_id  bigint NOT NULL,
  set_id      uuid NOT NULL,
  image_id    uuid NOT NULL,
  PRIMARY KEY (alias, finding_id),
  FOREIGN KEY (set_id, image_id) REFERENCES findings_sets (id, image_id) ON DELETE CASCADE
);
CREATE INDEX current_finding_aliases_set ON current_finding_aliases (set_id);

INSERT INTO current_finding_aliases (alias, finding_id, set_id, image_id)
SELECT DISTINCT a.alias, x.id, x.set_id, x.image_id FROM vulnerabilities x CROSS JOIN unnest(x.aliases) a(alias)
WHERE x.current;

-- A version's change of latest set moves the aliases with the mark (V0021).
CREATE OR REPLACE FUNCTION image_versions_current_findings() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  UPDATE vulnerabilities SET current = false WHERE set_id = OLD.latest_findings_set_id AND current;
  UPDATE vulnerabilities SET current = true WHERE set_id = NEW.latest_findings_set_id AND NOT current;
  DELETE FROM current_finding_aliases WHERE set_id = OLD.latest_findings_set_id;
  INSERT INTO current_finding_aliases (alias, finding_id, set_id, image_id)
  SELECT DISTINCT a.alias, x.id, x.set_id, x.image_id FROM vulnerabilities x CROSS JOIN unnest(x.aliases) a(alias)
  WHERE x.set_id = NEW.latest_findings_set_id;
  RETURN NULL;
END $$;

-- A finding written current (into a set that is already its version's latest, as tests write).
CREATE FUNCTION current_finding_aliases_insert() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  INSERT INTO current_finding_aliases (alias, finding_id, set_id, image_id)
  SELECT DISTINCT a.alias, NEW.id, NEW.set_id, NEW.image_id FROM unnest(NEW.aliases) a(alias);
  RETURN NULL;
END $$;
CREATE TRIGGER current_finding_aliases AFTER INSERT ON vulnerabilities
  FOR EACH ROW WHEN (NEW.current AND cardinality(NEW.aliases) > 0) EXECUTE FUNCTION current_finding_aliases_insert();

-- ---------------------------------------------------------------- the ids of VEX statements
-- vex_statement_for matched a statement by `vuln_ids && (the finding's id and aliases)`: under the
-- policy, every statement of the image passed the licence probe before that test (a page of 50
-- findings of an image with 100 statements: 4 ms became 50 ms). One row per id of each statement
-- (its vulnerability id and aliases), read by `vuln_id = ANY (...)`: only the statements that match.
-- Written with the statement (VEX ingest only ever inserts statements) and gone with it.
ALTER TABLE vex_statements ADD CONSTRAINT vex_statements_id_image_id_key UNIQUE (id, image_id);
CREATE TABLE vex_statement_ids (
  image_id      uuid NOT NULL,
  vuln_id       text NOT NULL,
  statement_id  bigint NOT NULL,
  PRIMARY KEY (image_id, vuln_id, statement_id),
  FOREIGN KEY (statement_id, image_id) REFERENCES vex_statements (id, image_id) ON DELETE CASCADE
);
CREATE INDEX vex_statement_ids_statement ON vex_statement_ids (statement_id);

INSERT INTO vex_statement_ids (image_id, vuln_id, statement_id)
SELECT DISTINCT st.image_id, i.vuln_id, st.id FROM vex_statements st CROSS JOIN unnest(st.vuln_ids) i(vuln_id);

CREATE FUNCTION vex_statement_ids_insert() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  INSERT INTO vex_statement_ids (image_id, vuln_id, statement_id)
  SELECT DISTINCT NEW.image_id, i.vuln_id, NEW.id FROM unnest(NEW.vuln_ids) i(vuln_id);
  RETURN NULL;
END $$;
CREATE TRIGGER vex_statement_ids AFTER INSERT ON vex_statements
  FOR EACH ROW EXECUTE FUNCTION vex_statement_ids_insert();

-- V0017's look-up, the same statement chosen: the candidates come from their ids.
CREATE OR REPLACE FUNCTION vex_statement_for(p_image_id uuid, p_version_id uuid, p_vuln_id text, p_aliases text[],
                                             p_purl text)
RETURNS TABLE (statement_id bigint, status text, justification text, impact_statement text,
               statement_time timestamptz, author text)
LANGUAGE sql STABLE AS
$$ SELECT st.id, st.status, st.justification, st.impact_statement, st.statement_time, d.author
   FROM vex_statements st JOIN vex_documents d ON d.id = st.document_id
   WHERE st.id IN (SELECT k.statement_id FROM public.vex_statement_ids k
                   WHERE k.image_id = p_image_id AND k.vuln_id = ANY (ARRAY[p_vuln_id] || p_aliases))
     AND (st.version_id IS NULL OR st.version_id = p_version_id)
     AND (st.subcomponent_keys = '{}'
          OR st.subcomponent_keys && ARRAY[public.purl_key(p_purl), public.purl_key_any_version(p_purl)])
   ORDER BY st.statement_time DESC, st.version_id IS NULL, st.subcomponent_keys = '{}', st.id DESC
   LIMIT 1 $$;

-- ---------------------------------------------------------------- the policies
-- As V0009 and V0022: forced, the owner's own policy, and for everyone else a SELECT policy that
-- probes the tenant's licence of the row's image. Read-only: only the owner writes these.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['scans', 'sboms', 'findings_sets', 'vulnerabilities', 'vulnerability_first_seen',
      'current_finding_aliases', 'vex_statements', 'vex_statement_ids', 'vex_served_documents', 'vex_documents'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY owner ON %I TO CURRENT_USER USING (public.owner_sees_all()) '
                   'WITH CHECK (public.owner_sees_all())', t);
    CONTINUE WHEN t = 'vex_documents';
    EXECUTE format('CREATE POLICY licensed ON %I FOR SELECT USING (EXISTS (SELECT FROM licenses l '
                   'WHERE l.tenant_id = (SELECT current_tenant()) AND l.image_id = %I.image_id OFFSET 0))', t, t);
  END LOOP;
END $$;

-- A VEX document has no image of its own: it is visible with any statement of it that is. Its
-- statements are probed in index order until one is: one probe for a document per image, more for
-- a document of many images of which the tenant licenses few.
CREATE POLICY licensed ON vex_documents FOR SELECT
  USING (EXISTS (SELECT FROM vex_statements st WHERE st.document_id = vex_documents.id OFFSET 0));

GRANT SELECT ON current_finding_aliases, vex_statement_ids TO icat_app;
