-- The query_plans suite's packages (docs/query-plans.md), added to bench/seed.sql's data as ingest
-- stores them (sql/V0032 store_packages): each findings set's scans list one package set of their
-- image, :packages packages named from a shared pool of :names, so a name is in many images' sets.
-- As the findings do at each change (seed.sql), each later set of a version moves four more of its
-- packages to a new version. Run as the owner role after seed.sql:
--   psql -v packages=300 -v names=2000 -f query_plans_packages.sql
\set ON_ERROR_STOP on
BEGIN;

-- n: the image's number, which picks its window of the pool; epoch: the set's place in its version.
CREATE TEMP TABLE plans_sets ON COMMIT DROP AS
SELECT fs.id, v.image_id, substring(im.name FROM '[0-9]+$')::int AS n,
       row_number() OVER (PARTITION BY fs.version_id ORDER BY fs.created_at, fs.id) - 1 AS epoch
FROM findings_sets fs JOIN image_versions v ON v.id = fs.version_id JOIN images im ON im.id = v.image_id;

CREATE TEMP TABLE plans_package_sets ON COMMIT DROP AS
SELECT s.id AS findings_set_id, p.package_set_id
FROM plans_sets s CROSS JOIN LATERAL store_packages(s.image_id, (
  SELECT jsonb_agg(jsonb_build_object('purl', format('pkg:npm/plans-pkg-%s@%s', k.name_no, k.version),
                                      'name', 'plans-pkg-' || k.name_no, 'version', k.version))
  FROM generate_series(0, :packages - 1) j
  CROSS JOIN LATERAL (SELECT (s.n * 7 + j) % :names AS name_no,
                             CASE WHEN j < 4 * s.epoch THEN format('1.%s.0', s.epoch) ELSE '1.0.0' END AS version) k)) p;

UPDATE scans s SET package_set_id = p.package_set_id FROM plans_package_sets p WHERE s.findings_set_id = p.findings_set_id;

COMMIT;
