-- Signing in beyond a password (issue 29, docs/sso.md): a tenant's own OpenID Provider (one
-- configuration per tenant, people known by issuer and subject, sign-ins in progress), a second
-- factor for people who keep a password (TOTP, recovery codes), and the tenant's sign-in policy.
-- Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- the tenant's provider
-- The client secret is stored sealed (AES-256-GCM under ICAT_SSO_KEY_FILE: nonce, ciphertext, tag;
-- common/include/icat/crypto.hpp Seal) and never leaves the handlers in a reply or a log line.
CREATE TABLE sso_configs (
  tenant_id          uuid PRIMARY KEY REFERENCES tenants ON DELETE CASCADE,
  issuer             text NOT NULL CHECK (issuer ~ '^https?://'),
  client_id          text NOT NULL CHECK (client_id <> ''),
  client_secret      bytea NOT NULL,
  display_name       text NOT NULL CHECK (display_name <> ''),
  scopes             text[] NOT NULL,
  groups_claim       text NOT NULL,
  role_mapping       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(role_mapping) = 'object'),
  default_role       text NOT NULL CHECK (default_role IN ('admin', 'user', 'viewer', 'refuse')),
  allowed_domains    text[] NOT NULL DEFAULT '{}',
  required           boolean NOT NULL DEFAULT false,
  break_glass_email  text,
  max_session_hours  integer NOT NULL DEFAULT 12 CHECK (max_session_hours BETWEEN 1 AND 720),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT required OR break_glass_email IS NOT NULL)
);

-- A person who signs in with the provider: the subject (iss + sub) is who they are, not the email.
CREATE TABLE user_identities (
  tenant_id        uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  issuer           text NOT NULL,
  subject          text NOT NULL,
  user_id          uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at  timestamptz,
  PRIMARY KEY (tenant_id, issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- A sign-in in progress, from /api/auth/oidc/start to its callback: used once (deleted), ten
-- minutes at most. The state's hash is the key; the browser that started it holds a cookie whose
-- hash is browser_hash, so a state carried to another browser is refused.
CREATE TABLE sso_sign_ins (
  state_hash     bytea PRIMARY KEY CHECK (octet_length(state_hash) = 32),
  tenant_id      uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  browser_hash   bytea NOT NULL CHECK (octet_length(browser_hash) = 32),
  nonce          text NOT NULL,
  code_verifier  text NOT NULL,
  next_path      text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX sso_sign_ins_expiry ON sso_sign_ins (expires_at);

-- A session started by the provider ends at its family's hard end, however often it is refreshed.
ALTER TABLE refresh_tokens ADD COLUMN session_ends_at timestamptz;

-- ---------------------------------------------------------------- a second factor (TOTP)
-- RFC 6238 (SHA-1, 6 digits, 30 s). The secret is sealed like the client secret; confirmed_at is
-- NULL while the person has not yet shown a code from their app; last_step stops a code from being
-- used twice.
CREATE TABLE totp_factors (
  user_id       uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  tenant_id     uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  secret        bytea NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  confirmed_at  timestamptz,
  last_step     bigint NOT NULL DEFAULT 0
);

-- Recovery codes: shown once, stored as SHA-256 only, each good for one sign-in.
CREATE TABLE recovery_codes (
  tenant_id  uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  user_id    uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  code_hash  bytea NOT NULL CHECK (octet_length(code_hash) = 32),
  used_at    timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- ---------------------------------------------------------------- the tenant's sign-in policy
CREATE TABLE sign_in_policies (
  tenant_id      uuid PRIMARY KEY REFERENCES tenants ON DELETE CASCADE,
  totp_required  boolean NOT NULL DEFAULT false,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------- walls
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sso_configs', 'user_identities', 'sso_sign_ins', 'totp_factors',
      'recovery_codes', 'sign_in_policies'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant()) '
                   'WITH CHECK (tenant_id = current_tenant())', t);
    EXECUTE format('CREATE POLICY owner ON %I TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all())', t);
  END LOOP;
END $$;

-- ---------------------------------------------------------------- the handlers' role
GRANT SELECT, INSERT, DELETE, UPDATE ON sso_configs TO icat_app;
GRANT SELECT, INSERT, DELETE, UPDATE (last_sign_in_at) ON user_identities TO icat_app;
GRANT SELECT, INSERT, DELETE ON sso_sign_ins TO icat_app;
GRANT SELECT, INSERT, DELETE, UPDATE (secret, created_at, confirmed_at, last_step) ON totp_factors TO icat_app;
GRANT SELECT, INSERT, DELETE, UPDATE (used_at) ON recovery_codes TO icat_app;
GRANT SELECT, INSERT, UPDATE (totp_required, updated_at) ON sign_in_policies TO icat_app;
