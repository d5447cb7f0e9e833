-- Admission decision records carry kilobytes of JSON (every image, every reason with its CVE ids),
-- one row per review. pglz compressing them was the largest single cost of a review in make bench;
-- lz4 is several times cheaper. A server built without lz4 keeps pglz.
DO $$
BEGIN
  ALTER TABLE admission_decisions ALTER COLUMN images SET COMPRESSION lz4,
                                  ALTER COLUMN reasons SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available; admission decisions stay compressed with pglz';
END $$;
