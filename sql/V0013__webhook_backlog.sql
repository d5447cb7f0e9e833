-- The webhook backlog as the dispatcher reports it in its metrics (icat_webhook_backlog and
-- icat_webhook_backlog_age_seconds): events not fanned out yet and deliveries due now, across all
-- tenants (hence SECURITY DEFINER, like dispatch_tenants_with_work: the dispatcher's role sees one
-- tenant at a time), and how long the oldest of them has waited. Counts only, no tenant data.
CREATE FUNCTION dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(since))::bigint, 0)
   FROM (SELECT created_at AS since FROM events WHERE fanned_out_at IS NULL
         UNION ALL
         SELECT next_attempt_at FROM deliveries WHERE state = 'pending' AND next_attempt_at <= now()) due $$;

REVOKE ALL ON FUNCTION dispatch_backlog() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION dispatch_backlog() TO icat_app;
