-- The whole schema: catalogue (vendor-owned, readable by every tenant through licences),
-- tenant-owned rows behind row-level security, and the roles' grants.
-- Runs as the owner role (icat_owner); the handlers connect as icat_app, which owns nothing.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'icat_app') THEN
    RAISE EXCEPTION 'role icat_app is missing: create it (LOGIN, no other rights) before migrating';
  END IF;
END $$;

-- The tenant of the current request, set by the handlers with set_config('app.tenant_id', $1, true).
CREATE FUNCTION current_tenant() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid $$;

-- ---------------------------------------------------------------- tenants and people
CREATE TABLE tenants (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subdomain   text NOT NULL UNIQUE CHECK (subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id      uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  email          text NOT NULL CHECK (email ~ '^[^@\s]+@[^@\s]+$'),
  password_hash  text NOT NULL,
  role           text NOT NULL CHECK (role IN ('admin', 'user', 'viewer')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  disabled_at    timestamptz
);
CREATE UNIQUE INDEX users_tenant_email ON users (tenant_id, lower(email));

-- ---------------------------------------------------------------- the catalogue
CREATE TABLE images (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name               text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9._/-]{0,127}$'),
  description        text NOT NULL DEFAULT '',
  base_os            text,
  repository         text NOT NULL UNIQUE,  -- registry host and path, e.g. registry.example.test/hardened/nginx
  latest_version_id  uuid,                  -- the newest published version; set when versions are added
  created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE image_versions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  image_id        uuid NOT NULL REFERENCES images ON DELETE CASCADE,
  tag             text NOT NULL CHECK (tag ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$'),
  digest          text NOT NULL CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
  size_bytes      bigint CHECK (size_bytes >= 0),
  base_os         text,
  hardening_tags  text[] NOT NULL DEFAULT '{}',
  published_at    timestamptz NOT NULL DEFAULT now(),
  latest_scan_id  uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (image_id, tag)
);
CREATE INDEX image_versions_digest ON image_versions (digest);
ALTER TABLE images ADD FOREIGN KEY (latest_version_id) REFERENCES image_versions ON DELETE SET NULL;

-- One scanner run of one version. The counts are stored at ingest, never recomputed per request:
-- *_count counts distinct vulnerability ids at their highest severity, findings_* counts package findings.
CREATE TABLE scans (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version_id          uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  scanner_name        text NOT NULL,
  scanner_version     text,
  scanned_at          timestamptz NOT NULL,
  vulndb_updated_at   timestamptz,
  input_sha256        text NOT NULL,        -- of all ingested files together: re-ingesting them is a no-op
  critical_count      integer NOT NULL DEFAULT 0,
  high_count          integer NOT NULL DEFAULT 0,
  medium_count        integer NOT NULL DEFAULT 0,
  low_count           integer NOT NULL DEFAULT 0,
  unknown_count       integer NOT NULL DEFAULT 0,
  findings_critical   integer NOT NULL DEFAULT 0,
  findings_high       integer NOT NULL DEFAULT 0,
  findings_medium     integer NOT NULL DEFAULT 0,
  findings_low        integer NOT NULL DEFAULT 0,
  findings_unknown    integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (version_id, input_sha256)
);
CREATE INDEX scans_version ON scans (version_id, scanned_at DESC);
ALTER TABLE image_versions ADD FOREIGN KEY (latest_scan_id) REFERENCES scans ON DELETE SET NULL;

-- SBOM bytes live in the blob store, content-addressed; this row describes and signs them.
CREATE TABLE sboms (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scan_id          uuid NOT NULL REFERENCES scans ON DELETE CASCADE,
  format           text NOT NULL CHECK (format IN ('spdx', 'cyclonedx')),
  spec_version     text NOT NULL,
  sha256           text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes       bigint NOT NULL,
  tool_name        text,
  tool_version     text,
  signature        text NOT NULL,           -- base64 Ed25519 over the exact bytes
  signing_key_id   text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (scan_id, format)
);

CREATE TABLE vulnerabilities (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  scan_id          uuid NOT NULL REFERENCES scans ON DELETE CASCADE,
  vuln_id          text NOT NULL,           -- CVE-... or GHSA-..., upper case
  aliases          text[] NOT NULL DEFAULT '{}',
  package_name     text NOT NULL,
  package_version  text,
  package_type     text,
  purl             text,
  severity         text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'unknown')),
  cvss_score       numeric(3, 1),
  fix_state        text NOT NULL CHECK (fix_state IN ('fixed', 'not-fixed', 'wont-fix', 'unknown', 'not-affected')),
  fixed_version    text,
  title            text,
  primary_url      text
);
CREATE INDEX vulnerabilities_scan ON vulnerabilities (scan_id);
CREATE INDEX vulnerabilities_vuln_id ON vulnerabilities (vuln_id);

-- When the service first saw a vulnerability on a version (admission grace periods count from here).
CREATE TABLE vulnerability_first_seen (
  version_id     uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  vuln_id        text NOT NULL,
  first_seen_at  timestamptz NOT NULL,
  PRIMARY KEY (version_id, vuln_id)
);

