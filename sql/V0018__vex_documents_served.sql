-- The VEX documents the service serves (issue 17, docs/vex-documents.md): per image version, one
-- OpenVEX 0.2.0 and one CycloneDX 1.5 document written from the vendor's statements that apply to
-- it, signed like SBOMs, their bytes in the blob store (ICAT_BLOB_DIR, content-addressed) that
-- nginx serves after the sbom group's handler has authorised the download. Written only by icatctl
-- (vex ingest, scan ingest), which holds the signing key: handlers never see a private key.
-- Catalogue data, like sboms: no tenant and no row-level security. Runs as the owner role (icat_owner).

-- One row per version and format; a version without a statement that applies to it has none. The
-- row changes only when the bytes do, and then document_version counts up (OpenVEX version,
-- CycloneDX version: a consumer sees which of two documents is newer).
CREATE TABLE vex_served_documents (
  version_id        uuid NOT NULL REFERENCES image_versions ON DELETE CASCADE,
  format            text NOT NULL CHECK (format IN ('openvex', 'cyclonedx')),
  document_version  integer NOT NULL CHECK (document_version >= 1),
  sha256            text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),  -- of the bytes; the blob's name
  size_bytes        bigint NOT NULL CHECK (size_bytes > 0),
  signature         text NOT NULL,                                    -- base64 Ed25519 over the bytes
  signing_key_id    text NOT NULL REFERENCES signing_keys,
  generated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (version_id, format)
);

GRANT SELECT ON vex_served_documents TO icat_app;
