-- Postgres as a second wall that holds on its own (docs/decisions.md, "Postgres as the second
-- wall"): row-level security forced on every table that has it, the catalogue visible to a tenant
-- only through its licences, the handlers' role granted only what the handlers do, the login
-- look-up bound to the request's tenant, and audit entries numbered per tenant.
-- Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- audit entries numbered per tenant
-- The id of an entry is its number in its tenant's log (1, 2, 3, ...), so it tells nothing of other
-- tenants; existing entries are renumbered in their order.
ALTER TABLE audit_log ALTER COLUMN id DROP IDENTITY;
ALTER TABLE audit_log DROP CONSTRAINT audit_log_pkey;
UPDATE audit_log a SET id = n.number
FROM (SELECT id, row_number() OVER (PARTITION BY tenant_id ORDER BY id) AS number FROM audit_log) n
WHERE a.id = n.id;
ALTER TABLE audit_log ADD PRIMARY KEY (tenant_id, id);
DROP INDEX audit_log_tenant_id;  -- the primary key serves the list, newest first

-- Every insert takes the tenant's next number, whatever the statement says. Writers of one tenant
-- take turns until they commit, so numbers are never repeated nor skipped (a rolled-back entry
-- gives its number back). The statement runs as the writer, so it sees only that tenant's entries.
CREATE FUNCTION audit_log_number() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_log'), hashtext(NEW.tenant_id::text));
  NEW.id := COALESCE((SELECT max(id) FROM audit_log WHERE tenant_id = NEW.tenant_id), 0) + 1;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_number BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_number();

-- ---------------------------------------------------------------- the owner, deliberately
-- With FORCE below, the owner is filtered like anyone else, except by its own policy: it sees every
-- tenant in its own sessions (icatctl: migrations, tenants, keys, licences, and ingest, which writes
-- events for every licensed tenant), and in its functions run for the handlers while no tenant is
-- set: the look-ups that find the tenant (an API key by its hash, the dispatcher's tenants with
-- work). Once the handler has set a tenant, the owner's functions see that tenant only.
CREATE FUNCTION owner_sees_all() RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT session_user = current_user OR current_tenant() IS NULL $$;

-- ---------------------------------------------------------------- forced row-level security
-- Tenant tables keep their tenant_isolation policy (V0001); the owner gets its own.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'licenses', 'api_keys', 'refresh_tokens', 'cve_watches',
      'feature_requests', 'webhooks', 'events', 'deliveries', 'admission_policies',
      'admission_decisions', 'audit_log', 'images', 'image_versions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY owner ON %I TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all())', t);
  END LOOP;
END $$;

-- The catalogue a tenant sees: the images it holds a licence for and their versions, the two
-- tables every way from a tenant's statement to a scan, an SBOM or a finding passes through.
-- Read-only: only the owner writes the catalogue. The policy reads the tenant's licences once per
-- statement (a hashed subplan); asked row by row, it made the planner start the CVE look-up from the
-- licences (1 ms became 3 to 14 ms on the bench data set). Findings have no policy: Postgres runs no
-- operator that is not leakproof ahead of a policy, so the look-up's `aliases @> ARRAY[...]` would
-- lose its index (1 ms became 3.5 s); scans, SBOM records and first-seen times hang from versions
-- like the findings, and a policy on scans made every finding look-up pay for it again.
CREATE POLICY licensed ON images FOR SELECT
  USING (id IN (SELECT l.image_id FROM licenses l WHERE l.tenant_id = current_tenant()));
CREATE POLICY licensed ON image_versions FOR SELECT
  USING (image_id IN (SELECT l.image_id FROM licenses l WHERE l.tenant_id = current_tenant()));

-- ---------------------------------------------------------------- the login look-up
-- Replaces V0003's, which gave any tenant's user to whoever asked. This one answers for the tenant
-- of the transaction only (the handler sets it first, as for every other statement), and
-- row-level security filters it to that tenant as well.
-- The password hash has to leave the database (the handler verifies scrypt), one user at a time:
-- the handlers' role cannot read that column otherwise (grants below).
DROP FUNCTION auth_login_user(text, text);
CREATE FUNCTION auth_login_user(p_email text)
RETURNS TABLE (tenant_id uuid, user_id uuid, email text, role text, password_hash text, disabled boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT t.id, u.id, u.email, u.role, u.password_hash, u.disabled_at IS NOT NULL
   FROM tenants t
   LEFT JOIN users u ON u.tenant_id = t.id AND lower(u.email) = lower(p_email)
   WHERE t.id = current_tenant() $$;
REVOKE ALL ON FUNCTION auth_login_user(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_login_user(text) TO icat_app;

-- ---------------------------------------------------------------- the handlers' role
-- What the statements of handlers/*/queries.hpp, common/src/auth.cpp and the dispatcher
-- (tools/dispatcher/outbox.cpp) need, and nothing more: the audit log is append-only, licences and
-- users are read-only, a row's tenant and secrets are never updated, only watches and webhook
-- subscriptions are deleted. Locking reads (FOR UPDATE, FOR SHARE) need an UPDATE right on a column.
REVOKE ALL ON users, licenses, api_keys, refresh_tokens, cve_watches, feature_requests, webhooks, events,
  deliveries, admission_policies, admission_decisions, audit_log FROM icat_app;
GRANT SELECT (id, tenant_id, email, role, created_at, disabled_at) ON users TO icat_app;
GRANT SELECT ON licenses TO icat_app;
GRANT SELECT, INSERT, UPDATE (last_used_at, revoked_at) ON api_keys TO icat_app;
GRANT SELECT, INSERT, UPDATE (used_at, revoked_at) ON refresh_tokens TO icat_app;
GRANT SELECT, INSERT, DELETE ON cve_watches TO icat_app;
GRANT SELECT, INSERT ON feature_requests TO icat_app;
GRANT SELECT, INSERT, DELETE, UPDATE (url, events, active, disabled_reason, updated_at) ON webhooks TO icat_app;
GRANT SELECT, INSERT, UPDATE (fanned_out_at) ON events TO icat_app;
GRANT SELECT, INSERT, UPDATE (state, attempts, next_attempt_at, last_status, last_error, updated_at)
  ON deliveries TO icat_app;
GRANT SELECT, INSERT, UPDATE (policy, updated_by, updated_at) ON admission_policies TO icat_app;
GRANT SELECT, INSERT ON admission_decisions, audit_log TO icat_app;
