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
