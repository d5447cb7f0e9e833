-- The registry (issue 26, docs/registry.md): tenants pull with an API key of scope `pull`, the
-- operator pushes with a publisher credential, a push of a catalogue image's tag publishes a version,
-- and pulls are counted per tenant and version.
-- Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- the scope `pull`
ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (cardinality(scopes) > 0
  AND scopes <@ ARRAY['read:catalog', 'read:sbom', 'read:vulns', 'admission', 'pull']);

-- ---------------------------------------------------------------- the event version.published
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) > 0 AND events <@ ARRAY[
  'scan.completed', 'vulnerability.detected', 'vulnerability.fixed', 'cve_watch.matched', 'vex.updated', 'ping',
  'version.published']);

-- ---------------------------------------------------------------- publishers
-- The vendor's credentials for pushing images (icatctl publisher create|revoke). Not a tenant's:
-- no tenant sees them; the handlers reach them only through registry_publisher() below.
CREATE TABLE publishers (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  secret_hash  bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),  -- SHA-256 of the password
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
REVOKE ALL ON publishers FROM icat_app;

-- $1 the name a client sent, $2 SHA-256 of its password: the live publisher of that name and
-- password, or no row.
CREATE FUNCTION registry_publisher(p_name text, p_secret_hash bytea)
RETURNS TABLE (publisher_id uuid, name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT id, name FROM publishers WHERE name = p_name AND secret_hash = p_secret_hash AND revoked_at IS NULL $$;
REVOKE ALL ON FUNCTION registry_publisher(text, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry_publisher(text, bytea) TO icat_app;

-- ---------------------------------------------------------------- publishing from a push
-- A push of tag p_tag with manifest p_digest to the registry repository p_repository (the host and
-- path, as images.repository holds it). Called by the registry's notification handler and by the
-- reconciler (icatctl registry reconcile); either may see a push twice, so it is idempotent:
--   'published'  a new version of the image (unscanned), its licensees told (version.published)
--   'known'      the image already has a version with this digest: the tag only moved; nothing changes
--                but a size the version lacked
--   'conflict'   the tag names another digest in the catalogue: a version's digest never changes
--                (publish a rebuild under a new tag); nothing changes
--   'no-image'   no catalogue image has this repository; nothing changes
-- The image's row lock serialises pushes of one image, so latest_version_id ends up the newest.
CREATE FUNCTION publish_pushed_version(p_repository text, p_tag text, p_digest text, p_size bigint,
                                       p_traceparent text DEFAULT NULL)
RETURNS TABLE (outcome text, image_id uuid, version_id uuid)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS
$$
DECLARE
  v_image images%ROWTYPE;
  v_version image_versions%ROWTYPE;
BEGIN
  SELECT * INTO v_image FROM images WHERE repository = p_repository FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no-image'::text, NULL::uuid, NULL::uuid;
    RETURN;
  END IF;
  SELECT * INTO v_version FROM image_versions WHERE image_versions.image_id = v_image.id AND digest = p_digest
    ORDER BY created_at LIMIT 1;
  IF FOUND THEN
    -- A push whose manifest could not be read back was published without a size: the next sight
    -- of it (the reconciler's) gives it one.
    IF v_version.size_bytes IS NULL AND p_size IS NOT NULL THEN
      UPDATE image_versions SET size_bytes = p_size WHERE id = v_version.id;
    END IF;
    RETURN QUERY SELECT 'known'::text, v_image.id, v_version.id;
    RETURN;
  END IF;
  SELECT * INTO v_version FROM image_versions WHERE image_versions.image_id = v_image.id AND tag = p_tag;
  IF FOUND THEN
    RETURN QUERY SELECT 'conflict'::text, v_image.id, v_version.id;
    RETURN;
  END IF;
  INSERT INTO image_versions (image_id, tag, digest, size_bytes, base_os)
    VALUES (v_image.id, p_tag, p_digest, p_size, v_image.base_os) RETURNING * INTO v_version;
  UPDATE images SET latest_version_id = (SELECT v.id FROM image_versions v WHERE v.image_id = v_image.id
    ORDER BY v.published_at DESC, v.created_at DESC, v.id LIMIT 1) WHERE id = v_image.id;
  INSERT INTO events (tenant_id, type, payload, traceparent)
    SELECT l.tenant_id, 'version.published',
      jsonb_build_object('image', jsonb_build_object('id', v_image.id, 'name', v_image.name,
                                                     'repository', v_image.repository),
                         'version', jsonb_build_object('id', v_version.id, 'tag', v_version.tag,
                                                       'digest', v_version.digest, 'sizeBytes', v_version.size_bytes,
                                                       'publishedAt', rfc3339(v_version.published_at))),
      p_traceparent
    FROM licenses l WHERE l.image_id = v_image.id;
  RETURN QUERY SELECT 'published'::text, v_image.id, v_version.id;
END $$;
REVOKE ALL ON FUNCTION publish_pushed_version(text, text, text, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION publish_pushed_version(text, text, text, bigint, text) TO icat_app;

-- ---------------------------------------------------------------- pulls
-- Per tenant and version: how often its manifest was pulled, and when last. Written by the
-- registry's auth decision in the tenant's scope, read with image details.
CREATE TABLE version_pulls (
  tenant_id       uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  version_id      uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  pull_count      bigint NOT NULL DEFAULT 0 CHECK (pull_count >= 0),
  last_pulled_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, version_id)
);
CREATE INDEX version_pulls_version ON version_pulls (version_id);
ALTER TABLE version_pulls ENABLE ROW LEVEL SECURITY;
ALTER TABLE version_pulls FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON version_pulls USING (tenant_id = current_tenant())
  WITH CHECK (tenant_id = current_tenant());
CREATE POLICY owner ON version_pulls TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all());
GRANT SELECT, INSERT, UPDATE (pull_count, last_pulled_at) ON version_pulls TO icat_app;
