-- The second wall's policies on images and image_versions (V0009) compute the tenant once per
-- statement. Written `l.tenant_id = current_tenant()`, the hashed subplan that reads the tenant's
-- licences evaluated current_tenant() (current_setting, then a text-to-uuid parse) for every
-- licence row it scanned, of every tenant: perf on the bench's cold image detail showed
-- uuid_in and strtoull at 13% of all CPU (bench/README.md, "The -miss rows"). As an InitPlan
-- ((SELECT current_tenant())) it is evaluated once, and the subplan keeps its shape: the tenant's
-- licences read once per statement, hashed. Same rows, same meaning. Runs as the owner role.
ALTER POLICY licensed ON images
  USING (id IN (SELECT l.image_id FROM licenses l WHERE l.tenant_id = (SELECT current_tenant())));
ALTER POLICY licensed ON image_versions
  USING (image_id IN (SELECT l.image_id FROM licenses l WHERE l.tenant_id = (SELECT current_tenant())));
