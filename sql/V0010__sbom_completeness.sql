-- What each SBOM holds of SPEC.md section 1 rule 3, measured at ingest (docs/scans.md,
-- "Completeness"): shown to tenants in image detail as sbomCompleteness. SBOMs ingested before the
-- measurement have none (NULL), which image detail shows as null, never as complete.
ALTER TABLE sboms ADD COLUMN completeness jsonb CHECK (jsonb_typeof(completeness) = 'object');
