-- A revoke is complete when it commits here; every handler worker hears of it from here within a
-- second (common/src/auth.cpp, "Revokes from Postgres"), whatever Redis did with its tombstone.
--
-- revoke_announced_at is when a revoke of the key last ran, the first or a repeat: workers ask for
-- the keys announced since they last looked. A repeat announces again, so a revoke whose outcome
-- was unknown (its COMMIT unanswered, committed later than workers look back) is heard of when it
-- is run again. revoked_at stays the time of the first revoke.
ALTER TABLE api_keys ADD COLUMN revoke_announced_at timestamptz;
UPDATE api_keys SET revoke_announced_at = revoked_at WHERE revoked_at IS NOT NULL;
-- Only revoked keys are in it: the poll reads the few announced in the last seconds.
CREATE INDEX api_keys_revoke_announced ON api_keys (revoke_announced_at) WHERE revoke_announced_at IS NOT NULL;
GRANT UPDATE (revoke_announced_at) ON api_keys TO icat_app;

-- The poll runs before a tenant is known, like auth_api_key (V0001): as the owner, across tenants,
-- returning only the ids of revoked keys, which grant nothing.
CREATE FUNCTION auth_keys_revoked_since(p_since timestamptz)
RETURNS TABLE (key_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT id FROM api_keys WHERE revoke_announced_at > p_since $$;
REVOKE ALL ON FUNCTION auth_keys_revoked_since(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_keys_revoked_since(timestamptz) TO icat_app;
