-- Enrichment feeds on findings (issue 31, docs/feeds.md): the one place that ties a finding to its
-- EPSS score and KEV entry, and the event a KEV load sends. Runs as the owner role (icat_owner).

-- ---------------------------------------------------------------- a finding's CVE
-- The CVE a finding is known by in the feeds: its id when that is a CVE, else the lowest CVE among its
-- aliases (a GHSA advisory names its CVE there); NULL when it has none. Immutable: the feeds are
-- keyed by CVE id only.
CREATE FUNCTION public.finding_cve(p_vuln_id text, p_aliases text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_vuln_id ~ '^CVE-[0-9]{4}-[0-9]{4,}$' THEN p_vuln_id
              ELSE (SELECT min(a) FROM unnest(p_aliases) a WHERE a ~ '^CVE-[0-9]{4}-[0-9]{4,}$') END
$$;

-- ---------------------------------------------------------------- a finding's feeds
-- One row: the finding's EPSS score, percentile and date, and its KEV entry's dates and ransomware
-- use, each NULL when the feed has no entry for it. kev_known is false then; risk_epss is the score
-- or -1, so the risk order (known exploited first, then EPSS descending) sorts on plain columns.
-- Every query that shows feeds on a finding joins this: LEFT JOIN LATERAL finding_feeds(x.vuln_id,
-- x.aliases) ff ON true. A SQL function of one SELECT, so the planner inlines it (two key look-ups).
CREATE FUNCTION public.finding_feeds(p_vuln_id text, p_aliases text[])
RETURNS TABLE (epss_score numeric, epss_percentile numeric, epss_date date, kev_date_added date,
               kev_due_date date, kev_ransomware text, kev_known boolean, risk_epss numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.score, e.percentile, e.score_date, k.date_added, k.due_date, k.known_ransomware_campaign_use,
         k.cve_id IS NOT NULL, COALESCE(e.score, -1)
  FROM (SELECT public.finding_cve(p_vuln_id, p_aliases) AS cve_id) c
  LEFT JOIN public.epss_scores e ON e.cve_id = c.cve_id
  LEFT JOIN public.kev_entries k ON k.cve_id = c.cve_id
$$;
GRANT EXECUTE ON FUNCTION public.finding_cve(text, text[]), public.finding_feeds(text, text[]) TO icat_app;

-- ---------------------------------------------------------------- the event vulnerability.exploited
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) > 0 AND events <@ ARRAY[
  'scan.completed', 'vulnerability.detected', 'vulnerability.fixed', 'cve_watch.matched', 'vex.updated', 'ping',
  'version.published', 'vulnerability.exploited']);

-- Every CVE a KEV load has ever held: a CVE is "added" (and its event sent) only the first time it
-- appears, not again when a later catalogue drops and re-adds it or the same file is reloaded.
CREATE TABLE kev_seen (
  cve_id         text PRIMARY KEY CHECK (cve_id ~ '^CVE-[0-9]{4}-[0-9]{4,}$'),
  first_seen_at  timestamptz NOT NULL DEFAULT now()
);
