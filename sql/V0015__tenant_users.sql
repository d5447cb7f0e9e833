-- Tenant admins manage their tenant's users in the portal (docs/portal.md, "Users"): a user is
-- created without a password (pending) and sets one through a one-time set-up token; the last
-- active admin of a tenant stays one; the handlers' role writes users and set-up tokens but still
-- never reads a password hash, and writes one only through the functions below.
-- Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- users: pending, last sign-in
-- A pending user has no password yet. has_password tells the handlers the state without the hash.
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE users ADD COLUMN has_password boolean GENERATED ALWAYS AS (password_hash IS NOT NULL) STORED;
ALTER TABLE users ADD COLUMN last_login_at timestamptz;
CREATE INDEX users_tenant ON users (tenant_id, created_at DESC, id DESC);  -- the portal's list

-- ---------------------------------------------------------------- set-up tokens
-- One per user at most: issuing another replaces it (the old link stops working). Stored as
-- SHA-256 only; used_at is set by auth_complete_setup when the password is set.
CREATE TABLE setup_tokens (
  user_id     uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
ALTER TABLE setup_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE setup_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON setup_tokens USING (tenant_id = current_tenant())
  WITH CHECK (tenant_id = current_tenant());
CREATE POLICY owner ON setup_tokens TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all());

-- ---------------------------------------------------------------- the last active admin stays
-- An active admin: role admin, not disabled, with a password. Taking the tenant's lock first makes
-- the count hold until the caller commits: two admins demoting each other at once take turns, and
-- the second finds no other admin. The handlers call it before they ask (for a clear 409), the
-- trigger below on every change, whoever makes it (icatctl too).
CREATE FUNCTION active_admins_besides(p_tenant_id uuid, p_user_id uuid) RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_temp AS
$$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tenant_admins'), hashtext(p_tenant_id::text));
  RETURN (SELECT count(*) FROM users u WHERE u.tenant_id = p_tenant_id AND u.id <> p_user_id
          AND u.role = 'admin' AND u.disabled_at IS NULL AND u.has_password);
END $$;
REVOKE ALL ON FUNCTION active_admins_besides(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION active_admins_besides(uuid, uuid) TO icat_app;

-- SQLSTATE IC001 is this rule's (common/include/icat/sqlstates.def maps it to 409 CONFLICT). A
-- tenant being deleted takes its users along.
CREATE FUNCTION users_keep_an_admin() RETURNS trigger LANGUAGE plpgsql SET search_path = public, pg_temp AS
$$
BEGIN
  IF OLD.role <> 'admin' OR OLD.disabled_at IS NOT NULL OR OLD.password_hash IS NULL THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.role = 'admin' AND NEW.disabled_at IS NULL AND NEW.password_hash IS NOT NULL
     AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF active_admins_besides(OLD.tenant_id, OLD.id) = 0 THEN
    RAISE EXCEPTION 'user % is the last active admin of its tenant', OLD.id USING ERRCODE = 'IC001';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER users_keep_an_admin BEFORE UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION users_keep_an_admin();

-- ---------------------------------------------------------------- writing a password hash
-- The handlers' only ways to a user's password_hash, each bound to the transaction's tenant like
-- auth_login_user (V0009). Only scrypt PHC strings are stored.

-- A set-up token of the tenant, unused and unexpired, is used up and its pending, enabled user gets
-- the password, in one call. Returns that user; no row: refused (the caller answers 401).
CREATE FUNCTION auth_complete_setup(p_token_hash bytea, p_password_hash text)
RETURNS TABLE (user_id uuid, email text, role text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS
$$
#variable_conflict use_column
DECLARE v_user uuid;
BEGIN
  IF p_password_hash IS NULL OR p_password_hash NOT LIKE '$scrypt$%' THEN
    RAISE EXCEPTION 'not a scrypt hash' USING ERRCODE = '22023';
  END IF;
  UPDATE setup_tokens s SET used_at = now()
    WHERE s.tenant_id = current_tenant() AND s.token_hash = p_token_hash AND s.used_at IS NULL
      AND s.expires_at > now()
    RETURNING s.user_id INTO v_user;
  IF v_user IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY UPDATE users u SET password_hash = p_password_hash
    WHERE u.id = v_user AND u.tenant_id = current_tenant() AND u.password_hash IS NULL AND u.disabled_at IS NULL
    RETURNING u.id, u.email, u.role;
END $$;
REVOKE ALL ON FUNCTION auth_complete_setup(bytea, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_complete_setup(bytea, text) TO icat_app;

-- A signed-in user's new password, set only while p_old_hash is still the stored hash (the handler
-- verified the current password against exactly that one): of two changes made with one old
-- password, one wins. True when it was set.
CREATE FUNCTION auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS
$$
BEGIN
  IF p_new_hash IS NULL OR p_new_hash NOT LIKE '$scrypt$%' THEN
    RAISE EXCEPTION 'not a scrypt hash' USING ERRCODE = '22023';
  END IF;
  UPDATE users SET password_hash = p_new_hash
    WHERE id = p_user_id AND tenant_id = current_tenant() AND password_hash = p_old_hash AND disabled_at IS NULL;
  RETURN FOUND;
END $$;
REVOKE ALL ON FUNCTION auth_change_password(uuid, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_change_password(uuid, text, text) TO icat_app;

-- ---------------------------------------------------------------- the handlers' role
-- Users: created without a password (tenant, email, role only), role and disabled changed, deleted,
-- the last sign-in recorded; has_password read. Never password_hash (the functions above write it).
-- Set-up tokens: issued and replaced; used up only by auth_complete_setup.
GRANT SELECT (has_password, last_login_at) ON users TO icat_app;
GRANT INSERT (tenant_id, email, role) ON users TO icat_app;
GRANT UPDATE (role, disabled_at, last_login_at) ON users TO icat_app;
GRANT DELETE ON users TO icat_app;
GRANT SELECT, INSERT, UPDATE (token_hash, created_at, expires_at, used_at) ON setup_tokens TO icat_app;
