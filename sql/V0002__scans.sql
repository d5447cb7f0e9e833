-- Scan ingest: the public keys that signed SBOMs, the stored fixable count of a scan, and the
-- index the CVE look-up needs for aliases. Runs as the owner role (icat_owner).

-- Every key that ever signed an SBOM, so a signature stays verifiable after the key is rotated.
-- icatctl ingest adds its key here; GET /v1/signing-keys lists them. Handlers never see a private key.
CREATE TABLE signing_keys (
  id              text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),  -- first 16 hex of SHA-256 of the public key's DER
  algorithm       text NOT NULL CHECK (algorithm IN ('Ed25519')),
  public_key_pem  text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
-- NOT VALID: enforced for every new SBOM without re-checking rows written before this migration.
ALTER TABLE sboms ADD CONSTRAINT sboms_signing_key_fk FOREIGN KEY (signing_key_id) REFERENCES signing_keys NOT VALID;

-- Distinct vulnerability ids with a fix available in at least one affected package, stored at
-- ingest like the severity counts (the scan history shows it per scan).
ALTER TABLE scans ADD COLUMN fixable_count integer NOT NULL DEFAULT 0;

-- The CVE look-up matches an id or any of its aliases (a GHSA whose alias is the CVE asked for).
CREATE INDEX vulnerabilities_aliases ON vulnerabilities USING gin (aliases);
-- The scan history walks a version's scans oldest first, ties broken by ingest order.
CREATE INDEX scans_version_history ON scans (version_id, scanned_at, created_at, id);

GRANT SELECT ON signing_keys TO icat_app;
