-- Attestations (issue 27, docs/attestations.md): every document the service signs (the SBOMs of a
-- scan, the VEX documents it serves) also travels as an in-toto Statement about the image manifest,
-- in a DSSE envelope signed with the vendor's ECDSA P-256 key, in a Sigstore bundle whose bytes are
-- in the blob store. Written only by icatctl, which holds the key; handlers serve them.
-- Catalogue data walled like sboms (V0024): a tenant reads the rows of the images it licenses.
-- Runs as the owner role (icat_owner).

-- The vendor's P-256 keys join the Ed25519 ones. A rotated key is retired, never removed: what it
-- signed stays verifiable with it.
ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_algorithm_check;
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_algorithm_check CHECK (algorithm IN ('Ed25519', 'ECDSA-P256'));
ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz;  -- set by icatctl signing-key rotate

-- One bundle per version, type and attested document. A new scan or a new VEX document adds a row;
-- which rows are served follows from the documents served (served_attestations), so nothing has to
-- be invalidated.
CREATE TABLE attestations (
  version_id       uuid NOT NULL,
  image_id         uuid NOT NULL,  -- the version's, taken along by the foreign key (V0024)
  type             text NOT NULL CHECK (type IN ('spdx', 'cyclonedx', 'openvex', 'cyclonedx-vex')),
  document_sha256  text NOT NULL CHECK (document_sha256 ~ '^[0-9a-f]{64}$'),  -- the predicate's bytes
  predicate_type   text NOT NULL,
  subject_name     text NOT NULL,                                              -- the image's repository
  subject_digest   text NOT NULL CHECK (subject_digest ~ '^sha256:[0-9a-f]{64}$'),
  sha256           text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),           -- of the bundle; its blob
  size_bytes       bigint NOT NULL CHECK (size_bytes > 0),
  signing_key_id   text NOT NULL REFERENCES signing_keys,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (version_id, type, document_sha256),
  FOREIGN KEY (version_id, image_id) REFERENCES image_versions (id, image_id) ON DELETE CASCADE
);
CREATE TRIGGER image_id BEFORE INSERT ON attestations
  FOR EACH ROW WHEN (NEW.image_id IS NULL) EXECUTE FUNCTION image_of_version();
ALTER TABLE attestations ENABLE ROW LEVEL SECURITY;
ALTER TABLE attestations FORCE ROW LEVEL SECURITY;
CREATE POLICY owner ON attestations TO CURRENT_USER USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());
CREATE POLICY licensed ON attestations FOR SELECT USING (EXISTS (SELECT FROM licenses l
  WHERE l.tenant_id = (SELECT current_tenant()) AND l.image_id = attestations.image_id OFFSET 0));

-- The attestations of the documents served now: the SBOMs of each version's latest scan and its
-- served VEX documents. The one definition of "served" for the APIs, the registry and gc.
-- security_invoker: read with the reader's row-level security, like the tables themselves.
CREATE VIEW served_attestations WITH (security_invoker = true) AS
  SELECT a.* FROM attestations a
  JOIN image_versions v ON v.id = a.version_id
  JOIN sboms b ON b.scan_id = v.latest_scan_id AND b.format = a.type AND b.sha256 = a.document_sha256
  WHERE a.type IN ('spdx', 'cyclonedx')
  UNION ALL
  SELECT a.* FROM attestations a
  JOIN vex_served_documents d ON d.version_id = a.version_id AND d.sha256 = a.document_sha256
   AND d.format = CASE a.type WHEN 'openvex' THEN 'openvex' ELSE 'cyclonedx' END
  WHERE a.type IN ('openvex', 'cyclonedx-vex');

GRANT SELECT ON attestations, served_attestations TO icat_app;
