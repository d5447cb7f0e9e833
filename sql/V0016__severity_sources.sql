-- Severity detail (docs/scans.md, "Severity sources"): every source's rating of a finding as its
-- report gives it (severity, CVSS version, vector and score), and the source whose rating the
-- finding's severity and cvss_score are. Runs as the owner role (icat_owner); icat_app's SELECT on
-- the table (V0001) covers the new columns.
--
-- severity_sources holds the API's array exactly as ingest wrote it: json, not jsonb, because it is
-- only ever shown, and the listings then send each row's text as it is, without re-serialising it
-- (jsonb would also reorder the keys and take more room). Findings ingested before hold '[]' and no
-- severity_source: their severity and cvss_score stay what they were.
ALTER TABLE vulnerabilities
  ADD COLUMN severity_sources json NOT NULL DEFAULT '[]',
  ADD COLUMN severity_source text;

-- NOT VALID: the rows already there hold the default, and checking them would read the whole table
-- under an exclusive lock; every row written from now on is checked.
ALTER TABLE vulnerabilities ADD CONSTRAINT vulnerabilities_severity_sources_array
  CHECK (json_typeof(severity_sources) = 'array') NOT VALID;
