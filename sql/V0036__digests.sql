-- Digests of e-mail channels (issue 32, docs/notifications.md "Digests"): what a tenant's daily or
-- weekly digest reads besides the findings and feeds it shares with the lists. Runs as the owner role.

-- What version p_to fixes against version p_from (the compare's rule, docs/compare.md): the
-- vulnerability ids of p_from's latest scan, scanner-marked not-affected findings aside, that p_to's
-- latest scan does not find, each with its highest severity; by id. Both must have a scan: a version
-- never scanned says nothing of what it fixes. Ingest's scan.completed `fixes` and the digest's new
-- versions read it.
CREATE FUNCTION public.version_fixes(p_from uuid, p_to uuid) RETURNS TABLE (vuln_id text, severity text)
LANGUAGE sql STABLE AS
$$ SELECT x.vuln_id, (array_agg(x.severity ORDER BY public.severity_rank(x.severity) DESC))[1]
   FROM public.image_versions v JOIN public.vulnerabilities x ON x.set_id = v.latest_findings_set_id
   WHERE v.id = p_from AND x.fix_state <> 'not-affected'
     AND EXISTS (SELECT FROM public.image_versions w WHERE w.id = p_to AND w.latest_findings_set_id IS NOT NULL)
     AND x.vuln_id NOT IN (SELECT y.vuln_id FROM public.image_versions w
                           JOIN public.vulnerabilities y ON y.set_id = w.latest_findings_set_id
                           WHERE w.id = p_to AND y.fix_state <> 'not-affected')
   GROUP BY x.vuln_id ORDER BY x.vuln_id $$;
GRANT EXECUTE ON FUNCTION public.version_fixes(uuid, uuid) TO icat_app;

-- A digest names the CVEs that became known exploited in its period: when a KEV load first held
-- them. Public facts, like the KEV entries themselves.
GRANT SELECT ON kev_seen TO icat_app;

-- A digest's new findings are those first seen on an image in its period and on no version of the
-- image before: one look-up per finding.
CREATE INDEX vulnerability_first_seen_image ON vulnerability_first_seen (image_id, vuln_id, first_seen_at);

-- ---------------------------------------------------------------- the periods sent
-- Each digest a channel got: its period, written in the transaction that queues its mails (an event
-- of type digest and a delivery per confirmed address), so a restart neither skips a period nor
-- sends one twice. event_id NULL: the digest was empty and nothing was sent.
CREATE TABLE notification_digests (
  channel_id  uuid NOT NULL REFERENCES notification_channels ON DELETE CASCADE,
  tenant_id   uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  since       timestamptz NOT NULL,
  until       timestamptz NOT NULL CHECK (since < until),
  event_id    uuid REFERENCES events ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel_id, until)
);
ALTER TABLE notification_digests ENABLE ROW LEVEL SECURITY;
ALTER TABLE notification_digests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notification_digests USING (tenant_id = current_tenant())
  WITH CHECK (tenant_id = current_tenant());
CREATE POLICY owner ON notification_digests TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all());
GRANT SELECT, INSERT ON notification_digests TO icat_app;

-- The active digest channels of every tenant and where each one's last digest ended: the
-- dispatcher reads them before it works as any tenant (as dispatch_tenants_with_work), and nothing
-- else of the channels.
CREATE FUNCTION digest_channels() RETURNS TABLE (channel_id uuid, tenant_id uuid, subdomain text, digest text,
                                                 last_until timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT c.id, c.tenant_id, t.subdomain, c.digest, (SELECT max(d.until) FROM notification_digests d WHERE d.channel_id = c.id)
   FROM notification_channels c JOIN tenants t ON t.id = c.tenant_id
   WHERE c.digest IS NOT NULL AND c.active ORDER BY c.tenant_id, c.id $$;
REVOKE ALL ON FUNCTION digest_channels() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION digest_channels() TO icat_app;
