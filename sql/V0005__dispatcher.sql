-- The webhook dispatcher works as icat_app, under row-level security, one tenant at a time.
-- These two functions are all it sees across tenants: who has work, and pruning old log rows.

CREATE FUNCTION dispatch_tenants_with_work(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT tenant_id FROM events WHERE fanned_out_at IS NULL
   UNION
   SELECT tenant_id FROM deliveries WHERE state = 'pending' AND next_attempt_at <= now()
   LIMIT p_limit $$;

-- Deletes finished deliveries (and events with none left) untouched for longer than p_keep.
CREATE FUNCTION dispatch_prune(p_keep interval)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS
$$
DECLARE removed bigint;
BEGIN
  DELETE FROM deliveries WHERE state <> 'pending' AND updated_at < now() - p_keep;
  GET DIAGNOSTICS removed = ROW_COUNT;
  DELETE FROM events e WHERE e.fanned_out_at < now() - p_keep
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id);
  RETURN removed;
END $$;

REVOKE ALL ON FUNCTION dispatch_tenants_with_work(integer), dispatch_prune(interval) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION dispatch_tenants_with_work(integer), dispatch_prune(interval) TO icat_app;
