-- What each SBOM holds of SPEC.md section 1 rule 3, measured at ingest (docs/scans.md,
-- "Completeness"): shown to tenants in image detail as sbomCompleteness. json, not jsonb: it is only
-- ever shown, and keeps the order ingest wrote. SBOMs ingested before the measurement have none
-- (NULL), which image detail shows as null, never as complete.
ALTER TABLE sboms ADD COLUMN completeness json CHECK (json_typeof(completeness) = 'object');
