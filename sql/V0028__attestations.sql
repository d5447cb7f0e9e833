-- Attestations (issue 27, docs/attestations.md): every document the service signs (the SBOMs of a
-- scan, the VEX documents it serves) also travels as an in-toto Statement about the image manifest,
-- in a DSSE envelope signed with the vendor's ECDSA P-256 key, in a Sigstore bundle whose bytes are
-- in the blob store. Written only by icatctl, which holds the key; handlers serve them.
-- Catalogue data, like sboms: no tenant and no row-level security. Runs as the owner role (icat_owner).

-- The vendor's P-256 keys join the Ed25519 ones. A rotated key is retired, never removed: what it
-- signed stays verifiable with it.
ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_algorithm_check;
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_algorithm_check CHECK (algorithm IN ('Ed25519', 'ECDSA-P256'));
ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz;  -- set by icatctl signing-key rotate

-- One bundle per version, type and attested document. A new scan or a new VEX document adds a row;
-- which rows are served follows from the documents served (served_attestations), so nothing has to
-- be invalidated.
CREATE TABLE attestations (
  version_id       uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  type             text NOT NULL CHECK (type IN ('spdx', 'cyclonedx', 'openvex', 'cyclonedx-vex')),
  document_sha256  text NOT NULL CHECK (document_sha256 ~ '^[0-9a-f]{64}$'),  -- the predicate's bytes
  predicate_type   text NOT NULL,
  subject_name     text NOT NULL,                                              -- the image's repository
  subject_digest   text NOT NULL CHECK (subject_digest ~ '^sha256:[0-9a-f]{64}$'),
  sha256           text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),           -- of the bundle; its blob
  size_bytes       bigint NOT NULL CHECK (size_bytes > 0),
  signing_key_id   text NOT NULL REFERENCES signing_keys,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (version_id, type, document_sha256)
);

-- The attestations of the documents served now: the SBOMs of each version's latest scan and its
-- served VEX documents. The one definition of "served" for the APIs, the registry and gc.
CREATE VIEW served_attestations AS
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