-- ---------------------------------------------------------------- tenant-owned rows
CREATE TABLE licenses (
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  image_id    uuid NOT NULL REFERENCES images ON DELETE CASCADE,
  granted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, image_id)
);
CREATE INDEX licenses_image ON licenses (image_id);

CREATE TABLE api_keys (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id     uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  prefix        text NOT NULL,              -- the first 14 characters of the key, shown in lists
  key_hash      bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),  -- SHA-256 of the full key
  scopes        text[] NOT NULL CHECK (cardinality(scopes) > 0
                  AND scopes <@ ARRAY['read:catalog', 'read:sbom', 'read:vulns', 'admission']),
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    uuid REFERENCES users ON DELETE SET NULL,
  expires_at    timestamptz,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
CREATE INDEX api_keys_prefix ON api_keys (tenant_id, prefix);

CREATE TABLE refresh_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  family_id   uuid NOT NULL,
  token_hash  bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE cve_watches (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  cve_id      text NOT NULL CHECK (cve_id ~ '^(CVE-[0-9]{4}-[0-9]{4,}|GHSA-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$'),
  note        text,
  created_by  uuid REFERENCES users ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, cve_id)
);

CREATE TABLE feature_requests (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id     uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  type          text NOT NULL CHECK (type IN ('feature', 'package', 'bug')),
  title         text NOT NULL,
  description   text NOT NULL,
  image_id      uuid REFERENCES images ON DELETE SET NULL,
  cve_id        text,
  package_name  text,
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'planned', 'done', 'declined')),
  created_by    uuid REFERENCES users ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feature_requests_tenant ON feature_requests (tenant_id, created_at);

CREATE TABLE webhooks (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id        uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  url              text NOT NULL,
  events           text[] NOT NULL CHECK (cardinality(events) > 0 AND events <@ ARRAY[
                     'scan.completed', 'vulnerability.detected', 'vulnerability.fixed', 'cve_watch.matched', 'ping']),
  active           boolean NOT NULL DEFAULT true,
  secret           text NOT NULL,           -- whsec_...; needed in clear to sign deliveries
  disabled_reason  text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, url)
);

-- The outbox: one row per event per tenant, written in the transaction that caused it.
CREATE TABLE events (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  type        text NOT NULL,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  fanned_out_at timestamptz                 -- when deliveries were created for it
);
CREATE INDEX events_pending ON events (created_at) WHERE fanned_out_at IS NULL;

CREATE TABLE deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id        uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  event_id         uuid NOT NULL REFERENCES events ON DELETE CASCADE,
  webhook_id       uuid NOT NULL REFERENCES webhooks ON DELETE CASCADE,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, webhook_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at DESC);

CREATE TABLE admission_policies (
  tenant_id   uuid PRIMARY KEY REFERENCES tenants ON DELETE CASCADE,
  policy      jsonb NOT NULL,
  updated_by  uuid REFERENCES users ON DELETE SET NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE admission_decisions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  request_uid text NOT NULL,
  operation   text NOT NULL,
  kind        text NOT NULL,
  namespace   text,
  name        text,
  images      jsonb NOT NULL,
  allowed     boolean NOT NULL,
  mode        text NOT NULL,
  dry_run     boolean NOT NULL DEFAULT false,
  reasons     jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX admission_decisions_tenant ON admission_decisions (tenant_id, created_at DESC);

CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  at          timestamptz NOT NULL DEFAULT now(),
  actor       text NOT NULL,                -- user:<id>, key:<id> or operator
  action      text NOT NULL,                -- login.succeeded, key.revoked, ...
  target      text,
  client_ip   text,
  request_id  text,                         -- nginx's $request_id, to find the request's log line
  detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, at DESC);

-- ---------------------------------------------------------------- row-level security
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'licenses', 'api_keys', 'refresh_tokens', 'cve_watches',
      'feature_requests', 'webhooks', 'events', 'deliveries', 'admission_policies',
      'admission_decisions', 'audit_log'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant()) '
                   'WITH CHECK (tenant_id = current_tenant())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO icat_app', t);
  END LOOP;
END $$;

-- The catalogue is the vendor's: handlers read it, only the operator's tools write it.
GRANT SELECT ON tenants, images, image_versions, scans, sboms, vulnerabilities,
  vulnerability_first_seen TO icat_app;

-- Credential look-ups happen before the tenant is known, so they run as the owner,
-- return only what authentication needs, and nothing else is reachable through them.
CREATE FUNCTION auth_api_key(p_key_hash bytea)
RETURNS TABLE (key_id uuid, tenant_id uuid, scopes text[], expires_at timestamptz, revoked_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT id, tenant_id, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = p_key_hash $$;
REVOKE ALL ON FUNCTION auth_api_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_api_key(bytea) TO icat_app;

-- Timestamps leave the database as RFC 3339 UTC text, the form every API field uses.
CREATE FUNCTION rfc3339(timestamptz) RETURNS text LANGUAGE sql STABLE AS
$$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') $$;
