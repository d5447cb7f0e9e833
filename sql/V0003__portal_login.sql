-- Portal login: the look-up of a user happens before the request's tenant is known to row-level
-- security, so, like auth_api_key, it runs as the owner and returns only what login needs.
-- One row when the tenant exists (the user columns NULL when no such user), none when it does not:
-- the handler does the same work for an unknown tenant, an unknown email and a wrong password.
CREATE FUNCTION auth_login_user(p_subdomain text, p_email text)
RETURNS TABLE (tenant_id uuid, user_id uuid, email text, role text, password_hash text, disabled boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT t.id, u.id, u.email, u.role, u.password_hash, u.disabled_at IS NOT NULL
   FROM tenants t
   LEFT JOIN users u ON u.tenant_id = t.id AND lower(u.email) = lower(p_email)
   WHERE t.subdomain = p_subdomain $$;
REVOKE ALL ON FUNCTION auth_login_user(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_login_user(text, text) TO icat_app;

-- Timestamps with microseconds, for list cursors: the exact sort key of a row, as RFC 3339 UTC.
CREATE FUNCTION rfc3339_us(timestamptz) RETURNS text LANGUAGE sql STABLE AS
$$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$;

-- Lists of the portal, newest first, paginated by (created_at, id).
CREATE INDEX cve_watches_tenant ON cve_watches (tenant_id, created_at DESC, id DESC);
CREATE INDEX webhooks_tenant ON webhooks (tenant_id, created_at DESC, id DESC);
CREATE INDEX audit_log_tenant_id ON audit_log (tenant_id, id DESC);
