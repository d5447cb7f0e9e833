-- Indexes the read paths needed once measured on the bench data set (make bench).
-- The CVE look-up finds versions by the scan that is their latest.
CREATE INDEX image_versions_latest_scan ON image_versions (latest_scan_id);
