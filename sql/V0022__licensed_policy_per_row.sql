-- The second wall's licence policies on images and image_versions (V0009, V0019) as a look-up per
-- row instead of a hash of all the tenant's licences per statement (bench/README.md, issue 18's
-- section). Same rows, same meaning. Runs as the owner role (icat_owner).
--
-- `id IN (SELECT ... licences)` is a hashed subplan: every statement reading either table built a
-- hash of the tenant's licences (0.05 to 0.09 ms for 305, growing with the catalogue a tenant
-- licenses), most of a single image's read; and the planner charged that hash to every probe of
-- an index scan it filtered, so it preferred to hash-join whole tables. As a correlated EXISTS it
-- is one primary-key probe of licenses per row read: a single image's read pays for one row, a
-- page for its rows. OFFSET 0 keeps Postgres from turning the EXISTS back into the hashed form.
ALTER POLICY licensed ON images
  USING (EXISTS (SELECT FROM licenses l WHERE l.tenant_id = (SELECT current_tenant()) AND l.image_id = images.id
                 OFFSET 0));
ALTER POLICY licensed ON image_versions
  USING (EXISTS (SELECT FROM licenses l WHERE l.tenant_id = (SELECT current_tenant())
                 AND l.image_id = image_versions.image_id OFFSET 0));

-- A probe is only cheap by the index: with the default random_page_cost (4, for spinning disks) the
-- planner reads a small licences table whole for every row instead (5 µs a row against 1 µs on the
-- bench data). The catalogue's working set is in memory (or on SSD), where 1.1 is the usual figure.
-- Set for the database, which the owner role owns in every deployment we make; where it does not,
-- an operator sets it (docs/operations.md) and the migration goes on.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'random_page_cost: not the database owner; set it to 1.1 for this database (docs/operations.md)';
END $$;
