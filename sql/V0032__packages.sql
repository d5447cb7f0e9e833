-- The packages of each scan's SBOMs as ingested (issue 31, docs/compare.md): what comparing two
-- versions and "which of my images carry this package" read. Stored once per distinct package list
-- of an image, as findings are per version (V0020): a rescan, or a rebuild that ships the same
-- packages, points its scan at the set the image already has and stores nothing. Per image, not
-- global, so that each row names the one image whose licence shows it (V0024's wall).
-- Scans ingested before this migration have no set (package_set_id NULL) until
-- `icatctl packages backfill` reads their stored SBOMs (docs/compare.md, "Older scans").
-- Runs as the owner role (icat_owner).

CREATE TABLE package_sets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  image_id    uuid NOT NULL REFERENCES images ON DELETE CASCADE,
  sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),  -- of its purls, sorted, one per line
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (image_id, sha256),
  UNIQUE (id, image_id)
);

-- One package of a set: its full purl (the set's key), and its identity, the purl without version,
-- qualifiers and subpath (V0017's purl_key_any_version, the rule VEX subcomponents match by).
CREATE TABLE packages (
  set_id    uuid NOT NULL,
  image_id  uuid NOT NULL,
  purl      text NOT NULL,
  identity  text NOT NULL GENERATED ALWAYS AS (purl_key_any_version(purl)) STORED,
  type      text NOT NULL GENERATED ALWAYS AS (lower(substring(purl FROM '^pkg:([^/]+)/'))) STORED,
  name      text NOT NULL,
  version   text,
  PRIMARY KEY (set_id, purl),
  FOREIGN KEY (set_id, image_id) REFERENCES package_sets (id, image_id) ON DELETE CASCADE
);
-- The look-up by identity (GET /v1/packages): the sets holding it, then their versions.
CREATE INDEX packages_identity ON packages (identity, set_id);
CREATE INDEX packages_name ON packages (name, set_id);
-- A compare reads a set in identity order.
CREATE INDEX packages_set_identity ON packages (set_id, identity, purl);

ALTER TABLE scans ADD COLUMN package_set_id uuid;
ALTER TABLE scans ADD CONSTRAINT scans_package_set_fkey FOREIGN KEY (package_set_id, image_id)
  REFERENCES package_sets (id, image_id);
CREATE INDEX scans_package_set ON scans (package_set_id);

-- The set of image p_image_id holding exactly p_packages (ingest's JSON array of {"purl", "name",
-- "version"}, distinct purls): the one it already has (stored_now false), or a new one. Ingest
-- holds the image's row lock, so two ingests never race to create the same set.
CREATE FUNCTION store_packages(p_image_id uuid, p_packages jsonb, OUT package_set_id uuid, OUT stored_now boolean)
LANGUAGE plpgsql AS
$$
DECLARE
  v_digest text := encode(sha256(convert_to(COALESCE(
    (SELECT string_agg(e->>'purl', E'\n' ORDER BY e->>'purl' COLLATE "C") FROM jsonb_array_elements(p_packages) e),
    ''), 'UTF8')), 'hex');
BEGIN
  SELECT id INTO package_set_id FROM package_sets WHERE image_id = p_image_id AND sha256 = v_digest;
  stored_now := NOT FOUND;
  IF NOT stored_now THEN
    RETURN;
  END IF;
  INSERT INTO package_sets (image_id, sha256) VALUES (p_image_id, v_digest) RETURNING id INTO package_set_id;
  INSERT INTO packages (set_id, image_id, purl, name, version)
  SELECT package_set_id, p_image_id, e->>'purl', e->>'name', e->>'version' FROM jsonb_array_elements(p_packages) e;
END $$;
REVOKE ALL ON FUNCTION store_packages(uuid, jsonb) FROM PUBLIC;

-- V0024's wall: the owner sees all, everyone else the rows of images its tenant is licensed for.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['package_sets', 'packages'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY owner ON %I TO CURRENT_USER USING (public.owner_sees_all()) '
                   'WITH CHECK (public.owner_sees_all())', t);
    EXECUTE format('CREATE POLICY licensed ON %I FOR SELECT USING (EXISTS (SELECT FROM licenses l '
                   'WHERE l.tenant_id = (SELECT current_tenant()) AND l.image_id = %I.image_id OFFSET 0))', t, t);
  END LOOP;
END $$;

GRANT SELECT ON package_sets, packages TO icat_app;
